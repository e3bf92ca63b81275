"""What every game needs and none should write again: seats, order, events in words.

Games keep structured events in their state (``{"kind": "steal", "seat": 0, "source":
2, "n": 1}``) and word them only when a screen shows them, with :func:`word`; text is
never cut here: each screen fits what it is given.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

#: Event fields that hold a seat number, worded as that seat's name.
SEAT_FIELDS = frozenset({"seat", "source", "target", "by", "to", "winner", "owner",
                         "asker", "giver", "receiver", "voter", "accused"})



def seat_name(names: Sequence[str], seat: Any) -> str:
    """The name of ``seat`` (0-based) at this table; ``Seat N`` for a seat with none."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"Seat {seat + 1}"
    return str(seat)


def clockwise(seats: int, start: int, *, include_start: bool = False) -> list[int]:
    """The seats in play order from ``start``'s left (seat numbers go clockwise)."""
    first = 0 if include_start else 1
    return [(start + step) % seats for step in range(first, seats)]


def next_seat(seats: int, seat: int, skip: Callable[[int], bool] = lambda s: False) -> int:
    """The next seat clockwise that ``skip`` does not pass over (``seat`` if none)."""
    for other in clockwise(seats, seat):
        if not skip(other):
            return other
    return seat


def log_event(events: list[dict[str, Any]], kind: str, **fields: Any) -> dict[str, Any]:
    """Append one structured event (plain values only) and return it."""
    event = {"kind": kind, **fields}
    events.append(event)
    return event


#: How a seat's own screen names its seat in an event about another ("... from you").
YOU = "you"


def word(event: Mapping[str, Any], names: Sequence[str],
         texts: Mapping[str, Any], viewer: int | None = None,
         own: Mapping[str, Any] | None = None) -> str:
    """``event`` in words: ``texts[kind]`` is a format string over the event's fields
    (a field in :data:`SEAT_FIELDS` reads as the seat's name; ``{s}`` is "s" unless
    ``n`` is 1), or a function ``(event, names) -> str`` for what a template cannot say.

    With ``viewer`` (a seat), the words on that seat's own screen: an event its seat
    made reads from ``own`` (``You take 2 Doubloons``), and its seat in any other field
    reads :data:`YOU` (``Anne steals a Doubloon from you``). An event of its own with
    no words in ``own`` keeps its name (a table's sentence with "you" as its subject
    would not agree: "you is out")."""
    if viewer is not None:
        mine = event.get("seat") == viewer
        if mine and own is not None and event["kind"] in own:
            texts, mine = own, False
        if not mine:
            names = names_seen_by(names, viewer)
    text = texts[event["kind"]]
    if callable(text):
        return text(event, names)
    fields = {key: seat_name(names, value) if key in SEAT_FIELDS else value
              for key, value in event.items()}
    fields.setdefault("s", "" if event.get("n") == 1 else "s")
    return text.format_map(fields)


def names_seen_by(names: Sequence[str], viewer: int) -> list[str]:
    """Every seat's name as ``viewer``'s own screen says it: its own seat is :data:`YOU`
    (for a list or an object: ``Enter dice: you and Anne``, ``... from you``)."""
    return [YOU if seat == viewer else seat_name(names, seat)
            for seat in range(max(len(names), viewer + 1))]


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 Life``, ``2 Lives``: a count with its noun."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def name_list(names: Sequence[str], seats: Sequence[int]) -> str:
    """``Anne, Bonny and Drake``; ``nobody`` for no seats."""
    words = [seat_name(names, seat) for seat in seats]
    if not words:
        return "nobody"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
