"""The benchmark entry point runs and reports every game; no figure is checked here
(speed is measured in bench/, never asserted with a clock in a test)."""
from __future__ import annotations

import json

import companion.games
from bench import __main__ as bench_main
from bench import engine_bench, screen_bytes


def test_the_engine_benchmark_plays_every_game():
    found = engine_bench.run(seconds_per_game=0.0, min_matches=1)
    assert sorted(found) == sorted(companion.games.GAMES)
    for row in found.values():
        assert row["matches"] == 1
        assert len(row["apply_us"]) == row["actions_per_match"] > 0


def test_the_entry_point_writes_the_table_as_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench_main.main(["--quick", "--only", "engine", "--json", str(out)]) == 0
    written = json.loads(out.read_text())
    assert written["machine"]["cores"] >= 1
    names = [row["name"] for row in written["rows"]]
    for game_id, game in companion.games.GAMES.items():
        assert f"engine: {game_id} ({game.spec.max_seats} seats), apply one action" in names
        assert f"engine: {game_id}, random matches per second" in names
    assert all(row["p50"] > 0 for row in written["rows"])
    assert "engine: moon-yeti (8 seats)" in capsys.readouterr().out


def test_screen_bytes_reports_the_reveal_on_one_bus_and_on_two_at_once():
    found = screen_bytes.run(matches=1)
    total, parallel = found["reveal_all_seats_bus_ms"], found["reveal_parallel_bus_ms"]
    assert total and len(parallel) == len(total)
    # Four seats on each bus: the busier one carries at least half of a reveal, not all.
    assert all(whole / 2 <= busiest < whole for whole, busiest in zip(total, parallel, strict=True))
    rows = {row["name"]: row for row in bench_main.bench_screen_bytes(quick=True)}
    summed = rows["bus time, all 8 seats after a reveal (both buses)"]
    at_once = rows["all 8 screens updated after a reveal (2 buses at once)"]
    assert at_once["target"] == "<= 50 ms" and summed["target"] == ""
    assert at_once["n"] == summed["n"] > 0 and at_once["max"] < summed["max"]


def test_press_to_screen_times_presses_that_act_and_browsing():
    # moon-yeti's ballots are secret choices in a menu group: a select opens the group
    # or reveals the line before one confirms; the benchmark must get past them.
    from bench import press_to_screen
    found = press_to_screen.run(presses=5)
    assert len(found["act"]) == len(found["act_all"]) == 5
    assert found["browse"]


def test_our_side_of_the_peer_vote_runs_in_a_process_of_its_own(tmp_path):
    # The server's process and the clients' process both start fresh; every timed
    # ballot comes back, each having reached all ten streams.
    from bench.ours_vote import run_ours
    found = run_ours(votes=6, warmup=2, data_dir=str(tmp_path))
    assert len(found) == 6 and all(ms > 0 for ms in found)
    assert list(tmp_path.iterdir()) == []  # its journal folder is gone with it


def test_full_count_runs_one_benchmark_at_its_full_count_in_a_quick_run(tmp_path, monkeypatch):
    # Which count each benchmark was asked for (the benchmarks themselves are not run:
    # this is the entry point's choice).
    asked = {}

    def recorded(name):
        def bench(quick):
            asked[name] = quick
            return []
        return bench
    for name in ("engine", "journal"):
        monkeypatch.setitem(bench_main.BENCHMARKS, name, recorded(name))
    out = tmp_path / "bench.json"
    assert bench_main.main(["--quick", "--only", "engine", "--only", "journal",
                            "--full-count", "journal", "--json", str(out)]) == 0
    assert asked == {"engine": True, "journal": False}
