"""Noughts-and-crosses agents and levels: Random, MENACE (live), MENACE (pre-trained), Perfect."""
from agents.base import RandomAgent
from agents.catalog import AgentSpec, LiveSpec
from agents.saved_files import load_saved
from agents.tictactoe.menace import Menace, beginner_table
from agents.tictactoe.perfect import Perfect


def trained_table() -> dict[str, float]:
    return {k: float(v) for k, v in load_saved("tictactoe", "menace-trained")["values"].items()}


AGENTS = [
    AgentSpec("random", "tictactoe", "Random", "Plays any empty cell, uniformly at random.", RandomAgent),
    AgentSpec("menace-beginner", "tictactoe", "MENACE (beginner)",
              "Michie's matchbox learner with fresh boxes (4/3/2/1 beads): it has learned nothing yet.",
              Menace),
    AgentSpec("menace-live", "tictactoe", "MENACE (live)",
              "MENACE whose 304 matchboxes live in the database and learn from every game people "
              "play against it.", Menace,
              live=LiveSpec(from_values=Menace, beginner=beginner_table, trained=trained_table),
              saved="menace-trained"),
    AgentSpec("menace-trained", "tictactoe", "MENACE (pre-trained)",
              "MENACE after training games (see its metadata), frozen.",
              lambda: Menace(trained_table()), saved="menace-trained"),
    AgentSpec("perfect", "tictactoe", "Perfect", "Minimax: never loses; random among equally good moves.",
              Perfect),
]

LEVELS = ["random", "menace-live", "menace-trained", "perfect"]
CALIBRATION_REFERENCES = ["random", "perfect"]
