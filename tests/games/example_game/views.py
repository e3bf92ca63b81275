"""What each viewer may see of Raid or Bank: every purse and public choice, a seat's
own chest, and of a secret vote only what ``votes.vote_view`` allows."""
from __future__ import annotations

import random
from typing import Any

from companion.engine import PUBLIC, State, Viewer, clone, votes
from tests.games.example_game.data import CHEST_MOST

VIEW_KEYS = ("seats", "rounds", "round", "turn", "step", "opened")


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {key: state[key] for key in VIEW_KEYS}
    out |= {"gold": list(state["gold"]), "plans": list(state["plans"]),
            "events": [dict(e) for e in state["events"]]}
    out["vote"] = None if state["vote"] is None else votes.vote_view(state["vote"], viewer)
    if viewer != PUBLIC:
        out["my_chest"] = state["chests"][viewer]
    return out


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Every chest and ballot the viewer cannot see, drawn again."""
    state = clone(state)
    for seat, chest in enumerate(state["chests"]):
        if seat != viewer and chest is not None:
            state["chests"][seat] = rng.randint(1, CHEST_MOST)
    if state["vote"] is not None:
        votes.redeal_vote(state["vote"], viewer, rng)
    return state
