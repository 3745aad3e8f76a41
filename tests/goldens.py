"""Golden playthroughs: one JSON file per game in tests/goldens/.

A golden records a seeded match played by random agents: the actions, the final
state and every seat's final view. ``python -m tests.goldens GAME [--players N] [--options JSON]``
writes it; tests/engine/test_goldens.py replays it and demands the same bytes.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from engine import get_game

DIR = Path(__file__).parent / "goldens"


def record(game_name: str, players: int, seed: int, options: dict | None = None) -> dict:
    game = get_game(game_name)
    state = game.new_match(players, seed, options)
    rng = random.Random(seed)
    actions = []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        actions.append(action.id)
        state = game.apply(state, action)
    return {
        "game": game_name,
        "players": players,
        "seed": seed,
        "options": options or {},
        "actions": actions,
        "final_state": game.to_json(state),
        "final_views": [game.observe(state, p) for p in range(players)],
        "scores": game.scores(state),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--options", type=json.loads, default=None,
                        help='rule options as JSON, e.g. \'{"rack_size": 5}\' (keeps a golden short)')
    args = parser.parse_args()
    DIR.mkdir(exist_ok=True)
    data = record(args.game, args.players, args.seed, args.options)
    path = DIR / f"{args.game}.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path} ({len(data['actions'])} actions)")


if __name__ == "__main__":
    main()
