"""Rack-O agents and levels: the write-up's Random, Max and Kyle (heuristics, with the
public code's forced random move every 2 · rack_size turns, ``agents.racko.common``).
The learners (Baltar, Diablo, ensembles) and the strongest level add themselves here.

``arena`` plays them on a mutable table (benchmarks, training); ``act`` on a view runs
the same decision functions.
"""
from agents.catalog import AgentSpec
from agents.racko.common import RandomPlayer
from agents.racko.kyle import Kyle
from agents.racko.max import Max

AGENTS = [
    AgentSpec("random", "racko", "Random",
              "The write-up's bozo sort: a fair coin for deck or discard, then a random slot (or, for a "
              "deck card, the discard pile).", RandomPlayer),
    AgentSpec("max", "racko", "Max",
              "Keeps its longest usable sequence (ascending cards that could all stay in a winning rack) as "
              "long as possible: takes the discard only when it lengthens it, puts a deck card in the lowest "
              "slot where it is longest. As coded in the write-up, with its forced random move every "
              "2 · rack_size turns.", Max),
    AgentSpec("kyle", "racko", "Kyle",
              "The write-up's heuristic benchmark (a public 2008 Rack-O program), as coded: anchors where a "
              "dealt card sits in its slot's share of the deck, ranges of cards between them, slots by a flat "
              "spread; every slot it fills becomes an anchor. Forced random move every 2 · rack_size turns.",
              Kyle),
]

LEVELS = ["random", "max", "kyle"]
