"""Raid or Bank in a minute, and a seat's own part (its chest only behind the pad)."""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES

HOWTO: dict[str, Any] = {
    "title": "Raid or Bank",
    "goal": "Be the richest pirate after the last round: bank your own hidden chest, or "
            "raid a smaller one.",
    "turn": ["Each round the companion deals every pirate a hidden chest of 1 to 6 gold.",
             "Each pirate banks their chest or raids another pirate's chest.",
             "The chests open: a raid on a smaller chest takes it, any other raid loses "
             "your own."],
    "devices": list(DEVICES),
    "parts": {"Bank": ["Keep your own chest, unless someone raids it with a bigger one."],
              "Raid": ["Take a smaller chest and keep your own; against an equal or "
                       "bigger chest you lose yours."]},
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    if view["you"]["may_act"]:
        return ["Choose now: bank your chest or raid a pirate."]
    return ["Wait for the others to choose."]


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    chest = view["state"]["my_chest"]
    return [f"Your chest holds {chest} gold."] if chest else []
