"""Booty Dice: the rulebook's rules, its two worked examples and rulings B1-B9.

Most tests use the "table" dice mode, where the roller enters each die's face, so every
roll is exact. A turn is written as six one-letter faces: ``$`` Doubloon, ``X`` X Marks
the Spot, ``J`` Jolly Roger, ``C`` Cutlass, ``P`` Walk the Plank, ``S`` Shield.
"""
from __future__ import annotations

import random

import pytest

from companion.engine import CHANCE, PUBLIC, Match
from companion.engine.display import menu
from companion.errors import OptionError
from companion.games import get
from companion.games.booty_dice import GAME, event_text, resolution_queue
from tests.engine.contract import rejected

FACE = {"$": "doubloon", "X": "x", "J": "jolly", "C": "cutlass", "P": "plank",
        "S": "shield"}


def new(seats: int = 3, **options) -> Match:
    return Match.create(GAME, seats, {"dice": "table", **options}, seed=7)


def st(match: Match) -> dict:
    return match.snapshot()["state"]


def roller(match: Match) -> int:
    return st(match)["roller"]


def enter(match: Match, faces: str) -> None:
    for code in faces:
        match.apply(roller(match), {"type": "enter", "face": FACE[code]})


def hold(match: Match, *dice: int) -> None:
    for die in dice:
        match.apply(roller(match), {"type": "hold", "die": die})


def turn(match: Match, faces: str, picks: tuple = ()) -> None:
    """One whole turn: enter six faces, stop, then make the roller's picks in order."""
    seat = roller(match)
    enter(match, faces)
    match.apply(seat, {"type": "stop"})
    for kind, target in picks:
        match.apply(seat, {"type": kind, "seat": target})


def kinds(match: Match) -> list[str]:
    return [event["kind"] for event in st(match)["events"]]


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


# -- combos (B1) and order (B2) ----------------------------------------------------------

def test_resolution_queue_follows_the_card_order_and_combos_consume_their_dice():
    dice = ["shield", "plank", "x", "cutlass", "jolly", "doubloon"]
    assert resolution_queue(dice, True, "card") == [{"kind": "curse"}]
    queue = resolution_queue(["plank"] * 4 + ["x", "shield"], True, "card")
    assert queue == [{"kind": "x"}, {"kind": "shield"}, {"kind": "mutiny", "n": 2}]
    queue = resolution_queue(["x"] * 3 + ["plank"] * 3, True, "card")
    assert queue == [{"kind": "mutiny", "n": 1}, {"kind": "shipwreck", "n": 3}]
    queue = resolution_queue(["jolly", "cutlass", "x", "x", "x", "x"], True, "combos_first")
    assert queue == [{"kind": "shipwreck", "n": 4}, {"kind": "steal"}, {"kind": "steal"},
                     {"kind": "cutlass"}]


def test_without_consuming_combo_dice_also_count_as_single_dice():
    queue = resolution_queue(["plank"] * 3 + ["shield"] * 3, False, "card")
    assert queue == [{"kind": "plank"}] * 3 + [{"kind": "shield"}] * 3 + [
        {"kind": "mutiny", "n": 1}]
    curse = resolution_queue(["doubloon", "x", "jolly", "cutlass", "plank", "shield"],
                             False, "card")
    assert [e["kind"] for e in curse] == ["doubloon", "x", "steal", "steal", "cutlass",
                                          "plank", "shield", "curse"]


def test_mutiny_planks_hurt_the_roller_when_combos_do_not_consume():
    match = new(2, combos_consume=False)
    turn(match, "PPPSSS")
    s = st(match)
    assert s["lives"] == [7, 9] and s["shields"][0] == 3


def test_combos_first_order_resolves_the_mutiny_before_the_singles():
    match = new(3, order="combos_first")
    turn(match, "PPP$CJ", picks=(("steal", 2), ("steal", 2), ("attack", 1)))
    assert kinds(match) == ["life", "life", "take", "steal", "steal", "life"]
    card = new(3)
    turn(card, "PPP$CJ", picks=(("steal", 2), ("steal", 2), ("attack", 1)))
    assert kinds(card) == ["take", "steal", "steal", "life", "life", "life"]
    assert st(match)["lives"] == st(card)["lives"] == [10, 8, 9]


# -- the rulebook's worked examples ----------------------------------------------------

def test_example_roll_1_no_shield_steal_both_from_one_pirate():
    """Doubloon, Cutlass, Jolly Roger and a Mutiny after 2 rolls; the roller stops."""
    match = new(4)
    enter(match, "$CJPSX")
    hold(match, 1, 2, 3, 4)
    match.apply(0, {"type": "roll"})
    enter(match, "PP")
    match.apply(0, {"type": "stop"})
    assert match.step() == "targeting"
    match.apply(0, {"type": "steal", "seat": 1})
    match.apply(0, {"type": "steal", "seat": 1})
    match.apply(0, {"type": "attack", "seat": 2})
    s = st(match)
    # Ye take 2 Doubloons from the Buried Treasure; ye steal 2 from one pirate.
    assert s["doubloons"] == [5 + 2 + 2, 5 - 2, 5, 5]
    assert s["treasure"] == 80 - 2
    # The attacked pirate has no Shield: a Life; then every other pirate loses a Life
    # to the Mutiny, and its Planks cost the roller nothing.
    assert s["lives"] == [10, 9, 8, 9]
    assert s["locker"] == 4 and s["shields"] == [0, 0, 0, 0]
    assert s["roller"] == 1


def test_example_roll_1_shielded_target_and_a_split_steal():
    match = new(4, first_seat=3)
    turn(match, "S$$$$$")                    # seat 2: 1 Shield, 15 Doubloons
    turn(match, "SSSSSS")                    # seat 3: 6 Shields
    assert roller(match) == 0
    enter(match, "$CJPSX")
    hold(match, 1, 2, 3, 4)
    match.apply(0, {"type": "roll"})
    enter(match, "PP")
    match.apply(0, {"type": "stop"})
    match.apply(0, {"type": "steal", "seat": 1})
    match.apply(0, {"type": "steal", "seat": 2})
    match.apply(0, {"type": "attack", "seat": 2})
    s = st(match)
    assert s["doubloons"] == [5 + 2 + 2, 5 - 1, 15 - 1, 5]
    # The Shield takes the Cutlass and goes back to the War Chest ...
    assert s["shields"] == [0, 0, 0, 6] and s["war_chest"] == 30 - 7 + 1
    # ... but Shields do not protect from the Mutiny.
    assert s["lives"] == [10, 9, 9, 9]
    assert s["treasure"] == 80 - 10 - 2


def test_example_roll_2_shield_plank_and_a_shipwreck_with_an_extra_x():
    """Shield, Walk the Plank, Shipwreck with an extra X after 3 rolls."""
    match = new(3)
    enter(match, "SPXX$$")
    hold(match, 1, 2, 3, 4)
    match.apply(0, {"type": "roll"})
    enter(match, "X$")
    hold(match, 5)
    match.apply(0, {"type": "roll"})
    enter(match, "X")
    s = st(match)
    assert s["last_roll"] == {"seat": 0, "dice": ["shield", "plank", "x", "x", "x", "x"]}
    # Ye take 1 Shield from the War Chest.
    assert s["shields"] == [1, 0, 0] and s["war_chest"] == 29
    # Ye lose 1 Life to Davey Jones' Locker.
    assert s["lives"] == [9, 10, 10] and s["locker"] == 1
    # All other pirates give 4 Doubloons to the Buried Treasure; the X's of the
    # Shipwreck cost the roller nothing.
    assert s["doubloons"] == [5, 1, 1] and s["treasure"] == 85 + 8
    assert s["roller"] == 1


# -- single dice ---------------------------------------------------------------------------

def test_x_gives_two_doubloons_or_what_the_roller_has():
    match = new(2)
    turn(match, "XX$SSS")
    assert st(match)["doubloons"][0] == 5 + 2 - 4
    turn(match, "SSSSSS")
    turn(match, "XXJSSS", picks=())           # 3 - 4: pays 3; then steals 2 from seat 1
    s = st(match)
    assert s["doubloons"] == [2, 3] and s["treasure"] == 90 - 2 + 4 + 3


def test_cutlass_takes_shields_first_then_lives_when_they_run_out():
    match = new(3, first_seat=2)
    turn(match, "S$$$$$")                    # seat 1: one Shield
    turn(match, "SSSSSS")                    # seat 2
    turn(match, "CCCSSS", picks=(("attack", 1),) * 3)
    s = st(match)
    assert s["shields"][1] == 0 and s["lives"][1] == 8
    assert [e["kind"] for e in s["events"][:3]] == ["shield_lost", "life", "life"]


def test_shields_do_not_protect_from_walking_the_plank():
    match = new(2)
    turn(match, "SSSSS$")
    turn(match, "SSSSSS")
    turn(match, "PP$$SS")
    s = st(match)
    assert s["lives"][0] == 8 and s["shields"][0] == 7


def test_a_single_possible_target_is_picked_by_the_companion():
    match = new(2)
    turn(match, "CCJSSS")
    s = st(match)
    assert s["lives"] == [10, 8] and s["doubloons"] == [7, 3] and s["roller"] == 1


def test_steal_targets_are_living_other_pirates_with_doubloons():
    match = new(3)
    turn(match, "XXXXXX")                    # Shipwreck of 6: seats 1 and 2 pay all 5
    assert st(match)["doubloons"] == [5, 0, 0] and st(match)["treasure"] == 95
    # Seat 1's six steals: only seat 0 has gold, picked automatically; the sixth lapses.
    turn(match, "JJJSSS")
    s = st(match)
    assert s["doubloons"] == [0, 5, 0]
    assert kinds(match).count("steal") == 5 and kinds(match).count("lapse") == 1


def test_targeting_lists_only_the_right_pirates():
    match = new(4)
    enter(match, "CSSSSS")
    match.apply(0, {"type": "stop"})
    assert match.legal_actions(0) == [{"type": "attack", "seat": s} for s in (1, 2, 3)]
    assert rejected(match, 0, {"type": "attack", "seat": 0}) == "bad_value"
    assert rejected(match, 0, {"type": "steal", "seat": 1}) == "not_now"
    assert rejected(match, 0, {"type": "stop"}) == "not_now"


# -- supplies (B3) -------------------------------------------------------------------------

def test_the_war_chest_runs_dry():
    match = new(2)
    for _ in range(5):
        turn(match, "SSSSSS")
    s = st(match)
    assert s["war_chest"] == 0 and s["shields"] == [18, 12]
    turn(match, "SSSSSS")
    assert st(match)["shields"] == [18, 12]


def test_an_endless_war_chest_without_finite_supplies():
    match = new(2, finite_supplies=False)
    for _ in range(6):
        turn(match, "SSSSSS")
    s = st(match)
    assert s["shields"] == [18, 18] and s["war_chest"] is None and s["treasure"] is None


def test_the_buried_treasure_runs_dry():
    match = new(6)
    for _ in range(5):
        turn(match, "$$$$$$")
    assert st(match)["treasure"] == 10
    turn(match, "$$$$$$")
    s = st(match)
    assert s["treasure"] == 0 and s["doubloons"] == [17] * 5 + [15]


def test_an_endless_buried_treasure_without_finite_supplies():
    match = new(6, finite_supplies=False)
    for _ in range(6):
        turn(match, "$$$$$$")
    assert st(match)["doubloons"] == [17] * 6


def test_a_shipwreck_takes_only_what_a_pirate_has():
    match = new(3, first_seat=2)
    turn(match, "XXJJSS", picks=(("steal", 0), ("steal", 0), ("steal", 2), ("steal", 2)))
    assert st(match)["doubloons"] == [3, 5, 3]
    turn(match, "XXXXXX")                    # seat 2: each other pirate owes 6
    s = st(match)
    assert s["doubloons"] == [0, 0, 3] and s["treasure"] == 85 + 4 + 3 + 5


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


# -- views and display ----------------------------------------------------------------------

def test_every_viewer_sees_the_same_public_view_and_redeal_changes_nothing():
    match = new(3)
    enter(match, "$CJPSX")
    views = [match.view(v)["state"] for v in (PUBLIC, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert views[0]["dice"][0] == "doubloon" and views[0]["alive"] == [True] * 3
    state = st(match)
    assert GAME.redeal(state, 1, random.Random(1)) == state


def test_the_roller_sees_dice_and_choices_the_others_whose_turn_it_is():
    match = new(3, first_seat=1)
    enter(match, "$CJPSX")
    hold(match, 2)
    mine = match.display(0)
    assert mine.title == "Your roll 1 of 3" and mine.led == "on"
    # The seat's 21 columns: codes; the phone: the same in words (issue 16).
    assert mine.short_lines[:2] == (" $ [C] J  P  S  X ", "You L10 S0 $5")
    assert mine.screen_lines == mine.short_lines
    assert mine.lines[:2] == (
        "Dice: Doubloon, Cutlass (held), Jolly Roger, Walk the Plank, Shield,"
        " X Marks the Spot", "You: 10 Lives, 0 Shields, 5 Doubloons")
    assert [c.label for c in mine.choices] == [
        "Hold die 1 (Doubloon)", "Free die 2 (Cutlass)", "Hold die 3 (Jolly Roger)",
        "Hold die 4 (Walk the Plank)", "Hold die 5 (Shield)", "Hold die 6 (X Marks the Spot)",
        "Roll 5 dice", "Stop and resolve"]
    assert [c.screen_label for c in mine.choices[3:6]] == [
        "Hold 4 Plank", "Hold 5 Shield", "Hold 6 X Marks"]
    hold(match, 1, 3, 4, 5)
    assert match.display(0).choices[-2].label == "Roll 1 die"
    theirs = match.display(1)
    assert theirs.title == "Seat 1's turn" and theirs.led == "off" and not theirs.choices
    assert theirs.short_lines[1] == "You L10 S0 $5"
    assert not any(c.secret for c in mine.choices)


def test_the_roller_decides_at_one_menu_level_as_few_presses_as_before():
    """Holds, Roll and Stop sit side by side: a group for the holds would cost a press
    to open it for every hold (docs/games/booty-dice.md counts them)."""
    match = new(3)
    enter(match, "$CJPSX")
    top = menu(match.display(0).choices)
    assert len(top) == 8 and not any(item.is_group for item in top)


def test_table_dice_are_entered_one_die_at_a_time_in_full_words():
    match = new(3)
    enter(match, "$C")
    screen = match.display(0)
    assert screen.lines[2] == "Enter die 3"
    assert [c.label for c in screen.choices][:2] == ["Die 3 shows Doubloon",
                                                      "Die 3 shows X Marks the Spot"]
    assert screen.choices[1].screen_label == "Die 3: X Marks"


def test_display_during_targeting_and_at_the_end():
    names = ["Anne Bonny", "Calico Jack", "Mary Read"]
    match = Match.create(GAME, 3, {"dice": "table"}, seed=7, names=names)
    enter(match, "CJSSSS")
    match.apply(0, {"type": "stop"})
    screen = match.display(0)
    assert screen.lines[2] == "Steal 1 of 2: whom?"  # a counter per Doubloon (issue 17)
    assert [c.label for c in screen.choices] == ["Steal a Doubloon from Calico Jack",
                                                 "Steal a Doubloon from Mary Read"]
    assert [c.screen_label for c in screen.choices] == ["Rob Calico Jack", "Rob Mary Read"]
    assert match.display(1).lines[2] == "Picking a target"
    match.apply(0, {"type": "steal", "seat": 1})
    assert match.display(0).lines[2] == "Steal 2 of 2: whom?"
    match.apply(0, {"type": "steal", "seat": 2})
    screen = match.display(0)
    assert screen.lines[2] == "Cutlass: attack whom?"
    assert [c.label for c in screen.choices] == ["Attack Calico Jack", "Attack Mary Read"]
    match.apply(0, {"type": "attack", "seat": 2})
    watcher = match.display(2)
    assert watcher.title == "Calico Jack's turn" and watcher.short_lines[1] == "You L9 S0 $4"
    assert watcher.lines[1] == "You: 9 Lives, 0 Shields, 4 Doubloons"
    assert watcher.lines[2] == "Anne Bonny takes 1 Shield"      # one event per die
    turn(match, "PPPPPP")                    # Calico Jack: a Mutiny of 4
    assert match.display(0).lines[2] == "Anne Bonny loses 4 Lives"  # the last one hit
    assert match.display(0).short_lines[1] == "You L6 S4 $7"
    duel = Match.create(GAME, 2, {"dice": "table"}, seed=1, names=names[:2])
    for faces in ("PPPPPP", "SSSSSS", "PPPPPP", "SSSSSS", "PPPPPP"):
        turn(duel, faces)
    end = duel.display(1)
    assert end.title == "Game over" and end.lines[0] == "Winner: Anne Bonny"
    assert end.lines[1] == "last pirate alive"
    assert end.short_lines[2] == "You out" and not end.choices
    assert end.lines[2] == "You: out of the game"
    assert end.private == ("Anne Bonny L10 S0 $10", "Calico Jack out")   # plundered


def test_events_are_kept_as_data_and_worded_only_on_screen():
    names = ["Anne", "Jack", "Mary"]
    said = [event_text(e, names) for e in (
        {"kind": "take", "seat": 0, "n": 2}, {"kind": "pay", "seat": 1, "n": 1},
        {"kind": "steal", "seat": 0, "n": 1, "source": 2},
        {"kind": "life", "seat": 2, "n": 1, "cause": "cutlass"},
        {"kind": "out", "seat": 2, "n": 7, "to": 0},
        {"kind": "out", "seat": 0, "n": 3, "to": None},
        {"kind": "lapse", "seat": 1, "effect": "steal"},
        {"kind": "lapse", "seat": 1, "effect": "cutlass"})]
    assert said == ["Anne takes 2 Doubloons", "Jack pays 1 Doubloon",
                    "Anne steals a Doubloon from Mary", "Mary loses 1 Life",
                    "Mary is out: Anne takes 7", "Anne is out",
                    "Jack's steal finds no gold", "Jack's Cutlass finds nobody"]
    match = new(3)
    turn(match, "$CSSSS", picks=(("attack", 1),))
    assert all(isinstance(v, (int, str, type(None))) for e in st(match)["events"]
               for v in e.values())


@pytest.mark.slow
def test_labels_keep_whole_names_through_whole_games():
    """No label is cut: every name a choice mentions is there in full."""
    names = [f"Captain Longname the {k}th" for k in range(6)]
    for mode in ("table", "companion"):
        for seed in range(4):
            rng = random.Random(seed)
            match = Match.create(GAME, 6, {"dice": mode}, seed=seed, names=names)
            while not match.is_over:
                for seat in range(6):
                    screen = match.display(seat)
                    assert len(screen.lines) <= 3 and screen.title
                    for c in screen.choices:
                        if "seat" in c.action:
                            assert c.label.endswith(names[c.action["seat"]])
                seat = match.acting()[0]
                match.apply(seat, rng.choice(match.legal_actions(seat)))
            assert match.version <= GAME.max_actions(6, match.options)
