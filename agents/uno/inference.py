"""What the public log says about the cards other players cannot hold.

A player who draws instead of playing (almost always) had no playable card: no
card of the colour in force, none of the top card's number or symbol, and no wild
(a Wild is always playable, and with no card of the colour in force a Wild Draw
Four is too). If they then pass, the drawn card was not playable either. Cards
they receive afterwards (penalties, later draws) are unconstrained; a card they
play that the constraint rules out must have been one of those.

``voids(view)`` reads the recent public log in a view and returns, per other seat,
the colour and rank it lacked at its last such draw and how many of the cards it
holds now are still known to lack them. Search agents deal those cards from the
unseen cards that fit (``Void.allows``), the others at random.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.uno.cards import COLOUR_OF, COLOURED, RANK_OF, Rank
from engine.uno.view import CODE_OF_ID, colour_code

_WILD_RANK = int(Rank.WILD)


@dataclass(frozen=True)
class Void:
    colour: int  # the colour in force when the player drew
    rank: int  # the rank of the top card then (13/14 for a wild: no rank to match)
    cards: int  # how many of the player's cards are known to lack both

    def allows(self, card: int) -> bool:
        """Whether ``card`` could be one of the constrained cards."""
        return card < COLOURED and COLOUR_OF[card] != self.colour and (
            self.rank >= _WILD_RANK or RANK_OF[card] != self.rank)


def voids(view: dict) -> dict[int, Void]:
    """Per other seat, its latest known void (see the module docstring)."""
    colour = rank = -1
    known: dict[int, list[int]] = {}  # seat -> [colour, rank, cards received since]
    last = None
    for event in view["log"]:
        kind = event["event"]
        seat = event.get("seat")
        if kind == "deal":
            known.clear()
            colour = rank = -1
        elif kind == "turnup":
            card = CODE_OF_ID[event["card"]]
            colour, rank = COLOUR_OF[card], RANK_OF[card]
        elif kind == "colour":
            colour = colour_code(event["colour"])
        elif kind == "play":
            card = CODE_OF_ID[event["card"]]
            entry = known.get(seat)
            if entry is not None and not Void(entry[0], entry[1], 0).allows(card):
                entry[2] = max(0, entry[2] - 1)
            colour, rank = colour_code(event["colour"]), RANK_OF[card]
        elif kind == "draw" and colour >= 0 and not view["options"]["draw_until_playable"]:
            known[seat] = [colour, rank, event["count"]]
        elif kind == "pass" and last is not None and last["event"] == "draw" and last["seat"] == seat \
                and seat in known:
            known[seat][2] = max(0, known[seat][2] - last["count"])
        elif kind == "penalty" and seat in known:
            known[seat][2] += event["count"]
        last = event
    counts = view["hand_counts"]
    out = {}
    for seat, (c, r, received) in known.items():
        if seat != view["seat"] and counts[seat] - received > 0:
            out[seat] = Void(c, r, counts[seat] - received)
    return out
