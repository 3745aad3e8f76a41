"""The Rack-O coach: Lookahead's values, the two-layer Diablo's network scoring the rack after the turn (a
deck draw averaged over every card the seat has not seen)."""
from agents.coach import Coach, from_explanation


def _lookahead():
    from agents.racko.shipped import diablo_nets
    from agents.racko.lookahead import Lookahead

    return Lookahead(diablo_nets("diablo2"))


COACH = Coach("lookahead", "rack score after the turn (Diablo's network: 0 to 1, higher is a better rack)",
              threshold=0.05, values=from_explanation(_lookahead), points="in rack score")
