"""The strongest Queen of Spades level: determinised rollouts with the network (beyond the write-up).

For each decision with more than one legal card, the searcher deals the cards it
cannot see again ``samples`` times, uniformly among the deals that agree with
everything public (hand sizes, cards played, suits each seat failed to follow:
``engine.queen_of_spades.hidden.redeal``); in every such deal it tries each legal
card and plays the deal out with the very-good network in all four seats, every
table side by side so each network call carries a batch. It plays the card with
the best mean deal score over the same sampled deals (common random numbers).

It reads only its observation: the sampled worlds are built from the view
(``table_from_view``), never from the true state. With ``forced_queen`` the
"known not to hold the Q♠" inference is recomputed from the public tricks.
"""
from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from agents.base import Explanation
from agents.queen_of_spades.network import shipped
from agents.queen_of_spades.network_inputs import CARD_OF_ID
from engine.queen_of_spades.cards import QUEEN_OF_SPADES, SUITS
from agents.queen_of_spades.network_play import Policy, play_tables
from agents.queen_of_spades.network_weights import Weights
from engine.queen_of_spades.hidden import redeal
from engine.queen_of_spades.rules import PLAYERS, Rules, State, Table

ROLLOUTS = 160  # tables played out per decision: samples = ROLLOUTS // legal cards (at least MIN_SAMPLES)
MIN_SAMPLES = 16


def table_from_view(view: dict, rng: random.Random) -> Table:
    """A single-deal ``Table`` at the viewer's decision, the other hands dealt at random among the
    deals that agree with the view."""
    seat = view["seat"]
    code = CARD_OF_ID.__getitem__
    hand = sorted(code(c) for c in view["hand"])
    played = [code(c) for c in view["played"]]
    played_mask = 0
    for c in played:
        played_mask |= 1 << c
    unseen = [c for c in range(32) if not played_mask >> c & 1 and c not in hand]
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    hands[seat] = hand
    others = [s for s in range(PLAYERS) if s != seat]
    at = 0
    for s in others:
        hands[s] = unseen[at:at + view["hand_counts"][s]]
        at += view["hand_counts"][s]
    voids = [sum(1 << SUITS.index(x) for x in v) for v in view["voids"]]
    taken = tuple((t["winner"], tuple((p["seat"], code(p["card"])) for p in t["plays"])) for t in view["tricks_done"])
    trick = [(p["seat"], code(p["card"])) for p in view["trick"]]
    forced = bool(view["options"].get("forced_queen", False))
    no_queen = _no_queen(taken, trick) if forced else [False] * PLAYERS
    redeal(hands, others, voids, no_queen, rng)
    played_by: list[list[int]] = [[] for _ in range(PLAYERS)]
    for _, plays in (*taken, (None, trick)):
        for s, c in plays:
            played_by[s].append(c)
    state = State(seed=0, rules=Rules(forced_queen=forced), single=True, deal=0, dealer=view["dealer"],
                  dealt=tuple(tuple(sorted(h + played_by[s])) for s, h in enumerate(hands)),
                  hands=tuple(map(tuple, hands)), trick=tuple(trick), taken=taken, leader=view["leader"],
                  to_move=seat, played=played_mask, tricks=tuple(view["tricks"]), queen_by=view["queen_by"],
                  last_by=None, voids=tuple(voids), no_queen=tuple(no_queen), scores=(0,) * PLAYERS, results=())
    return Table.thaw(state)


def _no_queen(taken, trick) -> list[bool]:
    """With forced_queen: seats that failed to follow while the Q♠ was out without playing it."""
    out = [False] * PLAYERS
    queen_out = True
    for _, plays in (*taken, (None, tuple(trick))):
        led = plays[0][1] >> 3 if plays else -1
        for s, c in plays:
            if c >> 3 != led and c != QUEEN_OF_SPADES and queen_out:
                out[s] = True
            if c == QUEEN_OF_SPADES:
                queen_out = False
    return out


class DeterminisedSearch:
    """Plays the card whose sampled deals, played out by the network, score best on average."""

    name = "search"

    def __init__(self, weights: Weights | None = None, rollouts: int = ROLLOUTS):
        weights = weights if weights is not None else shipped()
        self.policy = Policy(weights.forward)
        self.rollouts = rollouts

    def values(self, observation: dict, legal_actions: Sequence, rng: random.Random) -> dict:
        """{action: mean deal score over the sampled deals} for each legal action."""
        samples = max(MIN_SAMPLES, self.rollouts // len(legal_actions))
        worlds = [table_from_view(observation, rng) for _ in range(samples)]
        tables = []
        for a in legal_actions:
            for w in worlds:
                t = w.copy()
                t.step(a.code)
                tables.append(t)
        np_rng = np.random.default_rng(rng.getrandbits(63))
        points = play_tables(tables, [(self.policy,) * PLAYERS] * len(tables), np_rng).points
        mine = points[:, observation["seat"]].reshape(len(legal_actions), samples).mean(axis=1)
        return {a: float(v) for a, v in zip(legal_actions, mine)}

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        if len(legal_actions) == 1:
            return legal_actions[0]
        values = self.values(observation, legal_actions, rng)
        return max(legal_actions, key=lambda a: values[a])

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation | None:
        if len(legal_actions) == 1:  # e.g. the last card: playing it ends the deal, nothing to sample
            return None
        values = self.values(observation, legal_actions, random.Random(0))
        return Explanation("mean points in sampled deals", {a.id: round(v, 3) for a, v in values.items()},
                           "each card tried in the same random deals of the unseen cards, played out by "
                           "the network")
