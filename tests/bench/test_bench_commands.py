"""The benchmark commands run and report their figures (no timing is asserted: they are benchmarks)."""
import json

from app.cli import main


def test_bench_tictactoe_reports_playouts_and_training(capsys):
    assert main(["bench", "tictactoe", "--json", "--seconds", "0.05", "--repeats", "1"]) == 0
    text = capsys.readouterr().out
    data = json.loads(text)
    assert "playout" in text and "menace" in text.lower()
    assert data


def test_unknown_bench_is_a_clear_error(capsys):
    assert main(["bench", "chess"]) == 2
    assert "nothing called 'chess'" in capsys.readouterr().err


def test_bench_uno_reports_deals_and_search_time(capsys):
    assert main(["bench", "uno", "--json", "--seconds", "0.05", "--repeats", "1", "--decisions", "2"]) == 0
    text = capsys.readouterr().out
    assert "rules core" in text and '"budget": 40000' in text
    assert json.loads(text)


def test_bench_racko_reports_deals_goal_and_move_times(capsys):
    assert main(["bench", "racko", "--json", "--seconds", "0.02", "--repeats", "1", "--decisions", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in data["results"]]
    assert "2p Kyle vs Kyle" in names and "4p random deals, rules core" in names
    assert data["goal"]["goal"] == 5000 and [m["agent"] for m in data["move_times"]] == ["kyle", "max"]
    assert all(r["per_cpu_second"] > 0 for r in data["results"])
