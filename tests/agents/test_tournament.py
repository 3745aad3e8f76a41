"""Tournaments: seat rotation, the s.e. format, and the same result on any executor."""
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from agents.records import GameRecord, seating, share_with_error, summarise
from agents.tournament import play_games, run


def test_seats_rotate_so_nobody_keeps_the_first_seat():
    records = play_games("tictactoe", ["random", "perfect"], range(6), seed=3)
    assert [r.order for r in records] == [(0, 1), (1, 0)] * 3


def test_seating_runs_through_every_arrangement():
    for n in (3, 4):
        orders = [seating(i, n) for i in range(24)]
        assert len(set(orders)) == 24 if n == 4 else len(set(orders)) == 6
        for start in range(0, 24, n):  # each run of n games puts every player in every seat once
            block = orders[start:start + n]
            assert all(sorted(o[seat] for o in block) == list(range(n)) for seat in range(n))


def test_the_first_players_lead_is_a_paired_difference():
    wins = [0, 0, 1, 2, 0, 0]  # the player who won each game (players sit in order 0, 1, 2)
    records = [GameRecord(i, (0, 1, 2), (0, 0, 0), (w,), 10) for i, w in enumerate(wins)]
    first, second, third = summarise("uno", ["a", "b", "c"], 1, None, records).stats
    assert first.first_lead == (0.0, 0.0)
    lead, se = second.first_lead
    diffs = [1, 1, -1, 0, 1, 1]
    mean = sum(diffs) / 6
    assert lead == pytest.approx(mean)
    assert se == pytest.approx((sum((d - mean) ** 2 for d in diffs) / 5 / 6) ** 0.5)
    assert third.to_json()["first_lead"] == pytest.approx(4 / 6 - 1 / 6)


def test_share_with_error_format():
    assert share_with_error(0.324, 0.016) == "32(2)"
    assert share_with_error(0.5, 0.0011) == "50.0(1)"
    assert share_with_error(0.1234, 0.0004) == "12.34(4)"


def test_win_shares_and_the_reference_strengths():
    result = run("tictactoe", ["perfect", "random"], 400, seed=5)
    perfect, rand = result.stats
    assert perfect.games == rand.games == 400
    assert rand.wins == 0  # Perfect never loses
    assert perfect.win_share > 0.7 and perfect.win_se < 0.03
    assert abs(perfect.win_share + rand.win_share + perfect.draws / 400 - 1) < 1e-9


def test_a_process_pool_gives_the_same_result_as_one_process():
    serial = run("tictactoe", ["menace-trained", "random"], 300, seed=9, chunk=50)
    # spawn: the suite may have imported JAX, whose threads make fork() unsafe
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        parallel = run("tictactoe", ["menace-trained", "random"], 300, seed=9, executor=pool, chunk=50)
    assert serial.to_json() == parallel.to_json()


def test_the_cli_on_a_local_dask_cluster(tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("PARLOUR_DATABASE_URL", f"sqlite:///{tmp_path / 'd.db'}")
    from app.commands.tournament import main

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1", processes=True,
                                  dashboard_address=None) as cluster:
        assert main(["tictactoe", "--players", "perfect,random", "--games", "200", "--seed", "4",
                     "--cluster", cluster.scheduler_address, "--json"]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    local = run("tictactoe", ["perfect", "random"], 200, seed=4).to_json()
    assert on_dask["stats"] == local["stats"] and on_dask["id"] == 1


def test_bad_tournaments_are_refused_clearly(tmp_path, monkeypatch):
    monkeypatch.setenv("PARLOUR_DATABASE_URL", f"sqlite:///{tmp_path / 'd.db'}")
    from app.commands.tournament import main

    with pytest.raises(SystemExit, match="takes 2 players"):
        main(["tictactoe", "--players", "random,random,random", "--games", "10", "--workers", "1"])
    with pytest.raises(SystemExit, match="unknown agent"):
        main(["tictactoe", "--players", "random,deep-blue", "--games", "10", "--workers", "1"])


def test_the_cli_names_and_stores_the_unit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PARLOUR_DATABASE_URL", f"sqlite:///{tmp_path / 'u.db'}")
    from app.commands.tournament import main

    assert main(["uno", "--players", "defensive,random", "--games", "4", "--workers", "1"]) == 0
    assert "4 whole games to 500" in capsys.readouterr().out
    assert main(["uno", "--players", "defensive,random", "--games", "4", "--workers", "1", "--deals",
                 "--preset", "writeup", "--json"]) == 0
    deals = json.loads(capsys.readouterr().out)
    assert deals["unit"] == "single deals" and deals["whole_match"] is False
    assert deals["options"] == {"preset": "writeup"}
    assert main(["tictactoe", "--players", "perfect,random", "--games", "4", "--workers", "1"]) == 0
    assert "4 single deals" in capsys.readouterr().out

    from fastapi.testclient import TestClient
    from app.main import create_app

    with TestClient(create_app(preload=False)) as client:
        stored = sorted(client.get("/api/tournaments").json(), key=lambda t: t["id"])
    assert [(t["game"], t["whole_match"], t["unit"]) for t in stored] == [
        ("uno", True, "whole games to 500"), ("uno", False, "single deals"), ("tictactoe", False, "single deals")]
