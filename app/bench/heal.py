"""``parlour bench heal``: issue 23's attacks on live MENACE, without and with the healing.

For each attack it prints MENACE's centre box (the matchbox that answers an X in the centre: 8
beads, corner and edge, at the start), whether MENACE still answers a centre opening, and its
strength as the canary measures it (score share against Random and against Perfect, 1,000 games
each, seed ``canary.SEED``) beside the canary's floors:

- *without*: the learner's own arithmetic, as before the healing (every game counts in full, a
  colour may fall to 0 beads; the learning limit let 60 games an hour through per address, and a
  new address per game evaded it);
- *with*: learned through the service (``live.apply_updates`` and the canary), on a throwaway
  SQLite database, with the learning limit off and the canary every 25 games (the default):
  one client (``PARLOUR_LEARN_BOX_LIMIT`` binds) or a new address per game (only the refill
  and the canary bind); for the blunder thrower also without the canary.

Attacks: the issue's, a player who opens in the centre and then plays perfectly (10 and 400
games); and one that weakens MENACE, a player who plays perfectly until MENACE blunders, then
loses on purpose so the blunder is rewarded (a game without a blunder it leaves unfinished).
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile

from rich.console import Console
from rich.table import Table

from agents.base import Episode
from agents.spec import Values
from agents.tictactoe.menace import Menace, beginner_table
from agents.tictactoe.perfect import move_values
from agents.tictactoe.symmetry import canonical, render
from engine import RESIGN, get_game

GAME = get_game("tictactoe")
CENTRE_KEYS = [k for k in beginner_table() if k.startswith(render(canonical((0, 0, 0, 0, 1, 0, 0, 0, 0))[0]) + ":")]
"""The colours (corner, edge) of MENACE's box for answering an X in the centre."""


def perfect_centre(rng: random.Random):
    """The issue's attacker (plays X): opens in the centre, then plays perfectly."""
    def choose(cells: tuple[int, ...], _menace_cell: int | None) -> int | None:
        if not any(cells):
            return 4
        values = move_values(cells)
        best = max(values.values())
        return rng.choice([c for c, v in values.items() if v == best])
    return choose


def blunder_thrower(rng: random.Random):
    """An attacker that teaches blunders (a new one per game): it plays perfectly until MENACE
    makes a move that loses against perfect play, then plays its worst moves, so that MENACE wins
    and rewards the blunder; a game in which MENACE makes none it leaves unfinished."""
    poisoned = False

    def choose(cells: tuple[int, ...], menace_cell: int | None) -> int | None:
        nonlocal poisoned
        if menace_cell is not None:
            values = move_values(cells[:menace_cell] + (0,) + cells[menace_cell + 1:])
            poisoned |= values[menace_cell] < max(values.values())
        values = move_values(cells)
        if not poisoned and sum(1 for c in cells if not c) <= 3:
            return None  # no blunder in this game: leave it unfinished
        pick = min(values.values()) if poisoned else max(values.values())
        return rng.choice([c for c, v in values.items() if v == pick])
    return choose


def play(menace, choose, menace_seat: int, rng: random.Random) -> tuple[Episode | None, object]:
    """One game of ``choose`` (the attacker, ``choose(cells, MENACE's last cell)`` -> its cell, or
    None to leave) against ``menace``: MENACE's episode (None when the attacker left) and the state."""
    state, before = GAME.new_match(2, 0), (0,) * 9
    episode = Episode(seat=menace_seat)
    while not GAME.is_over(state):
        seat = GAME.current_player(state)
        if seat == menace_seat:
            observation = GAME.observe(state, seat)
            action = menace.act(observation, GAME.legal_actions(state), rng)
            episode.steps.append((observation, RESIGN if action == RESIGN else action.id))
            state = GAME.resign(state, seat) if action == RESIGN else GAME.apply(state, action)
            continue
        moved = [i for i in range(9) if before[i] != state.cells[i]]
        cell = choose(state.cells, moved[0] if moved else None)
        if cell is None:
            return None, state
        state = GAME.apply(state, GAME.parse_action(f"cell:{cell}"))
        before = state.cells
    winners = GAME.winners(state)
    episode.won, episode.drawn = winners == [menace_seat], not winners
    return episode, state


def learn_in_service(sessions, client: str, episode: Episode, match_id: str | None = None):
    """Learn ``episode`` as a finished match is learned (``live.apply_updates`` with the client,
    then the canary's turn): what became of it."""
    from app.db import writing
    from app.services import canary, live

    with sessions() as session:
        learner = live.make_live_agent(session, "tictactoe", "menace-live", own_copy=True)
        with writing():
            learned = live.apply_updates(session, "tictactoe", "menace-live", learner.learn(episode),
                                         clients=[client], match_id=match_id)
        canary.after_learning(session, "tictactoe", "menace-live", learned)
    return learned


def seat_of_menace(attacker, i: int) -> int:
    """MENACE answers the centre opener as O; it meets the blunder thrower in either seat."""
    return 1 if attacker is perfect_centre else i % 2


def attack_without(attacker, games: int, seed: int) -> Values:
    """The attack on a plain table with the learner's own arithmetic (as before the healing)."""
    rng = random.Random(seed)
    table: Values = beginner_table()
    for i in range(games):
        menace = Menace(table)
        episode, _ = play(menace, attacker(rng), seat_of_menace(attacker, i), rng)
        if episode is not None:
            menace.learn(episode)
            table = menace.table
    return table


def attack_with(url: str, attacker, games: int, seed: int, many: bool) -> tuple[dict[str, float], int]:
    """The attack learned through the service; (the table after it, games quarantined)."""
    from app.db import get_engine, session_factory
    from app.services import canary, live

    sessions = session_factory(get_engine(url))
    rng = random.Random(seed)
    for i in range(games):
        with sessions() as session:
            menace = live.make_live_agent(session, "tictactoe", "menace-live")
        episode, _ = play(menace, attacker(rng), seat_of_menace(attacker, i), rng)
        if episode is not None:
            learn_in_service(sessions, f"addr-{i}" if many else "one-client", episode, f"game-{i}")
        canary.wait()
    with sessions() as session:
        return dict(live.table(session, "tictactoe", "menace-live")), len(
            live.quarantined(session, "tictactoe", "menace-live", limit=10_000))


def main(argv: list[str], prog: str = "parlour bench heal") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--throws", type=int, default=300, help="games of the blunder thrower")
    args = parser.parse_args(argv)
    os.environ["PARLOUR_LEARN_LIMIT"] = "0"
    os.environ["PARLOUR_POST_LIMIT"] = "0"  # one client plays hundreds of games in a minute
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.services import canary, live

    floors = canary.floors("tictactoe", "menace-live", "beginner")
    origin = canary.origin_scores("tictactoe", "menace-live", "beginner")
    games = live.live_of("tictactoe", "menace-live").canary.games
    table = Table(title="Live MENACE (beginner) under attack: its centre box and its strength "
                        f"(as its canary measures it: {games:,} games against each, seed {canary.SEED})")
    for col in ("attack", "healing", "centre box (corner, edge)", "answers the centre", "vs Random", "vs Perfect",
                "quarantined"):
        table.add_column(col, justify="left" if col in ("attack", "healing") else "right")

    def row(attack: str, healing: str, values: Values, quarantined: int | str = "-") -> None:
        box = [values[k] for k in CENTRE_KEYS]
        scores = canary.measure("tictactoe", "menace-live", values)
        table.add_row(attack, healing, ", ".join(f"{b:g}" for b in box), "yes" if sum(box) > 0 else "resigns",
                      f"{scores['random'].share:.3f}", f"{scores['perfect'].share:.3f}", str(quarantined))

    table.add_row("none (the origin)", "", "4, 4", "yes", f"{origin['random'].share:.3f}",
                  f"{origin['perfect'].share:.3f}", "-")
    table.add_row("floors (origin - 3 sqrt(2) se)", "", "", "", f"{floors['random']:.3f}",
                  f"{floors['perfect']:.3f}", "")
    attacks = [("10 perfect centre openings", perfect_centre, 10), ("400 perfect centre openings", perfect_centre, 400),
               (f"{args.throws} blunder throwers", blunder_thrower, args.throws)]
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, attacker, games) in enumerate(attacks):
            row(name, "without", attack_without(attacker, games, args.seed))
            variants = [("with, one client", False, "25"), ("with, new address each game", True, "25")]
            if attacker is blunder_thrower:
                variants = [("with, new address each game, no canary", True, "0"),
                            ("with, new address each game", True, "25")]
            for m, (healing, many, every) in enumerate(variants):
                os.environ["PARLOUR_CANARY_EVERY"] = every
                url = f"sqlite:///{tmp}/heal-{n}-{m}.db"
                with TestClient(create_app(url, preload=False)):
                    pass  # migrate
                values, quarantined = attack_with(url, attacker, games, args.seed, many)
                row(name, healing, values, quarantined)
    Console(width=160).print(table)
    return 0
