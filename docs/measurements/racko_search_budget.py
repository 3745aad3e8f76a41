"""The Rack-O search's budget at large tables (session 21): CPU and peak memory of
``lookahead-deep``'s first DECISIONS decisions at a table of PLAYERS seats, RACK slots and MAX_CARD
cards (0: the rules' default), every seat played by it.

    (ulimit -v 4000000; PYTHONPATH=$PWD python docs/measurements/racko_search_budget.py 4 20 400 8)

Prints, for the usual table first (2 seats, 10 slots, 40 cards: the peer, in the same run) and
then for the one asked, the most racks one ``rack_values`` call was asked to score and the slowest
and mean CPU seconds of a decision, the asked table's as multiples of the peer's; and the
process's peak resident memory (the larger table's, as it runs last). Before the budget, 2 seats of 20
slots took up to 10 s a decision, and 20 slots with 400 cards ran out of 4 GB.
"""
import random
import resource
import sys
import time

import agents.racko.lookahead as lookahead
from agents.catalog import make_agent
from engine import get_game


def table(players: int, rack: int, max_card: int, decisions: int) -> tuple[int, list[float]]:
    """The most racks one call was asked to score, and each decision's CPU seconds."""
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
    lookahead.rack_values = scored
    return max(asked), times


def main(players: int, rack: int, max_card: int, decisions: int) -> None:
    rows = [(2, 10, 0), (players, rack, max_card)]
    found = [table(*row, decisions) for row in rows]
    peer = found[0][1]
    for (seats, slots, cards), (most, times) in zip(rows, found):
        print(f"{seats} seats, {slots} slots, max_card {cards}: most racks asked in one call {most}; "
              f"{len(times)} decisions, slowest {max(times):.2f} s ({max(times) / max(peer):.1f}x the peer's), "
              f"mean {sum(times) / len(times):.3f} s ({sum(times) / len(times) / (sum(peer) / len(peer)):.1f}x) of CPU")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
