"""The shipped calibration is honest: a fresh small sample lands within its claimed interval.

For each level and reference a new sample (another seed) must agree with the stored score
share (mean points per deal where that is the measure) within the stored 95% half-width plus four standard errors of the small sample.
Live learners are skipped: their table is in the database and changes as people play.
"""
import json
import math

import pytest

from agents.catalog import spec
from agents.saved_files import SAVED
from agents.tournament import run

SAMPLES = {"tictactoe": 300, "yaniv": 300, "uno": 100, "queen_of_spades": 300,  # Uno: whole games to 500
           "racko": 40}  # Rack-O: rounds; deals of weak players run to the 1,500-turn cap
SLOW = {("uno", "mcts"), ("uno", "mcts-bo"), ("uno", "mcts-dmc"), ("queen_of_spades", "search")}  # searches: seconds a whole game, not in the default suite
LONG = {("racko", "lookahead-deep", "random")}  # 100 s for 40 rounds (Random never finishes); checked against Kyle
CASES = []
for game, games in SAMPLES.items():
    data = json.loads((SAVED / "calibration" / f"{game}.json").read_text())
    for agent, entry in data["agents"].items():
        for ref in data["references"]:
            CASES.append((game, agent, ref, games, entry["vs"][spec(game, ref).title],
                          entry["vs"][spec(game, ref).title].get("counts", "single deals") != "single deals"))


@pytest.mark.parametrize("game,agent,ref,games,claim,whole_match", CASES,
                         ids=[f"{c[0]}-{c[1]}-vs-{c[2]}" for c in CASES])
def test_level_plays_at_its_claimed_strength(game, agent, ref, games, claim, whole_match):
    if spec(game, agent).live is not None:
        pytest.skip("live learners change with every game people play")
    if (game, agent) in SLOW:
        pytest.skip("a search level: a second a deal, too slow for the default suite")
    if (game, agent, ref) in LONG:
        pytest.skip("its rounds against this reference run long; the level is checked against the other")
    stats = run(game, [agent, ref], games, seed=777, whole_match=whole_match).stats[0]
    if claim.get("unit") == "points per deal":  # mean points per deal per seat, not a share
        mean, se = stats.points / games, max(stats.points_se, 0.5 / math.sqrt(games))
        assert abs(mean - claim["score"]) <= claim["half_width"] + 4 * se, (mean, claim)
        return
    share = (stats.wins + stats.draws / 2) / games
    second = (stats.wins + stats.draws / 4) / games
    se = math.sqrt(max(second - share * share, 0.25 / games) / games)
    assert abs(share - claim["score"]) <= claim["half_width"] + 4 * se, (share, claim)


def test_levels_remeasures_some_levels_and_keeps_the_others_labelled(tmp_path, capsys):
    from app.commands.calibrate import main

    out = tmp_path / "uno.json"
    out.write_text(json.dumps({"command": "parlour calibrate uno --games 600", "references": ["random", "tactician"],
                               "agents": {"mcts": {"vs": {"Random": {"score": 0.6, "half_width": 0.04, "games": 600}}}}}))
    assert main(["uno", "--levels", "offensive", "--games", "4", "--workers", "1", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data["agents"]) == {"offensive", "mcts"}
    assert data["agents"]["offensive"]["vs"]["Random"]["counts"] == "whole games to 500"
    assert data["agents"]["offensive"]["vs"]["Random"]["games"] == 4
    assert data["agents"]["mcts"]["vs"]["Random"]["counts"] == "single deals"
    assert data["agents"]["mcts"]["command"] == "parlour calibrate uno --games 600"
    assert "whole games to 500" in capsys.readouterr().out


def _mean_score(game: str, agent: str) -> tuple[float, float] | None:
    """The agent's mean calibrated score over the references, with the widest half-width."""
    entry = json.loads((SAVED / "calibration" / f"{game}.json").read_text())["agents"].get(agent)
    if entry is None:
        return None
    claims = list(entry["vs"].values())
    return sum(c["score"] for c in claims) / len(claims), max(c["half_width"] for c in claims)


@pytest.mark.parametrize("game", list(SAMPLES))
def test_the_lobby_orders_levels_by_their_calibration(game):
    """Each level (the lobby's order, easiest first) is measured no weaker than the one below
    it, within the two intervals: the order comes from the calibration files, not from habit."""
    from agents.catalog import levels

    measured = [(agent, _mean_score(game, agent)) for agent in levels(game)]
    measured = [(agent, m) for agent, m in measured if m is not None]
    assert len(measured) >= len(levels(game)) - 1, "every level but at most one is calibrated"
    for (lower, (a, wa)), (upper, (b, wb)) in zip(measured, measured[1:]):
        assert a <= b + wa + wb, f"{game}: level {upper} ({b:.3f}) measures below {lower} ({a:.3f})"
