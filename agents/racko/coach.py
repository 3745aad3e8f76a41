"""The Rack-O coach: the top level's values (Lookahead planning its placement and its draw a turn
ahead), the two-layer Diablo's network scoring the rack after the turn and after the next deck draw
(averaged over every card the seat has not seen); the move a person made is always weighed."""
from agents.coach import Coach


def _values():
    held: list = []

    def values(observation, legal_actions, chosen, rng):
        if not held:
            from agents.racko.lookahead import Lookahead
            from agents.racko.shipped import diablo_nets
            held.append(Lookahead(diablo_nets("diablo2"), plan=True, plan_draw=1))
        return held[0].coach_values(observation, legal_actions, chosen)

    return values


COACH = Coach("lookahead-deep", "rack score after the turn and after the next deck draw "
              "(Diablo's network: 0 to 1, higher is a better rack)",
              threshold=0.05, values=_values(), points="in rack score")
