"""Twin matches on a real table: the secrecy rule of the seat, tested (docs/seats.md).

Two tables, each with its own simulated seats (gpiozero MockFactory buttons, modelled
SSD1306 panels, a fake clock), play the same match from the same seed. At a secret-
bearing step one of them makes the hidden move (or a different hidden choice) and the
other does not; then both come to rest and everything anyone at the table could
notice is compared byte for byte:

* every seat's OLED frame at rest, read back from the panel's display RAM, the acting
  seat's own included (its screen can be seen from the next chair);
* every seat's LED;
* every viewer's payload (the public table display, the host page, every seat's phone
  but the acting seat's own, which is private) and how many times it was pushed (its
  serial moves once per push): the step timer and the nudges (phones' buzz, the
  display's chime) are in the payloads, so they are compared too.

Each table's step timer runs on its seats' fake clock, so a test moves both on alike.

Moves are made with the seats' buttons alone (``Seat.presses_to_choose``), as a player
would make them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from companion.engine import HOST, PUBLIC, Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table

Wanted = Callable[[dict[str, Any]], bool]


def action_is(**fields: Any) -> Wanted:
    """A test for a choice's action: every given field equal."""
    return lambda action: all(action.get(k) == v for k, v in fields.items())


class Side:
    """One table of a twin pair: simulated seats, a journal, a fake clock."""

    def __init__(self, folder: Path, name: str, seats: int = 4):
        self.hardware = open_seats(sim_table_config(seats), "sim", clock=ManualClock())
        self.table = Table(Journal(folder / f"{name}.sqlite3"), list(self.hardware),
                           timer_clock=self.hardware.clock)
        for seat in range(seats):
            self.hardware.click(seat, "select")  # every seat claimed by a press

    @property
    def match(self):
        return self.table.match

    def start(self, game: str, players: int, options: dict[str, Any], seed: str) -> None:
        self.table.start(game, players, options=options, seed=seed)
        self.rest()

    def choose(self, seat: int, wanted: Wanted, presses: int | None = None) -> dict[str, Any]:
        """Make, with seat ``seat``'s buttons alone, the first choice ``wanted`` accepts;
        then let every screen come to rest. ``presses``: take as long as that many
        presses would (a twin reaching its choice in more presses), so that both tables
        act at the same moment of their clocks and their step timers stay alike."""
        device = self.hardware[seat]
        choices = device.display.choices
        plan = device.presses_to_choose(self._target(seat, wanted))
        if presses is not None:
            self.hardware.advance((presses - len(plan)) * self.click_time)
        for button in plan:
            self.hardware.click(seat, button)
        self.rest()
        return choices[self._target(seat, wanted, choices)].action

    def presses(self, seat: int, wanted: Wanted) -> int:
        """How many presses choosing ``wanted`` takes at seat ``seat``."""
        return len(self.hardware[seat].presses_to_choose(self._target(seat, wanted)))

    def _target(self, seat: int, wanted: Wanted, choices=None) -> int:
        choices = choices if choices is not None else self.hardware[seat].display.choices
        target = next((i for i, c in enumerate(choices) if wanted(c.action)), None)
        if target is None:
            raise AssertionError(f"seat {seat + 1} offers no such choice: "
                                 f"{[c.action for c in choices]}")
        return target

    @property
    def click_time(self) -> float:
        """How far a click moves the fake clock (a press and a release, each settling)."""
        return 2 * (self.hardware.config.bounce_ms / 1000 + 0.001)

    def offers(self, seat: int, wanted: Wanted) -> bool:
        return any(wanted(c.action) for c in self.hardware[seat].display.choices)

    def rest(self) -> None:
        """Let every seat's browsing end (the fake clock moves past its timeout)."""
        timeout = max(seat.browse_timeout for seat in self.hardware)
        self.hardware.advance(timeout + 1)

    def seen(self, *, private: Iterable[int] = ()) -> dict[str, Any]:
        """Everything the table could notice, by what it is: ``private`` seats' own
        payloads left out (the acting seat's phone is its own)."""
        out: dict[str, Any] = {}
        match_id = self.match.id if self.match else None
        for seat in range(len(self.hardware)):
            out[f"seat {seat + 1} OLED"] = self.hardware.frame(seat).tobytes()
            out[f"seat {seat + 1} LED"] = self.hardware[seat].led_state
            out[f"seat {seat + 1} screen text"] = _screen_text(self.hardware[seat])
        skip = set(private)
        for viewer in [PUBLIC, HOST, *range(len(self.hardware))]:
            if viewer in skip:
                continue
            serial, text = self.table.payload_text(viewer)
            if match_id:  # twin matches have ids of their own, of one length
                text = text.replace(match_id, "<match>")
            out[f"{viewer} pushes"] = serial
            out[f"{viewer} payload"] = text
        return out

    def close(self) -> None:
        self.table.close()
        self.hardware.close()


def _screen_text(seat) -> tuple:
    """What the seat's resting screen says, for a readable failure (the frame decides)."""
    display = seat.display
    if display is None:
        return ()
    return (seat.mode, display.title, display.lines, display.led)


class Twins:
    """Two tables playing the same match; ``both`` applies a step to each."""

    def __init__(self, folder: Path, game: str, players: int, options: dict[str, Any],
                 seed: str = "twins", seats: int | None = None):
        self.one = Side(folder, "one", seats or players)
        self.two = Side(folder, "two", seats or players)
        for side in self.sides:
            side.start(game, players, options, seed)

    @property
    def sides(self) -> tuple[Side, Side]:
        return self.one, self.two

    def both(self, seat: int, wanted: Wanted) -> None:
        self.apart(seat, wanted, wanted)

    def apart(self, seat: int, at_one: Wanted, at_two: Wanted) -> None:
        """Seat ``seat`` makes choice ``at_one`` at the first table and ``at_two`` at the
        second, both at the same moment of their clocks."""
        presses = max(self.one.presses(seat, at_one), self.two.presses(seat, at_two))
        self.one.choose(seat, at_one, presses)
        self.two.choose(seat, at_two, presses)

    def only_one(self, seat: int, wanted: Wanted) -> dict[str, Any]:
        """Seat ``seat`` makes a choice at the first table only; the second one's clock
        moves on alike (the step timers run on)."""
        presses = self.one.presses(seat, wanted)
        action = self.one.choose(seat, wanted)
        self.two.hardware.advance(presses * self.two.click_time)
        self.two.rest()
        return action

    def advance(self, seconds: float) -> None:
        """Time goes by at both tables."""
        for side in self.sides:
            side.hardware.advance(seconds)

    def until(self, done: Callable[[Any], bool], pick: Wanted = lambda action: True,
              limit: int = 300) -> None:
        """Play both tables on alike, the first acting seat making its first choice that
        ``pick`` accepts (else its first choice), until ``done(match)``."""
        for _ in range(limit):
            if done(self.one.match):
                assert done(self.two.match)
                return
            seat = self.one.match.acting()[0]
            offered = [c.action for c in self.one.hardware[seat].display.choices]
            wanted = next((a for a in offered if pick(a)), offered[0])
            self.both(seat, lambda action, wanted=wanted: action == wanted)
        raise AssertionError(f"not reached in {limit} moves: {self.one.match.step()}")

    def assert_same(self, *, private: Iterable[int] = ()) -> None:
        """Nobody but the ``private`` seats' own phones can tell the two tables apart."""
        private = tuple(private)
        one, two = self.one.seen(private=private), self.two.seen(private=private)
        differ = [key for key in one if one[key] != two[key]]
        assert not differ, "the table can tell the twins apart by: " + "; ".join(
            f"{key}: {_where(one[key], two[key])}" for key in differ)

    def close(self) -> None:
        for side in self.sides:
            side.close()


def _where(one: Any, two: Any) -> str:
    """Where two values part: sizes of frames, the first difference of texts."""
    if isinstance(one, bytes):
        return f"frames differ ({len(one)} / {len(two)} bytes)"
    one, two = str(one), str(two)
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b),
              min(len(one), len(two)))
    return f"...{one[max(0, at - 60):at + 60]!r} / ...{two[max(0, at - 60):at + 60]!r}"
