"""`mutiny simulate --bots`: win share per seat with 95% Wilson intervals, the bot seat
against the rest, two sets of options side by side, the same figures on any number of
workers; the random players' report as it was."""
from __future__ import annotations

import json
import re

import pytest

import companion.games
from companion.cli import main
from companion.simulate import simulate, wilson

SHARE = r"\d+\.\d \(\d+\.\d-\d+\.\d\)"


def test_wilson_intervals_are_the_known_ones():
    assert wilson(5, 10) == pytest.approx((0.5, 0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10)[2] == 1.0 and wilson(0, 0) == (0.0, 0.0, 1.0)


def test_bots_with_a_second_set_of_options_print_both_tables(capsys):
    assert main(["simulate", "moon-yeti", "--bots", "easy", "-n", "3", "--seats", "4",
                 "--compare-option", "jury=false", "--seed", "cli"]) == 0
    out = capsys.readouterr().out
    assert "moon-yeti: 3 matches, 4 seats, easy in every seat" in out
    assert re.search(r"A: options .*jury=True", out) and re.search(r"B: options .*jury=False", out)
    assert re.search(r"^seat\s+A win % \(95% CI\)\s+B win % \(95% CI\)\s+"
                     r"B - A points \(95% CI, same seeds\)$", out, re.M)
    rows = [line for line in out.splitlines() if re.match(r"[1-4] ", line)]
    assert len(rows) == 4 and all(len(re.findall(SHARE, row)) == 2 for row in rows)
    assert all(re.search(r"[+-]\d+\.\d \([+-]\d+\.\d to [+-]\d+\.\d\)$", row) for row in rows)
    assert re.search(r"A length: mean \d+\.\d actions", out)
    assert re.search(r"B easy bot decisions: \d+, p50 \d+ ms, p95 \d+ ms", out)


def test_one_bot_against_random_players_gets_a_row_of_its_own(capsys):
    assert main(["simulate", "moon-yeti", "--bots", "easy", "--against", "random",
                 "-n", "4", "--seats", "4"]) == 0
    out = capsys.readouterr().out
    assert "easy in one seat (each seat in turn) against random" in out
    assert re.search(r"easy seat\s+" + SHARE, out)


def test_workers_give_the_same_figures_as_one_process():
    game = companion.games.get("moon-yeti")
    one = simulate(game, 4, 4, "workers", players="easy", workers=1)
    two = simulate(game, 4, 4, "workers", players="easy", workers=2)
    assert (one.wins, one.lengths) == (two.wins, two.lengths)
    assert sum(len(t) for t in two.decisions.values()) > 0


def test_random_players_print_the_report_as_before(capsys):
    assert main(["simulate", "booty-dice", "-n", "2", "--seats", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split() == ["seat", "wins", "win", "%"]
    assert "average length:" in out and "slowest step:" in out


def test_against_needs_bots():
    with pytest.raises(SystemExit, match="--against needs --bots"):
        main(["simulate", "moon-yeti", "--against", "random", "-n", "1"])


def test_a_simulated_match_reads_a_clock_drawn_from_its_seed_not_the_wall_clock():
    # Moon Yeti's time is declared from the clock by default: the minute (which picks
    # the Mutineer) must come from the match's seed, or no run would repeat another.
    from companion.engine import PUBLIC
    from companion.simulate import SimulationReport, play_random, table_clock

    game = companion.games.get("moon-yeti")
    minutes = {}
    for seed in ("clock-a", "clock-b", "clock-c"):
        match = play_random(game, 4, seed, {}, SimulationReport("moon-yeti", 4))
        minutes[seed] = match.view(PUBLIC)["state"]["minute"]
        assert minutes[seed] == table_clock(seed)().minute
    assert len(set(minutes.values())) > 1  # (drawn per match: not one fixed time)


def _record(path, seed="record", seats=4):
    from companion.simulate import MatchRecord
    return MatchRecord(path, "moon-yeti", seats, seed, "easy", None, False)


def test_a_recorded_run_stopped_halfway_carries_on_to_the_same_figures(tmp_path):
    from companion.simulate import simulate_bots
    game = companion.games.get("moon-yeti")
    sets = [{}, {"change_course": "player_recasts", "ready_warns": False}]
    whole = simulate_bots(game, 4, 4, "record", sets, players="easy")
    path = tmp_path / "run.jsonl"
    heard = []
    simulate_bots(game, 2, 4, "record", sets, lambda *done: heard.append(done),
                  players="easy", record=_record(path))
    # The two sets take turns (match 0 of each, then 1); each match here was played.
    assert heard == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert len(path.read_text().splitlines()) == 1 + 4
    # A cut line (the stop came while it was written) is played again.
    with path.open("a") as out:
        out.write('{"options": {}, "ind')
    heard.clear()
    carried = simulate_bots(game, 4, 4, "record", sets, lambda *done: heard.append(done),
                            players="easy", workers=2, record=_record(path))
    # The first four were read back: only the last four count as played (the pace).
    assert heard == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 2), (7, 3), (8, 4)]
    for one, other in zip(whole, carried, strict=True):
        assert (one.wins, sorted(one.lengths)) == (other.wins, sorted(other.lengths))
    assert sum(1 for line in path.read_text().splitlines() if line.endswith("}")) == 1 + 8


def test_a_recorded_match_is_read_back_not_played_again(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    command = ["simulate", "moon-yeti", "--bots", "easy", "-n", "3", "--seats", "4",
               "--seed", "record", "--record", str(path)]
    assert main(command) == 0
    # Say in the record that seat 1 won every match: a rerun reports what it reads.
    lines = path.read_text().splitlines()
    forged = [lines[0]] + [re.sub(r'"winners": \[[0-9, ]*\]', '"winners": [0]', line)
                           for line in lines[1:]]
    path.write_text("\n".join(forged) + "\n")
    capsys.readouterr()
    assert main(command[:5] + ["2"] + command[6:]) == 0  # -n 2: what the record holds
    out = capsys.readouterr().out
    assert "moon-yeti: 2 matches" in out
    assert re.search(r"^1\s+100\.0 \(", out, re.M) and re.search(r"^2\s+0\.0 \(", out, re.M)
    assert path.read_text().splitlines() == forged


def test_a_record_of_another_run_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    _record(path, seed="one")
    with pytest.raises(ValueError, match=r"records another run \(seed differ\)"):
        _record(path, seed="two")
    with pytest.raises(SystemExit, match="records another run"):
        main(["simulate", "moon-yeti", "--bots", "easy", "-n", "1", "--seats", "5",
              "--seed", "one", "--record", str(path)])
    # Other rules (the game's sources changed) are another run too.
    head = json.loads(path.read_text().splitlines()[0])
    path.write_text(json.dumps({**head, "code": "0" * 16}) + "\n")
    with pytest.raises(ValueError, match=r"\(code differ\)"):
        _record(path, seed="one")


def test_record_needs_bots(tmp_path):
    with pytest.raises(SystemExit, match="--record needs --bots"):
        main(["simulate", "moon-yeti", "-n", "1", "--record", str(tmp_path / "r")])


def test_ctrl_c_stops_a_recorded_run_quietly_and_says_how_to_carry_on(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "run.jsonl"
    # (A shell's background job ignores Ctrl-C, and Python then keeps ignoring it: the
    # run is started with Python's own handler, as from a terminal.)
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
            "from companion.cli import main; sys.exit(main(sys.argv[1:]))")
    run = subprocess.Popen(
        [sys.executable, "-c", code, "simulate", "moon-yeti", "--bots", "easy", "-n", "2000",
         "--workers", "2", "--record", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for _ in range(600):
            if path.exists() and len(path.read_text().splitlines()) > 2:
                break
            time.sleep(0.1)
        os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: every process
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err
    kept = len(path.read_text().splitlines()) - 1
    assert f"stopped; {kept} matches are in {path}" in err and "Process" not in err, err
    assert 2 <= kept < 2000 and out == ""


def test_a_records_code_hash_changes_with_the_rules_not_with_the_words(tmp_path):
    import shutil
    from pathlib import Path

    from companion.simulate import code_fingerprint
    copy = tmp_path / "companion"
    shutil.copytree(Path(companion.games.__file__).parents[1], copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    first = code_fingerprint("booty-dice", copy)
    assert first == code_fingerprint("booty-dice")
    with (copy / "games" / "booty_dice" / "show.py").open("a") as show:
        show.write("\n# another word on a screen\n")
    assert code_fingerprint("booty-dice", copy) == first
    with (copy / "games" / "booty_dice" / "rules.py").open("a") as rules:
        rules.write("\n# another rule\n")
    assert code_fingerprint("booty-dice", copy) != first
    assert code_fingerprint("moon-yeti", copy) == code_fingerprint("moon-yeti")


def test_the_difference_between_two_runs_is_taken_match_by_match():
    from companion.simulate import SimulationReport, paired_difference
    a = SimulationReport("g", 2, outcomes=[[0], [1], [0], [1]])
    b = SimulationReport("g", 2, outcomes=[[0], [0], [0], [0]])
    seat_one = paired_difference(a, b, lambda i, winners: 0 in winners)
    # Differences 0, 1, 0, 1: a mean of 0.5, a spread of 0.577, so 0.5 +- 0.566.
    assert seat_one == pytest.approx((0.5, -0.0658, 1.0), abs=1e-3)
    assert paired_difference(a, a, lambda i, winners: 0 in winners) == (0.0, 0.0, 0.0)
    # Seat 1 in matches 0 and 2, seat 2 in 1 and 3 (a rotating seat's row): A's won
    # all four, B's matches 0 and 2.
    rotating = paired_difference(a, b, lambda i, winners: i % 2 in winners)
    assert rotating[0] == pytest.approx(-0.5)
