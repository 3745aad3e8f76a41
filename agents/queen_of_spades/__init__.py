"""Queen of Spades agents and levels: Random, the rule player, the write-up's policy network
in its five levels (one trained network; the weaker levels see fewer inputs or play with
noise), and beyond the write-up a search over sampled deals played out by the network."""
from agents.base import RandomAgent
from agents.queen_of_spades.coach import COACH  # noqa: F401 (the catalog reads it)
from agents.spec import AgentSpec
from agents.queen_of_spades.network import NOISE, SAVED_NAME, NetworkPlayer
from agents.queen_of_spades.network_inputs import PARTIAL
from agents.queen_of_spades.rules_player import RulePlayer
from agents.queen_of_spades.search import DeterminisedSearch

AGENTS = [
    AgentSpec("random", "queen_of_spades", "Random", "Any legal card, uniformly at random.", RandomAgent),
    AgentSpec("rules", "queen_of_spades", "Rule player",
              "Written rules: ducks under the winning card when the Q♠ may land on the trick, gets rid of "
              "high cards when it is safe, drops the Q♠ (then A♠, K♠) when it cannot follow, leads what is "
              "least likely to win, goes over a player who is taking every trick, and takes every trick "
              "itself when it holds only winners.", RulePlayer),
    AgentSpec("network", "queen_of_spades", "Network (very good)",
              "The write-up's policy network (115 inputs, 384-384-256-128 elu, 32 tanh outputs), trained by "
              "iterated self-play: plays the legal card whose output (the deal score it expects) is highest, "
              "counting every card played.", lambda: NetworkPlayer("network"), saved=SAVED_NAME),
    AgentSpec("network-good", "queen_of_spades", "Network (good)",
              f"The same network counting cards in part: its inputs for the cards still out are scaled to "
              f"{PARTIAL:.0%}, except the spades.", lambda: NetworkPlayer("network-good"), saved=SAVED_NAME),
    AgentSpec("network-average", "queen_of_spades", "Network (average)",
              "The same network without counting cards: its inputs for the cards still out are all zero.",
              lambda: NetworkPlayer("network-average"), saved=SAVED_NAME),
    AgentSpec("network-poor", "queen_of_spades", "Network (poor)",
              f"The average network with Gaussian noise (std {NOISE['poor']:g}) on its outputs before it "
              "picks a card.", lambda: NetworkPlayer("network-poor"), saved=SAVED_NAME),
    AgentSpec("network-verypoor", "queen_of_spades", "Network (very poor)",
              f"The average network with more noise (std {NOISE['verypoor']:g}) on its outputs.",
              lambda: NetworkPlayer("network-verypoor"), saved=SAVED_NAME),
    AgentSpec("search", "queen_of_spades", "Search",
              "Deals the cards it cannot see at random (agreeing with every suit a player has shown it "
              "lacks), tries each legal card in the same sampled deals, plays them out with the very good "
              "network in every seat, and plays the card that scores best on average.", DeterminisedSearch,
              saved=SAVED_NAME, searches=True),
]

# easiest first, by the calibration file (agents/saved/calibration/queen_of_spades.json, `parlour
# calibrate queen_of_spades --games 300 --games-for search=60`); tests/agents/test_calibration.py holds
# this order to it. Head to head the rule player and the average network are level
LEVELS = ["random", "network-verypoor", "network-poor", "rules", "network-average", "network-good", "network",
          "search"]
CALIBRATION_REFERENCES = ["random"]
