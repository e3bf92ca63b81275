"""The table runtime: the one place where inputs become engine actions.

Button callbacks (on gpiozero's threads), web requests and, later, serial pods all call
:meth:`Table.press` or :meth:`Table.submit`; a single lock turns them into engine actions
one at a time. After every change the table redraws each seat from that seat's display
model, rebuilds every viewer's payload (each from that viewer's own view) and wakes the
live hub, so a stream only ever sends a viewer what was built for that viewer.

Between matches the table runs a small lobby of its own on the seats' screens: seat 1
picks a game and the number of players with its buttons, so a group needs no phone to
start playing.
"""
from __future__ import annotations

import functools
import logging
import threading
from typing import Any, Callable, Protocol, Sequence

import companion.games
from companion import jsontext
from companion.access import HostPin, SeatAccess
from companion.engine import HOST, PUBLIC, Choice, Display, Game, Journal, Match
from companion.engine.rules import Actor, Viewer
from companion.errors import ActionRejected, JournalError, MutinyError

log = logging.getLogger(__name__)

#: Action types the table handles itself, between matches.
LOBBY_GAME, LOBBY_PLAYERS, LOBBY_BACK = "lobby_game", "lobby_players", "lobby_back"


class SeatDevice(Protocol):
    """What the table needs of one seat's hardware (see :mod:`companion.seats`)."""

    when_action: Callable[[dict[str, Any]], None] | None
    when_claimed: Callable[[], None] | None

    def show(self, display: Display) -> None: ...
    def show_qr(self, url: str) -> None: ...
    def close(self) -> None: ...


class Listener(Protocol):
    def publish(self) -> None: ...


class Table:
    """One physical table: its seats, its journal and the match being played."""

    def __init__(self, journal: Journal, seats: Sequence[SeatDevice] = (),
                 seat_count: int | None = None, base_url: str = "http://mutiny.local",
                 hub: Listener | None = None, clock=None, access: SeatAccess | None = None,
                 pin: HostPin | None = None, background_screens: bool = False):
        """``background_screens`` draws the seats' screens on a thread of their own, so
        an action's answer and its pushes to phones do not wait for I2C transfers (and,
        when the hub can tell, after the phones were sent theirs); off, a screen is
        drawn before ``submit``/``press`` return (what tests want)."""
        self.journal = journal
        self.devices = list(seats)
        self.seat_count = seat_count or len(self.devices) or 4
        self.base_url = base_url.rstrip("/")
        self.hub = hub
        self.clock = clock
        self.access = access or SeatAccess(":memory:", self.seat_count)
        self.pin = pin
        self.match: Match | None = None
        self._lock = threading.RLock()
        self._claimed: set[int] = set()
        self._lobby_game: str | None = None
        self._last_error: dict[int, str] = {}
        # Per viewer: its turn counter, the digest of its choices, its payload.
        self._turn: dict[Viewer, int] = {}
        self._choices: dict[Viewer, str] = {}
        self._payloads: dict[Viewer, tuple[int, dict[str, Any], str]] = {}
        self._history: list[list[float]] = []
        self._shown: dict[int, Any] = {}  # what each seat's device was last given
        settle = getattr(hub, "wait_sent", None)
        self._screens = ScreenPainter(self.devices, settle) if background_screens else None
        #: The seat pods' status for the host page (``pods.pod_report``), if any pods.
        self.pod_report: Callable[[], list[dict[str, Any]]] | None = None
        for index, device in enumerate(self.devices):
            device.when_action = self._pressed(index)
            device.when_claimed = self._claimer(index)
        self.refresh()

    # -- matches ------------------------------------------------------------------------
    def resume(self) -> Match | None:
        """Load every unfinished match from the journal; the newest is played on."""
        with self._lock:
            loaded = None
            for match_id in self.journal.unfinished_ids():
                history: list[list[float]] = []
                try:
                    match = self.journal.load(match_id, companion.games.get, self.clock,
                                              each=lambda m, h=history: _chart(h, m.summary()))
                except (JournalError, MutinyError) as exc:
                    log.error("cannot resume match %s: %s", match_id, exc)
                    loaded = None  # never fall back to an older match than this one
                    continue
                if match.is_over:
                    self.journal.finish(match_id)
                else:
                    loaded, self._history = match, history
            if loaded is not None:
                self.match = loaded
                self._claimed = set(range(self.seat_count))  # players are seated already
                log.info("resumed %s match %s at version %d", loaded.game.spec.id,
                         loaded.id, loaded.version)
            self.refresh()
            return loaded

    def start(self, game_id: str | Game, players: int | None = None,
              options: dict[str, Any] | None = None, names: list[str] | None = None,
              seed: str | None = None) -> Match:
        """Start a new match on this table (the previous one stays in the journal).
        ``game_id`` may also be a :class:`Game` itself (one not in the registry, such as
        a benchmark's; such a match cannot be resumed after a restart)."""
        game = game_id if isinstance(game_id, Game) else companion.games.get(game_id)
        players = players or min(game.spec.max_seats, self.seat_count)
        if type(players) is not int or not 1 <= players <= self.seat_count:
            raise ActionRejected("bad_seats", f"this table has {self.seat_count} seats")
        with self._lock:
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a match is being played; end it first")
            names = names or self.access.names()[:players]
            self.match = Match.create(game, players, options, seed=seed, names=names,
                                      clock=self.clock, journal=self.journal)
            self._lobby_game = None
            self._history = []
            self.refresh()
            return self.match

    def back_to_lobby(self) -> None:
        """Leave a finished match on the screens no longer: back to picking a game."""
        with self._lock:
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a match is being played; end it first")
            self.match = None
            self._lobby_game = None
            self._history = []
            self.refresh()

    # -- acting -------------------------------------------------------------------------
    def submit(self, actor: Actor, action: Any, version: int | None = None) -> int:
        """Apply one action from a phone, the host or a seat; return the actor's new
        turn version.

        ``version``, when given, is the actor's turn version from its last payload: an
        action sent against an older one is refused as stale, never applied to a
        question the player was not shown.
        """
        with self._lock:
            if version is not None and version != self._turn.get(actor, 0):
                raise ActionRejected("stale", "the table has moved on; look again")
            if (isinstance(actor, int) and isinstance(action, dict)
                    and str(action.get("type", "")).startswith("lobby_")):
                return self._lobby_submit(actor, action)
            match = self._current()
            match.apply(actor, action)
            # A double tap must not act twice, even where the choices look the same.
            self._turn[actor] = self._turn.get(actor, 0) + 1
            if match.is_over:
                self.journal.finish(match.id)
            self.refresh()
            return self._turn[actor]

    def press(self, seat: int, action: dict[str, Any]) -> None:
        """A seat's buttons confirmed a choice. Errors go to that seat's screen."""
        with self._lock:
            self._last_error.pop(seat, None)
            try:
                if str(action.get("type", "")).startswith("lobby_"):
                    self._lobby(seat, action)
                elif self._offered(seat, action):
                    self.submit(seat, action)
                else:
                    raise ActionRejected("stale", "that choice is gone; look again")
            except ActionRejected as exc:
                self._last_error[seat] = exc.message
                log.info("seat %d: %s rejected: %s", seat + 1, action.get("type"), exc.code)
            self.refresh()

    def _lobby_submit(self, seat: int, action: dict[str, Any]) -> int:
        """Seat 1 picking a game from its phone: the same lobby as its buttons."""
        self._lobby(seat, action)
        self._turn[seat] = self._turn.get(seat, 0) + 1
        self.refresh()
        return self._turn[seat]

    def claim(self, seat: int) -> None:
        """The seat has a player (a button was pressed, or a phone joined)."""
        with self._lock:
            if seat not in self._claimed:
                self._claimed.add(seat)
                self.refresh()

    def replace_seat(self, seat: int, unclaim: bool = False) -> str:
        """A new join token for ``seat`` (a lost phone); ``unclaim`` also frees the seat,
        so its screen shows the new code. Returns the new join URL."""
        with self._lock:
            self.access.replace(seat)
            if unclaim:
                self._claimed.discard(seat)
            self.refresh()
            return self.join_url(seat)

    def rename(self, seat: int, name: str) -> None:
        with self._lock:
            self.access.rename(seat, name)
            self.refresh()

    def _offered(self, seat: int, action: dict[str, Any]) -> bool:
        # A press acts on what the seat was shown: if its screen has changed meanwhile
        # the old choice is refused rather than applied to a different question.
        return action in [c.action for c in self.display(seat).choices]

    def _current(self) -> Match:
        if self.match is None:
            raise ActionRejected("no_match", "no match is being played at this table")
        return self.match

    def _pressed(self, seat: int) -> Callable[[dict[str, Any]], None]:
        return lambda action: self.press(seat, action)

    def _claimer(self, seat: int) -> Callable[[], None]:
        return lambda: self.claim(seat)

    # -- what seats and pages see ------------------------------------------------------
    def display(self, seat: int) -> Display:
        """What seat ``seat`` (0-based) of the table shows now."""
        with self._lock:
            return self._display(seat, _Views(self.match))

    def _display(self, seat: int, views: "_Views") -> Display:
        # Callers hold the table lock.
        if self.match is None:
            display = self._lobby_display(seat)
        elif seat >= self.match.seats:
            display = Display(title="Not playing",
                              lines=("This seat sits out", "this match."))
        else:
            display = self.match.display(seat, views[seat])
            if self.match.is_over and seat == 0:
                display = _with(display, choices=display.choices + (
                    Choice("New match", {"type": LOBBY_BACK}),))
        if seat == 0 and self.pin is not None and self.match is not None:
            display = _with(display, private=display.private + (f"Host PIN {self.pin.pin}",))
        error = self._last_error.get(seat)
        if error:
            display = _with(display, lines=(f"! {error}",) + display.lines)
        return display

    def join_url(self, seat: int) -> str:
        return f"{self.base_url}/J/{self.access.token(seat)}".upper()

    def is_claimed(self, seat: int) -> bool:
        return seat in self._claimed

    def payload(self, viewer: Viewer) -> tuple[int, dict[str, Any]]:
        """(serial, payload) for a seat, ``PUBLIC`` or ``HOST``: the serial moves only
        when that viewer's payload changed."""
        with self._lock:
            serial, payload, _text = self._payloads[viewer]
            return serial, payload

    def payload_text(self, viewer: Viewer) -> tuple[int, str]:
        """(serial, payload as JSON text): what a stream sends, serialised once."""
        with self._lock:
            serial, _payload, text = self._payloads[viewer]
            return serial, text

    def turn_version(self, viewer: Viewer) -> int:
        with self._lock:
            return self._turn.get(viewer, 0)

    def refresh(self) -> None:
        """Redraw every seat, rebuild every viewer's payload and wake every stream."""
        with self._lock:
            views = _Views(self.match)  # each viewer's view is built once a refresh
            displays = [self._display(seat, views) for seat in range(self.seat_count)]
            for index, device in enumerate(self.devices):
                shown = displays[index] if index in self._claimed else self.join_url(index)
                if self._shown.get(index) == shown:
                    continue  # most actions change one or two seats' screens
                self._shown[index] = shown
                if self._screens is not None:
                    self._screens.paint(index, shown)
                else:
                    _paint(device, shown)
            self._rebuild_payloads(displays, views)
        if self.hub is not None:
            self.hub.publish()

    # -- payloads -----------------------------------------------------------------------
    def _rebuild_payloads(self, displays: list[Display], views: "_Views") -> None:
        summary = self.match.summary(views[PUBLIC]) if self.match else self._lobby_summary()
        if self.match is not None:
            _chart(self._history, summary)
        names = self.access.names()
        public = self._public_payload(summary, views, names)
        self._store(PUBLIC, public)
        for seat, display in enumerate(displays):
            self._bump_turn(seat, [c.action for c in display.choices])
            self._store(seat, self._seat_payload(seat, display, summary, views, names))
        host_legal = self.match.legal_actions(HOST) if self.match else []
        self._bump_turn(HOST, host_legal)
        self._store(HOST, self._host_payload(public, host_legal, views, names))

    def _bump_turn(self, viewer: Viewer, choices: list[dict[str, Any]]) -> None:
        digest = jsontext.dumps(choices, sort_keys=True)
        if self._choices.get(viewer) != digest:
            self._choices[viewer] = digest
            self._turn[viewer] = self._turn.get(viewer, 0) + 1

    def _store(self, viewer: Viewer, payload: dict[str, Any]) -> None:
        # Keys come in the order the code builds them, the same every time: no sort.
        text = jsontext.dumps(payload)
        old = self._payloads.get(viewer)
        if old is None or old[2] != text:
            self._payloads[viewer] = ((old[0] + 1) if old else 1, payload, text)

    def _seat_payload(self, seat: int, display: Display, summary: dict[str, Any],
                      views: "_Views", names: list[str]) -> dict[str, Any]:
        playing = self.match is None or seat < self.match.seats
        return {
            "viewer": seat,
            "version": self._turn.get(seat, 0),
            "seat": {"index": seat, "number": seat + 1, "name": names[seat], "playing": playing},
            "display": display.to_dict(),
            "match": views[seat] if self.match and playing else None,
            "summary": summary,
        }

    def _public_payload(self, summary: dict[str, Any], views: "_Views",
                        names: list[str]) -> dict[str, Any]:
        payload = {
            "viewer": PUBLIC,
            "table": {"seats": self.seat_count, "names": names,
                      "claimed": [s in self._claimed for s in range(self.seat_count)]},
            "match": views[PUBLIC] if self.match else None,
            "summary": summary,
            "history": [list(point) for point in self._history],
        }
        if self.match is None:
            payload["lobby"] = {"games": game_specs()}
        return payload

    def _host_payload(self, public: dict[str, Any], legal: list[dict[str, Any]],
                      views: "_Views", names: list[str]) -> dict[str, Any]:
        host = views[HOST]["host"] if self.match else {
            "legal": [], "options": {}, "can_undo": False}
        seats = [{"index": s, "number": s + 1, "name": names[s], "claimed": s in self._claimed,
                  "playing": self.match is None or s < self.match.seats}
                 for s in range(self.seat_count)]
        return {**public, "viewer": HOST, "version": self._turn.get(HOST, 0),
                "host": {**host, "legal": legal,
                         "paused": bool(self.match and self.match.is_paused),
                         "over": bool(self.match and self.match.is_over)},
                "seats": seats,
                "pods": self.pod_report() if self.pod_report else []}

    def _lobby_summary(self) -> dict[str, Any]:
        return {"game": None, "title": "Mutiny Table", "headline": "Seat 1 is picking a game",
                "turn": [0], "scores": None, "score_label": "", "lines": [], "tallies": []}

    # -- the lobby ----------------------------------------------------------------------
    def _lobby_display(self, seat: int) -> Display:
        if seat != 0:
            return Display(title="Mutiny Table", lines=("Waiting for seat 1", "to pick a game."))
        # The PIN is a secret of the host's: it shows while select is held, never at rest.
        pin = (f"Host PIN {self.pin.pin}",) if self.pin is not None else ()
        hint = ("Hold select: host PIN",) if self.pin is not None else ()
        if self._lobby_game is None:
            choices = tuple(Choice(g.spec.title, {"type": LOBBY_GAME, "game": gid})
                            for gid, g in companion.games.GAMES.items()
                            if g.spec.min_seats <= self.seat_count)
            return Display(title="Pick a game", lines=("Which game tonight?",) + hint,
                           choices=choices, private=pin, led="on")
        spec = companion.games.get(self._lobby_game).spec
        top = min(spec.max_seats, self.seat_count)
        choices = tuple(Choice(f"{n} players", {"type": LOBBY_PLAYERS, "players": n})
                        for n in range(spec.min_seats, top + 1))
        back = Choice("Back", {"type": LOBBY_BACK})
        return Display(title=spec.title[:20], lines=("How many players?",) + hint,
                       choices=choices + (back,), private=pin, led="on")

    def _lobby(self, seat: int, action: dict[str, Any]) -> None:
        if seat != 0:
            raise ActionRejected("not_your_turn", "seat 1 picks the game")
        if not self._offered(seat, action):
            raise ActionRejected("stale", "that choice is gone; look again")
        kind = action["type"]
        if kind == LOBBY_BACK and self._lobby_game and self.match is None:
            self._lobby_game = None
        elif kind == LOBBY_BACK:
            self.back_to_lobby()
        elif kind == LOBBY_GAME:
            self._lobby_game = companion.games.get(action["game"]).spec.id
        else:
            self.start(self._lobby_game, action["players"])

    def close(self) -> None:
        """Close the seats, the journal and the seat access file (idempotent)."""
        if self._screens is not None:
            self._screens.close()
        with self._lock:
            for device in self.devices:
                device.close()
            self.journal.close()
            self.access.close()


def _paint(device: SeatDevice, shown: Display | str) -> None:
    if isinstance(shown, Display):
        device.show(shown)
    else:
        device.show_qr(shown)


class ScreenPainter:
    """Draws seat screens in the background, newest first: a seat whose screen changed
    twice before it was drawn is drawn once, with the newer one.

    Each I2C bus gets a thread of its own (a device's ``i2c_bus``; devices without one
    share a thread). Screens on one bus take turns on its two wires anyway, but two buses
    move their bytes at the same time (smbus2's transfers release the GIL), so after a
    reveal every screen is drawn once the busiest bus is done, not once all buses are.
    A screen that fails is logged, and the others are drawn all the same.

    ``settle(timeout)``, if given, is called before each round of drawing: the hub's
    ``wait_sent``, so the phones' updates go out first and the CPU time of eight
    redraws (about 2 ms on the simulated table) does not delay them."""

    #: The longest the screens wait for the phones, in seconds.
    SETTLE_SECONDS = 0.02

    def __init__(self, devices: Sequence[SeatDevice],
                 settle: Callable[[float], Any] | None = None):
        self._devices = devices
        self._settle = settle
        self._closed = False
        # One lock for every bus's conditions: paint() and close() need no more.
        self._lock = threading.Lock()
        self._bus_of = [getattr(device, "i2c_bus", None) for device in devices]
        self._due: dict[int | None, dict[int, Display | str]] = {}
        self._wake: dict[int | None, threading.Condition] = {}
        self._threads: list[threading.Thread] = []
        for bus in dict.fromkeys(self._bus_of):  # each bus once, in seat order
            self._due[bus] = {}
            self._wake[bus] = threading.Condition(self._lock)
            name = "seat-screens" if bus is None else f"seat-screens-i2c-{bus}"
            self._threads.append(threading.Thread(target=self._run, args=(bus,), name=name,
                                                  daemon=True))
        for thread in self._threads:
            thread.start()

    def paint(self, index: int, shown: Display | str) -> None:
        """Draw ``shown`` (a Display, or a join URL's QR code) on seat ``index`` soon."""
        bus = self._bus_of[index]
        with self._lock:
            self._due[bus][index] = shown
            self._wake[bus].notify()

    def _run(self, bus: int | None) -> None:
        due, wake = self._due[bus], self._wake[bus]
        while True:
            with wake:
                wake.wait_for(lambda: due or self._closed)
                if self._closed:
                    return
            if self._settle is not None:
                self._settle(self.SETTLE_SECONDS)
            with wake:
                batch = dict(due)
                due.clear()
            for index, shown in sorted(batch.items()):
                try:
                    _paint(self._devices[index], shown)
                except Exception:  # a screen's fault must not stop the others
                    log.exception("seat %d: drawing failed", index + 1)

    def close(self) -> None:
        """Stop drawing (what is still due is dropped). Idempotent."""
        with self._lock:
            self._closed = True
            for wake in self._wake.values():
                wake.notify_all()
        for thread in self._threads:
            thread.join(5)


class _Views(dict):
    """Each viewer's view of ``match``, built on first use: one refresh builds a seat's
    view once for its screen and its payload. Lives no longer than one refresh, under
    the table's lock, so the match cannot change under it."""

    def __init__(self, match: Match | None):
        super().__init__()
        self._match = match

    def __missing__(self, viewer: Viewer) -> dict[str, Any]:
        view = self[viewer] = self._match.view(viewer)
        return view


def _with(display: Display, **changes: Any) -> Display:
    fields = {"title": display.title, "lines": display.lines, "choices": display.choices,
              "private": display.private, "led": display.led, "extra": display.extra}
    fields.update(changes)
    return Display(**fields)


def _chart(history: list[list[float]], summary: dict[str, Any]) -> None:
    """Add a point to the score chart when the public scores changed. The x axis counts
    points, not actions: an action count would tell how many hidden moves were made."""
    scores = summary.get("scores")
    if scores is not None and (not history or history[-1][1:] != list(scores)):
        history.append([len(history), *scores])


@functools.lru_cache(maxsize=1)
def game_specs() -> list[dict[str, Any]]:
    """Every game's spec as JSON-able data (the registry does not change while running)."""
    return [g.spec.to_dict() for g in companion.games.GAMES.values()]
