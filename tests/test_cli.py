"""The ``parlour`` command's usage: what it lists, and the errors for bad counts."""
import pytest

from app.cli import main


def test_train_and_bench_list_what_they_run(capsys):
    """Without a name (an error) or with --help (not an error) each lists its commands, read
    from the modules that define ``main``; an unknown trainer says what exists."""
    assert main(["train"]) == 2
    listed = capsys.readouterr().err.splitlines()
    assert "  racko diablo" in listed and "  yaniv dmc" in listed and "  queen_of_spades network" in listed
    assert not any("plot" in line or line.strip() == "dmc" for line in listed)  # helpers, not trainers
    assert main(["train", "racko", "--help"]) == 0
    assert "  racko diablo" in capsys.readouterr().out.splitlines()
    assert main(["train", "racko", "nope"]) == 2
    assert "nothing called 'racko nope' here; one of: " in capsys.readouterr().err
    assert main(["bench", "--help"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  request" in out and "  uno" in out and "  timing" not in out and "  client" not in out


@pytest.mark.parametrize("argv", [
    ["tournament", "racko", "--players", "kyle,kyle", "--games", "-3", "--no-store"],
    ["tournament", "racko", "--players", "kyle,kyle", "--games", "x", "--no-store"],
    ["tournament", "racko", "--players", "kyle,kyle", "--workers", "0", "--no-store"],
    ["calibrate", "racko", "--games", "0", "--levels", "kyle"],
    ["calibrate", "racko", "--games-for", "kyle=0", "--levels", "kyle"],
])
def test_a_count_under_one_is_a_usage_error(argv, capsys):
    """Games and workers are whole numbers of at least one: argparse's error (exit 2), before any
    game is played or a progress bar drawn."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and ("under 1" in err or "not a whole number" in err or "at least 1" in err)
    assert "━" not in err
