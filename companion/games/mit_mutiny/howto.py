"""Mutiny (MIT) in a minute: the goal, a round, and each role's actions and when they
come. The roles are public; a seat's own part names its role this round.
Rulings: see docs/games/mit-mutiny.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES
from companion.games.mit_mutiny.data import CAPTAIN, FIRST_MATE, QUARTER_MASTER, ROLE_NAMES, SCOUT

PARTS: dict[str, list[str]] = {
    ROLE_NAMES[CAPTAIN]: [
        "At the start of each round: hand out First Mate and Quarter Master (the Scout "
        "card goes to the last pirate).",
        "After the island is picked: divide its loot among the four, any way you like.",
        "In the decisions you always defend yourself; each island won under you earns "
        "you Infamy.",
    ],
    ROLE_NAMES[SCOUT]: [
        "First: look at two face-down islands, pick the one to raid, and take one cube "
        "of its loot.",
        "In the decisions: you decide first, and may change your mind last.",
    ],
    ROLE_NAMES[QUARTER_MASTER]: [
        "When the crews roll: you roll the eight-sided die as well.",
        "In the decisions: you decide second.",
    ],
    ROLE_NAMES[FIRST_MATE]: [
        "When the crews roll: you may peek at one other pirate's hidden roll.",
        "In the decisions: you decide third.",
    ],
}

HOWTO: dict[str, Any] = {
    "title": "MIT Mutiny",
    "goal": "Have the most Infamy after the last island: loot, Rum, crew and Mystery "
            "cards all count.",
    "turn": [
        "The Captain hands out the roles, the Scout picks an island, the Captain divides "
        "its loot.",
        "Everyone rolls their crew dice in secret; then Scout, Quarter Master, First Mate "
        "each choose to mutiny or defend the Captain.",
        "Any mutiny means a battle of dice sums; then everyone buys Rum, Crew and Mystery "
        "cards with their loot.",
    ],
    "devices": [*DEVICES,
                "Your phone keeps your hand, your hidden roll and your peek; hold the "
                "eye pad to see them. The table shows the map, the loot and the battle."],
    "parts": PARTS,
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's own part: its role this round (public) and that role's actions."""
    role = view["state"]["roles"][seat]
    if role is None:
        return ["You have no role yet: the Captain is handing them out.",
                "Every pirate buys Rum, Crew and Mystery cards at the end of a round."]
    name = ROLE_NAMES[role]
    return [f"You are the {name} this round.", *PARTS[name]]


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    """Nothing: the hand, the hidden roll and the peek are on the phone's panel."""
    return []
