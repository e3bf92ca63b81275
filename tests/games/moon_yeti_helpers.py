"""Moon Yeti's test helpers: a match whose Mutineer is a chosen role, the votes of each round
and every viewer's view, shared by the rule tests (tests/games/test_moon_yeti_*.py) and
the board's.

Most tests type the time (``time_source="typed"``) so they can make a chosen role the
Mutineer: they read that role's card and enter one of its minutes.
"""
from __future__ import annotations

from datetime import datetime

from companion.engine import PUBLIC, Match
from companion.games.moon_yeti import GAME, HELMSMAN, JUROR, ROLES, WAIT

AT_10_32 = datetime(2026, 1, 1, 10, 32)


def ten_32() -> datetime:
    return AT_10_32


def state(match: Match) -> dict:
    return match.snapshot()["state"]


def roles_of(match: Match) -> dict[str, int]:
    """Role name -> seat (B, C, H, N as the first letters), plus the jurors."""
    roles = state(match)["roles"]
    out = {role[0]: roles.index(role) for role in ROLES}
    out["J"] = [s for s, r in enumerate(roles) if r == JUROR]
    return out


def start(seats: int = 4, mutineer: str = HELMSMAN, seed: int = 3, **options):
    """A match in round-1 discussion whose Mutineer is the holder of ``mutineer``."""
    options.setdefault("time_source", "typed")
    # One match id, so twin matches played differently can be compared view for view.
    match = Match.create(GAME, seats, options, seed=seed, clock=ten_32, match_id="moon")
    minute = state(match)["cards"][ROLES.index(mutineer)][0]
    match.apply(0, {"type": "declare", "minute": minute})
    return match, roles_of(match)


def ready_all(match: Match) -> None:
    step = match.step()
    for seat in range(match.seats):
        if match.step() == step and not state(match)["ready"][seat]:
            match.apply(seat, {"type": "ready"})


def cast(match: Match, ballots: dict[int, list]) -> None:
    """Cast every listed ballot: a seat, None ("No second vote") or WAIT."""
    for seat, picks in ballots.items():
        for pick in picks:
            if pick is None:
                match.apply(seat, {"type": "one_vote"})
            elif pick == WAIT:
                match.apply(seat, {"type": "bosun_wait"})
            else:
                match.apply(seat, {"type": "vote", "target": pick})


def decline_until(match: Match, step: str) -> None:
    """Let the optional after-reveal actions pass until ``step`` (or the end)."""
    while not match.is_over and match.step() != step:
        seat = match.acting()[0]
        assert {"type": "decline"} in match.legal_actions(seat)
        match.apply(seat, {"type": "decline"})


def round_one(match: Match, r: dict, ballots: dict[int, list]) -> None:
    """Discussion, then the innocence vote with no Dead Reckoning."""
    ready_all(match)
    cast(match, ballots)
    decline_until(match, "discuss2")


def to_guilt_vote(mutineer: str = HELMSMAN, innocent: str = "B", seats: int = 4,
                  condemn: str | None = None, **options):
    """A match at the guilt vote: ``innocent`` (a role letter) won round 1."""
    match, r = start(seats, mutineer, **options)
    target = r[innocent]
    ballots = {}
    for seat in range(match.seats):
        if state(match)["roles"][seat] == JUROR and not state(match)["options"]["jury"]:
            continue
        pick = target if seat != target else next(t for t in (r["B"], r["C"], r["N"])
                                                  if t != target)
        ballots[seat] = [pick, None] if seat == r["H"] else [pick]
    round_one(match, r, ballots)
    assert state(match)["innocent"] == target
    if condemn:
        match.apply(r["H"], {"type": "condemn", "target": r[condemn]})
    ready_all(match)
    return match, r


def game_views(match: Match) -> dict:
    """Every seat's and the public's game view, legal actions and display."""
    out = {}
    for viewer in [PUBLIC, *range(match.seats)]:
        view = match.view(viewer)
        out[viewer] = (view["state"], view.get("you", {}).get("legal"),
                       match.display(viewer).to_dict() if viewer != PUBLIC else None)
    return out
