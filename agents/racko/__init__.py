"""Rack-O agents and levels: the write-up's Random, Max and Kyle (heuristics, with the
public code's forced random move every 2 · rack_size turns, ``agents.racko.common``),
its learners Baltar (tabular Q-learning; also live in the database) and Diablo (a
TD-learned rack-scoring network, one or two hidden layers), its ensemble vote, and
Lookahead (the two-layer Diablo's scores with a one-turn expectimax over the draw; planning its
placements a turn ahead, ``lookahead-plan``; planning its draw too, ``lookahead-deep``, the top level), and
the Deep Monte-Carlo player (``dmc``: a Q-network trained by self-play and against the others).

Shipped files (agents/saved/racko/): ``baltar.npz`` (5-slot tables; ``baltar-r10.npz``
would hold 10-slot ones: none passed the 70% rule yet), ``diablo.npz``, ``diablo2.npz``
(10 slots), ``diablo-r5.npz`` (5 slots) and ``dmc.npz`` (10 slots), each with its .json metadata and .svg
curve. Baltar plays the tables of the nearest rack size (read in bands); Diablo the
network trained nearest the game's rack size.

``arena`` plays them on a mutable table (benchmarks, training); ``act`` on a view runs
the same decision functions.
"""
from agents.racko.coach import COACH  # noqa: F401 (the catalog reads it)
from agents.spec import AgentSpec, Canary, LiveSpec
from agents.racko.baltar import Baltar, BaltarLive, live_values
from agents.racko.common import RandomPlayer
from agents.racko.diablo import Diablo
from agents.racko.dmc import Dmc
from agents.racko.ensemble import Ensemble
from agents.racko.kyle import Kyle
from agents.racko.lookahead import Lookahead
from agents.racko.max import Max
from agents.racko.shipped import baltar_single, baltar_tables, diablo_nets

def trained_live_values() -> dict[str, float]:
    """The single Baltar's 5-slot table as live values (what a reset to 'trained' copies)."""
    return live_values([m for m in baltar_single() if m[0].rack_size == 5][0][0])


def ensemble(with_diablo: bool = True) -> Ensemble:
    """The write-up's vote (Kyle, Max, Baltar's voting tables and Diablo) or, without Diablo,
    its public code's (Kyle, Max, Baltar)."""
    members = [Kyle(forced_random=False), Max(forced_random=False), Baltar(baltar_tables(), forced_random=False)]
    if with_diablo:
        members.append(Diablo(diablo_nets(), forced_random=False))
    return Ensemble(members)

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
    AgentSpec("baltar-live", "racko", "Baltar (live)",
              "Baltar's Q-tables in the database, learning from every deal played against it with the "
              "write-up's update (it can start empty or from the trained 5-slot table). Greedy, ties at random; "
              "forced random move every 2 · rack_size turns.", BaltarLive,
              live=LiveSpec(from_values=BaltarLive, beginner=dict, trained=trained_live_values,
                            # at 5 slots, where its trained table plays (a 10-slot deal costs ~85 ms)
                            canary=Canary(("kyle",), options={"rack_size": 5})), saved="baltar"),
    AgentSpec("baltar", "racko", "Baltar",
              "The write-up's tabular Q-learner: one bit per rack card and for the discard or drawn card (is a "
              "card it has not seen more likely above it than below?), Q-values learned against Random with a "
              "rate of 1/visits; one kept table (won > 70% of 2,001 deals against Random). Probabilities from "
              "the cards it has seen. Forced random move every 2 · rack_size turns.",
              lambda: Baltar(baltar_single()), saved="baltar"),
    AgentSpec("baltar-ensemble", "racko", "Baltar ensemble",
              "Every kept Baltar table voting, each weighted by its win rate against Random: the draw by the "
              "sign of the weighted votes, the slot by weighted plurality (the write-up's tournament Baltar).",
              lambda: Baltar(baltar_tables()), saved="baltar"),
    AgentSpec("diablo", "racko", "Diablo",
              "The write-up's TD-learned rack scorer (17-34-1 sigmoid network over 17 features of each maximal "
              "usable sequence, self-play): takes the discard when its best slot beats the rack by "
              "1/(2.8169 · rack_size), places a deck card when that helps at all. Probabilities from the cards "
              "it has seen. Forced random move every 2 · rack_size turns.",
              lambda: Diablo(diablo_nets("diablo")), saved="diablo"),
    AgentSpec("diablo2", "racko", "Diablo (two layers)",
              "Diablo with a second hidden layer of 30 units (17-34-30-1). Forced random move every "
              "2 · rack_size turns.", lambda: Diablo(diablo_nets("diablo2")), saved="diablo2"),
    AgentSpec("ensemble", "racko", "Ensemble (with Diablo)",
              "The write-up's text's vote of Kyle, Max, Baltar (its voting tables) and Diablo: draw by majority "
              "(the deck on a 2-2 tie), slot by plurality (ties to the discard pile). Forced random move every "
              "2 · rack_size turns.", ensemble),
    AgentSpec("ensemble-code", "racko", "Ensemble (write-up's code: Kyle, Max, Baltar)",
              "The vote of the write-up's public code: Kyle, Max and Baltar (its voting tables), no Diablo; "
              "draw by majority, slot by plurality (ties to the discard pile). The write-up measured it at "
              "5 slots only; at other sizes Baltar reads the rack in bands. Forced random move every "
              "2 · rack_size turns.", lambda: ensemble(with_diablo=False)),
    AgentSpec("lookahead", "racko", "Lookahead",
              "The two-layer Diablo's rack scores with a one-turn expectimax: takes the discard only when its best "
              "placement beats the average, over every card it has not seen, of drawing from the deck. No "
              "forced random move.", lambda: Lookahead(diablo_nets("diablo2")), searches=True),
    AgentSpec("lookahead-plan", "racko", "Lookahead (planning a turn ahead)",
              "Lookahead that also plans its next turn: of the ways to play a card, the three that score best "
              "after the turn are each worth the rack after its next deck draw (averaged over every card it has "
              "not seen), and it plays the best of them. Draws as Lookahead; a finished rack counts as a Rack-O. "
              "No forced random move.", lambda: Lookahead(diablo_nets("diablo2"), plan=True), searches=True),
    AgentSpec("lookahead-deep", "racko", "Lookahead (planning the draw too)",
              "Lookahead planning a turn ahead that plans its draw the same way: the discard is worth the best of "
              "its three best placements after the turn, each valued by the rack after its next deck draw; a deck "
              "card, averaged over every card it has not seen, the better of keeping the rack and the card's best "
              "placement, each valued the same way. No forced random move.",
              lambda: Lookahead(diablo_nets("diablo2"), plan=True, plan_draw=1), searches=True),
    AgentSpec("dmc", "racko", "Deep Monte-Carlo",
              "A network that values each action of a turn (the rack it leaves, what it has seen of the pile "
              "and of the next player's rack) by the result of the deal it expects, trained by deep Monte-Carlo: "
              "whole deals against itself, Diablo, Diablo2 and Kyle, each action's target the deal's final "
              "result. It takes the best-valued action; no search, no forced random move. Trained at 10 slots "
              "(at other rack sizes it plays as Lookahead).", Dmc, saved="dmc"),
]

LEVELS = ["baltar-live", "random", "baltar", "ensemble-code", "max", "kyle", "dmc", "ensemble", "diablo", "diablo2",
          "lookahead", "lookahead-plan", "lookahead-deep"]
CALIBRATION_REFERENCES = ["random", "kyle"]
