"""What Booty Dice's table shows besides its own dice panel (web/static/games/booty-dice.js
draws the dice, the supplies and every pirate's Lives, Shields and Doubloons): whose roll
it is, the standings in words, the last turns told die by die and event by event, the
previous roller's final dice while the next pirate rolls, and at the end the winner and
why. Everything in Booty Dice is public: there is no panel of secrets.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import board as b
from companion.games import kit
from companion.games.booty_dice.data import DECIDING, ROLLING
from companion.games.booty_dice.show import FACE_NAMES, event_text, summary

View = dict[str, Any]
Names = list[str]
Part = dict[str, Any]


def board(view: View) -> list[Part]:
    """The table's board, from the public view."""
    state, names = view["state"], view["names"]
    parts = [part for part in b.from_summary(summary(view), view) if part["part"] != "result"]
    if view.get("result"):
        parts[0] = b.headline(_ending_title(view))
    last = state["last_roll"]
    if last is not None and state["step"] in (ROLLING, DECIDING) and not view.get("result"):
        # A new turn is under way: the turn before keeps its dice on the board.
        parts.append(b.dice([FACE_NAMES[face] for face in last["dice"]], seat=last["seat"],
                            title=f"{kit.seat_name(names, last['seat'])}'s last roll"))
    if view.get("result"):
        parts.append(_ending(view))
    parts.append(b.log(story(state, names), title="The last turns", keep=80))
    return parts


def story(state: View, names: Names) -> list[str]:
    """The last resolved turns in words, oldest first: each roller's final dice, then
    what they did, one event a line."""
    turns = list(state["earlier"])
    if state["last_roll"] is not None:
        turns.append({**state["last_roll"], "events": state["events"]})
    lines: list[str] = []
    for turn in turns:
        lines.append(_dice_words(turn, names))
        lines += [event_text(event, names) for event in turn["events"]]
    return lines


def _dice_words(turn: View, names: Names) -> str:
    """``Anne rolled Cutlass, Cutlass, Doubloon, Shield, Shield and Jolly Roger``."""
    faces = [FACE_NAMES[face] for face in turn["dice"]]
    return f"{kit.seat_name(names, turn['seat'])} rolled " \
           f"{', '.join(faces[:-1])} and {faces[-1]}"


def _ending_title(view: View) -> str:
    """``Anne wins: the last pirate alive``."""
    result, names = view["result"], view["names"]
    who = kit.name_list(names, result["winners"])
    return f"{who} wins: {result['reason']}" if result["reason"] else f"{who} wins"


def _ending(view: View) -> Part:
    """The winner, why, and every pirate's standing at the end."""
    state, names = view["state"], view["names"]
    result = view["result"]
    lines = [_ending_title(view) + "."]
    for seat in range(state["seats"]):
        name = kit.seat_name(names, seat)
        if not state["alive"][seat]:
            lines.append(f"{name} is out.")
            continue
        lines.append(f"{name}: {kit.plural(state['lives'][seat], 'Life', 'Lives')}, "
                     f"{kit.plural(state['shields'][seat], 'Shield')}, "
                     f"{kit.plural(state['doubloons'][seat], 'Doubloon')}.")
    return b.result(result["winners"], names, lines=lines, scores=result["scores"],
                    score_label="Doubloons")
