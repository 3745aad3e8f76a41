"""The Rack-O search's budget at large tables (session 21): CPU and peak memory of
``lookahead-deep``'s first DECISIONS decisions at a table of PLAYERS seats, RACK slots and MAX_CARD
cards (0: the rules' default), every seat played by it.

    (ulimit -v 4000000; PYTHONPATH=$PWD python docs/measurements/racko_search_budget.py 4 20 400 8)

Prints the most racks one ``rack_values`` call was asked to score, the slowest and mean CPU
seconds of a decision, and the process's peak resident memory. Before the budget, 2 seats of 20
slots took up to 10 s a decision, and 20 slots with 400 cards ran out of 4 GB.
"""
import random
import resource
import sys
import time

import agents.racko.lookahead as lookahead
from agents.catalog import make_agent
from engine import get_game


def main(players: int, rack: int, max_card: int, decisions: int) -> None:
    asked: list[int] = []
    scored = lookahead.rack_values

    def counted(net, racks, *rest):
        asked.append(len(racks))
        return scored(net, racks, *rest)

    lookahead.rack_values = counted
    game = get_game("racko")
    state = game.new_match(players, 7, game.resolve_options({"rack_size": rack, "max_card": max_card}))
    agent = make_agent("racko", "lookahead-deep")
    times = []
    for _ in range(decisions):
        if game.is_over(state):
            break
        observation, legal = game.observe(state, game.current_player(state)), game.legal_actions(state)
        start = time.process_time()
        action = agent.act(observation, legal, random.Random(1))
        times.append(time.process_time() - start)
        state = game.apply(state, action)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{players} seats, {rack} slots, max_card {max_card}: most racks asked in one call {max(asked)}; "
          f"{len(times)} decisions, slowest {max(times):.2f} s, mean {sum(times) / len(times):.2f} s of CPU; "
          f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
