"""The table runtime: the one place where inputs become engine actions.

Button callbacks (on gpiozero's threads), web requests and, later, serial pods all call
:meth:`Table.submit` or :meth:`Table.press`; a single lock turns them into engine actions
one at a time. After every change the table redraws each seat from that seat's display
model and tells the live hub, whose streams each build their own filtered payload.

Between matches the table runs a small lobby of its own on the seats' screens: seat 1
picks a game and the number of players with its buttons, so a group needs no phone to
start playing.
"""
from __future__ import annotations

import logging
import secrets
import threading
from typing import Any, Callable, Protocol, Sequence

import companion.games
from companion.engine import HOST, Choice, Display, Journal, Match
from companion.engine.rules import Actor
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
                 hub: Listener | None = None, clock=None):
        self.journal = journal
        self.devices = list(seats)
        self.seat_count = seat_count or len(self.devices) or 4
        self.base_url = base_url.rstrip("/")
        self.hub = hub
        self.clock = clock
        self.match: Match | None = None
        self._lock = threading.RLock()
        self._tokens = {secrets.token_urlsafe(16): s for s in range(self.seat_count)}
        self._claimed: set[int] = set()
        self._lobby_game: str | None = None
        self._last_error: dict[int, str] = {}
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
                try:
                    loaded = self.journal.load(match_id, companion.games.get, self.clock)
                except (JournalError, MutinyError) as exc:
                    log.error("cannot resume match %s: %s", match_id, exc)
                    continue
                if loaded.is_over:
                    self.journal.finish(match_id)
                    loaded = None
            if loaded is not None:
                self.match = loaded
                self._claimed = set(range(self.seat_count))  # players are seated already
                log.info("resumed %s match %s at version %d", loaded.game.spec.id,
                         loaded.id, loaded.version)
            self.refresh()
            return loaded

    def start(self, game_id: str, players: int | None = None,
              options: dict[str, Any] | None = None, names: list[str] | None = None,
              seed: str | None = None) -> Match:
        """Start a new match on this table (the previous one, if any, is left as it is)."""
        game = companion.games.get(game_id)
        players = players or min(game.spec.max_seats, self.seat_count)
        if players > self.seat_count:
            raise ActionRejected("bad_seats", f"this table has {self.seat_count} seats")
        with self._lock:
            self.match = Match.create(game, players, options, seed=seed, names=names,
                                      clock=self.clock, journal=self.journal)
            self._lobby_game = None
            self.refresh()
            return self.match

    # -- acting -------------------------------------------------------------------------
    def submit(self, actor: Actor, action: Any, version: int | None = None) -> int:
        """Apply one action from a phone, the host or a seat; returns the new version.

        ``version``, when given, is the match version the sender saw: an action sent
        against an older one is refused as stale rather than applied to a match that
        has moved on.
        """
        with self._lock:
            match = self._current()
            if version is not None and version != match.version:
                raise ActionRejected("stale", "the match has moved on; look again and retry")
            match.apply(actor, action)
            if match.is_over:
                self.journal.finish(match.id)
            self.refresh()
            return match.version

    def press(self, seat: int, action: dict[str, Any]) -> None:
        """A seat's buttons confirmed a choice. Errors go to that seat's screen."""
        with self._lock:
            self._last_error.pop(seat, None)
            try:
                if action.get("type", "").startswith("lobby_"):
                    self._lobby(seat, action)
                elif self._offered(seat, action):
                    self.submit(seat, action)
                else:
                    raise ActionRejected("stale", "that choice is gone; look again")
            except ActionRejected as exc:
                self._last_error[seat] = exc.message
                log.info("seat %d: %s rejected: %s", seat + 1, action.get("type"), exc.code)
            self.refresh()

    def claim(self, seat: int) -> None:
        """The seat has a player (a button was pressed, or a phone joined)."""
        with self._lock:
            if seat not in self._claimed:
                self._claimed.add(seat)
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
            if self.match is None:
                return self._lobby_display(seat)
            if seat >= self.match.seats:
                return Display(title="Not playing", lines=("This seat sits out",
                                                           "this match."))
            display = self.match.display(seat)
            if self.match.is_over and seat == 0:
                back = Choice("New match", {"type": LOBBY_BACK})
                display = Display(display.title, display.lines, display.choices + (back,),
                                  display.private, display.led, display.extra)
            error = self._last_error.get(seat)
            if error:
                display = Display(display.title, (f"! {error}",) + display.lines,
                                  display.choices, display.private, display.led,
                                  display.extra)
            return display

    def join_url(self, seat: int) -> str:
        token = next(t for t, s in self._tokens.items() if s == seat)
        return f"{self.base_url}/seat/{token}"

    def seat_for_token(self, token: str) -> int | None:
        return self._tokens.get(token)

    def is_claimed(self, seat: int) -> bool:
        return seat in self._claimed

    def refresh(self) -> None:
        """Redraw every seat and wake every live stream."""
        with self._lock:
            for index, device in enumerate(self.devices):
                if index in self._claimed:
                    device.show(self.display(index))
                else:
                    device.show_qr(self.join_url(index))
        if self.hub is not None:
            self.hub.publish()

    # -- the lobby ----------------------------------------------------------------------
    def _lobby_display(self, seat: int) -> Display:
        if seat != 0:
            return Display(title="Mutiny Table", lines=("Waiting for seat 1", "to pick a game."))
        if self._lobby_game is None:
            choices = tuple(Choice(g.spec.title, {"type": LOBBY_GAME, "game": gid})
                            for gid, g in companion.games.GAMES.items()
                            if g.spec.min_seats <= self.seat_count)
            return Display(title="Pick a game", lines=("Which game tonight?",),
                           choices=choices, led="on")
        spec = companion.games.get(self._lobby_game).spec
        top = min(spec.max_seats, self.seat_count)
        choices = tuple(Choice(f"{n} players", {"type": LOBBY_PLAYERS, "players": n})
                        for n in range(spec.min_seats, top + 1))
        back = Choice("Back", {"type": LOBBY_BACK})
        return Display(title=spec.title[:20], lines=("How many players?",),
                       choices=choices + (back,), led="on")

    def _lobby(self, seat: int, action: dict[str, Any]) -> None:
        if seat != 0:
            raise ActionRejected("not_your_turn", "seat 1 picks the game")
        kind = action["type"]
        if kind == LOBBY_BACK:
            if self.match is not None and not self.match.is_over:
                raise ActionRejected("not_now", "a match is being played")
            self.match = None
            self._lobby_game = None
        elif self.match is not None:
            raise ActionRejected("not_now", "a match is being played")
        elif kind == LOBBY_GAME:
            self._lobby_game = companion.games.get(str(action.get("game"))).spec.id
        elif kind == LOBBY_PLAYERS and self._lobby_game:
            self.start(self._lobby_game, int(action["players"]))
        else:
            raise ActionRejected("not_now", "that is not possible now")

    def close(self) -> None:
        """Close the seats and the journal (idempotent)."""
        with self._lock:
            for device in self.devices:
                device.close()
            self.journal.close()
