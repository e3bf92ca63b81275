"""Booty Dice's board (companion/games/booty_dice/board.py): as before (the roller, the
standings, the Doubloons; the dice panel is web/static/games/booty-dice.js) plus the last
turns in words - the previous turn stays when the next roll starts, and the turns before
it stay in the public view (``earlier``) - the previous roller's final dice, and the end.

The table rolls (``dice="table"``): the roller enters each face, so every turn is exact.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import PUBLIC, Match
from companion.engine import board as b
from companion.games.booty_dice import GAME
from companion.games.booty_dice import board as tabletop
from tests.games.booty_dice_helpers import enter, roller, turn
from tests.games.whole_words import check_whole, vocabulary

NAMES = ["Anne", "Bonny", "Calico Jack", "Drake", "Edward Teach", "Flint"]


def new(seats: int = 3, **options) -> Match:
    return Match.create(GAME, seats, {"dice": "table", **options}, seed=7, names=NAMES[:seats])


def one(match: Match, kind: str) -> dict:
    hits = [p for p in match.board() if p["part"] == kind]
    assert len(hits) == 1, f"{len(hits)} {kind} parts"
    return hits[0]


def log(match: Match) -> list[str]:
    return one(match, "log").get("lines", [])


ANNE_TURN = ["Anne rolled Doubloon, Doubloon, Shield, X Marks the Spot, X Marks the "
             "Spot and Walk the Plank",
             "Anne takes 2 Doubloons", "Anne takes 2 Doubloons", "Anne pays 2 Doubloons",
             "Anne pays 2 Doubloons", "Anne loses 1 Life", "Anne takes 1 Shield"]


def test_the_board_is_built_from_the_public_view_beside_the_games_own_dice_panel():
    match = new()
    board = match.board()
    assert board == GAME.board(match.view(PUBLIC))
    # The dice and every pirate's standing are drawn by web/static/games/booty-dice.js.
    assert (Path(b.__file__).parents[2] / "web/static/games/booty-dice.js").exists()
    assert [p["part"] for p in board] == ["headline", "log"]
    assert board[0] == b.headline("Anne is rolling (roll 1 of 3)")
    assert log(match) == []


def test_a_turn_is_told_die_by_die_and_stays_when_the_next_roll_starts():
    match = new()
    turn(match, "$$SXXP")
    assert log(match) == ANNE_TURN
    enter(match, "CC")  # Bonny's roll has started: Anne's turn is still told
    assert log(match) == ANNE_TURN


def test_the_turns_before_stay_after_the_next_turn_resolves():
    match = new()
    turn(match, "$$SXXP")
    turn(match, "CSSSSS", picks=(("attack", 2),))
    lines = log(match)
    assert lines[:len(ANNE_TURN)] == ANNE_TURN
    assert lines[len(ANNE_TURN):] == [
        "Bonny rolled Cutlass, Shield, Shield, Shield, Shield and Shield",
        "Calico Jack loses 1 Life", *["Bonny takes 1 Shield"] * 5]
    assert match.view(PUBLIC)["state"]["earlier"][0]["seat"] == 0


def test_a_pick_says_what_the_roller_is_choosing():
    match = new()
    seat = roller(match)
    enter(match, "CJXXSS")
    match.apply(seat, {"type": "stop"})
    assert one(match, "headline")["text"] == \
        "Anne resolves the dice: a Jolly Roger - whom to rob?"
    for victim in (1, 2):  # a Jolly Roger steals two Doubloons, one pick each
        match.apply(seat, {"type": "steal", "seat": victim})
    assert one(match, "headline")["text"] == \
        "Anne resolves the dice: a Cutlass - whom to attack?"
    assert log(match)[-2:] == ["Anne steals a Doubloon from Bonny",
                               "Anne steals a Doubloon from Calico Jack"]


def test_only_the_last_four_turns_are_kept():
    match = new()
    for _ in range(6):
        turn(match, "SSSSSS")
    lines = log(match)
    rolls = [line for line in lines if " rolled " in line]
    assert [line.split()[0] for line in rolls] == ["Calico", "Anne", "Bonny", "Calico"]
    assert len(match.view(PUBLIC)["state"]["earlier"]) == 3


def test_the_end_names_the_winner_with_why_and_every_standing():
    match = new(2)
    for _ in range(12):
        if match.is_over:
            break
        seat = roller(match)
        turn(match, "CCCCCC" if seat == 0 else "SXXXXX")
    assert match.is_over
    end = one(match, "result")
    assert end["title"] == "Anne wins!" and end["winners"] == [0]
    assert end["lines"][0] == "Last pirate alive."
    assert end["lines"][2] == "Bonny is out."
    assert end["scores"] == match.result().scores
    assert one(match, "headline")["text"] == "Anne wins: last pirate alive"
    assert "Anne wins!" in log(match)


def test_no_panel_everything_is_on_the_board():
    assert new().panel(0) == []


SOURCES = [Path(tabletop.__file__), Path(tabletop.__file__).with_name("show.py"),
           Path(tabletop.__file__).with_name("rules.py"), Path(b.__file__)]
VOCABULARY = vocabulary(SOURCES, NAMES)




@pytest.mark.parametrize("seed", range(3))
def test_random_play_keeps_every_word_whole_and_whole_turns_in_the_log(seed):
    rng = random.Random(seed)
    seats = 2 + seed * 2
    match = Match.create(GAME, seats, {}, seed=seed, names=NAMES[:seats])
    while not match.is_over:
        board = match.board()
        check_whole(board, VOCABULARY)
        lines = one(match, "log").get("lines", [])
        # Whole turns, each from its roll, the last four at most.
        assert not lines or " rolled " in lines[0]
        assert sum(" rolled " in line for line in lines) <= 4
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
