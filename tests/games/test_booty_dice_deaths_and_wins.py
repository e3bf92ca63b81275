"""Booty Dice's lives and deaths (the Mutiny, Blackbeard's Curse, Captain's Plunder (B5), a
roller who walks the plank) and the end (B6): the last pirate alive, 25 doubloons.

Most tests use table dice, so every roll is exact; the six one-letter faces and the
helpers that play a turn: tests/games/booty_dice_helpers.py.
"""
from __future__ import annotations

from companion.engine import Match
from tests.games.booty_dice_helpers import kinds, new, roller, st, turn

# -- Mutiny, Curse, Captain's Plunder (B5), deaths -----------------------------------------

def test_mutiny_costs_one_more_life_per_extra_plank():
    match = new(3)
    turn(match, "PPPPPS")
    assert st(match)["lives"] == [10, 7, 7]


def test_blackbeards_curse_takes_two_lives_and_five_doubloons_and_all_six_dice():
    match = new(3)
    turn(match, "$XJCPS")
    s = st(match)
    assert s["lives"] == [10, 8, 8] and s["doubloons"] == [5, 0, 0]
    assert s["shields"] == [0, 0, 0] and s["treasure"] == 85 + 10 and s["locker"] == 4


def _seat_two_at_four_lives(**options) -> Match:
    """Seat 2 at 4 Lives, 5 Doubloons, no Shield; seat 1 at 6 Lives with 6 Shields."""
    match = new(3, **options)
    turn(match, "PPPPPP")                    # seat 0: Mutiny of 4
    turn(match, "SSSSSS")                    # seat 1
    turn(match, "$$XXPP")                    # seat 2 walks the plank twice
    s = st(match)
    assert s["lives"] == [10, 6, 4] and s["doubloons"] == [5, 5, 5]
    return match


def test_captains_plunder_after_a_mutiny_kill_and_the_dead_pirates_shields_go_back():
    match = _seat_two_at_four_lives()
    for _ in range(3):
        turn(match, "SSSSSS")                # seats 0, 1, 2
    assert st(match)["shields"] == [6, 12, 6] and st(match)["war_chest"] == 6
    turn(match, "PPPPPP")
    s = st(match)
    assert s["lives"] == [10, 2, 0] and s["doubloons"] == [10, 5, 0]
    assert s["shields"] == [6, 12, 0] and s["war_chest"] == 12
    assert s["treasure"] == 85 and match.result() is None
    assert {"kind": "out", "seat": 2, "n": 5, "to": 0} in s["events"]


def test_without_plunder_a_victims_doubloons_go_to_the_buried_treasure():
    match = _seat_two_at_four_lives(plunder=False)
    turn(match, "PPPPPP")
    s = st(match)
    assert s["doubloons"] == [5, 5, 0] and s["treasure"] == 90


def test_captains_plunder_after_a_cutlass_kill():
    match = _seat_two_at_four_lives()
    turn(match, "PPPPSC", picks=(("attack", 2),))   # seat 2: 4 -> 3 -> 1
    turn(match, "SSSSSS")                            # seat 1
    turn(match, "SSS$$X")                            # seat 2: 3 Shields, 7 Doubloons
    assert st(match)["shields"] == [1, 12, 3] and st(match)["war_chest"] == 14
    assert st(match)["lives"] == [10, 4, 1] and st(match)["doubloons"] == [5, 5, 7]
    # Three blows break seat 2's Shields, the fourth kills: its 7 Doubloons are the
    # roller's. The last two Cutlasses can only hit seat 1 (picked automatically).
    turn(match, "CCCCCC", picks=(("attack", 2),) * 4)
    s = st(match)
    assert s["lives"] == [10, 4, 0] and s["shields"] == [1, 10, 0]
    assert s["doubloons"] == [12, 5, 0] and s["war_chest"] == 14 + 3 + 2
    assert {"kind": "out", "seat": 2, "n": 7, "to": 0} in s["events"]


def test_captains_plunder_after_a_curse_kill_comes_before_the_payment():
    """B9: the Curse takes Lives first, then Doubloons: a pirate it kills is plundered
    whole, one it leaves alive pays."""
    match = _seat_two_at_four_lives()
    turn(match, "$XJCPS")                    # seats 1, 2: -2 Lives, -5 Doubloons
    assert st(match)["lives"] == [10, 4, 2] and st(match)["doubloons"] == [5, 0, 0]
    turn(match, "SSSSSS")
    turn(match, "$$$$$$")                    # seat 2: 12 Doubloons
    turn(match, "$XJCPS")
    s = st(match)
    # Lives go first: seat 2 dies holding all 12, and all 12 are plundered.
    assert s["lives"] == [10, 2, 0] and s["doubloons"] == [17, 0, 0]
    assert s["treasure"] == 95 - 12


def test_a_roller_who_walks_the_plank_to_death_stops_and_loses_the_gold():
    """B8: the roller is out at the Plank that takes their last Life; their later dice
    (here two Shields) do nothing."""
    match = new(3)
    turn(match, "PPPPPP")                    # seats 1, 2 -> 6 Lives
    turn(match, "PPPPPP")                    # seat 1: seats 0 -> 6, 2 -> 2
    turn(match, "$$PPSS")                    # seat 2: +4 gold, dies on the 2nd Plank
    s = st(match)
    assert s["lives"] == [6, 6, 0] and s["doubloons"] == [5, 5, 0]
    assert s["shields"] == [0, 0, 0] and s["war_chest"] == 30   # its Shields never came
    assert s["treasure"] == 85 - 4 + 9
    assert {"kind": "out", "seat": 2, "n": 9, "to": None} in s["events"]
    assert s["roller"] == 0 and match.result() is None
    turn(match, "SSSSSS")
    assert roller(match) == 1
    turn(match, "SSSSSS")
    assert roller(match) == 0                # seat 2 is out and skipped


def test_a_roller_killed_by_a_plank_resolves_nothing_more_not_even_a_combo():
    """B8 with combos_consume off: the Planks of a Mutiny resolve one by one first; the
    one that takes the roller's last Life ends their dice, so the Mutiny never comes."""
    match = new(3, combos_consume=False)
    for faces in ("SSSSSS", "SSSSSS", "PPPPPP", "SSSSSS", "SSSSSS", "PPSSSS",
                  "$$$$$$", "$$$$$$"):
        turn(match, faces)
    s = st(match)
    assert s["lives"] == [6, 6, 2] and roller(match) == 2
    turn(match, "PPPSSS")
    s = st(match)
    assert s["lives"] == [6, 6, 0] and kinds(match) == ["life", "life", "out"]
    assert s["shields"][2] == 0 and match.result() is None and roller(match) == 0


# -- the end (B6) ---------------------------------------------------------------------------

def test_the_last_pirate_alive_wins_and_scores_are_doubloons():
    match = new(2)
    for _ in range(2):
        turn(match, "PPPPPP")                # seat 1: 10 -> 6 -> 2
        turn(match, "SSSSSS")
    turn(match, "PPPPPP")
    result = match.result()
    assert result.winners == [0] and result.reason == "last pirate alive"
    assert result.scores == [10, 0]
    assert match.acting() == [] and match.step() == "over"


def test_a_roller_whose_plank_leaves_one_pirate_alive_loses():
    match = new(2)
    for _ in range(2):
        turn(match, "SSSSSS")
        turn(match, "PPPPPP")                # seat 0: 10 -> 6 -> 2
    turn(match, "PP$SSS")                    # +2 Doubloons, then two Planks
    result = match.result()
    assert result.winners == [1] and result.reason == "last pirate alive"
    assert result.scores == [0, 5] and st(match)["treasure"] == 90 + 5
    assert st(match)["shields"] == [0, 0]


def _seat_zero_at_23() -> Match:
    match = new(3)
    turn(match, "$$$$$$")                    # 17
    turn(match, "SSSSSS")
    turn(match, "SSSSSS")
    turn(match, "$$$SSS")                    # 23
    turn(match, "SSSSSS")
    turn(match, "SSSSSS")
    assert st(match)["doubloons"][0] == 23
    return match


def test_25_doubloons_win_the_moment_they_are_held():
    match = _seat_zero_at_23()
    turn(match, "$XXSSS")
    s = st(match)
    assert s["doubloons"][0] == 25 and s["shields"][0] == 3 + 0
    result = match.result()
    assert result.winners == [0] and result.reason == "25 Doubloons"
    assert result.scores == s["doubloons"]


def test_without_win_at_once_the_roller_must_still_hold_25_after_resolving():
    match = _seat_zero_at_23()
    match = new(3, win_at_once=False)
    for faces in ("$$$$$$", "SSSSSS", "SSSSSS", "$$$SSS", "SSSSSS", "SSSSSS"):
        turn(match, faces)
    turn(match, "$XXSSS")
    assert st(match)["doubloons"][0] == 21 and match.result() is None
    turn(match, "SSSSSS")
    turn(match, "SSSSSS")
    turn(match, "$$SSSS")
    assert match.result().winners == [0] and st(match)["doubloons"][0] == 25


def test_a_plunder_can_reach_25_and_win():
    match = new(2)
    turn(match, "PPPPPP")                    # seat 1 -> 6
    turn(match, "$$$$$$")                    # seat 1 -> 17 Doubloons
    turn(match, "PPPPPP")                    # seat 1 -> 2
    turn(match, "$$$XXP")                    # seat 1: 19 Doubloons, 1 Life
    turn(match, "$$$$CC")                    # 5 + 8 = 13, then the kill: + 19
    result = match.result()
    assert result.winners == [0] and result.reason == "25 Doubloons"
    assert st(match)["doubloons"] == [32, 0] and st(match)["treasure"] == 90 - 14 - 8 + 0
