"""Noughts-and-crosses agents and levels: Random, MENACE (live), MENACE (pre-trained), Perfect."""
from agents.base import RandomAgent
from agents.tictactoe.coach import COACH  # noqa: F401 (the catalog reads it)
from agents.spec import AgentSpec, Canary, LiveSpec
from agents.saved_files import load_saved
from agents.tictactoe.boxes import BOXES
from agents.tictactoe.menace import Menace, beginner_table
from agents.tictactoe.perfect import Perfect


LIVE_BOX_BEADS = 100
"""Beads per box when the pre-trained table is copied into live MENACE (see ``live_copy``)."""


def trained_table() -> dict[str, float]:
    return {k: float(v) for k, v in load_saved("tictactoe", "menace-trained")["values"].items()}


def live_copy(table: dict[str, float], beads: int = LIVE_BOX_BEADS) -> dict[str, float]:
    """The pre-trained boxes scaled down to at most ``beads`` beads each (proportions kept,
    rounded, the most-favoured colour never below 1). After millions of training games a box
    holds up to a million beads, so +3/-1 per game people play would change nothing visible;
    at this scale live MENACE keeps what it learned and still moves with every game."""
    boxes: dict[str, list[str]] = {}
    for key in table:
        boxes.setdefault(key.partition(":")[0], []).append(key)
    out = {}
    for keys in boxes.values():
        total = sum(table[k] for k in keys)
        scale = min(1.0, beads / total) if total > 0 else 1.0
        scaled = {k: float(round(table[k] * scale)) for k in keys}
        best = max(keys, key=lambda k: table[k])
        if total > 0 and scaled[best] < 1:
            scaled[best] = 1.0
        out.update(scaled)
    return out


AGENTS = [
    AgentSpec("random", "tictactoe", "Random", "Plays any empty cell, uniformly at random.", RandomAgent),
    AgentSpec("menace-beginner", "tictactoe", "MENACE (beginner)",
              "Michie's matchbox learner with fresh boxes (4/3/2/1 beads): it has learned nothing yet.",
              Menace, inspect=BOXES),
    AgentSpec("menace-live", "tictactoe", "MENACE (live)",
              "MENACE whose 304 matchboxes live in the database and learn from every game people "
              "play against it.", Menace,
              live=LiveSpec(from_values=Menace, beginner=beginner_table,
                            trained=lambda: live_copy(trained_table()),
                            # 1,000 games a reference (about a second): a beginner scores about 0.07 against
                            # Perfect, so the margin below it must be narrow
                            canary=Canary(("random", "perfect"), games=1000), refill=1.0),
              saved="menace-trained", inspect=BOXES),
    AgentSpec("menace-trained", "tictactoe", "MENACE (pre-trained)",
              "MENACE after training games (see its metadata), frozen.",
              lambda: Menace(trained_table()), saved="menace-trained", inspect=BOXES),
    AgentSpec("perfect", "tictactoe", "Perfect", "Minimax: never loses; random among equally good moves.",
              Perfect),
]

LEVELS = ["random", "menace-live", "menace-trained", "perfect"]
CALIBRATION_REFERENCES = ["random", "perfect"]
