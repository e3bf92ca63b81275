"""What Booty Dice's table shows: the summary (whose turn, the standings, the supplies)
and the board besides the game's own dice panel (web/static/games/booty-dice.js draws
the dice, the holds, the supplies and every pirate's Lives, Shields and Doubloons):
whose roll it is, the last turns told roll by roll and event by event (the turn before
stays while the next pirate rolls), and at the end the winner, why and every pirate's
standing. Everything in Booty Dice is public: there is no panel of secrets.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import board as b
from companion.games import kit
from companion.games.booty_dice.data import MAX_ROLLS, TARGETING
from companion.games.booty_dice.show import FACE_NAMES, event_text

View = dict[str, Any]
Names = list[str]
Part = dict[str, Any]


def summary(view: View) -> dict[str, Any]:
    """Whose turn, the standings and the supplies, from the public view."""
    state, names = view["state"], view["names"]
    roller = state["roller"]
    if view.get("result"):
        headline = view["result"]["reason"] or "Game over"
    else:
        headline = (f"{kit.seat_name(names, roller)} is rolling"
                    f" (roll {state['rolls']} of {MAX_ROLLS})")
    lines = [f"{kit.seat_name(names, s)}: {kit.plural(state['lives'][s], 'Life', 'Lives')}, "
             f"{kit.plural(state['shields'][s], 'Shield')}"
             + ("" if state["alive"][s] else " (out)") for s in range(state["seats"])]
    treasure = "endless" if state["treasure"] is None else state["treasure"]
    chest = "endless" if state["war_chest"] is None else state["war_chest"]
    lines.append(f"Buried Treasure {treasure}, War Chest {chest}")
    return {"headline": headline, "turn": [] if view.get("result") else [roller],
            "scores": list(state["doubloons"]), "score_label": "Doubloons",
            "lines": lines}


def board(view: View) -> list[Part]:
    """The table's board, from the public view. The dice, the supplies and every
    pirate's standing are the game's own panel's: the board does not draw them twice."""
    state, names = view["state"], view["names"]
    if view.get("result"):
        parts = [b.headline(_ending_title(view)), _ending(view)]
    elif state["step"] == TARGETING:
        parts = [b.headline(_picking(state, names))]
    else:
        parts = [b.headline(summary(view)["headline"])]
    parts.append(b.log(story(state, names), title="The last turns", keep=80))
    return parts


def _picking(state: View, names: Names) -> str:
    """The roller resolves the dice and must pick a pirate."""
    who = kit.seat_name(names, state["roller"])
    if state["queue"][0]["kind"] == "cutlass":
        return f"{who} resolves the dice: a Cutlass - whom to attack?"
    return f"{who} resolves the dice: a Jolly Roger - whom to rob?"


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
    reason = result["reason"]
    lines = [f"{reason[:1].upper()}{reason[1:]}."] if reason else []
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


def panel(view: View, seat: int) -> list[Part]:
    """Nothing in Booty Dice is secret: a seat has no private panel."""
    return []
