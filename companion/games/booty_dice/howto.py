"""Booty Dice in a minute: the goal, a turn, and what each die does (in the rulebook's
order of resolution). Every fact of Booty Dice is public, so a seat's own part is only
whose turn it is. Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES

HOWTO: dict[str, Any] = {
    "title": "Booty Dice",
    "goal": "Be the first pirate to hold 25 Doubloons, or the last one left alive. "
            "Everyone starts with 5 Doubloons and 10 Lives.",
    "turn": [
        "Roll the six Booty Dice: up to three rolls, holding any dice you like between "
        "rolls.",
        "Stop, and the dice act in order: Doubloon, X Marks the Spot, Jolly Roger, "
        "Cutlass, Walk the Plank, Shield, then the combos.",
        "Pick who your Cutlasses hit and whom your Jolly Rogers rob; then the dice pass "
        "clockwise.",
    ],
    "devices": [*DEVICES,
                "On your turn: hold or free each die, roll again or stop, then pick your "
                "targets. Everyone else watches; nobody has a secret."],
    "parts": {
        "Doubloon": ["Take 2 Doubloons from the Buried Treasure (if any are left)."],
        "X Marks the Spot": ["Give 2 of your Doubloons back to the Buried Treasure."],
        "Jolly Roger": ["Steal 2 Doubloons: both from one pirate, or one each from two."],
        "Cutlass": ["Attack a pirate: a Shield stops one attack, else they lose a Life."],
        "Walk the Plank": ["You lose a Life; Shields do not help."],
        "Shield": ["Take a Shield from the War Chest: it stops Cutlasses only."],
        "Mutiny (3 Planks)": ["Every other pirate loses a Life, one more for each extra "
                              "Plank; Shields do not help."],
        "Shipwreck (3 X's)": ["Every other pirate gives 3 Doubloons to the Buried "
                              "Treasure, one more for each extra X."],
        "Blackbeard's Curse (one of each)": ["Every other pirate loses 2 Lives and gives "
                                             "5 Doubloons."],
        "Captain's Plunder": ["Knock a pirate out on your turn and you take all their "
                              "Doubloons."],
    },
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's own part: whether it is rolling now, and that it must keep its Lives."""
    lines = ["You are a pirate: keep your Lives above 0 and gather Doubloons."]
    if view["state"].get("roller") == seat and not view.get("over"):
        lines.append("It is your turn: roll, hold, stop, then pick your targets.")
    else:
        lines.append("Wait for your turn; the dice come round clockwise.")
    return lines


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    """Booty Dice has no secrets."""
    return []
