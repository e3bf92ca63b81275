"""The built-in simultaneous secret choice (votes).

A vote is plain data inside a game's state. Every eligible seat must cast its ballots
(a seat may hold more than one; abstaining is a choice where the game offers it); a
cast ballot is final; until the reveal nobody - not the table, not the host, not another
seat - learns who chose what or in which order. A seat learns only its own ballots and
how many ballots are in.

The undo policy is the engine's: each cast ballot is an undo barrier, so the host can
neither take a ballot back nor, by undoing one, learn whose it was (the seat that would
owe a ballot again). A game may opt out with ``Game.ballots_undoable``.
"""
from __future__ import annotations

from typing import Any, Sequence

from companion.engine.rules import Context, Viewer
from companion.errors import ActionRejected

Vote = dict[str, Any]


def open_vote(name: str, choices: Sequence[Sequence[Any] | None], ballots: Sequence[int] | None = None) -> Vote:
    """A new vote. ``choices[seat]`` lists what that seat may choose (None: not
    eligible); ``ballots[seat]`` is how many ballots the seat casts (default 1)."""
    seats = len(choices)
    need = list(ballots) if ballots is not None else [1 if c is not None else 0 for c in choices]
    need = [n if choices[s] is not None else 0 for s, n in enumerate(need)]
    return {
        "name": name,
        "choices": [list(c) if c is not None else None for c in choices],
        "need": need,
        "cast": [[] for _ in range(seats)],
        "revealed": False,
    }


def waiting(vote: Vote) -> list[int]:
    """Seats that still owe a ballot (for the engine's ``acting``, never for a view)."""
    return [s for s, n in enumerate(vote["need"]) if len(vote["cast"][s]) < n]


def is_complete(vote: Vote) -> bool:
    return not waiting(vote)


def choices_for(vote: Vote, seat: int) -> list[Any]:
    if vote["revealed"] or seat not in waiting(vote):
        return []
    return list(vote["choices"][seat])


def cast(vote: Vote, seat: int, choice: Any, ctx: Context) -> None:
    """Record one ballot of ``seat``. Final: there is no taking it back, and the host's
    undo stops here unless the game opted out (:meth:`Context.ballot_cast`)."""
    if vote["revealed"]:
        raise ActionRejected("vote_closed", "the votes have already been revealed")
    if vote["choices"][seat] is None:
        raise ActionRejected("not_eligible", "this seat has no vote here")
    if seat not in waiting(vote):
        raise ActionRejected("already_voted", "this seat has already cast its vote")
    if choice not in vote["choices"][seat]:
        raise ActionRejected("illegal_choice", f"{choice!r} is not a choice in this vote")
    vote["cast"][seat].append(choice)
    ctx.ballot_cast()


def reveal(vote: Vote, ctx: Context) -> list[list[Any]]:
    """Open the ballots (all must be in). Marks the action as a reveal for undo."""
    if not is_complete(vote):
        raise ActionRejected("vote_open", "not every seat has voted yet")
    vote["revealed"] = True
    ctx.reveal()
    return [list(b) for b in vote["cast"]]


def tally(ballots: Sequence[Sequence[Any]]) -> dict[Any, int]:
    """Ballots per choice, in first-seen order (abstentions, None, left out)."""
    counts: dict[Any, int] = {}
    for seat_ballots in ballots:
        for choice in seat_ballots:
            if choice is not None:
                counts[choice] = counts.get(choice, 0) + 1
    return counts


def top_choice(ballots: Sequence[Sequence[Any]]) -> Any | None:
    """The choice with strictly the most ballots, or None on a tie or no ballots."""
    counts = tally(ballots)
    if not counts:
        return None
    best = max(counts.values())
    leaders = [c for c, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def vote_view(vote: Vote, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may know of a vote: before the reveal, only how many ballots are
    in and, for a seat, its own ballots; after it, everything."""
    total = sum(vote["need"])
    out: dict[str, Any] = {
        "name": vote["name"],
        "eligible": [s for s, c in enumerate(vote["choices"]) if c is not None],
        "ballots_in": sum(len(b) for b in vote["cast"]),
        "ballots_total": total,
        "revealed": vote["revealed"],
    }
    if isinstance(viewer, int) and vote["choices"][viewer] is not None:
        out["mine"] = list(vote["cast"][viewer])
        out["my_ballots"] = vote["need"][viewer]
    if vote["revealed"]:
        out["cast"] = [list(b) for b in vote["cast"]]
        out["tally"] = [[c, n] for c, n in tally(vote["cast"]).items()]
    return out


def redeal_vote(vote: Vote, viewer: Viewer, rng: Any) -> None:
    """For the re-deal: redraw, in place, every ballot ``viewer`` may not see, and whose
    they are (:func:`redrawn_counts`)."""
    if vote["revealed"]:
        return
    for seat, count in redrawn_counts(vote, viewer, rng).items():
        vote["cast"][seat] = [rng.choice(vote["choices"][seat]) for _ in range(count)]


def redrawn_counts(vote: Vote, viewer: Viewer, rng: Any) -> dict[int, int]:
    """How many ballots each seat but ``viewer`` holds in a re-deal. A seat knows how
    many ballots are in and its own, never who else has cast: the others' ballots go
    to seats drawn again among those that owe any, as many as were in (so a bot's
    worlds do not let the real laggards vote last)."""
    others = [s for s in range(len(vote["cast"])) if s != viewer]
    count = sum(len(vote["cast"][s]) for s in others)
    places = [s for s in others for _ in range(vote["need"][s])]
    rng.shuffle(places)
    drawn = places[:count]
    return {seat: drawn.count(seat) for seat in others}
