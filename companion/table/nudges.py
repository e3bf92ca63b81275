"""Nudges: a phone buzzes when its seat is due, and the table display chimes.

A nudge follows the seat's light and the step, both public, and nothing else: a seat's
phone buzzes when that seat's light comes on, or stays on into a new step (its turn
begins, a vote opens for it), unless that seat's own action made the change (its owner
is looking at the phone already); the table display chimes when any seat is nudged.
Everyone at the table sees the lights and the step, so a buzz tells a neighbour nothing
the light did not; a step whose due seats are a secret never lights one (the secrecy
tests hold every light of twin tables equal), so it never buzzes one either. Lights
going off (a seat acted, a vote was cast) nudge nobody.

The host switches either kind off on the host page; the switches are kept in the table's
notes (:mod:`companion.table.notes`) across restarts. A payload carries a count per seat
and one for the table display: a page nudges when the count it sees goes up, never on the
first payload it loads (docs/table.md, "Nudges").
"""
from __future__ import annotations

from typing import Any, Sequence

from companion.table.notes import TableNotes

#: The host's switches, by name, and whether each is on at first.
SWITCHES = {"vibrate": True, "sound": True}


class Nudges:
    """Counts, per seat and for the table display, the times a light came on."""

    def __init__(self, seats: int, notes: TableNotes):
        self._notes = notes
        self._lit: tuple[bool, ...] = (False,) * seats
        self._match: str | None = None
        self._step = ""
        self.seat_counts = [0] * seats
        self.table_count = 0
        self.switches = {name: bool(notes.setting(name, on)) for name, on in SWITCHES.items()}

    def follow(self, match_id: str | None, step: str, lights: Sequence[str],
               acted: Any = None) -> None:
        """The match ``match_id`` (None between matches, where nothing nudges) is at
        ``step`` (the public view's step) with the seats' lights ``lights``
        (``Display.led`` per seat); ``acted`` made the change (a seat, or anyone else)."""
        lit = tuple(led != "off" for led in lights)
        if match_id is None:
            lit = (False,) * len(lit)
        elif match_id != self._match:
            self._lit = (False,) * len(lit)  # a new match: whoever starts is due
        new_step = (match_id, step) != (self._match, self._step)
        due = [seat for seat, on in enumerate(lit)
               if on and (new_step or not self._lit[seat]) and seat != acted]
        for seat in due:
            self.seat_counts[seat] += 1
        if due:
            self.table_count += 1
        self._match, self._step, self._lit = match_id, step, lit

    def switch(self, name: str, on: bool) -> None:
        """The host turns nudges of one kind ("vibrate" or "sound") on or off."""
        if name not in SWITCHES:
            raise KeyError(name)
        self.switches[name] = bool(on)
        self._notes.set(name, bool(on))

    def for_seat(self, seat: int) -> dict[str, Any]:
        return {"count": self.seat_counts[seat], "vibrate": self.switches["vibrate"]}

    def for_table(self) -> dict[str, Any]:
        return {"count": self.table_count, "sound": self.switches["sound"]}

    def copy(self) -> "Nudges":
        twin = Nudges.__new__(Nudges)
        twin._notes, twin._lit, twin._match = self._notes, self._lit, self._match
        twin._step = self._step
        twin.seat_counts, twin.table_count = list(self.seat_counts), self.table_count
        twin.switches = dict(self.switches)
        return twin
