"""Moon Yeti in a minute: the goal, the two rounds, and each role's actions and when
they come. The roles are public; whether a seat is the Mutineer is its own secret, so
it goes in :func:`my_secret` (shown only while the seat's owner holds the reveal pad),
never in :data:`HOWTO` or :func:`my_part`. Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import DEVICES
from companion.games.moon_yeti.data import BOATSWAIN, CHAPLAIN, HELMSMAN, JUROR, NAVIGATOR, ROLES

PARTS: dict[str, list[str]] = {
    BOATSWAIN: [
        "Round 1, during the discussion - Cabin Search: look at another player's card "
        "and learn whether they are the Mutineer.",
        "Guilt vote - Bosun Knows Best: you may wait and vote after everyone else's "
        "votes are shown.",
    ],
    CHAPLAIN: [
        "Round 1, during the discussion - Confession: choose a player, who answers in "
        "secret whether they are the Mutineer. Confess the Mutineer and you share "
        "their fate.",
        "Guilt vote - Forgiveness: after the votes, move one vote cast for another "
        "player onto yourself.",
    ],
    HELMSMAN: [
        "Innocence vote - Trust: you cast two votes, at the same time as everyone.",
        "Round 2, before the vote - Condemn: give another player a second vote.",
    ],
    NAVIGATOR: [
        "Innocence vote - Dead Reckoning: after the vote, move any one vote to another "
        "player (never onto yourself).",
        "Guilt vote - Change Course: pick a player who did not vote for you; that vote "
        "must change.",
    ],
    JUROR: [
        "You hold no role and cannot be the Mutineer, so nobody may vote for you.",
        "You join the discussion and cast one vote in each vote.",
    ],
}

HOWTO: dict[str, Any] = {
    "title": "Moon Yeti",
    "goal": "One officer is secretly the Mutineer. The crew wins if the Mutineer is found "
            "guilty; the Mutineer wins by surviving.",
    "turn": [
        "Round 1: a few minutes of talk, then everyone votes one player innocent - if "
        "that is the Mutineer, the Mutineer wins at once.",
        "Round 2: talk again, then vote one player guilty (never yourself, never the "
        "innocent one).",
        "The roles' actions come in between; a tie clears nobody. Then the Mutineer is "
        "revealed.",
    ],
    "devices": [*DEVICES,
                "Talking happens at the table; your phone takes your secret votes and "
                "your role's actions. Press Ready to vote when the talk is done."],
    "parts": {role: PARTS[role] for role in (*ROLES, JUROR)},
}


def my_part(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's own role (public at the table) and that role's actions."""
    role = view["state"].get("me", {}).get("role")
    if role not in PARTS:
        return ["The roles are being dealt."]
    if role == JUROR:
        return ["You are a Juror.", *PARTS[JUROR]]
    return [f"You are the {role}.", *PARTS[role]]


def my_secret(view: dict[str, Any], seat: int) -> list[str]:
    """Whether the seat is the Mutineer: only its owner's help says so, behind the pad."""
    me = view["state"].get("me", {})
    if me.get("role") not in ROLES:
        return []
    if "is_mutineer" not in me:
        return ["Once the time is declared, your card tells you whether you are the "
                "Mutineer."]
    if me["is_mutineer"]:
        return ["You are the Mutineer: you win unless you are voted guilty, and win at "
                "once if you are voted innocent."]
    return ["You are not the Mutineer: find them, and vote them guilty."]
