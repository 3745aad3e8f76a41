"""The benchmark commands run and report their figures (no timing is asserted: they are benchmarks)."""
import json

import pytest

from app.cli import main


def test_bench_tictactoe_reports_playouts_and_training(capsys):
    assert main(["bench", "tictactoe", "--json", "--seconds", "0.05", "--repeats", "1", "--reviews", "2"]) == 0
    text = capsys.readouterr().out
    data = json.loads(text)
    assert "playout" in text and "menace" in text.lower()
    assert data["coach"]["agent"] == "perfect" and data["coach"]["decisions"] == 2


def test_unknown_bench_is_a_clear_error(capsys):
    assert main(["bench", "chess"]) == 2
    err = capsys.readouterr().err
    assert "nothing called 'chess'" in err and "racko" in err and "server" in err


def test_bench_uno_reports_deals_and_search_time(capsys):
    assert main(["bench", "uno", "--json", "--seconds", "0.05", "--repeats", "1", "--decisions", "2",
                 "--reviews", "2"]) == 0
    text = capsys.readouterr().out
    assert "rules core" in text and '"budget": 40000' in text and '"budget": 5000' in text
    data = json.loads(text)
    assert data["coach"]["agent"] == "mcts-bo" and data["coach"]["decisions"] == 2
    assert [(p["level"], p["players"], p["decisions"]) for p in data["search"]] == [
        ("search level", 2, 2), ("search level", 4, 2), ("top level (search, BetterOffensive playouts)", 2, 2),
        ("top level (search, BetterOffensive playouts)", 4, 2), ("Deep Monte-Carlo level", 2, 20),
        ("Deep Monte-Carlo level", 4, 20)]


def test_bench_racko_reports_deals_goal_and_move_times(capsys):
    assert main(["bench", "racko", "--json", "--seconds", "0.02", "--repeats", "1", "--decisions", "3",
                 "--reviews", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in data["results"]]
    assert "2p Kyle vs Kyle" in names and "4p random deals, rules core" in names
    assert data["goal"]["goal"] == 5000 and [m["agent"] for m in data["move_times"]] == ["kyle", "max", "diablo", "lookahead", "lookahead-plan",
                                                                                   "dmc"]
    assert all(r["per_cpu_second"] > 0 for r in data["results"])


def test_bench_server_with_peers_reports_every_row_and_the_goals(capsys):
    assert main(["bench", "server", "--peers", "--json", "--requests", "4", "--seconds", "1", "--warmup", "1",
                 "--clients", "1,2", "--streams", "3", "--games", "tictactoe", "--levels", "random,perfect"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = data["rows"]
    assert {(r["what"], r["clients"]) for r in rows} >= {("floor", 1), ("view", 1), ("move + AI reply", 1),
                                                         ("floor again", 1), ("floor", 2), ("view", 2),
                                                         ("move + AI reply", 2), ("floor again", 2)}
    block = [r["what"] for r in rows if r["clients"] == 2]
    assert (block[0], block[-1]) == ("floor", "floor again")  # the floor runs before and after the block's rows
    moves = {r["agent"] for r in rows if r["what"] == "move + AI reply"}
    assert moves == {"random", "perfect"}  # --levels: only those two, of tic-tac-toe's several
    assert all(r["timed"] > 0 and r["errors"] == 0 for r in rows), rows
    assert all(r["verdict"] in ("met", "NOT MET") for r in rows if not r["what"].startswith("floor"))
    assert data["streams"]["opened"] == 3 and data["rss_after_startup_mb"] > 0


def test_bench_queen_of_spades_reports_deals_goal_and_move_time(capsys):
    assert main(["bench", "queen_of_spades", "--peers", "--json", "--seconds", "0.02", "--repeats", "1",
                 "--decisions", "3",
                 "--reviews", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in data["results"]]
    assert names[:4] == ["random deals, rules core", "random deals, rules core, decks from one generator",
                         "random deals, public API", "rule player deals"]
    assert any("hearts" in n for n in names) or any("OpenSpiel" in n for n in data["notes"])
    assert data["goal"]["goal"] == 15000 and data["move_times"][0]["agent"] == "rules"
    assert data["coach"]["agent"] == "search" and data["coach"]["max_cpu_ms"] > 0
    assert all(r["per_cpu_second"] > 0 for r in data["results"])


def test_a_missing_peer_names_the_bench_extra_in_full(capsys, monkeypatch):
    """The hint goes through rich: '[bench]' must be printed, not read as a style tag."""
    import agents.bench.queen_of_spades as bench

    from agents.bench.report import peer

    monkeypatch.setattr(bench, "peer", lambda name, package, module: peer(name, package, "no_such_module_here"))
    monkeypatch.setattr(bench.queen_of_spades_network, "figures", lambda *args: ([], []))  # skip the network rows
    assert main(["bench", "queen_of_spades", "--peers", "--seconds", "0.02", "--repeats", "1", "--decisions", "0"]) == 0
    assert "pip install -e '.[bench]'" in capsys.readouterr().out


def test_bench_request_profiles_the_move_path(capsys):
    """Four seats of Queen of Spades (the fewest it takes): the person's move request, the
    replies, and the service functions named in the profile."""
    assert main(["bench", "request", "--game", "queen_of_spades", "--agent", "random", "--moves", "10", "--top", "60"]) == 0
    text = capsys.readouterr().out
    assert "ms of wall time per move request" in text
    assert "app/services/match_turns.py" in text and "play_human" in text and "_record" in text


def test_bench_request_refuses_a_silly_sample(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["bench", "request", "--moves", "5"])
    assert stop.value.code == 2
    assert "--moves must be 10 to 20,000" in capsys.readouterr().err


def test_the_verdicts_use_the_faster_of_the_two_floors():
    from app.bench.server import Row, faster

    slow = Row("floor", "–", "", 64, requests_per_s=2000.0, median_ms=30)
    fast = Row("floor again", "–", "", 64, requests_per_s=4000.0, median_ms=15)
    assert faster(slow, fast) is fast and faster(fast, slow) is fast
    one_slow, one_fast = Row("floor", "–", "", 1, median_ms=0.5), Row("floor again", "–", "", 1, median_ms=0.35)
    assert faster(one_slow, one_fast) is one_fast


def test_bench_heavy_runs_its_four_phases_on_a_tiny_sample(capsys):
    """Another client's view alone, under heavy reads, under watched AI-only matches, and under
    both: every phase timed the view, the readers were answered, the matches were made."""
    assert main(["bench", "heavy", "--json", "--matches", "30", "--readers", "2", "--watched", "2",
                 "--seconds", "1", "--interval", "0.1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["phases"]] == ["alone", "heavy reads", "AI-only", "both"]
    assert all(p["views"] >= 3 and p["view_errors"] == 0 and p["p99_ms"] > 0 for p in data["phases"])
    reads = {p["name"]: p["reads_ok"] for p in data["phases"]}
    assert reads["alone"] == 0 and reads["heavy reads"] > 0 and reads["both"] > 0
    assert all(p["reads_other"] == 0 for p in data["phases"]), data["phases"]
    assert data["ai_only_created"] == 2 and data["goal"]["verdict"] in ("met", "NOT MET")
