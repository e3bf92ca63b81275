"""What each viewer of a Moon Yeti match may see, built from an allow-list: the public
record, a seat's own secrets, and everything once the match is over.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import votes
from companion.engine.match import clone
from companion.engine.rules import State, Viewer
from companion.games.moon_yeti.data import (
    BOATSWAIN, CHAPLAIN, OVER, ROLES, VOTE_KEYS, card_or_ace, chaplain_allied, holders,
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
