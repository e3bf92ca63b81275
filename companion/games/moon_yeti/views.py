"""What each viewer of a Moon Yeti match may see, built from an allow-list: the public
record, a seat's own secrets, and everything once the match is over.

The re-deal, for the contract tests: everything a viewer may not see drawn again - the
other cards (or aces), the Mutineer they name, the Search and Confession targets, the
ballots not yet revealed - keeping only draws that leave the viewer's view unchanged and
the match consistent.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

import random
from typing import Any

from companion.engine import RedealFailed, State, Viewer, clone, votes
from companion.games.moon_yeti.data import (
    BOATSWAIN,
    CARD_SIZE,
    CHAPLAIN,
    CLOCK,
    DEAL,
    DECLARE,
    OVER,
    ROLES,
    VOTE_KEYS,
    WAIT,
    ace_mutineer,
    card_mutineer,
    card_or_ace,
    chaplain_allied,
    holders,
    innocence_targets,
    is_real,
    role_index,
    seat_of,
)

#: Facts the whole table knows (the ballots only once revealed: they are None before).
PUBLIC_KEYS = ("step", "seats", "minute", "roles", "ready", "reckoning", "innocent",
               "condemned", "ballots1", "ballots2", "ballots2_cast", "bosun_waited",
               "forgiveness", "course", "guilty", "end", "timed_out")


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public record, plus the viewer's own secrets; everything at the end."""
    options = state["options"]
    out = clone({key: state[key] for key in PUBLIC_KEYS})  # one copy, not one per key
    out.update({"mode": options["mode"], "time_source": options["time_source"],
                "confession_rule": options["confession"],
                "change_course": options["change_course"],
                "course_as_cast": options["course_as_cast"], "jury": options["jury"],
                "ready_warns": options["ready_warns"]})
    for key in VOTE_KEYS.values():
        out[key] = _vote_view(state[key], viewer)
    if isinstance(viewer, int):
        out["me"] = _seat_view(state, viewer)
    if state["step"] == OVER:
        out["reveal"] = _reveal_view(state)
    return out


def _vote_view(vote: votes.Vote | None, viewer: Viewer) -> dict[str, Any] | None:
    """How many ballots are in (a waiting Boatswain's ballots count as they are cast,
    one press each, like anyone's: Y6) and the viewer's own; all once revealed."""
    if vote is None:
        return None
    out = votes.vote_view(vote, viewer)
    out.pop("tally", None)  # the live tallies are ballots1/ballots2, after changes
    return out


def _seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its card or ace, whether it is the Mutineer, and what
    its Search or Confession showed (or that its confession was taken)."""
    role = state["roles"][seat]
    me: dict[str, Any] = {"seat": seat, "role": role}
    if role not in ROLES:
        return me
    me.update(card_or_ace(state, seat))
    if state["mutineer"] is not None:
        me["is_mutineer"] = state["mutineer"] == seat
    if role == BOATSWAIN and state["search"] is not None:
        target = state["search"]
        me["search"] = {"target": target, "is_mutineer": target == state["mutineer"],
                        **card_or_ace(state, target)}
    if role == CHAPLAIN and state["confession"] is not None:
        target = state["confession"]
        me["confession"] = {"target": target}
        if state["options"]["confession"] == "truthful":
            me["confession"].update(is_mutineer=target == state["mutineer"],
                                    allied=chaplain_allied(state))
    if state["confession"] == seat:
        me["confessed_to"] = seat_of(state, CHAPLAIN)
    return me


def _reveal_view(state: State) -> dict[str, Any]:
    """Everything, once the match is over."""
    per_seat: list[Any] = [None] * state["seats"]
    for seat in holders(state):
        per_seat[seat] = next(iter(card_or_ace(state, seat).values()))
    return {"mutineer": state["mutineer"], "cards_or_aces": per_seat,
            "search": state["search"], "confession": state["confession"],
            "chaplain_allied": chaplain_allied(state)}


# -- the re-deal, for the contract tests ---------------------------------------------------

#: Draws tried before giving up; a draw fits the viewer's knowledge at least one time
#: in four, so giving up means the re-deal itself is broken.
TRIES = 200


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with what ``viewer`` cannot see drawn again (the round-1
    innocent of a match still going is never the Mutineer)."""
    if state["step"] in (DEAL, OVER):
        return clone(state)  # nothing is dealt yet, or everything is shown
    wanted = view(state, viewer)
    for _ in range(TRIES):
        twin = _redraw(state, viewer, rng)
        if _consistent(twin) and view(twin, viewer) == wanted:
            return twin
    raise RedealFailed(f"moon-yeti: no re-deal for {viewer!r} at step {state['step']!r}")


def _consistent(state: State) -> bool:
    return state["innocent"] is None or state["innocent"] != state["mutineer"]


def _redraw(state: State, viewer: Viewer, rng: random.Random) -> State:
    twin = clone(state)
    _redraw_cards(twin, viewer, rng)
    if state["step"] not in (DECLARE, CLOCK):
        _redraw_actions(twin, viewer, rng)
    for key in VOTE_KEYS.values():
        if twin[key] is not None:
            _redraw_ballots(twin[key], viewer, rng)
    return twin


def _known_roles(state: State, viewer: Viewer) -> set[int]:
    """Role indexes whose card (or ace) the viewer has seen."""
    if not isinstance(viewer, int) or state["roles"][viewer] not in ROLES:
        return set()
    known = {role_index(state, viewer)}
    if state["roles"][viewer] == BOATSWAIN and state["search"] is not None:
        known.add(role_index(state, state["search"]))
    return known


def _redraw_cards(twin: State, viewer: Viewer, rng: random.Random) -> None:
    known = _known_roles(twin, viewer)
    hidden = [k for k in range(len(ROLES)) if k not in known]
    if twin["cards"] is not None:
        # Sorted before each shuffle: a draw depends on what the viewer knows and on
        # ``rng`` alone, never on who really holds what (a bot's fence).
        pool = sorted(m for k in hidden for m in twin["cards"][k])
        rng.shuffle(pool)
        for j, k in enumerate(hidden):
            twin["cards"][k] = sorted(pool[j * CARD_SIZE:(j + 1) * CARD_SIZE])
        if twin["minute"] is not None:
            twin["mutineer"] = card_mutineer(twin)
    else:
        suits = sorted(twin["aces"][k] for k in hidden)
        rng.shuffle(suits)
        for k, suit in zip(hidden, suits, strict=True):
            twin["aces"][k] = suit
        twin["mutineer"] = ace_mutineer(twin)


def _redraw_actions(twin: State, viewer: Viewer, rng: random.Random) -> None:
    """The Search and Confession targets, unless the viewer took or received them."""
    boatswain = seat_of(twin, BOATSWAIN)
    chaplain = seat_of(twin, CHAPLAIN)
    if viewer != boatswain:
        twin["search"] = rng.choice([None, *innocence_targets(twin, boatswain)])
    if viewer not in (chaplain, twin["confession"]):
        others = [t for t in innocence_targets(twin, chaplain) if t != viewer]
        twin["confession"] = rng.choice([None, *others])


def _redraw_ballots(vote: votes.Vote, viewer: Viewer, rng: random.Random) -> None:
    """Ballots not yet revealed, as many per seat as were cast, each legal; whether the
    Boatswain waits is secret too (Y6: a waiting Boatswain's every ballot waits)."""
    if vote["revealed"]:
        return
    # Whose ballots are in is hidden too (a seat knows only how many).
    for seat, cast in votes.redrawn_counts(vote, viewer, rng).items():
        if not cast:
            vote["cast"][seat] = []
            continue
        choices = vote["choices"][seat]
        if WAIT in choices and rng.random() < 0.5:
            vote["cast"][seat] = [WAIT] * cast
            continue
        targets = [c for c in choices if is_real(c)]
        fresh = [rng.choice(targets)]
        if cast > 1:
            fresh.append(rng.choice(targets + [None]))
        vote["cast"][seat] = fresh
