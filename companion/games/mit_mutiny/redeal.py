"""The re-deal of a Mutiny match for the contract tests: everything a viewer has not
seen is drawn again, consistent with what it knows."""
from __future__ import annotations

import random

from companion.engine import votes
from companion.engine.match import clone
from companion.engine.rules import Viewer

from .core import FINAL, FIRST_MATE, OVER, RALLY, SCOUT, SEATS, State, seat_of


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with face-down islands the viewer has not looked at, the
    mystery deck and other pirates' hands, other pirates' hidden dice (but not the
    ones the viewer peeked at), the First Mate's peek and secret ballots drawn again."""
    twin = clone(state)
    _islands(twin, viewer, rng)
    if twin["step"] == OVER:
        # The end opens the hands, the last roll and the last peek to everyone: only
        # the islands nobody sailed to stay face down.
        return twin
    _cards(twin, viewer, rng)
    _dice(twin, viewer, rng)
    mate = seat_of(twin, FIRST_MATE)
    if twin["peeked"] and viewer != mate:
        twin["peek"] = rng.choice([None] + [s for s in range(SEATS) if s != mate])
    vote = twin["vote"]
    if vote is not None and not (twin["step"] == FINAL and viewer == seat_of(twin, SCOUT)):
        votes.redeal_vote(vote, viewer, rng)
    return twin


def _islands(twin: State, viewer: Viewer, rng: random.Random) -> None:
    if twin["spaces"] is None:
        return
    known = set(twin["seen"][viewer]) if isinstance(viewer, int) else set()
    hidden = [i for i, island in enumerate(twin["spaces"])
              if island is not None and i not in known]
    contents = [twin["spaces"][i] for i in hidden]
    rng.shuffle(contents)
    for space, island in zip(hidden, contents):
        twin["spaces"][space] = island


def _cards(twin: State, viewer: Viewer, rng: random.Random) -> None:
    others = [s for s in range(SEATS) if s != viewer]
    pool = list(twin["deck"])
    for seat in others:
        pool += twin["hands"][seat]
    rng.shuffle(pool)
    for seat in others:
        count = len(twin["hands"][seat])
        twin["hands"][seat], pool = pool[:count], pool[count:]
    twin["deck"] = pool


def _dice(twin: State, viewer: Viewer, rng: random.Random) -> None:
    """Hidden rolls (before the reveal, or never revealed) of the pirates the viewer
    cannot see: all but its own and the one its First Mate peek showed."""
    if twin["revealed"]:
        return
    known = {viewer}
    if viewer == seat_of(twin, FIRST_MATE) and twin["peek"] is not None:
        known.add(twin["peek"])
    for seat in range(SEATS):
        if seat in known:
            continue
        for die in twin["dice"][seat]:
            die[1] = rng.randint(1, die[0])
        roll = twin["roll"]
        if twin["step"] == RALLY and roll is not None:
            roll["got"][seat] = [rng.randint(1, sides)
                                 for sides in roll["need"][seat][:len(roll["got"][seat])]]
