"""The table runtime: the one place where inputs become engine actions.

Button callbacks (on gpiozero's threads), web requests and serial pods all call
:meth:`Table.press` or :meth:`Table.submit`; a single lock turns them into engine actions
one at a time. After every change the table builds each seat's display model and every
viewer's payload (:mod:`companion.table.payloads`) and shows them in the order
:class:`~companion.table.painter.DrawingOrder` decides: the seat whose buttons acted,
the phones, the other screens. Between matches the seats show the lobby
(:mod:`companion.table.lobby`). A step timer set by the host runs in
:mod:`companion.table.timekeeper`.
"""
from __future__ import annotations

import copy
import dataclasses
import logging
import threading
from functools import partial
from typing import Any, Callable, Protocol, Sequence

import companion.games
from companion.access import HostPin, SeatAccess
from companion.clocks import Clock, MonotonicClock
from companion.engine import Display, Game, Journal, Match
from companion.engine.rules import Actor, Viewer
from companion.errors import ActionRejected, JournalError, MutinyError
from companion.table import lobby
from companion.table.bots import LEVELS, TAKEN_FROM_BOT, TableBots
from companion.table.night import Night
from companion.table.notes import TableNotes
from companion.table.nudges import Nudges
from companion.table.painter import DrawingOrder, SeatDevice, Shown
from companion.table.payloads import AroundTheMatch, Payloads, Views, chart
from companion.table.timekeeper import Timekeeper

log = logging.getLogger(__name__)


class Listener(Protocol):
    """The live hub, as far as the table is concerned: woken after every change."""

    def publish(self) -> None: ...


class Table:
    """One physical table: its seats, its journal and the match being played."""

    def __init__(self, journal: Journal, seats: Sequence[SeatDevice] = (),
                 seat_count: int | None = None, base_url: str = "http://mutiny.local",
                 hub: Listener | None = None, clock=None, access: SeatAccess | None = None,
                 pin: HostPin | None = None, background_screens: bool = False,
                 night: Night | None = None, timer_clock: Clock | None = None):
        """``night`` keeps tonight's finished matches (default: a file beside the
        journal's, :mod:`companion.table.night`). ``background_screens`` draws the
        seats' screens (all but the one whose buttons acted) on threads of their own,
        after the phones were sent their updates, so an action's answer does not wait
        for I2C transfers (:class:`DrawingOrder`); off, every screen is drawn before
        ``submit``/``press`` return (what tests want). ``timer_clock`` runs the step timers (default: a
        monotonic clock of the table's own; tests give a ``ManualClock``)."""
        self.journal = journal
        self.devices = list(seats)
        self.seat_count = seat_count or len(self.devices) or 4
        self.base_url = base_url.rstrip("/")
        self.hub = hub
        self.clock = clock
        self.access = access or SeatAccess(":memory:", self.seat_count)
        self.pin = pin
        self.night = night if night is not None else Night.beside(journal.path)
        self.match: Match | None = None
        self._lock = threading.RLock()
        self._claimed: set[int] = set()
        #: Seats that have had a player tonight: their code is never public again
        #: (a kicked or revoked phone cannot walk back in through the table display).
        self._claimed_tonight: set[int] = set()
        self._showing_code: set[int] = set()  # replaced seats: the new code until a press
        self._last_error: dict[int, str] = {}
        self._payloads = Payloads(self.access.first_version)
        self._displays: list[Display] = []  # each seat's display at the last refresh
        self._acting_now: Actor | None = None  # who made the change being refreshed
        self._buttons_of: int | None = None  # the seat whose buttons made it, if one did
        self._closed = False
        self.notes = TableNotes.beside(journal.path)
        self.nudges = Nudges(self.seat_count, self.notes)
        self._owns_timer_clock = timer_clock is None
        self.timekeeper = Timekeeper(timer_clock or MonotonicClock("step-timers"),
                                     self._timer_tick, self._time_up, self.notes)
        #: The bots in empty seats (docs/bots.md), paced on the step timers' clock.
        self.bots = TableBots(self.timekeeper.clock, self._lock, lambda: self.match,
                              self.submit, self.access.phones, self.notes)
        self._order = DrawingOrder(self.devices, hub.publish if hub is not None else None,
                                   background=background_screens)
        #: The seat pods' status for the host page (``pods.pod_report``), if any pods.
        self.pod_report: Callable[[], list[dict[str, Any]]] | None = None
        #: The seat parts that do not answer, in words (``TableHardware.faults``), if
        #: the seats are watched: in every page's payload (docs/seats.md).
        self.seat_faults: Callable[[], list[dict[str, Any]]] | None = None
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
                                              each=partial(_chart_match, history),
                                              opened=self._payloads.opened)
                except (JournalError, MutinyError) as exc:
                    log.error("cannot resume match %s: %s", match_id, exc)
                    loaded = None  # never fall back to an older match than this one
                    continue
                if match.is_over:
                    self.night.record(match)  # (it may have ended just before a crash)
                    self.journal.finish(match_id)
                else:
                    loaded, self._payloads.history = match, history
            self._record_missing()
            if loaded is not None:
                self.match = loaded
                self._claimed = set(range(self.seat_count))  # players are seated already
                self._claimed_tonight = set(self._claimed)
                self._claimed -= set(self.bots.resume(loaded))  # and its bots again
                log.info("resumed %s match %s at version %d", loaded.game.spec.id,
                         loaded.id, loaded.version)
            self.refresh()
            return loaded

    def _record_missing(self) -> None:
        """Tonight's matches the journal has over and the night's file has not: the
        power went after the phones were told of the end, before the night saved it
        (:meth:`_after`). Callers hold the table lock."""
        for match_id, ended in self.night.missing(
                self.journal.finished_since(self.night.started())):
            try:
                match = self.journal.load(match_id, companion.games.get, self.clock)
            except (JournalError, MutinyError) as exc:
                log.error("cannot read finished match %s: %s", match_id, exc)
                continue
            self.night.record(match, ended=ended)

    def start(self, game_id: str | Game, players: int | None = None,
              options: dict[str, Any] | None = None, names: list[str] | None = None,
              seed: str | None = None) -> Match:
        """Start a new match on this table (the previous one stays in the journal).
        ``game_id`` may also be a :class:`Game` itself (one not in the registry, such as
        a benchmark's; such a match cannot be resumed after a restart). Raises
        :class:`~companion.errors.UnknownGame` for an id no game has."""
        game = game_id if isinstance(game_id, Game) else companion.games.get(game_id)
        players = players or min(game.spec.max_seats, self.seat_count)
        if type(players) is not int or not 1 <= players <= self.seat_count:
            raise ActionRejected("bad_seats", f"this table has {self.seat_count} seats")
        with self._lock:
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a match is being played; end it first")
            names = self.bots.named(list(names or self.access.names()[:players]))
            self.access.new_match()  # last match's join codes stop working (security.md)
            self.match = Match.create(game, players, options, seed=seed, names=names,
                                      clock=self.clock, journal=self.journal)
            self._payloads.history = []
            self.refresh()
            return self.match

    def rematch(self) -> Match:
        """Play the finished match again: the same game, players, names and options,
        a new deal. Phones already joined play on (their seats are the same)."""
        with self._lock:
            last = self.match
            if last is None or not last.is_over:
                raise ActionRejected("not_now", "a rematch follows a finished match")
            return self.start(last.game, last.seats, dict(last.options),
                              names=list(last.names))

    def new_night(self) -> None:
        """The host starts a new game night: the standings start again. (Phones stay
        joined: the night's scoreboard is not its access, docs/security.md.)"""
        with self._lock:
            self.night.new_night()
            self.refresh()

    def back_to_lobby(self) -> None:
        """Leave a finished match on the screens no longer: back to picking a game."""
        with self._lock:
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a match is being played; end it first")
            self.match = None
            self._payloads.history = []
            self.refresh()

    # -- acting -------------------------------------------------------------------------
    def submit(self, actor: Actor, action: Any, version: int | None = None, *,
               screen_first: bool = False) -> int:
        """Apply one action from a phone, the host or a seat; return the actor's new
        turn version.

        ``version``, when given, is the actor's turn version from its last payload: an
        action sent against an older one is refused as stale, never applied to a
        question the player was not shown.

        ``screen_first``: the action came from the seat's buttons, so its player is
        looking at the seat's screen: that screen is drawn as soon as the action is on
        disk, before anything else is built. Otherwise (a phone, the host) every screen
        and page is built while the journal's commit waits for the disk, and the phones
        are told first.
        """
        with self._lock:
            if version is not None and version != self._payloads.turn(actor):
                raise ActionRejected("stale", "the table has moved on; look again")
            before = self._acting_now, self._buttons_of
            self._acting_now = actor
            self._buttons_of = actor if screen_first and isinstance(actor, int) else None
            try:
                if isinstance(actor, int) and lobby.is_lobby_action(action):
                    self._lobby(actor, action)  # seat 1's phone: the lobby of its buttons
                    version = self._acted(actor)
                    self.refresh()
                elif screen_first:
                    match = self._current()
                    match.apply(actor, action)
                    self._after(match)
                    version = self._acted(actor)
                    self.refresh()
                else:
                    version = self._apply(self._current(), actor, action)
            finally:
                self._acting_now, self._buttons_of = before
            return version

    def _acted(self, actor: Actor) -> int:
        """``actor`` acted: its notice goes and its turn version moves (returned)."""
        if isinstance(actor, int):  # a notice ("! Phone joined") lasts until the
            self._last_error.pop(actor, None)  # seat acts, by buttons or phone
        # A double tap must not act twice, even where the choices look the same.
        return self._payloads.acted(actor)

    def _apply(self, match: Match, actor: Actor, action: Any) -> int:
        """Apply the action and show it. What every screen and page will show is built
        while the journal's commit waits for the disk (``Match.apply``'s ``alongside``)
        and shown once it returns; if the journal cannot write it, all is put back."""
        kept = (self._payloads.copy(), dict(self._last_error), list(self._displays),
                self.nudges.copy(), self.timekeeper.saved())
        built: list[int] = []  # the actor's new turn version, once built

        def build() -> None:
            if match.is_over:
                return  # the night's standings change after the commit: built then
            built.append(self._acted(actor))
            self._build()

        try:
            match.apply(actor, action, alongside=build)
        except JournalError:
            self._payloads, self._last_error, self._displays, self.nudges, timer = kept
            self.timekeeper.restore(timer)
            raise
        self._after(match)
        if not built:
            built.append(self._acted(actor))
            self._build()
        self._show()
        return built[0]

    def press(self, seat: int, action: dict[str, Any]) -> None:
        """A seat's buttons confirmed a choice. Errors go to that seat's screen."""
        with self._lock:
            self._last_error.pop(seat, None)
            self._buttons_of = seat  # whatever it changes, its screen is drawn first
            try:
                self._take_press(seat, action)
            finally:
                self._buttons_of = None

    def _take_press(self, seat: int, action: dict[str, Any]) -> None:
        """The body of :meth:`press`, with the lock held and the seat's buttons noted."""
        try:
            if lobby.is_lobby_action(action):
                self._lobby(seat, action)
            elif self._offered(seat, action):
                self.submit(seat, action, screen_first=True)
                return  # (submit has refreshed: a second refresh finds nothing new)
            else:
                raise ActionRejected("stale", "that choice is gone; look again")
        except ActionRejected as exc:
            self._last_error[seat] = exc.message
            log.info("seat %d: %s rejected: %s", seat + 1, action.get("type"), exc.code)
        self.refresh()

    def _lobby(self, seat: int, action: dict[str, Any]) -> None:
        # Only what seat 1 was offered: a start while a match is played, or a "New
        # match" while it is not over, is stale.
        if seat != 0:
            raise ActionRejected("not_your_turn", "seat 1 picks the game")
        if action["type"] in (lobby.BOT, lobby.BOT_STANDS):
            self._lobby_bot(action)
            return
        if not self._offered(seat, action):
            raise ActionRejected("stale", "that choice is gone; look again")
        if action["type"] == lobby.NEW_MATCH:
            self.back_to_lobby()
        elif action["type"] == lobby.REMATCH:
            self.rematch()
        else:
            self.start(action["game"], action["players"])

    def _lobby_bot(self, action: dict[str, Any]) -> None:
        """Seat 1 seats a bot, or stands one up (the table checks the seat itself)."""
        seat = action.get("seat")
        if type(seat) is not int:
            raise ActionRejected("bad_value", "name the seat by its index")
        if action["type"] == lobby.BOT:
            self.seat_bot(seat, action.get("level"))
        else:
            self.stand_bot(seat)

    def seat_bot(self, seat: int, level: Any, seed: str | None = None) -> None:
        """A bot at ``level`` sits in the empty ``seat`` (no player, no phone), between
        matches (docs/bots.md). ``seed`` makes its decisions repeatable (tests)."""
        with self._lock:
            if type(seat) is not int or not 0 <= seat < self.seat_count:
                raise ActionRejected("no_such_seat", f"this table has seats 1 to {self.seat_count}")
            if level not in LEVELS:
                raise ActionRejected("bad_value", "a bot is easy, normal or hard")
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a bot sits down between matches")
            if seat in self._claimed or self.access.phones(seat) or self.bots.sits(seat):
                raise ActionRejected("seat_taken", f"seat {seat + 1} is not empty")
            self.bots.sit(seat, level, seed)
            self.refresh()

    def stand_bot(self, seat: int) -> None:
        """The bot in ``seat`` stands up: the seat is empty (its code stays off the table
        display if the bot held a hand tonight)."""
        with self._lock:
            if not self.bots.sits(seat):
                raise ActionRejected("no_bot", f"no bot sits in seat {seat + 1}")
            self.bots.stand(seat)
            if self.match is not None:
                self._claimed_tonight.add(seat)
            self.refresh()

    def claim(self, seat: int) -> None:
        """The seat has a player (a button was pressed, or a phone joined): a bot in it
        stands up, and the seat is told."""
        with self._lock:
            took = self.bots.sits(seat)
            if took:
                self.bots.stand(seat)
                self._last_error[seat] = TAKEN_FROM_BOT
                self._name_in_match(seat)
            if took or seat not in self._claimed or seat in self._showing_code:
                self._claimed.add(seat)
                self._claimed_tonight.add(seat)
                self._showing_code.discard(seat)
                self.refresh()

    def replace_seat(self, seat: int, unclaim: bool = False) -> str:
        """A new join token for ``seat`` (a lost phone); its screen shows the new code
        until its next press or a phone joins. ``unclaim`` also frees the seat (kick).
        Returns the new join URL."""
        with self._lock:
            self.access.replace(seat, told=not unclaim)
            if unclaim:
                self._claimed.discard(seat)
            else:
                self._showing_code.add(seat)
            self.refresh()
            return self.join_url(seat)

    def tell(self, seat: int, message: str) -> None:
        """Show ``message`` on the seat's screen and phones until it next acts (a
        phone joined the seat: docs/security.md)."""
        with self._lock:
            if not (message == "Phone joined" and self._last_error.get(seat) == TAKEN_FROM_BOT):
                self._last_error[seat] = message  # (taking a bot's seat says more)
            self.refresh()

    def switch_nudges(self, name: str, on: bool) -> None:
        """The host turns the phones' buzz ("vibrate") or the display's chime ("sound")
        on or off (kept across restarts)."""
        with self._lock:
            self.nudges.switch(name, on)
            self.refresh()

    def add_time(self, seconds: float) -> None:
        """The host gives the step timer more time, or takes it away (``seconds`` < 0;
        taking all that is left ends the time now, as running out would)."""
        with self._lock:
            if self.match is None or self.timekeeper.shown() is None:
                raise ActionRejected("not_now", "no step timer is running")
            self.timekeeper.add(seconds)
            self.refresh()

    def rename(self, seat: int, name: str) -> None:
        """Seat ``seat``'s player is called ``name``: in the lobby, and in the match
        being played (its story too), unless a bot holds the seat."""
        with self._lock:
            self.access.rename(seat, name)
            self._name_in_match(seat)
            self.refresh()

    def _name_in_match(self, seat: int) -> None:
        # The match words its story with the names it was started with; a player who
        # renames, or takes a bot's seat over, is called by their own name from then on.
        match = self.match
        if match is not None and not match.is_over and seat < match.seats \
                and not self.bots.sits(seat):
            match.rename(seat, self.access.names()[seat])

    def _offered(self, seat: int, action: dict[str, Any]) -> bool:
        # A press acts on what the seat was shown: if its screen has changed meanwhile
        # the old choice is refused rather than applied to a different question. What
        # it was shown is the last refresh's display (every change refreshes), not one
        # built again while the player waits.
        shown = self._displays[seat] if seat < len(self._displays) else self.display(seat)
        return action in [c.action for c in shown.choices]

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
            return self._display(seat, Views(self.match))

    def _display(self, seat: int, views: Views) -> Display:
        # Callers hold the table lock.
        if self.bots.sits(seat):  # never the seat's view: its buttons cannot play the bot
            display = self.bots.display(seat, self.match, views)
        elif self.match is None:
            display = lobby.display(seat, self.seat_count, self._bot_choices(seat))
        elif seat >= self.match.seats:
            display = Display(title="Not playing",
                              lines=("This seat sits out", "this match."))
        else:
            display = _hosts_word(self.match, self.match.display(seat, views[seat]))
            if self.match.is_over and seat == 0:
                display = _with(display, choices=display.choices + lobby.play_again_choices(
                    self.match.game.spec.title))
        error = self._last_error.get(seat)
        if error:
            display = _line_first(display, f"! {error}")
        return display

    def _bot_choices(self, seat: int) -> tuple:
        """Seat 1's lobby choices for bots: one in each empty seat, or stand one up."""
        if seat != 0:
            return ()
        empty = [s for s in range(self.seat_count) if s not in self._claimed
                 and not self.access.phones(s) and not self.bots.sits(s)]
        return lobby.bot_choices(empty, {s: self.bots.name(s) for s in self.bots.seats})

    def join_url(self, seat: int) -> str:
        return f"{self.base_url}/J/{self.access.token(seat)}".upper()

    def is_claimed(self, seat: int) -> bool:
        return seat in self._claimed

    def code_is_public(self, seat: int) -> bool:
        """May the table display show this seat's join code to anyone? Only while no
        player has had the seat tonight, like a console that offers pairing only to an
        empty controller slot: once claimed, a new phone needs a code the host shows
        or the seat's own screen (docs/security.md, "Seats and phones")."""
        match = self.match
        return (seat not in self._claimed_tonight and not self.bots.sits(seat)
                and (match is None or seat < match.seats))

    def payload(self, viewer: Viewer) -> tuple[int, dict[str, Any]]:
        """(serial, payload) for a seat, ``PUBLIC`` or ``HOST``: the serial moves only
        when that viewer's payload changed."""
        with self._lock:
            serial, payload, _text = self._payloads.get(viewer)
            return serial, payload

    def payload_text(self, viewer: Viewer) -> tuple[int, str]:
        """(serial, payload as JSON text): what a stream sends, serialised once."""
        with self._lock:
            serial, _payload, text = self._payloads.get(viewer)
            return serial, text

    def turn_version(self, viewer: Viewer) -> int:
        with self._lock:
            return self._payloads.turn(viewer)

    def refresh(self) -> None:
        """Rebuild every seat's display and every viewer's payload, and show them."""
        with self._lock:
            self._build(screen_first=True)
            self._show()

    def _build(self, screen_first: bool = False) -> None:
        """Every seat's display and every viewer's payload, from the match as it is,
        shown to nobody yet, except with ``screen_first``: the seat whose buttons made
        the change is drawn as soon as its display is known (:class:`DrawingOrder`'s
        first step). Callers hold the table lock (or, for ``_apply``'s build on the
        journal's sidekick, the thread holding it waits for the commit)."""
        match = self.match
        self.timekeeper.follow(match.id if match else None, match.timer() if match else None,
                               bool(match and match.is_paused))
        views = Views(match)  # each viewer's view is built once a refresh
        acting = self._acting_now
        # The seat that acted first: its player is looking at its screen.
        first = ({acting: self._display(acting, views)}
                 if isinstance(acting, int) and acting in range(self.seat_count) else {})
        buttons = self._buttons_of
        if screen_first and buttons is not None and buttons in range(len(self.devices)):
            first.setdefault(buttons, self._display(buttons, views))
            self._order.first(buttons, self._on_the_device(buttons, first[buttons]))
        self._displays = [first.get(seat) or self._display(seat, views)
                          for seat in range(self.seat_count)]
        self.nudges.follow(match.id if match else None, match.step() if match else "",
                           [d.led for d in self._displays], acting)
        self.bots.watch(match, views)
        self._payloads.rebuild(match, self._displays, views, AroundTheMatch(
            seat_count=self.seat_count, names=tuple(self.bots.named(self.access.names())),
            claimed=frozenset(self._claimed),
            open_codes=frozenset(s for s in range(self.seat_count) if self.code_is_public(s)),
            pods=tuple(self.pod_report() if self.pod_report else ()),
            night=self.night.payload(), timer=self.timekeeper.shown(), nudges=self.nudges,
            damage=tuple(self.notes.damage or ()),
            faults=tuple(self.seat_faults() if self.seat_faults else ()),
            bots=tuple(self.bots.payload(self._displays)),
            pieces=self.bots.pieces(match, acting)))

    def _show(self) -> None:
        """Show the built change: the phones and pages, then the seat screens, in the
        order :class:`DrawingOrder` keeps. Then the night's file gets a match that has
        just ended (:meth:`_after`). Callers hold the table lock."""
        self._order.rest(self._on_the_devices(), acting=self._acting_now)
        self.night.save()
        self.bots.follow(self.match)  # a bot whose turn began starts thinking

    def _on_the_device(self, index: int, display: Display) -> Shown:
        """What seat ``index``'s device shows for ``display``: the display with the
        step timer, or its join code. Callers hold the table lock."""
        if (index not in self._claimed and not self.bots.sits(index)) or \
                index in self._showing_code:
            return self.join_url(index)
        shown = self._on_the_screen(index, display)
        face = self.timekeeper.face()
        if face:
            # The last seconds blink the lights of the seats still to act.
            blinking = self.timekeeper.blinking()
            led = "blink" if blinking and display.led == "on" else display.led
            shown = _with(display, timer=face, led=led)
        return shown

    def _on_the_screen(self, seat: int, display: Display) -> Display:
        """What only the seat's own screen adds to its display: seat 1's screen holds
        the host PIN behind a held select. It is never in a display or a payload, so
        no phone, page or stream carries it, whoever holds seat 1 (docs/security.md,
        "The host")."""
        if seat != 0 or self.pin is None:
            return display
        hint = ("Hold select: host PIN",) if self.match is None else ()
        pin = (f"Host PIN {self.pin.pin}",)
        return _with(display, lines=display.lines + hint, private=display.private + pin,
                     short_private=display.short_private + pin if display.short_private else ())

    def _on_the_devices(self) -> dict[int, Shown]:
        """Seat -> what its device shows now, for every seat that has a device."""
        return {index: self._on_the_device(index, display)
                for index, display in enumerate(self._displays[:len(self.devices)])}

    def _timer_tick(self, at_zero: bool) -> None:
        """A second of the step timer went by: the seats' screens show it. At zero the
        payloads say so too (the phones count down by themselves until then)."""
        if at_zero:
            self.refresh()
            return
        with self._lock:
            if self._displays:
                self._order.screens(self._on_the_devices())

    def _time_up(self, key: str) -> None:
        """The step timer ``key`` ran out: the timekeeper makes the step's ending move."""
        with self._lock:
            match = self.match
            if match is None or self._closed:  # (the clock's call raced ``close``)
                return
            try:
                if not match.time_up(key):
                    return
            except ActionRejected as exc:  # the step moved on meanwhile
                log.info("timer %s: %s", key, exc.code)
                return
            log.info("match %s: time is up (%s)", match.id, key)
            self._after(match)
            self.refresh()

    def _after(self, match: Match) -> None:
        """A change was applied to ``match``: a finished match goes to the night's
        standings (the journal marked it over with the change itself,
        ``Match._write``). The night's file gets it once the phones were told
        (``_publish``): a restart before that finds it in the journal again
        (:meth:`_record_missing`)."""
        if match.is_over:
            self.night.record(match, save=False)

    def twin(self, match: Match, journal: Journal) -> "Table":
        """A copy of this table playing ``match`` instead (a fork of this one, perhaps
        re-dealt: ``Match.redealt``), with no seats and no hub, writing to ``journal``;
        its payloads rebuilt from that match. The re-deal test (tests/reliability)
        compares what a viewer is sent by both: it must be the same."""
        with self._lock:
            twin = copy.copy(self)
            twin.devices, twin.hub, twin.journal = [], None, journal
            twin._order = DrawingOrder([], None, background=False)
            twin._lock = threading.RLock()
            twin.match = match
            twin._claimed = set(self._claimed)
            twin._claimed_tonight = set(self._claimed_tonight)
            twin._showing_code = set(self._showing_code)
            twin._last_error = dict(self._last_error)
            twin._payloads = self._payloads.copy()
            twin.timekeeper, twin._owns_timer_clock = self.timekeeper.copy(), False
            twin.nudges = self.nudges.copy()
            twin.bots = self.bots.copy(twin._lock, lambda: twin.match, twin.submit)
        twin.refresh()
        return twin

    def close(self) -> None:
        """Close the seats, the journal and the seat access file (idempotent)."""
        self.bots.close()  # its worker process too
        self._order.close()
        self.timekeeper.close()
        clock = self.timekeeper.clock
        if self._owns_timer_clock and isinstance(clock, MonotonicClock):  # always, if owned
            clock.close()
        with self._lock:
            self._closed = True
            for device in self.devices:
                device.close()
            self.journal.close()
            self.access.close()
            self.night.close()
            self.notes.close()


def _hosts_word(match: Match, display: Display) -> Display:
    """A paused or ended match says so on every seat, in place of its turn: no choices,
    no LED (the seat's private lines stay behind a held select)."""
    if match.step() == "ended":
        return _with(display, title="Match ended", choices=(), led="off",
                     lines=("The match has ended:", "the host ended it."))
    if match.is_paused and not match.is_over:
        return _line_first(_with(display, choices=(), led="off"), "Paused by the host")
    return display


def _line_first(display: Display, line: str) -> Display:
    """``display`` with ``line`` above its lines, on the phone and the seat's screen."""
    return _with(display, lines=(line,) + display.lines,
                 short_lines=(line,) + display.short_lines if display.short_lines else ())


#: A display with some fields changed (the timer and every other field kept).
_with = dataclasses.replace


def _chart_match(history: list[list[float]], match: Match) -> None:
    """Add ``match``'s scores, as it stands, to ``history`` (a resumed match's chart)."""
    chart(history, match.summary())
