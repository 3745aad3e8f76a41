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
