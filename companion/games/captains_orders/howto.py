"""Captain's Orders in a minute: the goal, a turn, and what each kind of choice does.
The Captain is whoever holds the lowest card, so nobody is told they are the Captain:
a seat works it out from its own hand. Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES

HOWTO: dict[str, Any] = {
    "title": "Captain's Orders",
    "goal": "The Captain is whoever holds the lowest card, and may change as cards move. "
            "Catch a Captain, or be one and empty your hand. First to three round wins.",
    "turn": [
        "With no order on the table: play an order, pass a card, ask for a card, or "
        "discover the Captain.",
        "With an order standing: follow it (pass its owner a card of equal or higher "
        "rank), belay it (play a lower order), or discover.",
        "The round ends at an accusation or an empty hand; everyone's hand is then "
        "shown.",
    ],
    "devices": [*DEVICES,
                "Your hand lives on your phone (and behind your seat's select); the table "
                "shows the order, hand sizes and whose turn it is."],
    "parts": {
        "Play an order": ["Lay a card face up in the middle: it is the order, and "
                          "you own it. If it comes back round to you untouched, it is "
                          "discarded."],
        "Pass a card": ["Give one of your cards face down to a player; they keep it and "
                        "discard one of theirs face down."],
        "Ask for a card": ["A player gives you a card of their choice face down; you "
                           "then discard one face down."],
        "Follow the order": ["Pass the order's owner a card of equal or higher rank. "
                             "Nobody discards."],
        "Belay the order": ["Play a lower card: the old order is discarded and the new "
                            "one is yours."],
        "Discover the Captain": ["Accuse a player. Right: you win the round. Wrong: the "
                                 "other Mutineer with the most points wins it."],
        "Declare Captain": ["Empty your hand and you may declare: if you hold the "
                            "lowest card you win the round."],
    },
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's own part: whether it must act now, and how to read its hand."""
    lines = ["Look at your hand: if your lowest card is lower than every other hand's, "
             "you are a Captain. Otherwise you are a Mutineer."]
    if view.get("you", {}).get("may_act"):
        lines.append("It is your move: your choices are on your screen.")
    return lines


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    """Nothing: who is Captain changes with every card, and the hand is on the phone."""
    return []
