"""Baltar: the write-up's tabular Q-learner, as its public code does it.

**State.** One bit per rack card (slot 1 first), then one for the discard top
(drawing) or the drawn card (placing): 1 when a card drawn now is more likely
above it than below it. The probabilities count only the cards the player has
seen (the write-up's version; the public code reads the real deck): of the
cards it has not seen, more lie above the card than below. With r slots that is
``r + 1`` bits: 64 states at 5 slots, 2,048 at 10 (*choice*: the same bits at
every rack size, no grouping; tables are trained per rack size).

**Actions.** Drawing: 0 deck, 1 discard. Placing: slot index 0..r-1, or r to
discard a deck card. Two tables, learned separately, each with its visit counts.

**Learning** (``QTables.update``): after each of its turns, the previous turn's
(state, action) of each table moves toward ``0.25 * max Q(next state)``:
``Q <- (1 - a) Q + a * 0.25 * maxQ``, ``a = 1 / visits`` (the updates that entry
has had), skipped when ``maxQ(next) = 0``; at the end of a deal the last ones move
toward +10,000 (it went Rack-O) or -10,000 (another did); a deal stopped by the
turn cap teaches nothing at its end. While training it picks the action it has
tried least (ties at random); playing, the best (ties at random). The public code
explores otherwise (``least="updates"``): it picks the action whose Q-value has been
*updated* least (its ``visits``, which only a non-zero target moves), ties to the
first action, so until a deal has ended it always draws from the deck and places
in slot 1 (docs/measurements/racko.md: why its runs varied so).

**Ensemble.** Several kept tables vote, each weighted by its win rate against
Random: the draw by the sign of the weighted votes (deck on a tie), the slot by
weighted plurality (the lowest slot on a tie).

**Live** (``BaltarLive``): one table pair per rack size in the database as
``{key: value}``: ``d<r>:<state>:<action>`` / ``p<r>:<state>:<action>`` hold Q
(``d5:12:1``), ``n`` + that key the visit count; ``learn`` replays a finished match's turns with the same update and
returns the changes as ``Update`` items.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

import numpy as np

from agents.base import Episode, Explanation, Update
from agents.racko.common import WriteupPlayer, code_of_slot
from agents.racko.diablo import table_seen, view_seen
from agents.racko.features import unseen_prefix
from agents.saved_files import write_arrays
from agents.spec import Values
from engine.racko import DRAW_DECK, DRAW_DISCARD, FROM_DISCARD, PLACE, parse_action

GAMMA = 0.25
REWARD = 10_000.0


def state_bits(rack: Sequence[int], card: int, prefix: np.ndarray) -> int:
    """Baltar's state: bit i (i = slot index) for rack card i, bit r for ``card``; a bit is 1
    when more unseen cards lie above the card than below it."""
    total = int(prefix[-1])
    state = 0
    for i, c in enumerate(list(rack) + [card]):
        below = int(prefix[c - 1])
        above = total - int(prefix[c])
        if above > below:
            state |= 1 << i
    return state


class QTables:
    """Baltar's two Q-tables (draw: 2 actions; place: r slots + discard) and their counts
    (zeros where not given)."""

    def __init__(self, rack_size: int, draw: np.ndarray | None = None, place: np.ndarray | None = None,
                 draw_visits: np.ndarray | None = None, place_visits: np.ndarray | None = None):
        states = 1 << (rack_size + 1)

        def given(array: np.ndarray | None, cols: int, dtype: type) -> np.ndarray:
            return np.zeros((states, cols), dtype) if array is None else array

        self.rack_size = rack_size
        self.draw, self.draw_visits = given(draw, 2, np.float64), given(draw_visits, 2, np.int64)
        self.place = given(place, rack_size + 1, np.float64)
        self.place_visits = given(place_visits, rack_size + 1, np.int64)
        self.draw_tries, self.place_tries = given(None, 2, np.int64), given(None, rack_size + 1, np.int64)

    def table(self, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if kind == "draw":
            return self.draw, self.draw_visits, self.draw_tries
        return self.place, self.place_visits, self.place_tries

    def update(self, kind: str, state: int, action: int, target: float) -> float:
        """``Q <- (1 - a) Q + a * target``, a = 1 / visits; returns the rate used."""
        q, visits, _ = self.table(kind)
        visits[state, action] += 1
        rate = 1.0 / visits[state, action]
        q[state, action] += rate * (target - q[state, action])
        return rate

    def best(self, kind: str, state: int, actions: Sequence[int]) -> float:
        q = self.table(kind)[0]
        return max(q[state, a] for a in actions)


def ties(values: Sequence[float], actions: Sequence[int], rng: random.Random) -> int:
    """The action with the highest value, ties at random."""
    top = max(values)
    best = [a for a, v in zip(actions, values) if v == top]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def place_actions(r: int, from_discard: bool) -> list[int]:
    return list(range(r)) if from_discard else list(range(r + 1))


EXPLORATIONS = ("tries", "updates")


def choose(tables: QTables, kind: str, state: int, actions: Sequence[int], rng: random.Random,
           explore: bool, least: str = "tries") -> int:
    """Least tried (training) or best (playing), ties at random; with ``least="updates"``
    training picks the least updated action, ties to the first (the public code's way)."""
    q, visits, tried = tables.table(kind)
    if explore and least == "updates":
        return min(actions, key=lambda a: (visits[state, a], a))
    if explore:
        return ties([-tried[state, a] for a in actions], actions, rng)
    return ties([q[state, a] for a in actions], actions, rng)


# ----- the ensemble vote -----
def vote_draw(members: Sequence[tuple[QTables, float]], state: int) -> bool:
    """True: take the discard (weighted votes: + discard, - deck; deck on a tie)."""
    total = 0.0
    for t, w in members:
        row = t.draw[state]
        if row[1] > row[0]:
            total += w
        elif row[0] > row[1]:
            total -= w
    return total > 0


def vote_place(members: Sequence[tuple[QTables, float]], state: int, actions: Sequence[int]) -> int:
    """The action with the most weighted votes (each member's best; lowest action on a tie)."""
    votes: dict[int, float] = {}
    for t, w in members:
        row = t.place[state]
        a = max(actions, key=lambda x: (row[x], -x))
        votes[a] = votes.get(a, 0.0) + w
    return max(sorted(votes), key=lambda a: votes[a])


def bands(r: int, r0: int) -> list[list[int]]:
    """The slots of an ``r``-slot rack grouped into ``r0`` contiguous bands (a table trained on
    ``r0`` slots reads each band as one slot)."""
    return [list(range(i * r // r0, max(i * r // r0 + 1, (i + 1) * r // r0))) for i in range(r0)]


def band_slot(band: list[int], card: int, r: int, max_card: int) -> int:
    """Where in its band a card goes: the slot whose even-spread target is nearest the card."""
    return min(band, key=lambda s: abs(s * (max_card - 1) / r + 1 - card))


class Baltar(WriteupPlayer):
    """Baltar playing one table (a one-member ensemble) or a weighted vote of several. At a
    rack size it has no table for, it plays the tables of the nearest size with the rack read
    in bands (``bands``: a band's bit is its middle slot's; a card sent to a band goes to the
    band's slot nearest its even-spread target)."""

    name = "baltar"

    def __init__(self, members: Sequence[tuple[QTables, float]], forced_random: bool = True):
        super().__init__(forced_random)
        self.members = list(members)

    def _read(self, view: dict) -> tuple[int, list[tuple[QTables, float]], list[int]]:
        """(state, the tables voting, the slot each table slot stands for)."""
        r, n_cards = view["options"]["rack_size"], view["options"]["max_card"]
        sizes = {t.rack_size for t, _ in self.members}
        r0 = min(sizes, key=lambda s: (abs(s - r), -s))
        prefix = unseen_prefix(n_cards, view_seen(view))
        card = view["discard_top"] if view["phase"] == "draw" else view["drawn"]
        rack = view["rack"]
        groups = bands(r, r0)
        state = state_bits([rack[b[len(b) // 2]] for b in groups], card, prefix)
        slots = [band_slot(b, card, r, n_cards) for b in groups]
        return state, [(t, w) for t, w in self.members if t.rack_size == r0], slots

    def decide(self, view: dict) -> int:
        state, members, slots = self._read(view)
        if view["phase"] == "draw":
            return DRAW_DISCARD if vote_draw(members, state) else DRAW_DECK
        r0 = len(slots)
        a = vote_place(members, state, place_actions(r0, view["drawn_from"] == "discard"))
        return code_of_slot(-1 if a == r0 else slots[a])

    def explain(self, view: dict, legal_actions) -> Explanation:
        state, members, slots = self._read(view)
        r0 = len(slots)
        weight = sum(w for _, w in members)
        if view["phase"] == "draw":
            q = sum(w * t.draw[state] for t, w in members) / weight
            values = {"draw:deck": float(q[0]), "draw:discard": float(q[1])}
        else:
            q = sum(w * t.place[state] for t, w in members) / weight
            values = {f"place:{slots[k] + 1}": float(q[k]) for k in range(r0)}
            values["discard"] = float(q[r0])
        bits = format(state, f"0{r0 + 1}b")[::-1]
        note = (f"state {bits} (slot 1 first, then the {'discard' if view['phase'] == 'draw' else 'drawn'} card; "
                "1 = more unseen cards above it than below)")
        if len(members) > 1:
            note += f"; weighted mean of {len(members)} tables' Q-values (they vote)"
        if r0 != view["options"]["rack_size"]:
            note += f"; tables trained on {r0} slots, reading the rack in {r0} bands"
        return Explanation("Q-value", {a.id: values[a.id] for a in legal_actions if a.id in values}, note)


class BaltarDecider:
    """Baltar on the arena's table (``agents.racko.arena``): greedy or exploring, and learning
    when ``learn`` (the training loop's player)."""

    def __init__(self, members: Sequence[tuple[QTables, float]], forced_random: bool = True):
        self.members = list(members)
        self.forced_random = forced_random

    def begin(self, table, seat: int) -> None:
        pass

    def _state(self, table, seat: int, card: int) -> int:
        return state_bits(table.racks[seat], card, unseen_prefix(table.rules.max_card, table_seen(table, seat)))

    def draw(self, table, seat: int, rng) -> bool:
        return vote_draw(self.members, self._state(table, seat, table.discard[-1]))

    def place(self, table, seat: int, rng) -> int:
        r = table.size
        a = vote_place(self.members, self._state(table, seat, table.drawn),
                       place_actions(r, table.source == FROM_DISCARD))
        return -1 if a == r else a


class Learner:
    """Baltar learning while it plays (the arena's decider protocol): the previous turn's
    (state, action) of each table is updated when the next state is seen, the last ones
    when the deal ends (``finish``)."""

    def __init__(self, tables: QTables, explore: bool = True, forced_random: bool = True, least: str = "tries"):
        if least not in EXPLORATIONS:
            raise ValueError(f"least is one of {', '.join(EXPLORATIONS)}")
        self.tables = tables
        self.explore = explore
        self.least = least
        self.forced_random = forced_random
        self.last: dict[str, tuple[int, int] | None] = {"draw": None, "place": None}

    def begin(self, table, seat: int) -> None:
        self.last = {"draw": None, "place": None}

    def _step(self, kind: str, state: int, actions: list[int], rng) -> int:
        t = self.tables
        prev = self.last[kind]
        if prev is not None:
            best = t.best(kind, state, actions)
            if best != 0.0:
                t.update(kind, prev[0], prev[1], GAMMA * best)
        a = choose(t, kind, state, actions, rng, self.explore, self.least)
        t.table(kind)[2][state, a] += 1
        self.last[kind] = (state, a)
        return a

    def draw(self, table, seat: int, rng) -> bool:
        state = state_bits(table.racks[seat], table.discard[-1],
                           unseen_prefix(table.rules.max_card, table_seen(table, seat)))
        return self._step("draw", state, [0, 1], rng) == 1

    def place(self, table, seat: int, rng) -> int:
        r = table.size
        state = state_bits(table.racks[seat], table.drawn,
                           unseen_prefix(table.rules.max_card, table_seen(table, seat)))
        a = self._step("place", state, place_actions(r, table.source == FROM_DISCARD), rng)
        return -1 if a == r else a

    def finish(self, won: bool | None) -> None:
        """The deal ended: +REWARD if it went Rack-O, -REWARD if another did, nothing if None."""
        if won is not None:
            for kind, prev in self.last.items():
                if prev is not None:
                    self.tables.update(kind, prev[0], prev[1], REWARD if won else -REWARD)
        self.last = {"draw": None, "place": None}


# ----- files -----
def save_tables(path: Path, members: Sequence[tuple[QTables, float]]) -> None:
    arrays: dict[str, np.ndarray] = {}
    for k, (t, w) in enumerate(members):
        arrays[f"draw{k}"] = t.draw
        arrays[f"place{k}"] = t.place
        arrays[f"draw_visits{k}"] = t.draw_visits
        arrays[f"place_visits{k}"] = t.place_visits
        arrays[f"weight{k}"] = np.array(w)
    write_arrays(path, arrays, compressed=True)


def load_tables(path) -> list[tuple[QTables, float]]:
    out = []
    with np.load(path) as data:
        k = 0
        while f"draw{k}" in data.files:
            draw = data[f"draw{k}"]
            r = draw.shape[0].bit_length() - 2
            out.append((QTables(r, draw, data[f"place{k}"], data[f"draw_visits{k}"], data[f"place_visits{k}"]),
                        float(data[f"weight{k}"])))
            k += 1
    return out


# ----- live -----
def _key(kind: str, r: int, state: int, action: int) -> str:
    return f"{kind[0]}{r}:{state}:{action}"


def live_values(tables: QTables) -> dict[str, float]:
    """A table pair as live values: the Q-values and visit counts of the entries it visited."""
    out: dict[str, float] = {}
    r = tables.rack_size
    for kind in ("draw", "place"):
        q, visits, _ = tables.table(kind)
        for state, action in zip(*np.nonzero(visits)):
            key = _key(kind, r, int(state), int(action))
            out[key] = float(q[state, action])
            out[_visits_key(key)] = float(visits[state, action])
    return out


def _visits_key(key: str) -> str:
    return "n" + key


class BaltarLive(WriteupPlayer):
    """One Baltar whose table lives in a store as ``{key: value}`` (see the module docstring);
    it plays greedily (ties at random) and ``learn`` replays a finished match."""

    name = "baltar-live"

    def __init__(self, values: Values | None = None, forced_random: bool = True):
        super().__init__(forced_random)
        self.values = dict(values or {})
        self._rng: random.Random | None = None  # the one ``act`` was given, for ``decide``

    def _q(self, kind: str, r: int, state: int, action: int) -> float:
        return self.values.get(_key(kind, r, state, action), 0.0)

    def _state(self, view: dict) -> int:
        prefix = unseen_prefix(view["options"]["max_card"], view_seen(view))
        card = view["discard_top"] if view["phase"] == "draw" else view["drawn"]
        return state_bits(view["rack"], card, prefix)

    @staticmethod
    def _kind_actions(view: dict) -> tuple[str, list[int]]:
        r = view["options"]["rack_size"]
        if view["phase"] == "draw":
            return "draw", [0, 1]
        return "place", place_actions(r, view["drawn_from"] == "discard")

    def act(self, view: dict, legal_actions, rng: random.Random):
        self._rng = rng
        return super().act(view, legal_actions, rng)

    def decide(self, view: dict) -> int:
        kind, actions = self._kind_actions(view)
        state = self._state(view)
        rng = self._rng or random.Random(0)
        r = view["options"]["rack_size"]
        a = ties([self._q(kind, r, state, x) for x in actions], actions, rng)
        if kind == "draw":
            return DRAW_DISCARD if a == 1 else DRAW_DECK
        return code_of_slot(-1 if a == view["options"]["rack_size"] else a)

    def explain(self, view: dict, legal_actions) -> Explanation:
        kind, actions = self._kind_actions(view)
        state = self._state(view)
        r = view["options"]["rack_size"]
        ids = (["draw:deck", "draw:discard"] if kind == "draw"
               else [f"place:{a + 1}" if a < r else "discard" for a in actions])
        values = {i: self._q(kind, r, state, a) for i, a in zip(ids, actions)}
        learned = sum(1 for k in self.values if not k.startswith("n"))
        return Explanation("Q-value", {a.id: values[a.id] for a in legal_actions if a.id in values},
                           f"state {format(state, f'0{r + 1}b')[::-1]}; {learned} Q-values learned so far")

    def learn(self, episode: Episode) -> list[Update]:
        """Baltar's update over its turns in ``episode``, deal by deal (a deal's winner is read
        from the next deal's view; the last deal counts as won when the match was)."""
        updates: list[Update] = []
        steps = [(obs, action_id) for obs, action_id in episode.steps if obs.get("legal_actions")]
        by_deal: dict[int, list] = {}
        for obs, action_id in steps:
            by_deal.setdefault(obs["deal"], []).append((obs, action_id))
        deals = sorted(by_deal)
        for n, deal in enumerate(deals):
            last: dict[str, tuple[int, int, int] | None] = {"draw": None, "place": None}
            for obs, action_id in by_deal[deal]:
                kind, actions = self._kind_actions(obs)
                state = self._state(obs)
                r = obs["options"]["rack_size"]
                code = parse_action(action_id).code
                a = (code - DRAW_DECK) if kind == "draw" else (code - PLACE if code >= PLACE else r)
                prev = last[kind]
                if prev is not None:
                    best = max(self._q(kind, r, state, x) for x in actions)
                    if best != 0.0:
                        updates += self._update(kind, prev, GAMMA * best)
                last[kind] = (r, state, a)
            if n + 1 < len(deals):
                result = by_deal[deals[n + 1]][0][0].get("last_result") or {}
                winner = result.get("winner")
                won = None if winner is None else winner == episode.seat
            else:
                won = None if episode.drawn else episode.won
            if won is not None:
                for kind, prev in last.items():
                    if prev is not None:
                        updates += self._update(kind, prev, REWARD if won else -REWARD)
        return updates

    def _update(self, kind: str, prev: tuple[int, int, int], target: float) -> list[Update]:
        key = _key(kind, *prev)
        visits_key = _visits_key(key)
        visits = self.values.get(visits_key, 0.0) + 1.0
        rate = 1.0 / visits
        self.values[visits_key] = visits
        old = self.values.get(key, 0.0)
        self.values[key] = old + rate * (target - old)
        return [Update(visits_key, "add", amount=1.0), Update(key, "blend", target=target, rate=rate)]
