"""How Booty Dice resolves a roll: combos (B1) and their order (B2), the rulebook's worked
examples, each single die and its targets, and the supplies running dry (B3).

Most tests use table dice, so every roll is exact; the six one-letter faces and the
helpers that play a turn: tests/games/booty_dice_helpers.py.
"""
from __future__ import annotations

from companion.games.booty_dice import resolution_queue
from tests.engine.contract import rejected
from tests.games.booty_dice_helpers import enter, hold, kinds, new, roller, st, turn

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
