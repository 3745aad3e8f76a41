"""Sage's CPU time per move: 40 two-player deals of Sage against itself (deals 0-39 of
``new_deal``), timed with ``time.process_time``. Run it from two trees to compare them:
``PYTHONPATH=TREE python docs/measurements/yaniv_sage_speed.py``."""
import random
import time

from agents.yaniv.common import to_action
from agents.yaniv.sage import Outlook, Sage
from engine import get_game

G = get_game("yaniv")
sage, rng = Sage(), random.Random(0)
start, moves, deals = time.process_time(), 0, 40
for i in range(deals):
    state = G.new_deal(2, i)
    while state.to_move is not None:
        state = G.apply(state, to_action(sage.choose(Outlook.of_state(state), rng)))
        moves += 1
spent = time.process_time() - start
print(f"{moves / deals:.1f} moves/deal, {spent / moves * 1000:.2f} ms/move, {spent / deals * 1000:.1f} ms/deal")
