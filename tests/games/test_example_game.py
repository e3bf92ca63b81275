"""The example game of docs/writing-a-game.md: the engine's contract and its rules."""
from __future__ import annotations

import pytest

from companion.engine import CHANCE, PUBLIC, Entry, Journal, Match
from companion.engine.display import menu
from tests.engine.contract import Tally, play_and_check, rejected
from tests.games.example_game import GAME


def dealt(chests: list[int], rounds: int = 1) -> Match:
    """A match whose first deal was ``chests``: replayed from that one journal entry (the
    public way to fix what chance dealt)."""
    names = [f"Seat {seat + 1}" for seat in range(len(chests))]
    deal = Entry(1, CHANCE, {"type": "deal", "chests": chests})
    return Match.replay(GAME, len(chests), {"rounds": rounds}, "fixed", names, "m1", [deal])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_playouts_keep_the_contract(seats):
    tally = Tally()
    with Journal(":memory:") as journal:
        for seed in range(20):
            play_and_check(GAME, seats, seed, tally, journal)
    assert tally.ended == 20 and "unknown_action" in tally.codes
    assert tally.redeals_changed > 0  # the chests were dealt again: the test bit


def test_a_raid_on_a_smaller_chest_takes_it_and_a_failed_raid_loses_your_own():
    match = dealt([5, 3, 3])
    match.apply(0, {"type": "raid", "target": 1})   # 5 > 3: takes 3, keeps 5
    match.apply(1, {"type": "bank"})                # raided: loses the 3
    match.apply(2, {"type": "raid", "target": 1})   # 3 = 3: loses own 3
    assert match.result().scores == [8, 0, 0] and match.result().winners == [0]


def test_only_the_pirate_whose_turn_it_is_chooses_and_never_themselves():
    match = dealt([1, 2])
    assert match.acting() == [0]
    assert rejected(match, 1, {"type": "bank"}) == "not_your_turn"
    assert rejected(match, 0, {"type": "raid", "target": 0}) == "bad_value"
    assert rejected(match, 0, {"type": "deal", "chests": [6, 6]}) == "unknown_action"


def test_chests_are_secret_until_opened_and_choices_are_grouped():
    names = ["Anne", "Jack", "Mary"]
    match = Match.create(GAME, 3, {"rounds": 2}, seed=4, names=names)
    assert "my_chest" not in match.view(PUBLIC)["state"]
    screen = match.display(0)
    assert screen.private[0].startswith("Your chest: ") and screen.led == "on"
    top = menu(screen.choices)
    assert [(item.label, item.is_group, item.count) for item in top] == [
        ("Bank your chest", False, 0), ("Raid a pirate", True, 2)]
    assert [item.label for item in menu(screen.choices, ("Raid a pirate",))] == [
        "Raid Jack", "Raid Mary"]
    assert [c.screen_label for c in screen.choices] == ["Bank your chest", "Jack", "Mary"]
    for seat in range(3):
        match.apply(seat, {"type": "bank"})
    said = match.summary()["lines"]
    assert len(said) == 3 and said[0].startswith("Anne keeps a chest of ")
