"""What each viewer is sent: payloads built from that viewer's own view, and turn versions.

After every change the table rebuilds the payload of every seat, of the public (the
table display) and of the host, each from that viewer's view alone, so a stream only
ever sends a viewer what was built for that viewer. A payload's serial moves only when
its text changed: a seat learns nothing from another seat's secret move.

A viewer's *turn version* moves when its choices change or it acts, not when another
seat does something that leaves its choices alone: an action sent against an older
version is refused as stale (docs/api.md).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from companion import jsontext
from companion.engine import HOST, PUBLIC, Display, Match
from companion.engine.rules import Viewer
from companion.table import lobby


class Views(dict):
    """Each viewer's view of ``match``, built on first use: one refresh builds a seat's
    view once for its screen and its payload. Lives no longer than one refresh, under
    the table's lock, so the match cannot change under it."""

    def __init__(self, match: Match | None):
        super().__init__()
        self._match = match

    def __missing__(self, viewer: Viewer) -> dict[str, Any]:
        view = self[viewer] = self._match.view(viewer)
        return view


def chart(history: list[list[float]], summary: dict[str, Any]) -> None:
    """Add a point to the score chart when the public scores changed. The x axis counts
    points, not actions: an action count would tell how many hidden moves were made."""
    scores = summary.get("scores")
    if scores is not None and (not history or history[-1][1:] != list(scores)):
        history.append([len(history), *scores])


class Payloads:
    """Every viewer's latest payload (with its serial and JSON text), every viewer's
    turn version and the match's score chart. The table calls it under its lock."""

    def __init__(self) -> None:
        #: The score chart of the match being played: ``[point, score per seat...]``.
        self.history: list[list[float]] = []
        self._turn: dict[Viewer, int] = {}
        self._choices: dict[Viewer, str] = {}  # the digest of each viewer's choices
        self._built: dict[Viewer, tuple[int, dict[str, Any], str]] = {}

    def copy(self) -> "Payloads":
        """An independent copy (payloads are replaced, never changed in place)."""
        twin = Payloads()
        twin.history = [list(point) for point in self.history]
        twin._turn, twin._choices = dict(self._turn), dict(self._choices)
        twin._built = dict(self._built)
        return twin

    # -- turn versions ------------------------------------------------------------------
    def turn(self, viewer: Viewer) -> int:
        """``viewer``'s turn version now."""
        return self._turn.get(viewer, 0)

    def acted(self, viewer: Viewer) -> int:
        """``viewer`` acted: its version moves even where its choices look the same, so
        a double tap cannot act twice. Returns the new version."""
        self._turn[viewer] = self._turn.get(viewer, 0) + 1
        return self._turn[viewer]

    def _offered(self, viewer: Viewer, choices: list[dict[str, Any]]) -> None:
        digest = jsontext.dumps(choices, sort_keys=True)
        if self._choices.get(viewer) != digest:
            self._choices[viewer] = digest
            self.acted(viewer)

    # -- payloads -----------------------------------------------------------------------
    def get(self, viewer: Viewer) -> tuple[int, dict[str, Any], str]:
        """(serial, payload, payload as JSON text) of ``viewer``."""
        return self._built[viewer]

    def _store(self, viewer: Viewer, payload: dict[str, Any]) -> None:
        # Keys come in the order the code builds them, the same every time: no sort.
        text = jsontext.dumps(payload)
        old = self._built.get(viewer)
        if old is None or old[2] != text:
            self._built[viewer] = ((old[0] + 1) if old else 1, payload, text)

    def rebuild(self, match: Match | None, displays: Sequence[Display], views: Views, *,
                seat_count: int, names: list[str], claimed: set[int],
                pods: Callable[[], list[dict[str, Any]]] | None = None) -> None:
        """Rebuild every viewer's payload from ``match`` (None: the lobby), each seat's
        display and ``views``; bump the turn version of each viewer whose choices
        changed. ``pods`` reports the seat pods for the host page."""
        summary = match.summary(views[PUBLIC]) if match else dict(lobby.SUMMARY)
        if match is not None:
            chart(self.history, summary)
        public = self._public(match, summary, views, seat_count, names, claimed)
        self._store(PUBLIC, public)
        for seat, display in enumerate(displays):
            self._offered(seat, [c.action for c in display.choices])
            self._store(seat, self._seat(match, seat, display, summary, views, names))
        host_legal = match.legal_actions(HOST) if match else []
        self._offered(HOST, host_legal)
        self._store(HOST, self._host(match, public, host_legal, views, seat_count, names,
                                     claimed, pods() if pods else []))

    def _seat(self, match: Match | None, seat: int, display: Display,
              summary: dict[str, Any], views: Views, names: list[str]) -> dict[str, Any]:
        playing = match is None or seat < match.seats
        return {
            "viewer": seat,
            "version": self.turn(seat),
            "seat": {"index": seat, "number": seat + 1, "name": names[seat], "playing": playing},
            "display": display.to_dict(),
            "match": views[seat] if match and playing else None,
            "summary": summary,
        }

    def _public(self, match: Match | None, summary: dict[str, Any], views: Views,
                seat_count: int, names: list[str], claimed: set[int]) -> dict[str, Any]:
        payload = {
            "viewer": PUBLIC,
            "table": {"seats": seat_count, "names": names,
                      "claimed": [s in claimed for s in range(seat_count)]},
            "match": views[PUBLIC] if match else None,
            "summary": summary,
            "history": [list(point) for point in self.history],
        }
        if match is None:
            payload["lobby"] = lobby.payload()
        return payload

    def _host(self, match: Match | None, public: dict[str, Any], legal: list[dict[str, Any]],
              views: Views, seat_count: int, names: list[str], claimed: set[int],
              pods: list[dict[str, Any]]) -> dict[str, Any]:
        host = views[HOST]["host"] if match else {
            "legal": [], "options": {}, "can_undo": False}
        seats = [{"index": s, "number": s + 1, "name": names[s], "claimed": s in claimed,
                  "playing": match is None or s < match.seats}
                 for s in range(seat_count)]
        return {**public, "viewer": HOST, "version": self.turn(HOST),
                "host": {**host, "legal": legal,
                         "paused": bool(match and match.is_paused),
                         "over": bool(match and match.is_over)},
                "seats": seats,
                "pods": pods}
