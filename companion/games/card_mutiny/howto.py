"""Card Mutiny in a minute: the goal, a turn, and what each kind of card does.
Every card is public once flipped, so a seat's own part is only its turn (and, after a
Parrot or a Spyglass, that the peeked card shows on its phone alone).
Rulings: see docs/games/card-mutiny.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES

HOWTO: dict[str, Any] = {
    "title": "Card Mutiny",
    "goal": "Hold the most gold when the stack is empty and every card has been flipped. "
            "The richest pirate is the Captain: every Mutiny hits them.",
    "turn": [
        "Flip a face-down card of the 7x7 grid.",
        "Coins must be matched in pairs of the same metal: a match goes to your chest and "
        "you flip on; a miss turns them back face down.",
        "Gems, Rocks, Duds, Mutinies and events end your turn; the grid is then refilled "
        "from the stack.",
    ],
    "devices": [*DEVICES,
                "On your turn pick a row, then a card of it. Watch the table display: "
                "remembering where the coins lie is the game."],
    "parts": {
        "Coins": ["Gold, silver and copper come in pairs: flip the second of a pair "
                  "and both are yours, and you flip again."],
        "Gems": ["Straight to your chest; your turn ends."],
        "Treasure Maps": ["Three in a row make a set, counted at the end."],
        "Rock and Dud": ["A Rock stays face up in the grid; a Dud is discarded. Either "
                         "ends your turn."],
        "Mutiny": ["Strikes the Captain, the richest pirate; with several Captains you "
                   "pick one."],
        "Events": ["Storm reshuffles a row you choose; Parrot and Spyglass let you peek "
                   "at face-down cards, on your phone only."],
    },
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's own part: whether it is flipping now."""
    lines = ["You are a pirate: remember the cards, chain your matches, and stay out of "
             "the Captain's seat when a Mutiny is near."]
    if view.get("you", {}).get("may_act"):
        lines.append("It is your move: pick a row, then a card.")
    return lines


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    """Nothing: a peek shows on the phone's panel, not in its help."""
    return []
