"""The shipped Rack-O learners, loaded once from agents/saved/racko/: Baltar's kept Q-tables
(every rack size shipped) and Diablo's networks (the one trained nearest each rack size)."""
from __future__ import annotations

from functools import lru_cache

from agents.racko.baltar import QTables, load_tables
from agents.racko.network import Network
from agents.saved_files import saved_path
from engine import GameError

BALTAR_FILES = ("baltar", "baltar-r10")
DIABLO_FILES = {"diablo": ("diablo", "diablo-r5"), "diablo2": ("diablo2", "diablo-r5")}


def _npz(name: str):
    path = saved_path("racko", name).with_suffix(".npz")
    if not path.exists():
        raise GameError(f"no saved agent {path}; train one with `parlour train racko ...`")
    return path


@lru_cache(maxsize=None)
def baltar_tables() -> tuple[tuple[QTables, float], ...]:
    """Every kept Baltar table of every shipped rack size, with its vote weight."""
    found = [saved_path("racko", name).with_suffix(".npz") for name in BALTAR_FILES]
    found = [p for p in found if p.exists()] or [_npz(BALTAR_FILES[0])]
    return tuple(m for path in found for m in load_tables(path))


def baltar_single() -> list[tuple[QTables, float]]:
    """The first kept table of each rack size (the single Baltar)."""
    firsts: dict[int, tuple[QTables, float]] = {}
    for t, _weight in baltar_tables():
        firsts.setdefault(t.rack_size, (t, 1.0))
    return list(firsts.values())


@lru_cache(maxsize=None)
def diablo_nets(kind: str = "diablo") -> dict[int, Network]:
    """{rack size trained at: network} of a shipped Diablo."""
    nets = {}
    for name in DIABLO_FILES[kind]:
        path = saved_path("racko", name).with_suffix(".npz")
        if path.exists():
            net = Network.load(path)
            nets[int(net.meta_rack_size)] = net
    if not nets:
        _npz(DIABLO_FILES[kind][0])  # the error naming the file
    return nets
