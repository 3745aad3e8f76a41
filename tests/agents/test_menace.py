"""MENACE (docs/rules.md, section 1): the playing agent, the batched trainer, the training
command and the shipped pre-trained table."""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest

from agents.base import Episode
from agents.saved_files import load_saved
from agents.tictactoe import trained_table
from agents.tictactoe.menace import Menace, MenaceConfig, beginner_table, box_positions, move_number
from agents.tictactoe.symmetry import SYMMETRIES, canonical, render, transform
from agents.tournament import run
from agents.training import tictactoe_menace
from agents.training.menace_batch import O, X, BatchTrainer, board_index, boards, reachable_boards
from engine import RESIGN, get_game
from engine.tictactoe import Place, winning_line

GAME = get_game("tictactoe")


def marks(board) -> int:
    return sum(1 for c in board if c)


def choosing_positions(mark: int) -> list[tuple[int, ...]]:
    """Every reachable board where ``mark`` is to move with at least two empty cells."""
    return [b for b in reachable_boards()
            if winning_line(b) is None and marks(b) % 2 == mark - 1 and marks(b) <= 7]


def state_of(board):
    return GAME.from_json({"cells": list(board)})


def observation(board) -> dict:
    """The view of the player to move on ``board``."""
    return GAME.observe(state_of(board), marks(board) % 2)


def play(board, cell: int) -> tuple[int, ...]:
    mark = 1 + marks(board) % 2
    return board[:cell] + (mark,) + board[cell + 1:]


# ----- the boxes -----
def test_box_counts_as_x_are_michies_304():
    boxes = box_positions(1)
    assert len(boxes) == 304
    assert Counter(move_number(b) for b in boxes) == {1: 1, 2: 12, 3: 108, 4: 183}


def test_box_counts_as_o():
    boxes = box_positions(2)
    assert len(boxes) == 289
    assert Counter(move_number(b) for b in boxes) == {1: 3, 2: 38, 3: 153, 4: 95}


def test_a_box_for_every_position_menace_can_meet():
    for mark in (1, 2):
        assert {canonical(b)[0] for b in choosing_positions(mark)} == set(box_positions(mark))


def test_bead_colours():
    table = beginner_table()
    assert sorted(k for k in table if k.startswith(".........:")) == [".........:0", ".........:1", ".........:4"]
    assert {table[k] for k in table if k.startswith(".........:")} == {4.0}  # move 1: 4 beads
    assert sorted(k for k in table if k.startswith("....X....:")) == ["....X....:0", "....X....:1"]  # corner, edge
    assert table["....X....:0"] == 4.0  # O's move 1
    no_symmetry = canonical((1, 2, 0, 0, 0, 0, 0, 0, 0))[0]
    assert sum(1 for k in table if k.startswith(render(no_symmetry) + ":")) == 7
    assert len(beginner_table(MenaceConfig(merge_symmetric=False), marks=(1,))) == sum(
        9 - marks(b) for b in box_positions(1))
    assert [k for k in beginner_table(MenaceConfig(merge_symmetric=False)) if k.startswith(".........:")] == [
        f".........:{i}" for i in range(9)]


def test_initial_beads_option():
    table = beginner_table(MenaceConfig(initial_beads=(8, 4, 2, 1)), marks=(1,))
    by_move = {move_number(canonical(tuple(".XO".index(ch) for ch in k.split(":")[0]))[0]): v
               for k, v in table.items()}
    assert by_move == {1: 8.0, 2: 4.0, 3: 2.0, 4: 1.0}
    with pytest.raises(ValueError):
        MenaceConfig.from_options({"initial_beads": [1, 2]})


# ----- symmetry -----
@pytest.mark.parametrize("mark", [1, 2])
def test_every_symmetry_shares_the_box_and_maps_the_move_back(mark):
    rng = random.Random(5)
    positions = rng.sample(choosing_positions(mark), 40) + [(0,) * 9] * (mark == 1)
    for board in positions:
        canon = canonical(board)[0]
        menace = Menace()
        keys = [k for _, k, _ in menace.box(board)[2]]
        for only in keys:  # a box with beads of one colour only: that colour must be played
            menace.table.update({k: 0.0 for k in keys})
            menace.table[only] = 5.0
            target = canonical(play(canon, int(only.split(":")[1])))[0]
            for p in SYMMETRIES:
                image = transform(board, p)
                got, _, beads = menace.box(image)
                assert got == canon and [k for _, k, _ in beads] == keys
                action = menace.act(observation(image), GAME.legal_actions(state_of(image)), rng)
                assert image[action.cell] == 0
                assert canonical(play(image, action.cell))[0] == target


def test_learning_reinforces_the_same_bead_from_any_symmetric_image():
    board = (1, 2, 0, 0, 1, 0, 0, 0, 0)
    menace = Menace()
    rng = random.Random(1)
    for p in SYMMETRIES:
        image = transform(board, p)
        obs = observation(image)
        action = menace.act(obs, GAME.legal_actions(state_of(image)), rng)
        fresh = Menace()
        updates = fresh.learn(Episode(seat=1, steps=[(obs, action.id)], won=True))
        target = canonical(play(image, action.cell))[0]
        key = updates[0].key
        assert canonical(play(canonical(image)[0], int(key.split(":")[1])))[0] == target


# ----- reinforcement and resignation -----
def game_against(menace: Menace, opponent_cells: list[int], rng: random.Random) -> tuple[Episode, object]:
    """MENACE as X against a scripted O (first empty cell of its list); the episode and final state."""
    state = GAME.new_match(2, 0)
    episode = Episode(seat=0)
    while not GAME.is_over(state):
        seat = GAME.current_player(state)
        obs = GAME.observe(state, seat)
        if seat == 0:
            action = menace.act(obs, GAME.legal_actions(state), rng)
            episode.steps.append((obs, RESIGN if action == RESIGN else action.id))
            state = GAME.resign(state, 0) if action == RESIGN else GAME.apply(state, action)
        else:
            state = GAME.apply(state, Place(next(c for c in opponent_cells if not state.cells[c])))
    won = GAME.winners(state)
    episode.won, episode.drawn = won == [0], won == []
    return episode, state


@pytest.mark.parametrize("outcome,amount", [("won", 3), ("drawn", 1), ("lost", -1)])
def test_reinforcement_arithmetic(outcome, amount):
    menace = Menace()
    episode, _ = game_against(menace, [4, 0, 2, 6, 8, 1, 3, 5, 7], random.Random(3))
    episode.won, episode.drawn = outcome == "won", outcome == "drawn"
    before = dict(menace.table)
    updates = menace.learn(episode)
    boxed = [s for s in episode.steps if len(s[0]["legal_actions"]) >= 2]
    assert len(updates) == len(boxed) >= 3
    for u in updates:
        assert (u.op, u.amount, u.floor) == ("add", amount, 0.0)
        assert menace.table[u.key] == before[u.key] + amount
    assert {k for k in menace.table if menace.table[k] != before[k]} == {u.key for u in updates}


def test_forced_last_move_has_no_box():
    menace = Menace()
    state = GAME.from_json({"cells": [1, 2, 1, 1, 2, 2, 2, 1, 0]})
    obs = GAME.observe(state, 0)
    assert menace.act(obs, GAME.legal_actions(state), random.Random(0)) == Place(8)
    assert menace.learn(Episode(seat=0, steps=[(obs, "cell:8")], won=True)) == []
    assert menace.explain(obs, GAME.legal_actions(state)) is None


def test_incentive_options_and_the_floor_at_zero():
    config = MenaceConfig.from_options({"incentives": [5, 2, -7]})
    menace = Menace(config=config)
    episode, _ = game_against(menace, [4, 0, 2, 6, 8, 1, 3, 5, 7], random.Random(3))
    before = dict(menace.table)
    updates = menace.learn(Episode(0, episode.steps, won=True))
    assert updates and all(menace.table[u.key] == before[u.key] + 5 for u in updates)
    after_win = dict(menace.table)
    updates = menace.learn(Episode(0, episode.steps))  # a loss: -7 from 4+5, 3+5, 2+5 or 1+5 beads
    assert all(u.amount == -7 and u.floor == 0.0 for u in updates)
    assert all(menace.table[u.key] == max(0.0, after_win[u.key] - 7) for u in updates)
    assert any(after_win[u.key] - 7 < 0 for u in updates)  # the floor mattered


def test_resigns_on_an_empty_box_and_learns_it_as_a_loss():
    menace = Menace()
    # O always answers in the centre, then the corners: empty MENACE's box after X corner, O centre
    after = canonical((1, 0, 0, 0, 2, 0, 0, 0, 0))[0]
    for k in [k for k in menace.table if k.startswith(render(after) + ":")]:
        menace.table[k] = 0.0
    menace.table.update({".........:1": 0.0, ".........:4": 0.0})  # X must open in a corner
    episode, state = game_against(menace, [4, 0, 2, 6, 8], random.Random(2))
    assert episode.steps[-1][1] == RESIGN and state.resigned == 0
    assert GAME.winners(state) == [1] and not episode.won and not episode.drawn
    updates = menace.learn(episode)
    assert [(u.key, u.amount) for u in updates] == [(".........:0", -1)]
    assert menace.table[".........:0"] == 3.0


def test_refuses_to_play_when_the_first_box_is_empty():
    menace = Menace()
    assert not menace.refuses(0)
    menace.table.update({".........:0": 0.0, ".........:1": 0.0, ".........:4": 0.0})
    assert menace.refuses(0) and not menace.refuses(1)  # as O it has no first box to refuse with
    state = GAME.new_match(2, 0)
    assert menace.act(GAME.observe(state, 0), GAME.legal_actions(state), random.Random(0)) == RESIGN


def test_explain_maps_the_beads_onto_the_real_board():
    menace = Menace(trained_table())
    board = (1, 0, 0, 0, 2, 0, 0, 0, 1)
    canon, perm, beads = menace.box(board)
    for p in SYMMETRIES:
        image = transform(board, p)
        state = GAME.from_json({"cells": list(image)})
        explanation = menace.explain(GAME.observe(state, 1), GAME.legal_actions(state))
        assert explanation.label == "beads"
        assert set(explanation.values) == {a.id for a in GAME.legal_actions(state)}
        for cell in (i for i in range(9) if not image[i]):
            # the real cell's bead count is that of the colour holding its canonical cell
            canon_image, perm_image, _ = menace.box(image)
            canonical_cell = perm_image.index(cell)
            count = next(c for group, _, c in beads if canonical_cell in group)
            assert explanation.values[f"cell:{cell}"] == count
    assert sum(len(g) for g, _, _ in beads) == 6


# ----- the batched trainer -----
def test_trainer_tables_agree_with_the_playing_agent():
    for config in (MenaceConfig(), MenaceConfig(initial_beads=(8, 4, 2, 1), merge_symmetric=False)):
        bd = boards(config)
        menace = Menace(config=config)
        assert BatchTrainer(config).table() == beginner_table(config)
        for mark in (1, 2):
            for board in choosing_positions(mark):
                b = board_index(board)
                canon, perm, beads = menace.box(board)
                row = bd.box_keys[bd.box_of[b]]
                assert [bd.keys[k] for k in row[:len(beads)]] == [key for _, key, _ in beads]
                assert (row[len(beads):] == bd.pad).all()
                assert list(bd.colour_cell[b, :len(beads)]) == [perm[group[0]] for group, _, _ in beads]


def test_trainer_draws_in_proportion_to_the_beads():
    trainer = BatchTrainer()
    board = (1, 2, 0, 0, 0, 0, 0, 0, 0)
    keys = [k for _, k, _ in Menace().box(board)[2]]
    counts = [0, 1, 2, 3, 4, 5, 15]
    for key, n in zip(keys, counts):
        trainer.beads[trainer.boards.keys.index(key)] = n
    n = 40_000
    images = [board_index(transform(board, p)) for p in SYMMETRIES]
    key, cell, resigns = trainer.draw(np.array(images * (n // 8)), np.random.default_rng(3))
    assert not resigns.any()
    seen = Counter(trainer.boards.keys[k] for k in key)
    total = sum(counts)
    for k, c in zip(keys, counts):
        share = c / total
        assert abs(seen[k] / n - share) < 4 * (share * (1 - share) / n) ** 0.5 + 1e-9
    canon = canonical(board)[0]
    for image, c, k in zip([transform(board, p) for p in SYMMETRIES] * 100, cell, key):
        assert image[c] == 0  # the cell is mapped back onto the real board
        assert canonical(play(image, c))[0] == canonical(play(canon, int(trainer.boards.keys[k][10:])))[0]
    empty = BatchTrainer()
    empty.beads[empty.boards.box_keys[empty.boards.first_box]] = 0
    assert empty.refuses()
    assert empty.draw(np.array([0]), np.random.default_rng(0))[2].all()


def episodes_of(batch, g: int) -> list[Episode]:
    """The game ``g`` of a batch as the pure agent's episodes (one per MENACE side)."""
    sides = [X, O] if batch.opponent == "menace" else [batch.menace_mark]
    episodes = {m: Episode(seat=m - 1) for m in sides}
    state = GAME.new_match(2, 0)
    for ply in range(9):
        mark = 1 + ply % 2
        cell = int(batch.moves[g, ply])
        if cell < 0:
            if batch.resigned[g] == mark:
                episodes[mark].steps.append((GAME.observe(state, mark - 1), RESIGN))
            break
        if mark in episodes:
            episodes[mark].steps.append((GAME.observe(state, mark - 1), f"cell:{cell}"))
        state = GAME.apply(state, Place(cell))
    for m, e in episodes.items():
        e.won, e.drawn = batch.result[g] == m, batch.result[g] == 0
    return list(episodes.values())


@pytest.mark.parametrize("opponent,mark,beads", [("random", X, (4, 3, 2, 1)), ("random", O, (4, 3, 2, 1)),
                                                 ("perfect", O, (2, 1, 1, 1)), ("perfect", X, (8, 1, 1, 1)),
                                                 ("menace", X, (1, 1, 1, 1))])
def test_batch_of_one_is_sequential_menace(opponent, mark, beads):
    """Games played by the trainer with B = 1, replayed through the engine and learned by the
    pure-Python agent, leave exactly the trainer's table (resignations included)."""
    config = MenaceConfig(initial_beads=beads)
    trainer, menace = BatchTrainer(config), Menace(config=config)
    rng = np.random.default_rng(11)
    resigned = 0
    for _ in range(150):
        batch = trainer.train(1, mark, opponent, rng)
        for episode in episodes_of(batch, 0):
            menace.learn(episode)
        resigned += int(batch.resigned[0] > 0)
        assert GAME.winners(replay(batch)) == ([] if batch.result[0] == 0 else [batch.result[0] - 1])
    assert trainer.table() == menace.table
    if opponent != "random":
        assert resigned > 0  # the empty-box rule was exercised


def replay(batch):
    state = GAME.new_match(2, 0)
    for cell in batch.moves[0]:
        if cell < 0:
            break
        state = GAME.apply(state, Place(int(cell)))
    return GAME.resign(state, GAME.current_player(state)) if batch.resigned[0] else state


def test_a_batch_sums_its_lessons_then_floors_them():
    trainer = BatchTrainer(MenaceConfig(initial_beads=(1, 1, 1, 1)))
    before = trainer.beads.copy()
    batch = trainer.play(500, X, "perfect", np.random.default_rng(4))  # one snapshot for all 500 games
    trainer.reinforce(batch)
    res = batch.result[batch.drawn_game]
    amount = np.where(res == 0, 1, np.where(res == batch.drawn_mark, 3, -1))
    expected = before.copy()
    np.add.at(expected, batch.drawn_key, amount)
    assert (trainer.beads == np.maximum(expected, 0)).all()
    assert (expected < 0).any()  # the floor mattered


@pytest.mark.parametrize("batch", [1, 50])
def test_batch_trainer_learns_against_random(batch):
    trainer = BatchTrainer()
    rng = np.random.default_rng(9)
    before = np.mean([trainer.play(2000, m, "random", rng).outcomes() == 1 for m in (X, O)])
    for k in range(3000 // batch):
        trainer.train(batch, (X, O)[k % 2], "random", rng)
    after = np.mean([trainer.play(2000, m, "random", rng).outcomes() == 1 for m in (X, O)])
    assert after > before + 0.1  # about 0.44 -> 0.7; standard errors about 0.01


def test_pure_menace_learns_against_random():
    menace = Menace()
    rng = random.Random(4)
    wins = []
    for g in range(1500):
        seat = g % 2
        agents = [None, None]
        agents[seat] = menace
        agents[1 - seat] = RandomPlayer()
        state = GAME.new_match(2, g)
        episode = Episode(seat=seat)
        while not GAME.is_over(state):
            s = GAME.current_player(state)
            obs = GAME.observe(state, s)
            action = agents[s].act(obs, GAME.legal_actions(state), rng)
            if s == seat:
                episode.steps.append((obs, RESIGN if action == RESIGN else action.id))
            state = GAME.resign(state, s) if action == RESIGN else GAME.apply(state, action)
        episode.won, episode.drawn = GAME.winners(state) == [seat], GAME.winners(state) == []
        menace.learn(episode)
        wins.append(episode.won)
    assert np.mean(wins[-500:]) > np.mean(wins[:300]) + 0.1


class RandomPlayer:
    def act(self, observation, legal, rng):
        return legal[rng.randrange(len(legal))]


# ----- the training command -----
def test_training_command_writes_the_agent_its_curve_and_chart(tmp_path):
    out = tmp_path / "m.json"
    code = tictactoe_menace.main(["--opponent", "menace,random", "--games", "4000", "--seed", "3",
                                  "--out", str(out), "--batch", "20", "--windows", "10", "--evaluate", "40"])
    assert code == 0
    data = json.loads(out.read_text())
    meta = data["meta"]
    assert meta["command"].startswith("parlour train tictactoe menace --opponent menace,random")
    assert {"seed", "games", "date", "curve", "seconds", "strength"} <= set(meta)
    curve = meta["curve"]
    assert sum(w["games"] for w in curve["windows"]) == 4000 and len(curve["windows"]) == 10
    assert [w["opponent"] for w in curve["windows"]] == ["menace"] * 5 + ["random"] * 5
    assert all(w["win"] + w["draw"] + w["loss"] == w["games"] for w in curve["windows"])
    assert all(w["as_x"] and w["as_o"] for w in curve["windows"])
    assert set(data["values"]) == set(beginner_table())
    assert meta["strength"]["random"]["games"] == 40
    svg = ET.parse(out.with_suffix(".svg")).getroot()
    assert svg.tag.endswith("svg") and len(svg.findall("{http://www.w3.org/2000/svg}polyline")) == 3


def test_training_is_seeded(tmp_path):
    tables = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        tictactoe_menace.main(["--opponent", "random", "--games", "2000", "--seed", "8", "--out", str(out),
                               "--evaluate", "0", "--as", "o", "--initial-beads", "4,3,2,1"])
        tables.append(json.loads(out.read_text())["values"])
    assert tables[0] == tables[1]
    x_keys = {k for k in tables[0] if (9 - k.split(":")[0].count(".")) % 2 == 0}
    assert x_keys and all(tables[0][k] == beginner_table()[k] for k in x_keys)  # --as o left X alone


def test_training_stops_when_menace_refuses(tmp_path, capsys):
    out = tmp_path / "r.json"
    code = tictactoe_menace.main(["--opponent", "perfect", "--games", "20000", "--initial-beads", "1,1,1,1",
                                  "--out", str(out), "--evaluate", "0", "--as", "x"])
    assert code == 1 and not out.exists()
    assert "refuses" in capsys.readouterr().err


# ----- the shipped agent -----
def test_shipped_agent_has_its_metadata_and_both_sides():
    data = load_saved("tictactoe", "menace-trained")
    meta = data["meta"]
    assert meta["command"].startswith("parlour train tictactoe menace")
    assert {"seed", "games", "date", "curve", "seconds", "strength"} <= set(meta)
    assert meta["games"] == sum(w["games"] for w in meta["curve"]["windows"])
    assert set(data["values"]) == set(beginner_table(MenaceConfig(initial_beads=tuple(meta["initial_beads"]))))
    trained = trained_table()
    assert Menace(trained).table == trained  # the saved table round-trips into the agent
    # both sides were trained: the first boxes as X and as O moved far from their initial beads
    assert trained[".........:4"] + trained[".........:0"] > 1000
    assert trained["....X....:0"] > 1000


def test_shipped_agent_beats_random_and_holds_perfect():
    vs_random = run("tictactoe", ["menace-trained", "random"], 400, seed=21).stats[0]
    # measured over 20,000 games: 89.8% wins, 0.4% losses; here se is about 1.5%
    assert vs_random.win_share > 0.8
    assert vs_random.games - vs_random.wins - vs_random.draws <= 8
    vs_perfect = run("tictactoe", ["menace-trained", "perfect"], 200, seed=22).stats[0]
    assert vs_perfect.draws >= 196  # measured: 99.97% draws
