"""Card Mutiny's test helpers: stacked matches and the moves of a turn, shared by the
rule tests (tests/games/test_card_mutiny.py) and the memory and history tests
(tests/games/test_card_mutiny_memory.py).

Most tests stack the deal (option ``stacked_deal``): the cards fill the grid row by row
from A1, the rest is the stack, top first. A short stacked deal plays a short game with
only those cards, so a test can play one to its end.
"""
from __future__ import annotations

from companion.engine import PUBLIC, Match
from companion.games.card_mutiny import GAME, full_deck
from companion.games.card_mutiny.show import log_lines

DEFAULTS = GAME.spec.resolve_options({})
ROWS = "ABCDEFG"


def idx(name: str) -> int:
    """The index of cell ``"B4"``."""
    return ROWS.index(name[0]) * 7 + int(name[1:]) - 1


def new(deal: str = "", seats: int = 3, first: int = 1, names=None, **options) -> Match:
    opts = {"stacked_deal": deal, "first_seat": first, **options}
    return Match.create(GAME, seats, opts, seed=11, names=names)


def full(front: list[str] = (), stack: list[str] = ()) -> str:
    """A 120-card deal: ``front`` from A1 on, the rest of the grid and the stack from
    the catalogue (in catalogue order), with ``stack`` on top of the stack."""
    pool = full_deck(DEFAULTS)
    for kind in list(front) + list(stack):
        pool.remove(kind)
    grid = list(front) + pool[:49 - len(front)]
    return " ".join(grid + list(stack) + pool[49 - len(front):])


def st(match: Match) -> dict:
    return match.snapshot()["state"]


def pub(match: Match) -> dict:
    return match.view(PUBLIC)["state"]


def step(match: Match) -> str:
    return match.step()


def said(match: Match) -> list[str]:
    """The public log, in words."""
    return log_lines(match.view(PUBLIC))


def turn(match: Match) -> int:
    return st(match)["turn"]


def cell(match: Match, name: str, viewer=PUBLIC):
    """What ``viewer`` sees in a cell."""
    k = idx(name)
    return match.view(viewer)["state"]["grid"][k // 7][k % 7]


def flip(match: Match, name: str, kind: str = "flip") -> None:
    """The active player flips (or peeks at) a cell: one whole decision."""
    match.apply(turn(match), {"type": kind, "cell": idx(name)})


def flips(match: Match, *names: str) -> None:
    for name in names:
        flip(match, name)


def end_turn(match: Match) -> None:
    match.apply(turn(match), {"type": "end_turn"})


def enter(match: Match, *kinds: str) -> None:
    """The active player enters each card turned up: one whole decision each."""
    for kind in kinds:
        match.apply(turn(match), {"type": "reveal", "kind": kind})
