"""The schema of a new match (``POST /api/matches``) game by game, built from the specs the server
checks against: each game's players, levels, agents and options (``Game.options_schema``, which
states every option's type, range and choices, and the rules that tie options to the players).
So the schema accepts exactly the bodies the server accepts; the schema fuzz
(tests/api/test_fuzz.py) holds the two to it in both directions.
"""
from __future__ import annotations

from agents.catalog import agent_specs, levels, playable_games
from engine import get_game

AGENT_GIVEN = [{"required": ["level"], "properties": {"level": {"type": "integer"}}},
               {"required": ["agent"], "properties": {"agent": {"type": "string"}}}]


def seat_rules(schema: dict) -> None:
    """An agent seat names exactly one of ``level`` and ``agent``; other seats name neither."""
    schema.update({"if": {"properties": {"type": {"const": "agent"}}}, "then": {"oneOf": AGENT_GIVEN},
                   "else": {"not": {"anyOf": AGENT_GIVEN}}})


def _player_groups(game: str) -> list[tuple[int, int, dict]]:
    """(fewest, most players, options schema): runs of player counts whose options agree."""
    g = get_game(game)
    groups: list[tuple[int, int, dict]] = []
    for players in range(g.min_players, g.max_players + 1):
        options = g.options_schema(players)
        if groups and groups[-1][2] == options:
            groups[-1] = (groups[-1][0], players, options)
        else:
            groups.append((players, players, options))
    return groups


def _branch(game: str, fewest: int, most: int, options: dict) -> dict:
    seat = {"properties": {"level": {"maximum": len(levels(game))},
                           "agent": {"enum": [s.id for s in agent_specs(game)] + [None]}}}
    return {"properties": {"game": {"const": game}, "seats": {"minItems": fewest, "maxItems": most, "items": seat},
                           "options": options}}


def match_rules(schema: dict) -> None:
    """One branch per game (and per number of players where its options depend on them), and
    the rule that a table with friends' seats has its creator's seat too."""
    def seats_of(kind: str) -> dict:
        return {"contains": {"required": ["type"], "properties": {"type": {"const": kind}}}}

    schema["oneOf"] = [_branch(game, *group) for game in playable_games() for group in _player_groups(game)]
    schema["anyOf"] = [{"properties": {"seats": {"not": seats_of("friend")}}},
                       {"properties": {"seats": seats_of("human")}}]
