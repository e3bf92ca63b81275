"""`mutiny simulate --bots`: win share per seat with 95% Wilson intervals, the bot seat
against the rest, two sets of options side by side, the same figures on any number of
workers; the random players' report as it was."""
from __future__ import annotations

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
    assert re.search(r"^seat\s+A win % \(95% CI\)\s+B win % \(95% CI\)$", out, re.M)
    rows = [line for line in out.splitlines() if re.match(r"[1-4] ", line)]
    assert len(rows) == 4 and all(len(re.findall(SHARE, row)) == 2 for row in rows)
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
