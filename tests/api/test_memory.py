"""The process's memory of matches: a log tail grows move by move up to its length (it used to
stop at half of it, so every view of a long match read its last 60 moves again)."""
from types import SimpleNamespace

from app.services.memory import MatchMemory


def test_a_tail_grows_to_its_length_and_then_slides():
    memory = MatchMemory()
    memory.put_tail("m", [], 0, keep=5)
    for ply in range(8):
        memory.add_move("m", SimpleNamespace(ply=ply), keep=5)
        want = min(5, ply + 1)
        tail = memory.tail("m", ply + 1, 5)
        assert tail is not None, f"the tail was forgotten after ply {ply}"
        assert [m.ply for m in tail] == list(range(ply + 1 - want, ply + 1))


def test_a_move_out_of_order_leaves_the_tail_alone():
    memory = MatchMemory()
    memory.put_tail("m", [SimpleNamespace(ply=0)], 1, keep=5)
    memory.add_move("m", SimpleNamespace(ply=3), keep=5)
    assert memory.tail("m", 4, 5) is None
    assert [m.ply for m in memory.tail("m", 1, 5)] == [0]

