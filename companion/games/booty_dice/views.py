"""What each viewer may see of Booty Dice: everything is public, so every viewer gets the
same allow-listed copy, and the re-deal has nothing to draw again.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

import random
from typing import Any

from companion.engine import State, Viewer, clone

#: What a view copies: plain values, then flat lists.
VIEW_SCALARS = ("seats", "treasure", "war_chest", "locker", "turn", "roller", "step",
                "rolls", "winner", "reason")
VIEW_LISTS = ("lives", "shields", "doubloons", "dice", "held")


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Everything is public: every viewer gets the same allow-listed copy."""
    out: dict[str, Any] = {key: state[key] for key in VIEW_SCALARS}
    for key in VIEW_LISTS:
        out[key] = list(state[key])
    # Events and queued effects are flat dicts of plain values: one level suffices
    # (and a view is built often enough for a deep copy to show in profiles).
    for key in ("queue", "events"):
        out[key] = [dict(item) for item in state[key]]
    last = state["last_roll"]
    out["last_roll"] = {"seat": last["seat"], "dice": list(last["dice"])} if last else None
    out["earlier"] = [{"seat": turn["seat"], "dice": list(turn["dice"]),
                       "events": [dict(e) for e in turn["events"]]}
                      for turn in state["earlier"]]
    out["options"] = dict(state["options"])
    out["alive"] = [lives > 0 for lives in state["lives"]]
    return out


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """Nothing is hidden, so nothing is drawn again: an unchanged copy."""
    return clone(state)
