"""``parlour train queen_of_spades levels`` on a few deals: the chart, every gap of the ladder head to
head, and a network measured against another (here itself, which must come out exactly even)."""
import json

from agents.queen_of_spades import LEVELS as ORDER
from agents.queen_of_spades.network import SAVED_NAME
from agents.saved_files import saved_path
from agents.training import queen_of_spades_levels as levels


def test_the_gaps_and_a_network_against_an_old_one(tmp_path):
    shipped = str(saved_path("queen_of_spades", SAVED_NAME).with_suffix(".npz"))
    out = tmp_path / "levels.json"
    assert levels.main(["--deals", "6", "--noise", "", "--gaps", "--weights", shipped, "--old", shipped,
                        "--seed", "5", "--out", str(out)]) == 0
    meta = json.loads(out.read_text())["meta"]
    ladder = [name for name in ORDER if name != "search"]
    assert set(meta["chart"]) == set(ladder)  # the file keeps keys sorted
    assert set(meta["gaps"]) == {f"{upper} vs {lower}" for lower, upper in zip(ladder, ladder[1:])}
    assert all(r["deals"] == 6 for r in meta["gaps"].values())
    assert meta["network_vs_old"]["mean"] == 0  # the same greedy network on both sides of duplicate deals
    assert meta["weights"] == shipped and meta["search"] is None


def test_a_missing_network_file_is_refused(tmp_path):
    try:
        levels.main(["--deals", "2", "--weights", str(tmp_path / "none.npz"), "--out", str(tmp_path / "x.json")])
    except SystemExit as stop:
        assert "no network file" in str(stop)
    else:
        raise AssertionError("a missing --weights file was accepted")
