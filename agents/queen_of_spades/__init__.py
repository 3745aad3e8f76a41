"""Queen of Spades agents and levels: Random and the rule player (the network levels and
the search level join ``LEVELS`` when they land)."""
from agents.base import RandomAgent
from agents.catalog import AgentSpec
from agents.queen_of_spades.rules_player import RulePlayer

AGENTS = [
    AgentSpec("random", "queen_of_spades", "Random", "Any legal card, uniformly at random.", RandomAgent),
    AgentSpec("rules", "queen_of_spades", "Rule player",
              "Written rules: ducks under the winning card when the Q♠ may land on the trick, gets rid of "
              "high cards when it is safe, drops the Q♠ (then A♠, K♠) when it cannot follow, leads what is "
              "least likely to win, goes over a player who is taking every trick, and takes every trick "
              "itself when it holds only winners.", RulePlayer),
]

LEVELS = ["random", "rules"]
CALIBRATION_REFERENCES = ["random"]
