"""Uno agents and levels: the write-up's Random, Offensive, Defensive and BetterOffensive."""
from agents.catalog import AgentSpec
from agents.uno.heuristics import BetterOffensive, Defensive, Offensive, RandomPlayer

AGENTS = [
    AgentSpec("random", "uno", "Random", "Plays any playable card at random; draws only when it cannot play.",
              RandomPlayer),
    AgentSpec("offensive", "uno", "Offensive", "Plays its lowest-scoring playable card, keeping wilds for the end.",
              Offensive),
    AgentSpec("defensive", "uno", "Defensive", "Plays its highest-scoring playable card (wilds first) to hold "
              "fewer points when someone else goes out.", Defensive),
    AgentSpec("betteroffensive", "uno", "BetterOffensive", "Plays its highest-scoring non-wild card first and "
              "keeps wilds for the end.", BetterOffensive),
]

LEVELS = ["random", "defensive", "offensive", "betteroffensive"]
CALIBRATION_REFERENCES = ["random"]
