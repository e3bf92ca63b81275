"""bench/bots.py runs and prints its row (figures are read, never asserted)."""
from __future__ import annotations

from bench import bots


def test_the_bot_benchmark_prints_a_row_per_game_and_seat_count(capsys):
    rows = bots.run(["moon-yeti"], matches=1, hard_matches=0, easy_matches=1,
                    which="smallest", workers=1, random_matches=4)
    assert [(row["game"], row["seats"]) for row in rows] == [("moon-yeti", 4)]
    row = rows[0]
    assert row["normal_n"] == 1 and row["hard"] is None and 0 <= row["random_share"] <= 1
    assert set(row["times"]) == {"easy", "normal"}
    out = capsys.readouterr().out
    assert "moon-yeti        4 seats  random seat" in out and "normal vs random" in out


def test_a_hard_cell_alone_leaves_the_normal_one_out(capsys):
    rows = bots.run(["booty-dice"], matches=0, hard_matches=1, easy_matches=0,
                    which="smallest", workers=1, random_matches=4)
    row = rows[0]
    assert row["normal"] is None and row["normal_n"] == 0 and row["hard_n"] == 1
    assert set(row["times"]) == {"hard", "normal"}  # (the hard bot's rivals are normal)
    out = capsys.readouterr().out
    assert "normal vs random -  hard vs normal" in out


def test_seat_counts_are_the_smallest_and_a_middle_one():
    assert bots.seat_counts("moon-yeti", "both") == [4, 6]
    assert bots.seat_counts("mit-mutiny", "both") == [4]
    assert bots.seat_counts("booty-dice", "smallest") == [2]
    assert bots.seat_counts("captains-orders", "middle") == [6]


def test_the_decision_benchmark_times_every_level_over_every_game():
    from bench import __main__ as bench_main
    from bench import bot_decisions

    spots = bot_decisions.decision_points("booty-dice", 2)
    assert len(spots) == 2 and all(len(k.legal) > 1 for k in spots)
    found = bot_decisions.run(points=2, hard_points=1)
    rows = {row["name"]: row for row in bench_main.bot_decision_rows(found)}
    normal = rows["bot decision, normal level (5 games)"]
    assert normal["n"] == 2 * 5 and normal["p95"] >= normal["p50"] > 0
    assert normal["emulated_target"] == "p95 <= 8000 ms"
    assert rows["bot decision, hard level (5 games)"]["n"] == 5


def test_the_ceiling_benchmark_plays_the_fair_and_the_all_seeing_bot():
    import random

    import companion.games
    from bench import bot_ceiling
    from companion.engine import Match

    game = companion.games.get("moon-yeti")
    match = Match.create(game, 4, seed="ceiling")
    state = match.snapshot()["state"]
    assert bot_ceiling.all_seeing(game).redeal(state, 0, random.Random(1)) is state
    found = bot_ceiling.run("moon-yeti", 4, matches=2, workers=1)
    assert {k: row["n"] for k, row in found.items()} == {"fair": 2, "all-seeing": 2}
