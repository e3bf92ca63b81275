"""Booty Dice's test helpers: a match on table dice and the moves of a turn, shared by the
rule tests (tests/games/test_booty_dice_*.py).

Most tests use the "table" dice mode, where the roller enters each die's face, so every
roll is exact. A turn is written as six one-letter faces: ``$`` Doubloon, ``X`` X Marks
the Spot, ``J`` Jolly Roger, ``C`` Cutlass, ``P`` Walk the Plank, ``S`` Shield.
"""
from __future__ import annotations

from companion.engine import Match
from companion.games.booty_dice import GAME

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
