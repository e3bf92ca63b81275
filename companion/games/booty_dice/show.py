"""What Booty Dice shows on a seat: its screen and choices, and the resolution's events
and the winner in words (the table uses them too). Built from views only (everything in Booty Dice
is public, but a screen still draws only what its view holds); every name and sentence
is made here, never kept in the state.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import Action, Choice, Display
from companion.games import kit
from companion.games.booty_dice.data import (
    DECIDING,
    MAX_ROLLS,
    OVER,
    ROLLING,
    TARGETING,
    WIN_DOUBLOONS,
)

FACE_NAMES = {"doubloon": "Doubloon", "x": "X Marks the Spot", "jolly": "Jolly Roger",
              "cutlass": "Cutlass", "plank": "Walk the Plank", "shield": "Shield"}
#: Hand-made forms for a 21-column screen, and one-character codes for the dice line.
FACE_SHORT = {**FACE_NAMES, "x": "X Marks", "plank": "Plank"}
FACE_CODES = {"doubloon": "$", "x": "X", "jolly": "J", "cutlass": "C", "plank": "P",
              "shield": "S"}


#: Why the winner won (``state["reason"]``), in words.
WINS = {"doubloons": f"{WIN_DOUBLOONS} Doubloons", "last_alive": "last pirate alive"}


# -- events in words -------------------------------------------------------------------

def _out(event: dict[str, Any], names: list[str]) -> str:
    who = kit.seat_name(names, event["seat"])
    if event["to"] is None:
        return f"{who} is out"
    taker = kit.seat_name(names, event["to"])
    return f"{who} is out: {taker} {'take' if taker == kit.YOU else 'takes'} {event['n']}"


def _lapse_what(event: dict[str, Any]) -> str:
    return "Cutlass finds nobody" if event["effect"] == "cutlass" else "steal finds no gold"


def _lapse(event: dict[str, Any], names: list[str]) -> str:
    return f"{kit.seat_name(names, event['seat'])}'s {_lapse_what(event)}"


def _your_out(event: dict[str, Any], names: list[str]) -> str:
    if event["to"] is None:
        return "You are out"
    return f"You are out: {kit.seat_name(names, event['to'])} takes {event['n']}"


#: Resolution events in words (``kit.word``): the roller's take, payments, steals ...
EVENT_TEXTS: dict[str, Any] = {
    "take": "{seat} takes {n} Doubloon{s}",
    "pay": "{seat} pays {n} Doubloon{s}",
    "steal": "{seat} steals a Doubloon from {source}",
    "shield_lost": "{seat} loses a Shield",
    "life": lambda e, names: f"{kit.seat_name(names, e['seat'])} loses "
                             + kit.plural(e["n"], "Life", "Lives"),
    "shield": "{seat} takes {n} Shield{s}",
    "out": _out,
    "lapse": _lapse,
    "win": "{seat} wins!",
}


#: The same events on the screen of the pirate they happened to.
YOUR_EVENT_TEXTS: dict[str, Any] = {
    "take": "You take {n} Doubloon{s}",
    "pay": "You pay {n} Doubloon{s}",
    "steal": "You steal a Doubloon from {source}",
    "shield_lost": "You lose a Shield",
    "life": lambda e, names: "You lose " + kit.plural(e["n"], "Life", "Lives"),
    "shield": "You take {n} Shield{s}",
    "out": _your_out,
    "lapse": lambda e, names: f"Your {_lapse_what(e)}",
    "win": "You win!",
}


def event_text(event: dict[str, Any], names: list[str], viewer: int | None = None) -> str:
    """One resolution event in words: as the table says it, or (``viewer``, a seat) as
    that seat's own screen says it, where its pirate is "you"."""
    return kit.word(event, names, EVENT_TEXTS, viewer, YOUR_EVENT_TEXTS)


# -- a seat's screen -------------------------------------------------------------------

def dice_line(view: dict[str, Any]) -> str:
    """The six dice in 18 columns: ``[C]`` is held, ``?`` awaits its face."""
    cells = []
    for face, held in zip(view["dice"], view["held"], strict=True):
        code = FACE_CODES[face] if face else "?"
        cells.append(f"[{code}]" if held else f" {code} ")
    return "".join(cells)


def stats(view: dict[str, Any], seat: int) -> str:
    """``L10 S0 $5``: a pirate's Lives, Shields and Doubloons, made for a small screen."""
    if view["lives"][seat] == 0:
        return "out"
    return f"L{view['lives'][seat]} S{view['shields'][seat]} ${view['doubloons'][seat]}"


def stats_words(view: dict[str, Any], seat: int) -> str:
    """``10 Lives, 0 Shields, 5 Doubloons``: the same in full words, for the phone."""
    if view["lives"][seat] == 0:
        return "out of the game"
    return ", ".join(kit.plural(view[key][seat], one, many) for key, one, many in (
        ("lives", "Life", "Lives"), ("shields", "Shield", "Shields"),
        ("doubloons", "Doubloon", "Doubloons")))


def dice_words(view: dict[str, Any]) -> str:
    """The six dice in words: ``Dice: Doubloon, Cutlass (held), ...`` (a die still to
    enter from the table: ``not entered yet``)."""
    words = [(FACE_NAMES[face] if face else "not entered yet") + (" (held)" if held else "")
             for face, held in zip(view["dice"], view["held"], strict=True)]
    return "Dice: " + ", ".join(words)


def choice(action: Action, view: dict[str, Any], names: list[str]) -> Choice:
    """One of the roller's decisions in full words (and a short form where the face or
    the name would not fit a 21-column screen)."""
    kind = action["type"]
    if kind == "enter":
        die, face = view["dice"].index(None) + 1, action["face"]
        return Choice(f"Die {die} shows {FACE_NAMES[face]}", action,
                      short=f"Die {die}: {FACE_SHORT[face]}")
    if kind == "hold":
        die = action["die"]
        verb = "Free" if view["held"][die - 1] else "Hold"
        face = view["dice"][die - 1]
        return Choice(f"{verb} die {die} ({FACE_NAMES[face]})", action,
                      short=f"{verb} {die} {FACE_SHORT[face]}")
    if kind == "roll":
        free = view["held"].count(False)
        return Choice(f"Roll {kit.plural(free, 'die', 'dice')}", action)
    if kind == "stop":
        return Choice("Stop and resolve", action)
    name = kit.seat_name(names, action["seat"])
    if kind == "attack":
        return Choice(f"Attack {name}", action)
    return Choice(f"Steal a Doubloon from {name}", action, short=f"Rob {name}")


def _roller_hint(view: dict[str, Any]) -> str:
    step = view["step"]
    if step == ROLLING:
        return f"Enter die {view['dice'].index(None) + 1}"
    if step == DECIDING:
        return "Hold, roll or stop"
    if view["queue"] and view["queue"][0]["kind"] == "cutlass":
        return "Cutlass: attack whom?"
    # One pick per Doubloon: a counter shows the tap counted ("Steal 2 of 2: whom?").
    done = sum(1 for e in view["events"] if e["kind"] == "steal"
               or (e["kind"] == "lapse" and e.get("effect") == "steal"))
    total = done + sum(1 for effect in view["queue"] if effect["kind"] == "steal")
    if total > 1:
        return f"Steal {done + 1} of {total}: whom?"
    return "Jolly Roger: rob whom?"


def _watcher_hint(view: dict[str, Any], names: list[str], seat: int) -> str:
    """What a pirate who is not rolling reads: the roller's pick, or the latest event
    (in the second person where it happened to this pirate)."""
    if view["step"] == TARGETING:
        return "Picking a target"
    events = view["events"]
    return event_text(events[-1], names, viewer=seat) if events else ""


def display(view: dict[str, Any], seat: int) -> Display:
    """The seat's screen from its engine view (everything in it is public).

    The roller sees the dice, the roll count and their choices, all at one menu level:
    grouping the holds would cost presses (docs/games/booty-dice.md counts them).
    Another pirate sees whose turn it is, the dice and their own Lives, Shields and
    Doubloons. Holding select shows every pirate's standing."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    # Every pirate's standing: in words on the phone, as L/S/$ on the seat's screen.
    standings = tuple(f"{kit.seat_name(names, s)}: {stats_words(state, s)}"
                      for s in range(state["seats"]))
    short_standings = tuple(f"{kit.seat_name(names, s)} {stats(state, s)}"
                            for s in range(state["seats"]))
    mine, mine_words = f"You {stats(state, seat)}", f"You: {stats_words(state, seat)}"
    if state["step"] == OVER:
        ending = (f"Winner: {kit.seat_name(names, state['winner'])}", WINS[state["reason"]])
        return Display(title="Game over", private=standings, short_private=short_standings,
                       lines=(*ending, mine_words), short_lines=(*ending, mine))
    roller = state["roller"]
    if seat == roller:
        title = f"Your roll {state['rolls']} of {MAX_ROLLS}"
        hint = _roller_hint(state)
    else:
        title = f"{kit.seat_name(names, roller)}'s turn"
        hint = _watcher_hint(state, names, seat)
    # The seat's screen has 21 columns: the dice as codes and the standing as L/S/$;
    # the phone shows the same in words.
    return Display(title=title, lines=(dice_words(state), mine_words, hint),
                   short_lines=(dice_line(state), mine, hint),
                   choices=tuple(choice(action, state, names) for action in legal),
                   private=standings, short_private=short_standings,
                   led="on" if legal else "off")
