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
