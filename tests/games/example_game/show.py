"""What a seat of Raid or Bank shows: its screen, its choices, and the round's end in
words (the table's board says the same events as sentences)."""
from __future__ import annotations

from typing import Any

from companion.engine import Action, Choice, Display
from companion.games import kit

#: The round's end in sentences, for the table (kit.word names the seats).
EVENT_TEXTS = {"keep": "{seat} keeps a chest of {n}",
               "raid_won": "{seat} raids {target} for {n}",
               "raid_lost": "{seat} raids {target} and loses {n}"}
#: The same events on the seat's own screen: to its player, and short enough for it.
MINE = {"keep": "You kept your {n}",
        "raid_won": "Your raid won {n}",
        "raid_lost": "Your raid lost {n}"}
#: What select does on a secret ballot (the seat's hint row reads "select: lock it in").
CONFIRM = {"bank": "lock it in", "raid": "lock it in"}


def said(event: dict[str, Any], names: list[str]) -> str:
    return kit.word(event, names, EVENT_TEXTS)


def display(view: dict[str, Any], seat: int) -> Display:
    state, names = view["state"], view["names"]
    vote = state["vote"]
    choices = tuple(choice(action, names, vote is not None) for action in view["you"]["legal"])
    lines = [f"Your gold: {state['gold'][seat]}"]
    if vote is not None and not vote["revealed"]:
        lines.append(f"{vote['ballots_in']} of {vote['ballots_total']} have chosen")
    lines += [kit.word(e, names, MINE) for e in state["events"] if e["seat"] == seat]
    urgent = "blink" if vote is not None else "on"
    return Display(title=f"Round {min(state['round'], state['rounds'])}", lines=tuple(lines),
                   choices=choices, private=(f"Your chest: {state['my_chest'] or '-'}",),
                   led=urgent if choices else "off", confirm=CONFIRM if vote else {})


def choice(action: Action, names: list[str], secret: bool) -> Choice:
    if action["type"] == "bank":
        return Choice("Bank your chest", action, secret=secret)
    target = kit.seat_name(names, action["target"])
    return Choice(f"Raid {target}", action, secret=secret, group=("Raid a pirate",),
                  short=target)
