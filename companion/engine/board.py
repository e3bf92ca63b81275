"""Board parts: a small vocabulary a game uses to describe what lies on the table.

A game describes its board as a list of *parts* - a row of dice, a grid of cards, a
ledger with one line per seat, a ballot counter, a log - and one renderer
(``web/static/board.js``) draws them the same way on the table display and on the
phones. A part is a plain, JSON-able dict with its kind at ``"part"``; the functions
below build them and check what they are given, so a game never writes a dict by hand:

    from companion.engine import board as b

    def board(self, view):
        state, names = view["state"], view["names"]
        return [
            b.headline(f"{names[state['turn']]} is rolling"),
            b.dice(state["dice"], held=state["held"], title="The dice"),
            b.ledger(["Lives", "Doubloons"], names,
                     [[state["lives"][s], state["gold"][s]] for s in range(len(names))],
                     turn=[state["turn"]]),
        ]

Every word on a part is shown as it is, at full length: no part is cut to fit a screen.
Seat-bound things carry the seat number (0-based) so the renderer can give each seat its
colour and marker. ``Game.board(view)`` builds the board from the PUBLIC view (the table
display and every phone see it); ``Game.panel(view, seat)`` builds a seat's private panel
from that seat's own view (only its own phone sees it). See docs/boards.md.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence, cast

from companion import jsontext

Part = dict[str, Any]
#: A cell of a grid or a die's face: a word or a number (None: nothing there / unknown).
Value = str | int | float | None

#: Every kind of part the renderer draws.
PARTS = frozenset({"headline", "text", "facts", "card", "cards", "grid", "dice", "ledger",
                   "seats", "ballots", "tally", "log", "result", "chart", "group"})


def _words(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be words (a str), not {type(value).__name__}")
    return value


def _value(value: Any, what: str) -> Value:
    if value is None or isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    raise TypeError(f"{what} must be a word, a number or None, not {value!r}")


def _seat_list(seats: Iterable[int] | int | None, what: str) -> list[int]:
    if seats is None:
        return []
    if isinstance(seats, bool):  # an int to Python, never a seat
        raise TypeError(f"{what} must be seat numbers (0-based ints)")
    if isinstance(seats, int):
        return [seats]
    out = list(seats)
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in out):
        raise TypeError(f"{what} must be seat numbers (0-based ints)")
    return out


def _seat(seat: Any) -> int | None:
    if seat is None:
        return None
    return _seat_list(seat, "seat")[0]


def _part(part_kind: str, /, **fields: Any) -> Part:
    """A part with its empty optional fields left out (smaller payloads)."""
    out: Part = {"part": part_kind}
    out.update({k: v for k, v in fields.items() if v not in (None, "", [], (), {})})
    return out


def _parts(items: Iterable[Part], what: str) -> list[Part]:
    out = list(items)
    for item in out:
        if not isinstance(item, dict) or item.get("part") not in PARTS:
            raise TypeError(f"{what} must be board parts, got {item!r}")
    return out


# -- words --------------------------------------------------------------------------------

def headline(text: str, *, tone: str = "") -> Part:
    """What the table is doing now, in one sentence ("Anne is rolling")."""
    return _part("headline", text=_words(text, "a headline"), tone=_words(tone, "tone"))


def text(*lines: str, title: str = "", tone: str = "") -> Part:
    """A few sentences (each line a paragraph). ``tone``: "" , "good", "bad" or "note"."""
    return _part("text", title=_words(title, "a title"), tone=_words(tone, "tone"),
                 lines=[_words(line, "a line") for line in lines])


def facts(items: Iterable[tuple[str, Value]] | Mapping[str, Value], *,
          title: str = "") -> Part:
    """Labelled values in a row ("Stack 12", "Discard 3", "Round 2 of 5")."""
    pairs = items.items() if isinstance(items, Mapping) else items
    return _part("facts", title=_words(title, "a title"),
                 items=[[_words(label, "a fact's label"), _value(value, "a fact's value")]
                        for label, value in pairs])


# -- cards and grids ----------------------------------------------------------------------

def card(face: str | None = None, *, value: Value = None, detail: str = "", kind: str = "",
         back: str = "", label: str = "", state: str = "", seat: int | None = None) -> Part:
    """One card. ``face`` is its name when face up (``None``: face down, ``back`` says
    what its back shows, e.g. "Treasure"); ``value`` a corner number or word
    ("500", 7); ``detail`` a line under the name; ``kind`` a family for colour
    ("gold", "rock", "order"...); ``label`` a caption under the card (its place, "C4",
    or its owner); ``state`` how it lies ("open", "taken", "rock", "held", "left",
    "played"); ``seat`` the seat it belongs to."""
    return _part("card", face=None if face is None else _words(face, "a card's face"),
                 down=face is None, value=_value(value, "a card's value"),
                 detail=_words(detail, "detail"), kind=_words(kind, "kind"),
                 back=_words(back, "back"), label=_words(label, "label"),
                 state=_words(state, "state"), seat=_seat(seat))


def cards(items: Iterable[Part], *, title: str = "", empty: str = "") -> Part:
    """A row of cards (a hand, the cards played, a discard), with ``empty`` said when
    there are none ("No cards in hand")."""
    return _part("cards", title=_words(title, "a title"), empty=_words(empty, "empty"),
                 items=_parts(items, "cards"))


def grid(cells: Sequence[Part | Value] | Sequence[Sequence[Part | Value]], *, rows: int,
         cols: int, row_names: Sequence[str] = (), col_names: Sequence[str] = (),
         title: str = "") -> Part:
    """A ``rows`` x ``cols`` grid of places, row by row (flat or as rows). Each place is
    a part (usually a card), a word or number, or None (an empty place)."""
    # Rows or flat, as the first place says: mypy cannot narrow the union from it.
    if cells and isinstance(cells[0], list):
        flat = [c for row in cast(Sequence[Sequence[Part | Value]], cells) for c in row]
    else:
        flat = list(cast(Sequence[Part | Value], cells))
    if len(flat) != rows * cols:
        raise ValueError(f"a {rows}x{cols} grid needs {rows * cols} places, not {len(flat)}")
    if row_names and len(row_names) != rows or col_names and len(col_names) != cols:
        raise ValueError("a grid needs one name per row and per column (or none)")
    places = [c if isinstance(c, dict) and c.get("part") in PARTS
              else _value(c, "a grid place") for c in flat]
    return _part("grid", title=_words(title, "a title"), rows=rows, cols=cols,
                 row_names=[_words(n, "a row name") for n in row_names],
                 col_names=[_words(n, "a column name") for n in col_names], cells=places)


# -- dice ---------------------------------------------------------------------------------

def dice(faces: Sequence[Value], *, held: Sequence[bool] = (), tones: Sequence[str] = (),
         title: str = "", hidden: str = "", seat: int | None = None) -> Part:
    """A row of dice. A face is a number (drawn as pips from 1 to 6) or a word ("Cutlass");
    None is a die not rolled yet or under the cup. ``held``: which dice are set aside;
    ``tones``: each die's colour ("red", "green", "white"...); ``hidden``: what to say
    when every die is under the cup ("3 dice under the cup")."""
    faces = [_value(f, "a die's face") for f in faces]
    if held and len(held) != len(faces) or tones and len(tones) != len(faces):
        raise ValueError("held and tones need one entry per die")
    return _part("dice", title=_words(title, "a title"), faces=faces,
                 held=[bool(h) for h in held] if any(held) else None,
                 tones=[_words(t, "a tone") for t in tones], hidden=_words(hidden, "hidden"),
                 seat=_seat(seat))


# -- seats --------------------------------------------------------------------------------

def ledger(columns: Sequence[str], names: Sequence[str], values: Sequence[Sequence[Value]], *,
           title: str = "", turn: Iterable[int] | int | None = None,
           out: Iterable[int] | int | None = None, winners: Iterable[int] | int | None = None,
           notes: Sequence[str] = ()) -> Part:
    """One line per seat: its name, then one value per column ("Lives", "Doubloons").
    ``values[s]`` is seat ``s``'s line; ``turn`` marks whose turn it is, ``out`` the seats
    out of the game, ``winners`` the winners; ``notes[s]`` a word after the line
    ("Captain", "passed")."""
    if len(values) != len(names):
        raise ValueError("a ledger needs one line of values per name")
    for line in values:
        if len(line) != len(columns):
            raise ValueError(f"each ledger line needs {len(columns)} values")
    if notes and len(notes) != len(names):
        raise ValueError("ledger notes: one per seat, or none")
    return _part("ledger", title=_words(title, "a title"),
                 columns=[_words(c, "a column") for c in columns],
                 rows=[{"seat": s, "name": _words(names[s], "a name"),
                        "values": [_value(v, "a ledger value") for v in values[s]],
                        **({"note": _words(notes[s], "a note")} if notes and notes[s] else {})}
                       for s in range(len(names))],
                 turn=_seat_list(turn, "turn"), out=_seat_list(out, "out"),
                 winners=_seat_list(winners, "winners"))


def person(seat: int, name: str, *, role: str = "", note: str = "", turn: bool = False,
           out: bool = False, winner: bool = False) -> dict[str, Any]:
    """One seat for :func:`seats`: its name, a public role ("Captain"), a note."""
    one: dict[str, Any] = {"seat": _seat(seat), "name": _words(name, "a name")}
    extra = {"role": _words(role, "role"), "note": _words(note, "note"), "turn": turn,
             "out": out, "winner": winner}
    one.update({k: v for k, v in extra.items() if v is not False and v != ""})
    return one


def seats(people: Iterable[dict[str, Any]], *, title: str = "") -> Part:
    """The seats with their public roles and a word each (built with :func:`person`)."""
    return _part("seats", title=_words(title, "a title"), people=list(people))


# -- votes --------------------------------------------------------------------------------

def ballots(cast: int, total: int, *, title: str = "Ballots",
            done: Iterable[int] | None = None) -> Part:
    """A ballot box during a secret vote: how many ballots are in, never what they say.
    ``done``, when the table may see it, lists the seats that have voted."""
    if not 0 <= cast <= total:
        raise ValueError(f"{cast} ballots cast of {total}")
    return _part("ballots", title=_words(title, "a title"), cast=cast, total=total,
                 done=_seat_list(done, "done") if done is not None else None)


def tally(rows: Iterable[tuple[str, Value]], *, title: str = "Votes", note: str = "") -> Part:
    """A revealed count: ``[(label, count), ...]`` drawn as bars."""
    return _part("tally", title=_words(title, "a title"), note=_words(note, "note"),
                 rows=[[_words(label, "a tally label"), _value(n, "a count")]
                       for label, n in rows])


# -- history and the end ------------------------------------------------------------------

def log(lines: Iterable[str], *, title: str = "What happened", keep: int = 12) -> Part:
    """The last events, already in words, oldest first (the renderer shows the newest
    at the bottom, in a live region)."""
    kept = [_words(line, "a log line") for line in lines][-keep:] if keep else []
    return _part("log", title=_words(title, "a title"), lines=kept)


def result(winners: Iterable[int], names: Sequence[str], *, title: str = "",
           lines: Iterable[str] = (), scores: Sequence[Value] | None = None,
           score_label: str = "") -> Part:
    """How the match (or a round) ended: who won, why, and the scores. ``title``
    defaults to "Anne & Bonny win!"; ``lines`` tell the story, secrets now open."""
    won = _seat_list(winners, "winners")
    if not title:
        who = " & ".join(names[s] for s in won)
        title = f"{who} {'win' if len(won) > 1 else 'wins'}!" if won else "Nobody wins"
    return _part("result", title=_words(title, "a title"), winners=won,
                 names=[_words(n, "a name") for n in names],
                 lines=[_words(line, "a line") for line in lines],
                 scores=None if scores is None else [_value(v, "a score") for v in scores],
                 score_label=_words(score_label, "score_label"))


def chart(points: Sequence[Sequence[float]], names: Sequence[str], *, title: str = "",
          label: str = "Score") -> Part:
    """Each seat's score over time: ``points`` rows are ``[x, score of seat 1, ...]``
    (the shape of the table's score history). Lines carry the seat's colour and name."""
    rows = [[float(v) if isinstance(v, float) else int(v) for v in row] for row in points]
    return _part("chart", title=_words(title, "a title"), label=_words(label, "label"),
                 names=[_words(n, "a name") for n in names], points=rows)


def group(*parts: Part, title: str = "", layout: str = "") -> Part:
    """Parts kept together in a box with a title ("Islands", "The battle").
    ``layout``: "" (stacked) or "row" (side by side where there is room)."""
    return _part("group", title=_words(title, "a title"), layout=_words(layout, "layout"),
                 parts=_parts(parts, "a group"))


# -- for the engine -----------------------------------------------------------------------

def checked(parts: Any, who: str) -> list[Part]:
    """``parts`` as a list of board parts, or a clear error naming ``who`` built them."""
    if not isinstance(parts, (list, tuple)):
        raise TypeError(f"{who} must return a list of board parts, not {type(parts).__name__}")
    out = _parts(parts, who)
    jsontext.check(out)  # JSON-able, or a TypeError/ValueError right here
    return out


def from_summary(summary: Mapping[str, Any], view: Mapping[str, Any]) -> list[Part]:
    """A generic board built from a game's ``summary`` (what every game has): the
    headline, the public lines, the scores as a ledger, revealed tallies, the result."""
    names = list(view.get("names") or [])
    parts: list[Part] = []
    if summary.get("headline"):
        parts.append(headline(str(summary["headline"])))
    if summary.get("lines"):
        parts.append(text(*[str(line) for line in summary["lines"]]))
    scores = summary.get("scores")
    if scores is not None and len(scores) == len(names):
        parts.append(ledger([str(summary.get("score_label") or "Score")], names,
                            [[v] for v in scores], turn=summary.get("turn") or None))
    for one in summary.get("tallies") or []:
        parts.append(tally([(str(label), n) for label, n in one.get("rows", [])],
                           title=str(one.get("title") or "Votes")))
    outcome = view.get("result")
    if outcome:
        parts.append(result(outcome["winners"], names, lines=[outcome["reason"]]
                            if outcome.get("reason") else [], scores=outcome.get("scores")))
    return parts
