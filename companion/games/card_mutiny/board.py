"""What the table display and a seat's phone show of Card Mutiny, as board parts.

``board(view)`` is the tabletop a group would see at a real table, built from the
PUBLIC view alone: the 7x7 grid (face-down backs, face-up cards in their places, Rocks,
empty places), the stack and the discard pile, each chest and its gold, the Captains,
whose turn it is and what they must do, where a Parrot or Spyglass peeks (never what it
shows), the last events in words and, at the end, the cards left, the final chests and
the scores. ``panel(view, seat)`` is what only that seat knows: the cards it is peeking
at. ``summary(view)`` is the table's summary (whose turn, the Captains, the counts, the
last events). This module only reads views (``holdings`` asks the *state* what the
table holds). Rulings: see docs/games/card-mutiny.md.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.engine import Part
from companion.engine import board as b
from companion.games import kit
from companion.games.card_mutiny import show
from companion.games.card_mutiny.data import (
    DEAL,
    KINDS,
    LOOK,
    MAP_SET,
    OVER,
    PEEK,
    ROW_NAMES,
    SHUFFLE,
    SIZE,
    STORM,
    TARGET,
    cell_name,
)

#: The grid's row and column names, as the seats' menus say them ("Row C", "column 4").
ROWS = list(ROW_NAMES)
COLUMNS = [str(n) for n in range(1, SIZE + 1)]
#: How many recent events the table display words.
TABLE_EVENTS = 5
#: What a face-down card's back says where a Parrot or Spyglass peeks.
PEEKED = "Peek"


# -- words ---------------------------------------------------------------------------------

def count_of(n: int, name: str) -> str:
    """``1 Ruby``, ``2 Gold coins``, ``3 Mutinies``: a count of cards of one kind."""
    if n == 1:
        return f"1 {name}"
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return f"{n} {name[:-1]}ies"
    return f"{n} {name}s"


def pile_words(pile: Mapping[str, int], empty: str = "empty") -> str:
    """A chest or the discard pile in words: ``2 Gold coins, 1 Ruby``."""
    words = [count_of(n, KINDS[kind].name) for kind, n in pile.items() if n]
    return ", ".join(words) if words else empty


def _cards_words(items: Sequence[Mapping[str, Any]]) -> str:
    """The cards of a try in order: ``a Silver coin at A3, then a Copper coin at B4``."""
    named = [_a(o["card"]["name"]) + (f" at {o['cell']}" if o.get("cell") else "")
             for o in items]
    return ", then ".join(named)


def _a(name: str) -> str:
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def headline(view: Mapping[str, Any]) -> str:
    """Whose turn it is and what they must do now, in one sentence."""
    st, names = view["state"], view["names"]
    who = kit.seat_name(names, st["turn"])
    phase = st["phase"]
    if phase == OVER:
        return "Game over: the stack is empty and every card was flipped"
    if phase == DEAL:
        return "Dealing the cards"
    if phase == TARGET:
        return f"{who} revealed a Mutiny and picks which Captain it targets"
    if phase == STORM:
        rows = show.joined(st["storm_rows"], "or")
        return f"{who} revealed a Storm and picks the row to reshuffle: row {rows}"
    if phase == SHUFFLE:
        return "The Storm reshuffles the row's face-down cards"
    if phase == PEEK:
        left = st["peeking"]["left"] if st["peeking"] else 0
        return f"{who} is peeking: {kit.plural(left, 'more card')} to pick"
    if phase == LOOK:
        return _look_headline(st, who)
    return _flip_headline(st, who)


def _flip_headline(st: Mapping[str, Any], who: str) -> str:
    opened = st["open"]
    kinds = [o["card"]["kind"] for o in opened]
    if kinds and kinds[0] == "map":
        return (f"{who} has {len(kinds)} of {MAP_SET} Treasure Maps face up: "
                f"flip another card to make a set")
    if kinds:
        return f"{who} flipped {_cards_words(opened)}: flip another card to match it"
    if st["mode"] != "grid":
        return f"{who}'s turn: turn up a card and enter it"
    return f"{who}'s turn: flip a card"


def _look_headline(st: Mapping[str, Any], who: str) -> str:
    opened = st["open"]
    if opened:
        back = "it turns" if len(opened) == 1 else "they turn"
        return (f"{who} flipped {_cards_words(opened)}: no match, {back} back face down "
                f"when {who} ends the turn")
    peeked = st["peeking"]["cells"] if st["peeking"] else []
    if peeked:
        return f"{who} peeked at {show.joined(peeked)} and ends the turn"
    return f"{who} ends the turn"


# -- the grid ------------------------------------------------------------------------------

def _place(cell: Any, index: int, peeked: set[int]) -> Part | None:
    """One place of the grid: a card back, a face-up card, or None (no card there)."""
    label = cell_name(index)
    if cell is None:
        return None
    if cell == "down":
        return b.card(back=PEEKED if index in peeked else "", label=label)
    return face_up(cell, label=label, state=cell["state"])


def face_up(card: Mapping[str, Any], *, label: str = "", state: str = "") -> Part:
    """A face-up card: its name, its printed value in the corner (coins and gems)."""
    return b.card(card["name"], value=card["value"] or None, kind=card["kind"], label=label,
                  state=state)


def grid_part(st: Mapping[str, Any]) -> Part:
    """The 7x7 grid, 49 places, row A at the top."""
    peeked = set(st["peeking"]["indexes"]) if st["peeking"] else set()
    places = [_place(cell, r * SIZE + c, peeked)
              for r, row in enumerate(st["grid"]) for c, cell in enumerate(row)]
    return b.grid(places, rows=SIZE, cols=SIZE, row_names=ROWS, col_names=COLUMNS,
                  title="The grid")


# -- the table around the grid -------------------------------------------------------------

def _counts(st: Mapping[str, Any]) -> Part:
    items: list[tuple[str, Any]] = [
        ("Stack", st["stack"]),
        ("Face down in the grid", st["face_down"]),
        ("Discard pile", st["discarded"]),
        ("Rocks", st["rocks_up"]),
    ]
    if st["to_refill"] and st["phase"] != OVER:
        items.append(("Empty places", st["to_refill"]))
    items.append(("Turns played", st["turns"]))
    return b.facts(items, title="The table")


def _captains(st: Mapping[str, Any], names: Sequence[str]) -> str:
    captains = st["captains"]
    if len(captains) == len(names):
        return f"Everyone is Captain (all tied at {st['gold'][0]} gold)"
    title = "Captains" if len(captains) > 1 else "Captain"
    return f"{title}: {kit.name_list(names, captains)} ({st['gold'][captains[0]]} gold)"


def _notes(view: Mapping[str, Any]) -> list[Part]:
    """What else the table can see right now: the Captain, peeks, a Storm, Shore Leave,
    the discard pile."""
    st, names = view["state"], view["names"]
    who = kit.seat_name(names, st["turn"])
    over = st["phase"] == OVER
    lines = [] if over else [_captains(st, names)]
    peeking = st["peeking"]
    if peeking and peeking["cells"]:
        cells = show.joined(peeking["cells"])
        lines.append(f"{kit.seat_name(names, peeking['seat'])} is peeking at {cells}: "
                     f"only they see what lies there")
    if st["storm_rows"]:
        rows = show.joined(st["storm_rows"], "or")
        lines.append(f"The Storm may hit row {rows} (rows with two or more face-down cards)")
    if st["extra_turn"] and not over:
        lines.append(f"Shore Leave: {who} takes another turn after this one")
    if st["discard"]:
        lines.append(f"Discard pile: {pile_words(st['discard'])}")
    return [b.text(*lines)] if lines else []


def _ledger(view: Mapping[str, Any]) -> Part:
    """One line per pirate: gold and map sets (the final gold at the end); the Captains
    noted."""
    st, names = view["state"], view["names"]
    over = st["phase"] == OVER
    columns = ["Gold", "Map sets"] + (["Final gold"] if over else [])
    lines = [[st["gold"][s], st["map_sets"][s]] + ([st["scores"][s]] if over else [])
             for s in range(len(names))]
    # Once the game is over the Captain no longer matters: the winners are marked. When
    # everyone is tied, the line above the ledger says so once.
    marked = not over and len(st["captains"]) < len(names)
    notes = ["Captain" if marked and s in st["captains"] else "" for s in range(len(names))]
    result = view.get("result") or {}
    return b.ledger(columns, names, lines, title="Gold", notes=notes,
                    turn=None if over or st["phase"] == DEAL else st["turn"],
                    winners=result.get("winners") if over else None)


def _chests(view: Mapping[str, Any]) -> Part:
    """What lies in each chest, in words (chests are public at this table)."""
    st, names = view["state"], view["names"]
    return b.text(*[f"{name}: {pile_words(st['chests'][s])}" for s, name in enumerate(names)],
                  title="Chests")


def _cards_mode(st: Mapping[str, Any]) -> Part:
    """Cards mode: the real cards lie on the table; the board shows this try's cards."""
    items = [face_up(o["card"], state="open") for o in st["open"]]
    return b.cards(items, title="Turned up this turn",
                   empty="Real cards lie on the table: nothing turned up this turn yet")


def _result(view: Mapping[str, Any]) -> Part:
    """The end: who won, each pirate's chest and map sets, the cards nobody could take."""
    st, names, outcome = view["state"], view["names"], view["result"]
    details = outcome.get("details") or {}
    lines = [outcome["reason"]] if outcome.get("reason") else []
    if "gold" in details:
        per_set = st["map_set_value"]
        for s, name in enumerate(names):
            line = f"{name}: {details['gold'][s]} gold in the chest"
            sets = details["map_sets"][s]
            if sets:
                line += (f" + {kit.plural(sets, 'Treasure Map set')} worth "
                         f"{sets * per_set}")
            lines.append(f"{line} = {outcome['scores'][s]} gold")
    left = [f"{cell['name']} ({cell_name(r * SIZE + c)})"
            for r, row in enumerate(st["grid"] or []) for c, cell in enumerate(row)
            if isinstance(cell, dict) and cell["state"] == "left"]
    if left:
        lines.append(f"Left in the grid, never taken: {', '.join(left)}")
    return b.result(outcome["winners"], names, lines=lines, scores=outcome["scores"],
                    score_label="Final gold")


def summary(view: Mapping[str, Any]) -> dict[str, Any]:
    """The table display's summary, from the public view alone."""
    st, names = view["state"], view["names"]
    headline = show.status(st, names, False)
    turn = [] if st["phase"] in (DEAL, OVER) else [st["turn"]]
    captains = kit.name_list(names, st["captains"])
    facts = [f"Captain{'s' if len(st['captains']) > 1 else ''}: {captains}",
             f"Stack {st['stack']}, {st['face_down']} face down,"
             f" {st['discarded']} discarded"]
    # Map sets count at the end only: until then the chart shows the chests' gold.
    scores = st["scores"] if st["phase"] == OVER else st["gold"]
    return {"headline": headline, "turn": turn, "scores": list(scores),
            "score_label": "gold",
            "lines": facts + show.log_lines(view)[-TABLE_EVENTS:]}


def board(view: Mapping[str, Any]) -> list[Part]:
    """The public tabletop (see the module docstring), from the PUBLIC view only."""
    st = view["state"]
    parts = [b.headline(headline(view))]
    if view.get("result"):
        parts.append(_result(view))
    if st["phase"] != DEAL:
        # The grid (or the cards turned up) beside the counts and the chests, where the
        # screen is wide enough: a TV shows the whole table at once.
        played = grid_part(st) if st["grid"] is not None else _cards_mode(st)
        parts.append(b.group(played, b.group(_counts(st), *_notes(view), _ledger(view),
                                             _chests(view)), layout="row"))
    parts.append(b.log(show.log_lines(view), keep=16))
    return parts


# -- a seat's own panel --------------------------------------------------------------------

def panel(view: Mapping[str, Any], seat: int) -> list[Part]:
    """What only ``seat`` knows: the cards it is peeking at, until its turn ends.
    (Chests are public at this table: they are on the board, not here.)"""
    peeks = view["state"]["me"]["peeks"]
    if not peeks:
        return []
    return [b.cards([face_up(p["card"], label=p["cell"]) for p in peeks],
                    title="Your peeks: only you see these"),
            b.text("They turn back face down for you too when you end your turn.",
                   tone="note")]
