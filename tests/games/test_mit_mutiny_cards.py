"""MIT Mutiny's battle-card window (M4) and each mystery card: Cannon, Quick Reload,
Drunken Madness, the Perfect Storm, Stow Away, Press Gang, Buried Treasure, the Peg Leg.

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

from companion.engine import PUBLIC
from companion.engine.display import menu
from companion.games.mit_mutiny.battle import battle_usable, madness_targets
from companion.games.mit_mutiny.data import infamy
from companion.games.mit_mutiny.flow import press_targets
from tests.games.mit_mutiny_helpers import (
    D,
    M,
    buy_turn,
    decide,
    done_buying,
    enter,
    give_cards,
    new,
    quiet_round,
    st,
    to_decisions,
)

# -- the battle-card window (M4) and each mystery card --------------------------------------

def test_cannon_adds_a_d6_to_your_side_and_counts_for_fierceness():
    match = new(stack="cannon")
    give_cards(match, {1: 1})
    assert st(match)["hands"][1] == ["cannon"]
    assert match.view(0)["state"]["pirates"][1]["cards"] == 1
    assert match.view(0)["state"]["me"]["hand"] == []
    assert "hands" not in match.view(0)["state"] and "deck" not in match.view(0)["state"]
    assert match.view(1)["state"]["me"]["hand"] == ["cannon"]
    to_decisions(match, dice={0: [1, 1], 1: [2, 2], 2: [3, 3, 8], 3: [3, 3]})
    decide(match, scout=M, fm=M)  # mutiny 4 + 6 = 10 v defend 2 + 14 = 16
    assert match.step() == "window" and match.acting() == [1]  # 0 holds no card
    assert match.legal_actions(1) == [{"type": "play", "card": "cannon"}, {"type": "pass"}]
    match.apply(1, {"type": "play", "card": "cannon"})
    assert match.step() == "cannon" and match.acting() == [1]
    enter(match, {1: [6]})
    state = st(match)
    assert state["dice"][1] == [[6, 2], [6, 2], [6, 6]] and state["played"][1] == ["cannon"]
    # Nobody holds a card any more, so the window closed: 16 v 16 is a tie.
    assert state["battle"]["sums"] == {M: 16, D: 16} and match.step() == "tie"
    assert match.view(PUBLIC)["state"]["pirates"][1]["cannons"] == 1


def test_the_battle_keeps_every_public_fact_for_the_table():
    match = new(stack="cannon")
    give_cards(match, {1: 1})
    to_decisions(match, dice={0: [1, 1], 1: [2, 2], 2: [3, 3, 8], 3: [3, 3]})
    decide(match, scout=M, fm=M)
    match.apply(1, {"type": "play", "card": "cannon"})
    enter(match, {1: [6]})  # 16 v 16: every die is rolled again
    enter(match, {0: [6, 6], 1: [1, 1, 1], 2: [6, 6, 8], 3: [1, 1]})
    battle = match.view(PUBLIC)["state"]["battle"]
    kinds = [event["kind"] for event in battle["events"]]
    assert kinds == ["reveal", "pass", "play", "cannon"] + ["pass"] * 4 + [
        "sums", "rerolled"] + ["pass"] * 4 + ["sums", "won", "kept", "kept"]
    reveal = battle["events"][0]
    assert reveal["dice"] == [[[6, 1], [6, 1]], [[6, 2], [6, 2]],
                              [[6, 3], [6, 3], [8, 8]], [[6, 3], [6, 3]]]
    assert reveal["sums"] == {M: 10, D: 16} and reveal["decisions"] == [D, M, D, M]
    assert battle["events"][2] == {"kind": "play", "seat": 1, "card": "cannon"}
    assert battle["events"][3] == {"kind": "cannon", "seat": 1, "faces": [6]}
    assert battle["events"][8]["sums"] == {M: 16, D: 16}
    assert battle["events"][9]["dice"][1] == [[6, 1], [6, 1], [6, 1]]
    assert battle["events"][-3] == {"kind": "won", "side": D, "seat": 0, "old": 0}
    assert battle["winner"] == D and battle["ties"] == 1
    lines = match.summary()["lines"]
    assert "Seat 2's Cannon: 6" in lines and "Seat 1's side won" in lines


def test_buying_choices_are_grouped_into_menus_of_whole_decisions():
    match = new()
    quiet_round(match, loot=(3, 3, 3, 3), take="sugar", shares={0: [2, 3, 3, 3]})
    choices = match.display(0).choices
    assert [item.label for item in menu(choices)] == ["Buy", "Trade 3 for 1", "Done buying"]
    assert [item.label for item in menu(choices, ("Buy",))] == [
        "Buy a Rum (1 Sugar, 1 Orange)", "Buy a Mystery card (1 Sugar, 1 Gold, 1 Plantain)"]
    gets = [item.label for item in menu(choices, ("Trade 3 for 1",))]
    assert gets == ["Get a Sugar", "Get an Orange", "Get a Gold", "Get a Plantain"]
    trade = menu(choices, ("Trade 3 for 1", "Get an Orange"))[0]
    picked = choices[trade.index]
    assert picked.label == "Trade Sugar, Sugar, Orange for an Orange"
    assert picked.short == "Pay S+S+O"
    match.apply(0, picked.action)
    assert st(match)["loot"][0] == [0, 3, 3, 3]


def test_the_window_closes_only_when_all_four_pass_in_a_row():
    match = new(stack="cannon,cannon")
    give_cards(match, {1: 1, 3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M)
    assert match.acting() == [1]  # 0 holds no card: he passes by himself
    match.apply(1, {"type": "pass"})
    assert match.acting() == [3]  # so does 2
    match.apply(3, {"type": "play", "card": "cannon"})
    enter(match, {3: [6]})
    # The play broke the run of passes: seat 1 gets another turn.
    assert match.step() == "window" and match.acting() == [1]
    match.apply(1, {"type": "pass"})
    assert match.step() != "window" and st(match)["hands"][1] == ["cannon"]
    assert st(match)["battle"]["sums"] == {M: 8, D: 17}


def test_one_round_window_gives_each_pirate_a_single_turn():
    match = new(stack="cannon,cannon,cannon", card_window="one_round")
    give_cards(match, {1: 2, 3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M)
    assert match.acting() == [1]
    match.apply(1, {"type": "play", "card": "cannon"})
    enter(match, {1: [2]})
    assert match.acting() == [3]
    match.apply(3, {"type": "pass"})
    assert match.step() != "window"  # seat 1 does not get a second turn
    assert st(match)["hands"][1] == ["cannon"]


def test_quick_reload_rerolls_the_dice_you_mark():
    match = new(stack="quick_reload")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 5]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "quick_reload"})
    assert match.step() == "reload"
    # One whole decision: which of his dice (by kind and face) to roll again.
    assert match.legal_actions(3) == [{"type": "reroll", "dice": [[6, 1]]},
                                      {"type": "reroll", "dice": [[6, 5]]},
                                      {"type": "reroll", "dice": [[6, 1], [6, 5]]}]
    match.apply(3, {"type": "reroll", "dice": [[6, 1]]})
    assert match.step() == "reload_roll" and match.acting() == [3]
    enter(match, {3: [6]})
    state = st(match)
    assert state["dice"][3] == [[6, 6], [6, 5]]
    assert state["battle"]["sums"] == {M: 11, D: 17}


def test_drunken_madness_removes_the_targets_highest_die_a_d6_before_the_d8():
    match = new(stack="drunken_madness")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [6, 6]})
    decide(match, scout=M)  # 12 v 11 + 2 + 13 = 26
    match.apply(3, {"type": "play", "card": "drunken_madness"})
    assert match.step() == "madness"
    assert match.legal_actions(3) == [{"type": "target", "seat": s} for s in range(4)]
    match.apply(3, {"type": "target", "seat": 2})
    # The QM's d6 showing 6 and his d8 showing 6 tie: the d6 goes, the d8 stays.
    assert st(match)["dice"][2] == [[6, 1], [8, 6]]
    assert st(match)["battle"]["sums"] == {M: 12, D: 20}


def test_drunken_madness_needs_a_pirate_with_two_dice_and_hits_a_lone_one_at_once():
    match = new(stack="drunken_madness")
    state = st(match)
    state["dice"] = [[[6, 3]], [[6, 1]], [[8, 2]], [[6, 6]]]
    assert madness_targets(state) == [] and not battle_usable(state, "drunken_madness")
    state["dice"][1] = [[6, 1], [6, 4]]
    assert madness_targets(state) == [1] and battle_usable(state, "drunken_madness")


def test_the_perfect_storm_rerolls_every_die_of_every_pirate():
    match = new(stack="perfect_storm")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [1, 1]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "perfect_storm"})
    assert match.step() == "storm" and sorted(match.acting()) == [0, 1, 2, 3]
    enter(match, {0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [6, 6]})
    state = st(match)
    assert state["dice"] == [[[6, 1], [6, 1]], [[6, 1], [6, 1]],
                             [[6, 1], [6, 1], [8, 1]], [[6, 6], [6, 6]]]
    assert state["battle"]["winner"] == M and state["captain"] == 3


def test_stow_away_gives_a_green_crew_die_even_without_enough_rum():
    match = new(stack="stow_away")
    give_cards(match, {1: 1})
    quiet_round(match, loot=(1, 1, 2, 1), take="sugar", shares={1: [0, 1, 2, 1]})
    buy_turn(match, 1)
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(1)  # 2 Rum, 2 crew
    match.apply(1, {"type": "play", "card": "stow_away"})
    state = st(match)
    assert state["green"][1] == 1 and state["green_supply"] == 9 and state["rum"][1] == 2
    assert state["played"][1] == ["stow_away"]
    assert match.view(PUBLIC)["state"]["pirates"][1]["crew"] == 3


def test_press_gang_takes_a_crew_die_green_first_and_the_victim_keeps_one():
    match = new(stack="press_gang,stow_away")
    give_cards(match, {1: 1, 2: 1})
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "done"})
    match.apply(2, {"type": "play", "card": "stow_away"})
    done_buying(match)
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "play", "card": "press_gang"})
    assert match.step() == "press"
    assert match.legal_actions(1) == [{"type": "target", "seat": s} for s in (0, 2, 3)]
    match.apply(1, {"type": "target", "seat": 2})
    state = st(match)
    assert (state["red"][2], state["green"][2]) == (2, 0)
    assert (state["red"][1], state["green"][1]) == (2, 1)
    assert match.step() == "buy" and match.acting() == [1]


def test_press_gang_cannot_take_a_pirates_last_crew_die():
    state = st(new())
    state["red"] = [2, 1, 1, 1]
    assert press_targets(state, 1) == [0]
    state["red"] = [1, 1, 1, 1]
    assert press_targets(state, 1) == []


def test_buried_treasure_takes_three_cubes_of_your_choice_from_the_bank():
    match = new(stack="buried_treasure")
    give_cards(match, {2: 1})
    quiet_round(match)
    buy_turn(match, 2)
    before = st(match)["bank"]
    match.apply(2, {"type": "play", "card": "buried_treasure"})
    for kind in ("gold", "gold", "plantain"):
        assert match.step() == "treasure"
        match.apply(2, {"type": "loot", "kind": kind})
    state = st(match)
    assert match.step() == "buy" and state["loot"][2] == [0, 0, 2, 1]
    assert state["bank"] == [before[0], before[1], before[2] - 2, before[3] - 1]


def test_the_peg_leg_lies_face_up_and_is_worth_two_to_a_captain_one_otherwise():
    match = new(stack="peg_leg")
    give_cards(match, {1: 1})
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "play", "card": "peg_leg"})
    state = st(match)
    assert match.view(PUBLIC)["state"]["pirates"][1]["played"] == ["peg_leg"]
    assert infamy(state)["cards"] == [0, 1, 0, 0]
    state["captain"] = 1
    assert infamy(state)["cards"] == [0, 2, 0, 0]


def test_battle_cards_wait_for_a_battle_and_other_cards_for_your_buying_turn():
    match = new(stack="cannon,stow_away")
    give_cards(match, {1: 2})
    quiet_round(match)
    buy_turn(match, 1)
    plays = [a for a in match.legal_actions(1) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "stow_away"}]
    done_buying(match)
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, fm=M)
    assert match.legal_actions(1) == [{"type": "play", "card": "cannon"}, {"type": "pass"}]
