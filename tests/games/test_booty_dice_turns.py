"""Booty Dice's setup and turns (clockwise, who acts, stopping early) and the rolls: holding
and releasing dice, the third roll, companion dice rolled by chance.

Most tests use table dice, so every roll is exact; the six one-letter faces and the
helpers that play a turn: tests/games/booty_dice_helpers.py.
"""
from __future__ import annotations

import pytest

from companion.engine import CHANCE, Match
from companion.errors import OptionError
from companion.games import get
from companion.games.booty_dice import GAME
from tests.engine.contract import rejected
from tests.games.booty_dice_helpers import enter, hold, new, roller, st, turn

# -- setup and turns -------------------------------------------------------------------

def test_registered_under_its_id():
    assert get("booty-dice") is GAME
    assert GAME.has_secrets is False


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_gives_every_pirate_5_doubloons_10_lives_and_fills_the_supplies(seats):
    s = st(new(seats))
    assert s["doubloons"] == [5] * seats and s["lives"] == [10] * seats
    assert s["shields"] == [0] * seats
    assert s["treasure"] == 100 - 5 * seats and s["war_chest"] == 30
    assert s["roller"] == 0 and s["step"] == "rolling" and s["rolls"] == 1


def test_first_seat_option_picks_who_goes_first_and_is_checked():
    assert roller(new(4, first_seat=3)) == 2
    with pytest.raises(OptionError):
        new(3, first_seat=4)


def test_turns_go_clockwise_in_seat_order_and_wrap():
    match = new(3, first_seat=2)
    seen = []
    for _ in range(4):
        seen.append(roller(match))
        turn(match, "SS$$XX")
    assert seen == [1, 2, 0, 1]


def test_the_roller_may_stop_after_the_first_roll():
    match = new()
    enter(match, "$$SSXX")
    assert {"type": "stop"} in match.legal_actions(0)
    match.apply(0, {"type": "stop"})
    assert st(match)["doubloons"][0] == 5 + 4 - 4 and st(match)["shields"][0] == 2
    assert roller(match) == 1


def test_only_the_roller_acts():
    match = new()
    assert match.acting() == [0]
    code = rejected(match, 1, {"type": "enter", "face": "shield"})
    assert code == "not_your_turn"


# -- rolling and holding ---------------------------------------------------------------

def test_held_dice_stay_and_only_the_others_are_rolled_again():
    match = new()
    enter(match, "$CJPSX")
    hold(match, 1, 3)
    match.apply(0, {"type": "roll"})
    s = st(match)
    assert s["dice"] == ["doubloon", None, "jolly", None, None, None]
    assert s["rolls"] == 2 and s["step"] == "rolling"
    enter(match, "SSSS")
    assert st(match)["dice"] == ["doubloon", "shield", "jolly", "shield", "shield", "shield"]
    # Holds carry over to the next roll until released.
    assert st(match)["held"] == [True, False, True, False, False, False]


def test_a_held_die_can_be_released_before_the_next_roll():
    match = new()
    enter(match, "$CJPSX")
    hold(match, 2, 2)
    assert st(match)["held"] == [False] * 6
    match.apply(0, {"type": "roll"})
    assert st(match)["dice"] == [None] * 6


def test_one_dies_hold_changes_at_most_twice_between_rolls():
    match = new()
    enter(match, "$CJPSX")
    hold(match, 4, 4)
    assert {"type": "hold", "die": 4} not in match.legal_actions(0)
    assert rejected(match, 0, {"type": "hold", "die": 4}) == "bad_value"
    match.apply(0, {"type": "roll"})
    enter(match, "SSSSSS")
    assert {"type": "hold", "die": 4} in match.legal_actions(0)


def test_rolling_again_needs_a_die_that_is_not_held():
    match = new()
    enter(match, "$CJPSX")
    hold(match, 1, 2, 3, 4, 5, 6)
    assert {"type": "roll"} not in match.legal_actions(0)
    assert rejected(match, 0, {"type": "roll"}) == "not_now"


def test_after_the_third_roll_the_dice_resolve_by_themselves():
    match = new()
    enter(match, "SSSSSS")
    match.apply(0, {"type": "roll"})
    enter(match, "SSSSSS")
    match.apply(0, {"type": "roll"})
    enter(match, "$$$$$$")
    s = st(match)
    assert s["doubloons"][0] == 17 and s["shields"][0] == 0 and s["roller"] == 1


def test_companion_dice_are_rolled_by_chance_and_rerolls_keep_held_dice():
    match = Match.create(GAME, 3, {"dice": "companion"}, seed="booty")
    s = st(match)
    assert s["step"] == "deciding" and None not in s["dice"]
    assert match.legal_actions(0)[-2:] == [{"type": "roll"}, {"type": "stop"}]
    assert rejected(match, 0, {"type": "enter", "face": "shield"}) == "not_now"
    kept = s["dice"][:2]
    hold(match, 1, 2)
    entries = match.apply(0, {"type": "roll"})
    assert [e.actor for e in entries] == [0, CHANCE]
    assert len(entries[1].action["faces"]) == 4
    s = st(match)
    assert s["dice"][:2] == kept and s["dice"][2:] == entries[1].action["faces"]
    assert s["rolls"] == 2


def test_companion_dice_roll_the_same_from_the_same_seed():
    def faces(seed):
        return st(Match.create(GAME, 4, {}, seed=seed))["dice"]
    assert faces("a") == faces("a")
    assert len({tuple(faces(f"s{k}")) for k in range(8)}) > 1
