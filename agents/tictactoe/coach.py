"""The noughts-and-crosses coach: Perfect's exact game values (minimax over the whole tree)."""
from agents.coach import Coach, from_explanation
from agents.tictactoe.perfect import Perfect

COACH = Coach("perfect", "game value with perfect play from here (+1 win, 0 draw, -1 loss)", threshold=0.5,
              values=from_explanation(Perfect), points="in game value")
