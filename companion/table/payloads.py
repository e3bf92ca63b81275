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

from dataclasses import dataclass
from typing import Any, Callable, Sequence

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


@dataclass(frozen=True)
class AroundTheMatch:
    """What the payloads show beside the match, as the table has it at one refresh
    (:meth:`Table._build` reads it once)."""

    seat_count: int
    names: tuple[str, ...]  # each seat's name as every page shows it (a bot's included)
    claimed: frozenset[int]  # seats a player has claimed
    #: Seats whose join code the table display may show (:meth:`Table.code_is_public`).
    open_codes: frozenset[int] = frozenset()
    #: The seat pods for the host page (:func:`companion.seats.pods.pod_report`).
    pods: tuple[dict[str, Any], ...] = ()
    #: The night's standings (:mod:`companion.table.night`), public.
    night: dict[str, Any] | None = None
    #: The step timer (:mod:`companion.table.timekeeper`), public, in every payload.
    timer: dict[str, Any] | None = None
    #: Each page's nudge count and switch (:mod:`companion.table.nudges`).
    nudges: Nudges | None = None
    #: Damaged files earlier starts moved aside (:func:`companion.damage.kept_damage`),
    #: for the host page only.
    damage: tuple[dict[str, str], ...] = ()
    #: Seat parts that do not answer (``TableHardware.faults``): every one on the table
    #: display and the host page, a seat's own on its phone.
    faults: tuple[dict[str, Any], ...] = ()
    #: Each seat's bot or None (level, name, thinking: :meth:`TableBots.payload`), in
    #: the public ``table`` and the host's seats.
    bots: tuple[dict[str, Any] | None, ...] = ()
    #: The line asking players to move a bot's real pieces (docs/bots.md).
    pieces: str | None = None

    def public_parts(self) -> tuple:
        """What of this the table display's payload is made of, compared by value."""
        return (self.seat_count, self.names, self.claimed, self.open_codes, self.timer,
                self.faults, self.nudges.for_table() if self.nudges else None, self.night,
                self.bots, self.pieces)


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

    def rebuild(self, match: Match | None, displays: Sequence[Display], views: Views,
                around: AroundTheMatch) -> None:
        """Bring every viewer's payload up to date with ``match`` (None: the lobby), each
        seat's display, ``views`` and what the table shows ``around`` it, building again
        only the payloads whose inputs changed (:meth:`_store_made_of`); bump the turn
        version of each viewer whose choices changed."""
        summary = match.summary(views[PUBLIC]) if match else dict(lobby.SUMMARY)
        if match is not None:
            chart(self.history, summary)
        board = self._board(match, views)
        public_made_of = self._rebuild_public(match, summary, board, views, around)
        for seat, display in enumerate(displays):
            self._rebuild_seat(match, seat, display, summary, board, views, around)
        self._rebuild_host(match, views, around, public_made_of)

    def _rebuild_public(self, match: Match | None, summary: dict[str, Any],
                        board: list[dict[str, Any]], views: Views,
                        around: AroundTheMatch) -> tuple:
        """The table display's payload; returns what it is made of (the host's is too)."""
        untouched = match is not None and self._untouched(match, views)
        made_of = ("public", match and match.id, views[PUBLIC] if match else None, summary,
                   board, around.public_parts(), tuple(map(tuple, self.history)), untouched)

        def build() -> dict[str, Any]:
            public = self._public(match, summary, board, views, around, untouched)
            public["table"]["bots"] = list(around.bots)
            public["table"]["pieces"] = around.pieces
            public["timer"] = around.timer
            public["faults"] = list(around.faults)
            if around.nudges is not None:
                public["nudge"] = around.nudges.for_table()
            if around.night is not None:
                public["night"] = around.night
            return public
        self._store_made_of(PUBLIC, made_of, build)
        return made_of

    def _rebuild_seat(self, match: Match | None, seat: int, display: Display,
                      summary: dict[str, Any], board: list[dict[str, Any]], views: Views,
                      around: AroundTheMatch) -> None:
        """Seat ``seat``'s payload (its phone's): from its own view and display alone."""
        self._offered(seat, [c.action for c in display.choices])
        playing = match is None or seat < match.seats
        own_faults = [f for f in around.faults if f.get("seat") == seat + 1]
        nudges = around.nudges
        made_of = (
            "seat", match and match.id, self.turn(seat), around.names[seat], display,
            summary, board if playing else None,
            views[seat] if match and playing else None,
            around.timer if playing else None, own_faults,
            nudges.for_seat(seat) if nudges else None)

        def build() -> dict[str, Any]:
            payload = self._seat(match, seat, display, summary, board, views, around.names)
            payload["timer"] = around.timer if payload["seat"]["playing"] else None
            payload["faults"] = own_faults
            if nudges is not None:
                payload["nudge"] = nudges.for_seat(seat)
            return payload
        self._store_made_of(seat, made_of, build)

    def _rebuild_host(self, match: Match | None, views: Views, around: AroundTheMatch,
                      public_made_of: tuple) -> None:
        """The host page's payload: the public one and the host's own parts."""
        legal = match.legal_actions(HOST) if match else []
        self._offered(HOST, legal)
        nudges = around.nudges
        made_of = (
            "host", public_made_of, self.turn(HOST), views[HOST] if match else None,
            legal, bool(match and match.is_paused), bool(match and match.is_over),
            around.pods, dict(nudges.switches) if nudges else None, around.damage)

        def build() -> dict[str, Any]:
            host = self._host(match, self.get(PUBLIC)[1], legal, views, around)
            if nudges is not None:
                host["host"]["nudges"] = dict(nudges.switches)
            host["host"]["damage"] = list(around.damage)
            bots = around.bots
            for seat in host["seats"]:
                seat["bot"] = bots[seat["index"]] if seat["index"] < len(bots) else None
            return host
        self._store_made_of(HOST, made_of, build)

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
              names: Sequence[str]) -> dict[str, Any]:
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
            # How to play, with the seat's own part: for its phone's help (the game's
            # general texts are fetched by name, once).
            "help": seat_help(match, seat, views[seat]) if playing and match else None,
        }

    def _public(self, match: Match | None, summary: dict[str, Any],
                board: list[dict[str, Any]], views: Views, around: AroundTheMatch,
                untouched: bool) -> dict[str, Any]:
        seats = range(around.seat_count)
        payload = {
            "viewer": PUBLIC,
            "table": {"seats": around.seat_count, "names": list(around.names),
                      "claimed": [s in around.claimed for s in seats],
                      "open_code": [s in around.open_codes for s in seats]},
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
              views: Views, around: AroundTheMatch) -> dict[str, Any]:
        host = views[HOST]["host"] if match else {
            "legal": [], "options": {}, "can_undo": False}
        seats = [{"index": s, "number": s + 1, "name": around.names[s],
                  "claimed": s in around.claimed,
                  "playing": match is None or s < match.seats}
                 for s in range(around.seat_count)]
        return {**public, "viewer": HOST, "version": self.turn(HOST),
                "host": {**host, "legal": legal,
                         "paused": bool(match and match.is_paused),
                         "over": bool(match and match.is_over)},
                "seats": seats,
                "pods": list(around.pods)}
