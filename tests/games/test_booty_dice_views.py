"""Booty Dice's views and screens: one public view for all, the roller's dice and choices,
table dice entered one at a time, targeting and the end, events worded only on screen.

Most tests use table dice, so every roll is exact; the six one-letter faces and the
helpers that play a turn: tests/games/booty_dice_helpers.py.
"""
from __future__ import annotations

import random

import pytest

from companion.engine import PUBLIC, Match
from companion.engine.display import menu
from companion.games.booty_dice import GAME, event_text
from tests.games.booty_dice_helpers import enter, hold, new, st, turn

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
    # The last one hit, as Anne's own screen says it.
    assert match.display(0).lines[2] == "You lose 4 Lives"
    assert match.display(0).short_lines[1] == "You L6 S4 $7"
    duel = Match.create(GAME, 2, {"dice": "table"}, seed=1, names=names[:2])
    for faces in ("PPPPPP", "SSSSSS", "PPPPPP", "SSSSSS", "PPPPPP"):
        turn(duel, faces)
    end = duel.display(1)
    assert end.title == "Game over" and end.lines[0] == "Winner: Anne Bonny"
    assert end.lines[1] == "last pirate alive"
    assert end.short_lines[2] == "You out" and not end.choices
    assert end.lines[2] == "You: out of the game"
    assert end.screen_private == ("Anne Bonny L10 S0 $10", "Calico Jack out")   # plundered


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


def test_a_pirates_own_screen_tells_what_happened_to_it_as_you():
    names = ["Anne", "Jack", "Mary"]
    events = ({"kind": "take", "seat": 0, "n": 2},
              {"kind": "steal", "seat": 0, "n": 1, "source": 2},
              {"kind": "life", "seat": 2, "n": 2, "cause": "cutlass"},
              {"kind": "out", "seat": 2, "n": 7, "to": 0},
              {"kind": "lapse", "seat": 2, "effect": "cutlass"},
              {"kind": "win", "seat": 0})
    assert [event_text(e, names, viewer=0) for e in events] == [
        "You take 2 Doubloons", "You steal a Doubloon from Mary", "Mary loses 2 Lives",
        "Mary is out: you take 7", "Mary's Cutlass finds nobody", "You win!"]
    assert [event_text(e, names, viewer=2) for e in events] == [
        "Anne takes 2 Doubloons", "Anne steals a Doubloon from you", "You lose 2 Lives",
        "You are out: Anne takes 7", "Your Cutlass finds nobody", "Anne wins!"]


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
