"""The Yaniv coach: the trained Harel's Q-values (+1 a deal won, -1 lost, discounted by turns).

Harel's actions throw all cards of one rank (or call); a run or part of a set is not among
them, so such a move gets no value (its entry's ``value`` and ``loss`` are null) while the
move Harel prefers is still shown."""
from agents.coach import Coach, from_explanation


def _harel():
    from agents.yaniv import trained_harel

    return trained_harel()


COACH = Coach("harel", "Harel's Q-value (its estimate of +1 for winning the deal, -1 for losing it)",
              threshold=0.2, values=from_explanation(_harel), points="in Harel's Q-value")
