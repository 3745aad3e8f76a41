"""Yaniv agents and levels: the write-up's SemiRandom, GreedyRandom and Harel (trained,
and live in the database), Random, Sage, Sibyl (Sage's moves checked by playing the deal out:
measured no stronger than Sage), Pythia (Sage's throws leaning towards calling sooner, and a
call weighed against waiting: a little stronger than Sage) and the top level, the Deep
Monte-Carlo player (``dmc``: a Q-network trained by self-play and against the others,
agents/saved/yaniv/dmc.npz with its .json metadata and .svg curve, its values averaged over
the 24 renamings of the suits; it beats Pythia head to head). Sibyl is not on the ladder
(docs/measurements/yaniv.md)."""
from functools import lru_cache

from agents.base import RandomAgent
from agents.yaniv.coach import COACH  # noqa: F401 (the catalog reads it)
from agents.spec import AgentSpec, Canary, LiveSpec
from agents.saved_files import saved_path
from agents.yaniv.dmc import Dmc
from agents.yaniv.harel import TABLE, Harel
from agents.yaniv.heuristics import GreedyRandom, SemiRandom
from agents.yaniv.lookahead import Sibyl
from agents.yaniv.pythia import Pythia
from agents.yaniv.qtable import PackedTable, load_packed
from agents.yaniv.sage import Sage


@lru_cache(maxsize=1)
def trained_packed() -> PackedTable:
    """The shipped Harel's Q-table (agents/saved/yaniv/harel.npz), loaded once per process."""
    return load_packed(saved_path("yaniv", "harel").with_suffix(".npz"))


def trained_table() -> dict[str, float]:
    """The shipped table as a plain dict (what the live Harel copies into the database)."""
    return trained_packed().to_dict()


def trained_harel() -> Harel:
    """The shipped Harel, frozen: it plays from the packed table (anything it learned would stay
    in this copy)."""
    packed = trained_packed()
    return Harel(PackedTable(packed.keys, packed.values, packed.slots))


AGENTS = [
    AgentSpec("random", "yaniv", "Random", "Any legal move, uniformly at random (it rarely calls Yaniv).",
              RandomAgent),
    AgentSpec("semirandom", "yaniv", "SemiRandom",
              "Throws all cards of a random rank it holds; takes the pile's card when it is worth less than "
              "what it throws, else the stock; calls Yaniv whenever it may.", SemiRandom),
    AgentSpec("greedyrandom", "yaniv", "GreedyRandom",
              "Throws the rank it holds most of (then the highest); takes the pile's card half the time, "
              "else the stock; calls Yaniv whenever it may.", GreedyRandom),
    AgentSpec("harel-live", "yaniv", "Harel (live)",
              "Harel's Q-table lives in the database and keeps learning from every deal people play "
              "against it (it starts knowing nothing; it can be reset to the trained table).", Harel,
              live=LiveSpec(from_values=Harel, beginner=dict, trained=trained_table,
                            canary=Canary(("semirandom",))), saved="harel", inspect=TABLE),
    AgentSpec("harel", "yaniv", "Harel (trained)",
              "The write-up's tabular Q-learner: state = its five card ranks in order + the pile's card; "
              "action = call, or throw a rank and take pile or stock. Trained on the write-up's schedule, "
              "frozen.", trained_harel, saved="harel", inspect=TABLE),
    AgentSpec("sage", "yaniv", "Sage",
              "Reads every card thrown: throws to keep the lowest hand after its next throw, and calls Yaniv "
              "only when random deals of the cards it has not seen say the call is safe enough.", Sage, searches=True),
    AgentSpec("sibyl", "yaniv", "Sibyl",
              "Plays Sage's few best throws, and the call, out to the deal's end in random deals of the cards it "
              "has not seen, Sage playing every seat, and picks the one that wins the most deals.", Sibyl,
              searches=True),
    AgentSpec("pythia", "yaniv", "Pythia",
              "Throws as Sage does, leaning towards hands that may call next turn. Reads what the others threw "
              "(they keep their low cards) to judge how likely its total is the lowest, and calls when that beats "
              "its chance of winning by waiting.", Pythia, searches=True),
    AgentSpec("dmc", "yaniv", "Deep Monte-Carlo",
              "A Q-network trained by self-play and against Sage, Pythia, Harel and GreedyRandom (Deep Monte-Carlo): "
              "it values the call and every throw by its chance of winning the deal, reading its hand, the cards "
              "thrown, the others' cards and known cards, Sage's score of each throw and Pythia's chances (that "
              "the hand drawn to may call, of winning by waiting, that a call is not Assaf); plays the best, each "
              "value averaged over the 24 ways of renaming the suits. No search.", Dmc, saved="dmc"),
]

LEVELS = ["harel-live", "semirandom", "greedyrandom", "harel", "sage", "pythia", "dmc"]
CALIBRATION_REFERENCES = ["semirandom", "greedyrandom"]
