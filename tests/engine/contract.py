"""The contract every game is held to, as one reusable random-playout checker.

``play_and_check`` plays one seeded random match and checks, after every step:
- some actor can act unless the match is over, and the match ends within the bound;
- the state is plain JSON data;
- every listed legal action applies without error (on a fork);
- actions that are not listed are rejected with a code and change nothing;
- a seat's (and the public's) view, legal actions and display do not change when
  everything that viewer may not see is re-drawn (the re-deal test);
- save-and-replay from the journal gives an identical state.
"""
from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.engine import HOST, PUBLIC, ActionRejected, Game, Journal, Match
from companion.engine.rules import Actor


@dataclass
class Tally:
    """What a batch of playouts exercised, so a test can prove it was not vacuous."""

    steps: int = 0
    redeals: int = 0
    redeals_changed: int = 0
    rejections: int = 0
    codes: set[str] = field(default_factory=set)
    ended: int = 0
    timers_ran_out: int = 0


def rejected(match: Match, actor: Actor, action: Any) -> str:
    """Apply an action that must be refused; check it changed nothing; return its code."""
    before = json.dumps(match.snapshot(), sort_keys=True)
    try:
        match.apply(actor, action)
    except ActionRejected as exc:
        assert json.dumps(match.snapshot(), sort_keys=True) == before, "a refusal changed the match"
        return exc.code
    raise AssertionError(f"{action!r} by {actor!r} was applied, not refused")


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """Any allowed value for switch and choice options, a step timer or none; defaults
    for other number ranges."""
    options = {}
    for opt in game.spec.options:
        if isinstance(opt.default, bool):
            options[opt.name] = rng.random() < 0.5
        elif opt.choices:
            options[opt.name] = rng.choice(opt.choices)
    for opt in game.spec.options:
        if opt.name.endswith("_seconds"):
            # A step timer on or off, picked from the other options, not drawn from
            # ``rng``: every seed plays the matches it played before timers existed.
            picked = zlib.crc32(repr(sorted(options.items())).encode())
            options[opt.name] = (0, 30)[picked % 2]
    return options


def fixed_clock(rng: random.Random):
    moment = datetime(2026, 11, 23, rng.randrange(24), rng.randrange(60))
    return lambda: moment


def play_and_check(game: Game, seats: int, seed: int, tally: Tally,
                   journal: Journal, deep_every: int = 1) -> Match:
    """One random playout with every check; returns the finished match."""
    rng = random.Random(seed)
    options = random_options(game, rng)
    match = Match.create(game, seats, options, seed=seed, clock=fixed_clock(rng),
                         journal=journal)
    bound = game.max_actions(seats, match.options)
    context = f"{game.spec.id} seats={seats} seed={seed} options={options}"
    while not match.is_over:
        where = f"{context} at version {match.version} step {match.step()!r}"
        assert match.version <= bound, f"{where}: over the bound of {bound} actions"
        choices = _all_legal(match)
        assert choices, f"{where}: nobody can act but the match is not over"
        if tally.steps % deep_every == 0:
            _check_plain_json(match, where)
            _check_each_applies(match, choices, where)
            _check_unlisted_rejected(match, choices, rng, tally, where)
            _check_redeal(match, rng, tally, where)
        tally.steps += 1
        timer = match.timer()
        if timer and timer["ends"] and rng.random() < 0.15:
            match.time_up(timer["key"])  # the time ran out before anyone acted
            tally.timers_ran_out += 1
            continue
        actor, action = rng.choice(choices)
        match.apply(actor, action)
    assert match.version <= bound, f"{context}: {match.version} actions > bound {bound}"
    assert match.result() is not None and match.acting() == []
    assert all(not match.legal_actions(s) for s in range(seats))
    _check_replay(match, journal, game, context)
    tally.ended += 1
    return match


def _all_legal(match: Match) -> list[tuple[Actor, dict[str, Any]]]:
    actors = match.acting()
    for actor in actors:
        assert actor == HOST or actor in range(match.seats), f"odd actor {actor!r}"
    return [(a, act) for a in actors for act in match.legal_actions(a)]


def _check_plain_json(match: Match, where: str) -> None:
    snap = match.snapshot()
    assert json.loads(json.dumps(snap)) == snap, f"{where}: state is not plain JSON"
    for viewer in [PUBLIC, HOST, *range(match.seats)]:
        view = match.view(viewer)
        assert json.loads(json.dumps(view)) == view, f"{where}: view is not plain JSON"
    summary = match.summary()
    assert json.loads(json.dumps(summary)) == summary, f"{where}: summary is not JSON"
    # Strict JSON (no NaN, no infinity): the table checks boards with orjson, which
    # would send those as null.
    parts = [match.board(), *(match.panel(seat) for seat in range(match.seats))]
    json.dumps(parts, allow_nan=False)


def _check_each_applies(match: Match, choices, where: str) -> None:
    for actor, action in choices:
        assert isinstance(action.get("type"), str), f"{where}: {action} has no type"
        fork = match.fork()
        try:
            fork.apply(actor, action)
        except ActionRejected as exc:  # pragma: no cover - a failing contract
            raise AssertionError(f"{where}: listed {action} by {actor} rejected: {exc}") from exc


def _unlisted(match: Match, choices, rng: random.Random):
    """Actions that look plausible but are not on anyone's list."""
    actor, action = rng.choice(choices)
    yield actor, {"type": "no-such-move"}
    yield actor, "not an action"
    yield actor, {**action, "surplus": 1}
    for key in [k for k in action if k != "type"]:
        yield actor, {k: v for k, v in action.items() if k != key}
        for odd in (10_000, -1, "x" * 3, None, True, [1], {"a": 1}, 2.5):
            yield actor, {**action, key: odd}
    idle = [s for s in range(match.seats) if s not in match.acting()]
    if idle:
        yield rng.choice(idle), action
    yield match.seats + 3, action


def _check_unlisted_rejected(match: Match, choices, rng, tally: Tally, where: str) -> None:
    before = json.dumps(match.snapshot(), sort_keys=True)
    version = match.version
    listed = {(a, json.dumps(act, sort_keys=True)) for a, act in choices}
    for actor, action in _unlisted(match, choices, rng):
        key = (actor, json.dumps(action, sort_keys=True))
        if key in listed:
            continue
        try:
            match.apply(actor, action)
        except ActionRejected as exc:
            assert exc.code and exc.message, f"{where}: rejection without code/message"
            tally.rejections += 1
            tally.codes.add(exc.code)
        else:
            raise AssertionError(f"{where}: unlisted {action!r} by {actor!r} was accepted")
        assert match.version == version, f"{where}: rejected {action!r} was journaled"
    assert json.dumps(match.snapshot(), sort_keys=True) == before, (
        f"{where}: a rejected action changed the match")


def _check_redeal(match: Match, rng: random.Random, tally: Tally, where: str) -> None:
    state = match.snapshot()["state"]
    for viewer in [PUBLIC, *range(match.seats)]:
        twin = match.redealt(viewer, random.Random(rng.random()))
        assert match.snapshot()["state"] == state, f"{where}: redeal changed the original"
        tally.redeals += 1
        if twin.snapshot()["state"] != state:
            tally.redeals_changed += 1
        mine, theirs = match.view(viewer), twin.view(viewer)
        assert mine == theirs, f"{where}: view of {viewer!r} depends on what it may not see"
        if viewer != PUBLIC:
            assert match.display(viewer) == twin.display(viewer), (
                f"{where}: display of seat {viewer} depends on what it may not see")
        else:
            assert match.summary() == twin.summary(), (
                f"{where}: the table summary depends on what the public may not see")


def _check_replay(match: Match, journal: Journal, game: Game, context: str) -> None:
    again = journal.load(match.id, lambda _id: game, clock=match.clock)
    assert again.snapshot() == match.snapshot(), f"{context}: replay differs"
    assert again.view(PUBLIC) == match.view(PUBLIC)
