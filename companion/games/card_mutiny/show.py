"""What a seat and the table show of Card Mutiny: screens, menus, events in words.

Everything here is built from a view (a seat's own, or the public one), never from the
state. Text is never cut: each screen fits what it is given, or shows a choice's
``short`` form. Rulings: see docs/games/card-mutiny.md.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.engine import Action, Choice, Display
from companion.games import kit
from companion.games.card_mutiny.data import (
    DEAL,
    EVENTS,
    GEMS,
    KINDS,
    LOOK,
    MAP_SET,
    OVER,
    PEEK,
    ROW_NAMES,
    SIZE,
    STORM,
    TARGET,
    cell_name,
)

#: Up to this many face-down cards are listed one by one; with more, a seat's menu
#: files them by row ("Row C", then the card), so no card is far from the first line.
DIRECT_LIST = 12

#: What each event card does, in words.
EVENT_TEXT = {
    "storm": "a row's face-down cards are reshuffled",
    "parrot": "peek at one card",
    "kraken": "everyone discards their lowest coin",
    "shore_leave": "take another turn",
    "plank": "discard your lowest coin",
    "spyglass": "peek at three cards",
}


# -- events in words ---------------------------------------------------------------------

def joined(words: Sequence[str], last: str = "and") -> str:
    """``B, C and E`` (``last``: "or" for ``B, C or E``): words as a sentence lists them."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _at(event: Mapping[str, Any]) -> str:
    """`` at A1 and D6``: where an event's cards lay (its ``cells``), or nothing."""
    places = [cell_name(k) for k in event.get("cells", ())]
    return f" at {joined(places)}" if places else ""


def _mutiny_words(event: Mapping[str, Any], names: Sequence[str]) -> str:
    by, target = kit.seat_name(names, event["by"]), kit.seat_name(names, event["target"])
    at = _at(event)
    text = (f"{by} turns up a Mutiny{at} and leads it on {target}" if at
            else f"{by} leads a Mutiny on {target}")
    return text if event["n"] else text + ": the chest is empty, nothing to take"


#: Templates over an event's fields (seat fields read as names; ``card`` as the card's
#: name, ``cards`` as the names of several, ``row`` as its letter; ``at``: where the
#: cards lay, `` at B4``, when the history names places).
EVENT_WORDS: dict[str, Any] = {
    "first": "{seat} goes first",
    "pair": "{seat}: a pair of {card}s{at} (+{gold})",
    "map_set": "{seat}: a Treasure Map set{at}, worth {gold} at the end",
    "gem": "{seat} takes the {card}{at} (+{gold})",
    "rock": "{seat}: a Rock{at}, it stays in the grid",
    "dud": "{seat}: a dud{at}",
    "no_match": "{seat}: {cards}, no match",
    "turned_back": "{seat}: {cards} turned back face down",
    "mutiny_ignored": "{seat}: a Mutiny{at}, ignored (a Captain revealed it)",
    "mutiny_choice": "{seat} reveals a Mutiny{at} and picks the Captain it targets",
    "mutiny": _mutiny_words,
    "take": "Mutiny: {seat} takes {target}'s {card} ({gold} gold)",
    "event": "{seat}: {card}{at}, {effect}",
    "event_off": "{seat}: {card}{at} (events are off: no effect)",
    "lose": "{cause}: {seat} discards a {card} (-{gold})",
    "storm": "Storm on row {row}: its face-down cards are reshuffled",
    "accident": "{seat}: {n} cards revealed by accident; replace them from the stack,"
                " then shuffle them into it",
    "refill": "Refill {n} place{s} from the stack",
    "extra_turn": "{seat} takes another turn (Shore Leave)",
    "over": "Game over",
}


def word(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """One event of the public log in words (with the places of its cards, when it
    names them: ``Anne: Silver coin at B4 / Copper coin at C2, no match``)."""
    fields = dict(event, at=_at(event))
    if "card" in fields:
        fields["card"] = KINDS[fields["card"]].name
        fields["effect"] = EVENT_TEXT.get(event["card"], "")
    if "cards" in fields:
        named = [KINDS[k].name for k in fields["cards"]]
        if "cells" in event:
            named = [f"{name} at {cell_name(k)}"
                     for name, k in zip(named, event["cells"], strict=True)]
        fields["cards"] = " / ".join(named)
    if "cause" in fields:
        fields["cause"] = KINDS[fields["cause"]].name
    if "row" in fields:
        fields["row"] = ROW_NAMES[fields["row"]]
    return kit.word(fields, names, EVENT_WORDS)


def log_lines(view: Mapping[str, Any]) -> list[str]:
    """The public log of a match view, oldest first, in words."""
    return [word(event, view["names"]) for event in view["state"]["log"]]


# -- choices -----------------------------------------------------------------------------

def _place_choice(verb: str, short: str, action: Action, by_row: bool) -> Choice:
    """A flip or a peek: one place of the grid, filed under its row when many."""
    cell = action["cell"]
    row, column = ROW_NAMES[cell // SIZE], cell % SIZE + 1
    return Choice(f"{verb} row {row}, column {column}", action,
                  group=(f"Row {row}",) if by_row else (),
                  short=f"{short} {cell_name(cell)}")


def _entry_choice(action: Action) -> Choice:
    """Cards mode: a card turned up (gems and events one menu down)."""
    card = KINDS[action["kind"]]
    worth = f" ({card.value})" if card.value else ""
    group = ("Gem",) if card.kind in GEMS else ("Event",) if card.kind in EVENTS else ()
    return Choice(f"Turned up: {card.name}{worth}", action, group=group,
                  short=f"{card.name} {card.value}" if card.value else card.name)


def choice(action: Action, names: Sequence[str], by_row: bool = False) -> Choice:
    """The whole decision ``action`` as a seat's menu line."""
    kind = action["type"]
    if kind == "flip":
        return _place_choice("Flip", "Flip", action, by_row)
    if kind == "peek":
        return _place_choice("Peek at", "Peek", action, by_row)
    if kind == "reveal":
        return _entry_choice(action)
    if kind == "accident":
        n = action["cards"]
        return Choice(f"{n} cards revealed by accident", action, group=("Accident",),
                      short=f"{n} by accident")
    if kind == "target":
        return Choice(f"Mutiny against {kit.seat_name(names, action['seat'])}", action)
    if kind == "storm_row":
        return Choice(f"Storm on row {ROW_NAMES[action['row']]}", action)
    return Choice("End turn", action)


def choices(legal: Sequence[Action], names: Sequence[str]) -> tuple[Choice, ...]:
    """Every legal action as a menu line; many places are filed by row."""
    places = sum(1 for a in legal if a["type"] in ("flip", "peek"))
    by_row = places > DIRECT_LIST
    return tuple(choice(a, names, by_row) for a in legal)


# -- a seat's screen ---------------------------------------------------------------------

def status(st: Mapping[str, Any], names: Sequence[str], mine: bool) -> str:
    """What the table is at, from one seat's side."""
    phase = st["phase"]
    who = "You" if mine else kit.seat_name(names, st["turn"])
    if phase == OVER:
        best = max(st["scores"])
        tops = [s for s, v in enumerate(st["scores"]) if v == best]
        return f"Winner{'s' if len(tops) > 1 else ''}: {kit.name_list(names, tops)}"
    if phase == DEAL:
        return "Dealing..."
    if phase == TARGET:
        return f"{who}: pick the Mutiny's target"
    if phase == STORM:
        return f"{who}: pick the Storm's row"
    if phase == PEEK:
        peeking = st["peeking"]
        done, total = len(peeking["cells"]), len(peeking["cells"]) + peeking["left"]
        if total == 1:
            return f"{who}: peek at a card"
        return f"{who}: peek {done + 1} of {total}"  # each peek counted
    if phase == LOOK:
        return "Look, then end turn" if mine else f"{who}: turn ending"
    kinds = [o["card"]["kind"] for o in st["open"]]
    if kinds and kinds[0] == "map":
        maps = f"{len(kinds)} of {MAP_SET} maps"
        return f"{maps.capitalize()}: flip again" if mine else f"{who}: {maps}"
    if kinds:
        coin = KINDS[kinds[0]].name
        return f"Match the {coin}" if mine else f"{who}: match the {coin}"
    if not mine:
        return f"{who} flips"
    return "Flip a card" if st["mode"] == "grid" else "Enter the card turned up"


def _me(st: Mapping[str, Any], seat: int) -> tuple[str, str]:
    """The seat's gold, map sets and Captaincy, in full words and for 21 columns."""
    words = [f"{st['gold'][seat]} gold"]
    if st["map_sets"][seat]:
        words.append(kit.plural(st["map_sets"][seat], "map set"))
    if seat in st["captains"]:
        words.append("Captain")
    text = ", ".join(words)
    return f"You: {text}", _fit(f"You: {text}", text)


def _table_line(st: Mapping[str, Any]) -> tuple[str, str]:
    """What is left to flip, in full words and for 21 columns."""
    stack, down = st["stack"], st["face_down"]
    return (f"{kit.plural(stack, 'card')} in the stack, {down} face down",
            _fit(f"Stack {stack}, {down} face down", f"Stack {stack}, {down} down"))


def _fit(text: str, shorter: str) -> str:
    """``text`` when a 21-column screen holds it, else ``shorter``."""
    return text if len(text) <= 21 else shorter


def display(view: Mapping[str, Any], seat: int) -> Display:
    """A seat's OLED/phone model, from that seat's view only."""
    st, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    mine = st["turn"] == seat
    if st["phase"] == OVER:
        title = "Game over"
    elif mine:
        title = "Your turn"
    else:
        title = f"{kit.seat_name(names, st['turn'])}'s turn"
    me, where = _me(st, seat), _table_line(st)
    now = status(st, names, mine)
    # A peek's place as the menus say it (row A, column 5), "A5" on the seat's screen.
    peeks = st["me"]["peeks"]
    return Display(title=title, lines=(me[0], now, where[0]),
                   short_lines=(me[1], now, where[1]), choices=choices(legal, names),
                   private=tuple(f"Row {p['cell'][0]}, column {p['cell'][1:]}: {p['card']['name']}"
                                 for p in peeks),
                   short_private=tuple(f"{p['cell']}: {p['card']['name']}" for p in peeks),
                   led="on" if legal else "off")
