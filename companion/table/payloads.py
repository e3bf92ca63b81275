"""What each viewer is sent: payloads built from that viewer's own view, and turn versions.

After every change the table looks again at what each viewer's payload is made of (that
viewer's view, its display, the public board...) and rebuilds the payload of each viewer
for whom any of it changed, from that viewer's view alone, so a stream only ever sends a
viewer what was built for that viewer. A payload's serial moves only when its text
changed: a seat learns nothing from another seat's secret move.

The game's how-to (its general texts, the same for everyone all match long) is not in
the payloads: they name the game (``help.game``, ``howto.game``) and the pages fetch the
texts once (``GET /api/howto/<game>``). A seat's own part of the help (``mine``,
``secret``), built from its own view, stays in its own payload.

A viewer's *turn version* moves when its choices change or it acts, not when another
seat does something that leaves its choices alone: an action sent against an older
version is refused as stale (docs/api.md).
"""
from __future__ import annotations

import functools
from typing import AbstractSet, Any, Callable, Sequence

from companion import jsontext
from companion.engine import HOST, PUBLIC, Display, Match
from companion.engine.rules import Viewer
from companion.table import lobby
from companion.table.nudges import Nudges


class Views(dict):
    """Each viewer's view of ``match``, built on first use: one refresh builds a seat's
    view once for its screen and its payload. Lives no longer than one refresh, under
    the table's lock, so the match cannot change under it."""

    def __init__(self, match: Match | None):
        super().__init__()
        self._match = match

    def __missing__(self, viewer: Viewer) -> dict[str, Any]:
        if self._match is None:
            raise KeyError(viewer)  # no match, no views
        view = self[viewer] = self._match.view(viewer)
        return view


def chart(history: list[list[float]], summary: dict[str, Any]) -> None:
    """Add a point to the score chart when the public scores changed. The x axis counts
    points, not actions: an action count would tell how many hidden moves were made."""
    scores = summary.get("scores")
    if scores is not None and (not history or history[-1][1:] != list(scores)):
        history.append([len(history), *scores])


#: How many lines of the match's story the table keeps (the board's log shows them).
STORY_LINES = 40


def told(story: list[str], lines: list[str]) -> None:
    """Add to ``story`` the lines of a board's log it does not have yet. A game's log
    may be a window of its last events, or start again each turn: the longest end of
    the story that the new lines begin with is what was told already."""
    for overlap in range(min(len(story), len(lines)), -1, -1):
        if story[len(story) - overlap:] == lines[:overlap]:
            story.extend(lines[overlap:])
            break
    del story[:-STORY_LINES]


def with_story(parts: list[dict[str, Any]], story: list[str]) -> list[dict[str, Any]]:
    """The board with its log showing the whole kept story, not only the game's window."""
    return [{**part, "lines": list(story)} if part.get("part") == "log" else part
            for part in parts]


def seat_help(match: Match, seat: int, view: dict[str, Any]) -> dict[str, Any]:
    """How to play for ``seat``'s phone: which game's general texts to show (``game``:
    the phone fetches them once, ``GET /api/howto/<game>``), the seat's own part
    (``mine``) and what its owner sees only while holding the reveal pad (``secret``),
    both built from ``view``, the seat's own view."""
    if view.get("viewer") != seat:
        raise ValueError(f"seat {seat}'s help from another viewer's view")
    return {"game": match.game.spec.id, "mine": match.game.my_part(view, seat),
            "secret": match.game.my_secret(view, seat)}


class Payloads:
    """Every viewer's latest payload (with its serial and JSON text), every viewer's
    turn version and the match's score chart. The table calls it under its lock."""

    def __init__(self, first_version: int = 0) -> None:
        """``first_version``: where turn versions start, above every version of an
        earlier boot (``SeatAccess.first_version``), so an action sent before a restart
        is refused as stale after it."""
        self.first_version = first_version
        #: The score chart of the match being played: ``[point, score per seat...]``.
        self.history: list[list[float]] = []
        self._turn: dict[Viewer, int] = {}
        self._choices: dict[Viewer, str] = {}  # the digest of each viewer's choices
        self._built: dict[Viewer, tuple[int, dict[str, Any], str]] = {}
        #: What each viewer's payload was last built from (see :meth:`_store_made_of`).
        self._made_of: dict[Viewer, tuple] = {}
        #: The public log of the match being played, in words (see :func:`told`).
        self.story: list[str] = []
        self._story_of: str | None = None  # the id of the match the story tells
        #: The match whose how-to the table shows, and its public state when first seen.
        self._opening: tuple[str, str] | None = None
        self._resumed: dict[str, str] = {}  # match id -> its opening, replayed at resume

    def copy(self) -> "Payloads":
        """An independent copy (payloads are replaced, never changed in place)."""
        twin = Payloads(self.first_version)
        twin.history = [list(point) for point in self.history]
        twin._turn, twin._choices = dict(self._turn), dict(self._choices)
        twin._built, twin._made_of = dict(self._built), dict(self._made_of)
        twin.story, twin._story_of = list(self.story), self._story_of
        twin._opening = self._opening
        return twin

    # -- turn versions ------------------------------------------------------------------
    def turn(self, viewer: Viewer) -> int:
        """``viewer``'s turn version now."""
        return self._turn.get(viewer, self.first_version)

    def acted(self, viewer: Viewer) -> int:
        """``viewer`` acted: its version moves even where its choices look the same, so
        a double tap cannot act twice. Returns the new version."""
        self._turn[viewer] = self._turn.get(viewer, self.first_version) + 1
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
                open_codes: AbstractSet[int] = frozenset(),
                pods: Callable[[], list[dict[str, Any]]] | None = None,
                night: dict[str, Any] | None = None,
                timer: dict[str, Any] | None = None, nudges: Nudges | None = None,
                damage: list[dict[str, str]] | None = None,
                faults: list[dict[str, Any]] | None = None,
                bots: Sequence[dict[str, Any] | None] = (),
                pieces: str | None = None) -> None:
        """Bring every viewer's payload up to date with ``match`` (None: the lobby), each
        seat's display and ``views``, building again only the payloads whose inputs
        changed (:meth:`_store_made_of`); bump the turn version of each viewer whose
        choices changed. ``open_codes`` are the seats whose join code the table display may
        show (:meth:`Table.code_is_public`). ``pods`` reports the seat pods for the host page; ``night`` is the
        night's standings (:mod:`companion.table.night`), public; ``timer`` the step
        timer (:mod:`companion.table.timekeeper`), public, in every payload; ``nudges``
        (:mod:`companion.table.nudges`) each page's nudge count and switch; ``damage``
        the damaged files earlier starts moved aside (:func:`companion.damage.kept_damage`),
        for the host page only; ``faults`` the seat parts that do not answer
        (``TableHardware.faults``): every one on the table display and the host page, a
        seat's own on its phone. ``bots``: each seat's bot or None (its level, name and
        whether it is thinking, :meth:`TableBots.payload`), in the public ``table`` and
        the host's seats; ``pieces``: the line asking players to move a bot's real pieces
        (docs/bots.md, "At the table")."""
        summary = match.summary(views[PUBLIC]) if match else dict(lobby.SUMMARY)
        if match is not None:
            chart(self.history, summary)
        board = self._board(match, views)
        faults = list(faults or [])
        untouched = match is not None and self._untouched(match, views)
        public_made_of = (
            "public", match and match.id, views[PUBLIC] if match else None, summary, board,
            seat_count, tuple(names), frozenset(claimed), frozenset(open_codes),
            tuple(map(tuple, self.history)), untouched,
            timer, faults, nudges.for_table() if nudges else None, night, tuple(bots), pieces)

        def public_payload() -> dict[str, Any]:
            public = self._public(match, summary, board, views, seat_count, names,
                                  claimed, open_codes, untouched)
            public["table"]["bots"] = list(bots)
            public["table"]["pieces"] = pieces
            public["timer"] = timer
            public["faults"] = list(faults)
            if nudges is not None:
                public["nudge"] = nudges.for_table()
            if night is not None:
                public["night"] = night
            return public
        self._store_made_of(PUBLIC, public_made_of, public_payload)
        for seat, display in enumerate(displays):
            self._offered(seat, [c.action for c in display.choices])
            playing = match is None or seat < match.seats
            own_faults = [f for f in faults if f.get("seat") == seat + 1]
            seat_made_of = (
                "seat", match and match.id, self.turn(seat), names[seat], display, summary,
                board if playing else None, views[seat] if match and playing else None,
                timer if playing else None, own_faults,
                nudges.for_seat(seat) if nudges else None)
            self._store_made_of(seat, seat_made_of, functools.partial(
                self._seat_payload, match, seat, display, summary, board, views, names,
                timer, own_faults, nudges))
        host_legal = match.legal_actions(HOST) if match else []
        self._offered(HOST, host_legal)
        pods_now = pods() if pods else []
        host_made_of = (
            "host", public_made_of, self.turn(HOST), views[HOST] if match else None,
            host_legal, bool(match and match.is_paused), bool(match and match.is_over),
            pods_now, dict(nudges.switches) if nudges else None, list(damage or []))

        def host_payload() -> dict[str, Any]:
            host = self._host(match, self.get(PUBLIC)[1], host_legal, views, seat_count,
                              names, claimed, pods_now)
            if nudges is not None:
                host["host"]["nudges"] = dict(nudges.switches)
            host["host"]["damage"] = list(damage or [])
            for seat in host["seats"]:
                seat["bot"] = bots[seat["index"]] if seat["index"] < len(bots) else None
            return host
        self._store_made_of(HOST, host_made_of, host_payload)

    def _store_made_of(self, viewer: Viewer, made_of: tuple,
                       build: Callable[[], dict[str, Any]]) -> None:
        """Build ``viewer``'s payload with ``build`` only if ``made_of`` (everything the
        payload is made of, compared by value) differs from the last build's: a
        viewer whose view, display and shared parts are as they were keeps its payload,
        text and serial, exactly what building it again would make."""
        if viewer in self._built and self._made_of.get(viewer) == made_of:
            return
        self._made_of[viewer] = made_of
        self._store(viewer, build())

    def _seat_payload(self, match: Match | None, seat: int, display: Display,
                      summary: dict[str, Any], board: list[dict[str, Any]], views: Views,
                      names: list[str], timer: dict[str, Any] | None,
                      faults: list[dict[str, Any]], nudges: Nudges | None) -> dict[str, Any]:
        payload = self._seat(match, seat, display, summary, board, views, names)
        payload["timer"] = timer if payload["seat"]["playing"] else None
        payload["faults"] = faults
        if nudges is not None:
            payload["nudge"] = nudges.for_seat(seat)
        return payload

    def _board(self, match: Match | None, views: Views) -> list[dict[str, Any]]:
        """The public board, its log carrying the match's whole kept story."""
        if match is None:
            self.story, self._story_of = [], None
            return []
        if self._story_of != match.id:
            self.story, self._story_of = [], match.id
        board = match.board(views[PUBLIC])
        for part in board:
            if part.get("part") == "log":
                told(self.story, part.get("lines", []))
        return with_story(board, self.story)

    def opened(self, match: Match) -> None:
        """``match`` as the table first showed it (a resumed match, replayed to before
        anyone's first action): the how-to is judged against it, so a restart in the
        middle of a match does not teach the game again."""
        self._resumed[match.id] = jsontext.dumps(match.view(PUBLIC)["state"],
                                                 sort_keys=True)

    def _untouched(self, match: Match, views: Views) -> bool:
        """True while the public view is as it was when the match was first shown: the
        table then shows how to play. Judged from the public view alone, so a secret
        first move (a Cabin Search) does not take the how-to away and tell the table."""
        public = jsontext.dumps(views[PUBLIC]["state"], sort_keys=True)
        if self._opening is None or self._opening[0] != match.id:
            self._opening = (match.id, self._resumed.pop(match.id, public))
        return self._opening[1] == public

    def _seat(self, match: Match | None, seat: int, display: Display,
              summary: dict[str, Any], board: list[dict[str, Any]], views: Views,
              names: list[str]) -> dict[str, Any]:
        playing = match is not None and seat < match.seats
        return {
            "viewer": seat,
            "version": self.turn(seat),
            "seat": {"index": seat, "number": seat + 1, "name": names[seat],
                     "playing": match is None or playing},
            "display": display.to_dict(),
            "match": views[seat] if playing else None,
            "summary": summary,
            # A seat sitting out is sent nothing of the match (its payload stays still).
            "board": board if playing else [],
            # The seat's private panel: in this seat's own payload and nowhere else.
            "panel": match.panel(seat, views[seat]) if match is not None and playing else [],
            # How to play, with the seat's own part: for its phone's help.
            # How to play, with the seat's own part: for its phone's help (the game's
            # general texts are fetched by name, once).
            "help": seat_help(match, seat, views[seat]) if playing and match else None,
        }

    def _public(self, match: Match | None, summary: dict[str, Any],
                board: list[dict[str, Any]], views: Views, seat_count: int,
                names: list[str], claimed: set[int], open_codes: AbstractSet[int],
                untouched: bool) -> dict[str, Any]:
        payload = {
            "viewer": PUBLIC,
            "table": {"seats": seat_count, "names": names,
                      "claimed": [s in claimed for s in range(seat_count)],
                      "open_code": [s in open_codes for s in range(seat_count)]},
            "match": views[PUBLIC] if match else None,
            "summary": summary,
            "board": board,
            "history": [list(point) for point in self.history],
        }
        if match is None:
            payload["lobby"] = lobby.payload()
        else:
            # The table shows how to play (fetched by the game's name) until then.
            payload["howto"] = {"game": match.game.spec.id,
                                "before_first_action": untouched}
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
