"""The kernel's tables (engine.kernel.TableType) and state codecs (engine.codec.StateCodec)."""
import json
import random
from typing import ClassVar, NamedTuple

import pytest

from engine import StateError, get_game
from engine.codec import INT, INTS, StateCodec
from engine.kernel import Table, TableGame

CARD_GAMES = ["uno", "racko", "queen_of_spades", "yaniv"]
PLAYERS = {"queen_of_spades": 4}


class Pair(NamedTuple):
    turn: int
    counts: tuple[int, ...]

    def current_player(self) -> int | None:
        return self.turn

    def is_over(self) -> bool:
        return self.turn < 0


def midgame(name: str, moves: int = 40):
    game = get_game(name)
    assert isinstance(game, TableGame)
    state = game.new_match(PLAYERS.get(name, 3), 11)
    rng = random.Random(5)
    for _ in range(moves):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return game, state


def test_a_table_must_declare_every_field_of_its_state():
    with pytest.raises(TypeError, match="counts"):
        class Short(Table[Pair]):  # noqa: F841 (refused while it is made)
            turn: int


class Logged(NamedTuple):
    turn: int
    log: tuple

    def current_player(self) -> int | None:
        return self.turn

    def is_over(self) -> bool:
        return False


def test_a_table_with_a_log_says_how_much_of_it_a_state_keeps():
    with pytest.raises(TypeError, match="log_keep"):
        class Unbounded(Table[Logged]):  # noqa: F841 (refused while it is made)
            turn: int
            log: list[tuple]

    class Kept(Table[Logged]):
        log_keep: ClassVar[int] = 2
        turn: int
        log: list[tuple]

        @classmethod
        def new(cls, players, seed, rules, single):
            return cls.thaw(Logged(0, ()))

        def legal(self):
            return [0]

        def step(self, code):
            self.log.append(("step", code))

    table = Kept.new(2, 0, None, True)
    for code in range(3):
        table.step(code)
    assert table.freeze() == Logged(0, (("step", 1), ("step", 2))) and table.copy().log == []


def test_a_table_gets_slots_and_conversions_from_its_annotations():
    class Counter(Table[Pair]):
        turn: int
        counts: list[int]

        @classmethod
        def new(cls, players, seed, rules, single):
            return cls.thaw(Pair(0, (0,) * players))

        def legal(self):
            return [0, 1]

        def step(self, code):
            self.counts[self.turn] += code

    assert Counter.__slots__ == ("turn", "counts")
    table = Counter.thaw(Pair(1, (4, 5)))
    table.step(1)
    copy = table.copy()
    copy.step(1)
    assert table.freeze() == Pair(1, (4, 6)) and copy.freeze() == Pair(1, (4, 7))
    assert type(table.freeze().counts) is tuple and table.current_player() == 1 and not table.is_over()


@pytest.mark.parametrize("name", CARD_GAMES)
def test_thaw_freeze_and_copy_round_trip_without_sharing_what_changes(name):
    game, state = midgame(name)
    table = game.table.thaw(state)
    assert table.freeze() == state
    copy = table.copy()
    for code in copy.legal()[:1]:
        copy.step(code)
    assert table.freeze() == state, "stepping a copy changed the table it was copied from"
    assert game.table.thaw(state).freeze() == state


@pytest.mark.parametrize("name", CARD_GAMES)
def test_the_state_json_is_plain_json_and_reads_back(name):
    game, state = midgame(name)
    data = json.loads(json.dumps(game.to_json(state)))
    assert game.to_json(game.from_json(data)) == data


def check_pair(state: Pair) -> None:
    if not 0 <= state.turn < len(state.counts):
        raise StateError("no such seat")


def test_a_codec_lists_every_field_in_order_and_checks_what_it_reads():
    with pytest.raises(TypeError, match="in order"):
        StateCodec(Pair, {"counts": ("counts", INTS), "turn": ("turn", INT)}, check_pair)
    codec = StateCodec(Pair, {"turn": ("to_move", INT), "counts": ("counts", INTS)}, check_pair)
    assert codec.to_json(Pair(1, (2, 3))) == {"to_move": 1, "counts": [2, 3]}
    assert codec.from_json({"to_move": "1", "counts": [2, 3]}) == Pair(1, (2, 3))
    with pytest.raises(StateError, match="no such seat"):
        codec.from_json({"to_move": 2, "counts": [2, 3]})
