"""A measurement aid of session 18 (needs the catalog of commit 5dbcd3e): in deep-race's own deals against Diablo2 (seed, deals lo..hi-1), how many of its decisions
are racing, and in how many of those lookahead-deep / deep-race-seen / deep-race3 would choose otherwise."""
import sys
from agents.catalog import make_agent
from agents.racko.diablo import view_seen
from agents.tournament import play_one
from engine import get_game

seed, lo, hi = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])  # usage: SEED LO HI
race, seen_v, race3, deep = (make_agent("racko", n) for n in ("deep-race", "deep-race-seen", "deep-race3", "lookahead-deep"))
counts = {"decisions": 0, "racing": 0, "racing_draw": 0, "differ_deep": 0, "differ_seen": 0, "racing3": 0, "differ3_deep": 0}

class Probe:
    name = "probe"
    def act(self, view, legal, rng):
        a = race.act(view, legal, rng)
        counts["decisions"] += 1
        seen = set(view_seen(view))
        unseen = [c for c in range(1, view["options"]["max_card"] + 1) if c not in seen]
        d = deep.decide(view)
        if race._racing(view, unseen):
            counts["racing"] += 1
            counts["racing_draw"] += view["phase"] == "draw"
            counts["differ_deep"] += a.code != d
            counts["differ_seen"] += a.code != seen_v.decide(view)
        if race3._racing(view, unseen):
            counts["racing3"] += 1
            counts["differ3_deep"] += race3.decide(view) != d
        return a

game = get_game("racko")
agents = [Probe(), make_agent("racko", "diablo2")]
for i in range(lo, hi):
    play_one(game, agents, i, seed)
print(seed, lo, hi, counts)
