"""Captain's Orders: what each viewer may know, built from an allow-list.

The public (the table display, the host) sees every move without the card of a
face-down one, and every hand's size; a seat adds its own hand (phones mode) and the
cards of the hidden moves it took part in. Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine.rules import State

from .data import HIDDEN_KINDS, PHONES, sees


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "card"}


def public_view(state: State) -> dict[str, Any]:
    """Everything the table may know: no card in a hand, no card moved face down."""
    options = state["options"]
    emptied = state["emptied"]
    public_emptied = None
    if emptied is not None:
        how = state["events"][emptied["event"]]
        public_emptied = {"seat": emptied["seat"], "how": how["kind"], "to": how.get("to"),
                          "rank": how.get("rank")}
    # Built fresh (no list or dict of the state is shared) and by hand: views are made
    # many times a step, and a generic deep copy costs more than the rest together.
    ending, last = state["ending"], state["last_round"]
    return {
        "mode": options["mode"],
        "seats": state["seats"],
        "round": state["round"],
        "dealer": state["dealer"],
        "step": state["step"],
        "turn": state["turn"],
        "order": dict(state["order"]) if state["order"] else None,
        "sizes": [len(hand) for hand in state["hands"]],
        "discards": len(state["discards"]),
        "out_of_play": len(state["undealt"]),
        "played": list(state["played"]),
        "pending": dict(state["pending"]) if state["pending"] else None,
        "emptied": public_emptied,
        "ending": dict(ending) if ending else None,
        "events": [_public_event(e) for e in state["events"]],
        "entries": [list(e) for e in state["entries"]] if state["entries"] else None,
        "need": list(state["need"]) if state["need"] else None,
        "wins": list(state["wins"]),
        "target": options["wins"],
        "rules": {"shared_victory": options["shared_victory"],
                  "empty_ends_round": options["empty_ends_round"],
                  "stuck_discovers": options["stuck_discovers"]},
        "history": [dict(h, winners=list(h["winners"])) for h in state["history"]],
        "last_round": _copy_round(last) if last else None,
        "ready": list(state["ready"]),
        "winners": list(state["winners"]) if state["winners"] is not None else None,
        "end": state["end"],
    }


def _copy_round(last: dict[str, Any]) -> dict[str, Any]:
    """A copy of a round's summary (by hand: faster than a generic deep copy)."""
    return dict(last, hands=[list(h) for h in last["hands"]], points=list(last["points"]),
                captains=list(last["captains"]), ending=dict(last["ending"]),
                winners=list(last["winners"]))


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its hand (phones) and the cards of the hidden moves it
    took part in."""
    return {
        "seat": seat,
        "hand": list(state["hands"][seat]) if state["options"]["mode"] == PHONES else None,
        "log": [dict(e) for e in state["events"]
                if e["kind"] in HIDDEN_KINDS and sees(seat, e)],
    }
