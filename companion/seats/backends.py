"""Open a table's seats on real hardware (``pi``) or on simulated hardware (``sim``).

Both backends run the same code: gpiozero buttons and LEDs, the page-diffing SSD1306
driver, TCA9548A channel selection. They differ only at the very bottom:

=========  ===============================  ========================================
backend    pins                             screens
=========  ===============================  ========================================
``pi``     gpiozero's default pin factory   luma ``i2c(port=bus, address=address)``
``sim``    gpiozero ``MockFactory`` pins    ``CountingInterface`` (models the panel)
=========  ===============================  ========================================

``SimTable`` adds ``press``/``release``/``click``/``hold`` (which drive the mock pins, so
tests and the web ``/sim`` page go through the very same debounce and seat logic),
``led(i)`` and ``frame(i)``, the image the simulated panel holds, read back from its
modelled display RAM, and ``put_fault``/``lift_fault`` (:mod:`.simfaults`).

A part that does not answer never stops the table from opening: the seat starts with its
screen down, and the table's ``watch`` (:class:`.health.SeatWatch`) takes it back when it
answers.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from PIL import Image

from companion.clocks import Clock, ManualClock, MonotonicClock
from companion.errors import SeatError

from .buttons import ROLES, SeatButtons
from .config import SeatConfig, TableConfig, check_buses, i2c_bus_exists, i2c_root_bus
from .health import SeatWatch
from .interfaces import CountingInterface, MuxBus, SMBusLike
from .pods import PodManager, PodSeat
from .seat import Seat
from .simfaults import ShortedButtonPin, SimFault, SimMuxBus
from .ssd1306 import PageDiffSSD1306

log = logging.getLogger(__name__)

BACKENDS = ("pi", "sim")


def default_backend() -> str:
    """``pi`` on a Raspberry Pi, else ``sim``."""
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return "sim"
    return "pi" if "Raspberry Pi" in model else "sim"


class RecordingBus:
    """An SMBus stand-in for the simulator and tests: records multiplexer writes."""

    def __init__(self, log: list[tuple[str, Any]] | None = None, *, keep: bool = True):
        self.writes: list[tuple[int, int]] = []
        self._log = log
        self._keep = keep
        self.count = 0
        self.closed = False

    def write_byte(self, i2c_addr: int, value: int) -> None:
        self.count += 1
        if self._keep:
            self.writes.append((i2c_addr, value))
        if self._log is not None:
            self._log.append(("mux", (i2c_addr, value)))

    def close(self) -> None:
        self.closed = True


class TableHardware:
    """The seats of one table, opened together and closed together.

    Indexable like a list (``table[0]`` is seat 1); ``close()`` is idempotent.
    """

    backend = "pi"

    def __init__(self, config: TableConfig, seats: list[Seat], clock: Clock,
                 buses: list[MuxBus], owns_clock: bool, pods: PodManager | None = None):
        self.config = config
        self.seats = seats
        self.clock = clock
        #: The seat pods' manager (None without pod seats): ``pods.report()``.
        self.pods = pods
        self._buses = buses
        self._owns_clock = owns_clock
        self._closed = False
        #: Takes back screens that answer again and lists what does not answer (its
        #: thread runs once ``watch.start()`` is called: ``mutiny serve`` does).
        self.watch = SeatWatch(seats, config.seats)

    def faults(self) -> list[dict[str, Any]]:
        """Each part that does not answer now (or a stuck button), as plain dicts: seat,
        part and the words the pages show (:class:`.health.PartFault`)."""
        return [fault.to_dict() for fault in self.watch.faults()]

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, index: int) -> Seat:
        return self.seats[index]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def frame(self, seat_index: int) -> Image.Image:
        """The image seat ``seat_index`` (0-based) shows now."""
        return self.seats[seat_index].frame()

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def shows_secret(self, seat_index: int) -> bool:
        """Does seat ``seat_index``'s screen show one of its secrets right now?"""
        return self.seats[seat_index].is_showing_secret

    def led(self, seat_index: int) -> str:
        """Seat ``seat_index``'s LED as its display asks for it: on, blink or off."""
        return self.seats[seat_index].led_state

    def tick(self) -> None:
        """Call every seat's ``tick()`` (timers run by themselves; this is a safety net)."""
        for seat in self.seats:
            seat.tick()

    @property
    def is_closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close every seat, then the buses and the clock. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self.watch.close()
        for seat in self.seats:
            seat.close()
        if self.pods is not None:
            self.pods.close()
        for bus in self._buses:
            bus.close()
        if self._owns_clock:
            close = getattr(self.clock, "close", None)
            if close:
                close()

    def __enter__(self) -> "TableHardware":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SimTable(TableHardware):
    """A simulated table: mock pins to drive, modelled panels to read back."""

    backend = "sim"

    def __init__(self, config: TableConfig, seats: list[Seat], clock: Clock,
                 buses: list[MuxBus], owns_clock: bool, pin_factory: Any,
                 panels: list[CountingInterface], faults: Sequence[SimFault] = (),
                 mux_buses: dict[int, SimMuxBus] | None = None):
        super().__init__(config, seats, clock, buses, owns_clock)
        self.pin_factory = pin_factory
        self.panels = panels
        self._driven: dict[int, float] = {}  # pin -> monotonic time it was last driven
        self._faults: list[SimFault] = list(dict.fromkeys(faults))
        self._mux_buses = mux_buses or {}  # bus number -> its modelled multiplexers' bus

    def pin(self, seat_index: int, button: str) -> Any:
        """The ``MockPin`` behind a seat's ``previous``/``select``/``next`` button."""
        if button not in ROLES:
            raise ValueError(f"no button {button!r}; buttons are {', '.join(ROLES)}")
        pins = self.config.seats[seat_index].buttons
        assert pins is not None  # the sim backend refuses pod seats
        return self.pin_factory.pin(getattr(pins, button))

    def led_pin(self, seat_index: int) -> Any | None:
        """The ``MockPin`` of a seat's LED (None if it has none)."""
        led = self.config.seats[seat_index].led
        return None if led is None else self.pin_factory.pin(led)

    def press(self, seat_index: int, button: str = "select") -> None:
        """Push a button down (it stays down until ``release()``).

        A level counts once it has lasted the debounce time: with a ``ManualClock``
        the clock then moves past it; with the real clock a ``release()`` right after
        waits until the press has lasted that long (a simulated finger never glitches).
        """
        self._drive(seat_index, button, "drive_low")

    def release(self, seat_index: int, button: str = "select") -> None:
        """Let a button go (the same debounce note as ``press()``)."""
        self._drive(seat_index, button, "drive_high")

    def _drive(self, seat_index: int, button: str, level: str) -> None:
        pin = self.pin(seat_index, button)
        if self._shorted(seat_index, button):
            return  # shorted to ground: neither a finger nor the pull-up moves it
        if not isinstance(self.clock, ManualClock):
            last = self._driven.get(id(pin))
            stable = self.config.bounce_ms / 1000 + 0.005
            if last is not None and time.monotonic() - last < stable:
                time.sleep(stable - (time.monotonic() - last))
            self._driven[id(pin)] = time.monotonic()
        getattr(pin, level)()
        self._settle()

    def click(self, seat_index: int, button: str = "select") -> None:
        """A short press: ``press()`` then ``release()``."""
        self.press(seat_index, button)
        self.release(seat_index, button)

    def hold(self, seat_index: int, button: str = "select") -> None:
        """Push a button down and keep it down; with a ``ManualClock`` the clock moves on
        by ``hold_time`` so the hold has happened on return (otherwise it happens by
        itself ``hold_time`` later). ``release()`` ends it."""
        self.pin(seat_index, button).drive_low()
        if isinstance(self.clock, ManualClock):
            self.clock.advance(self.config.hold_time + 0.001)

    def advance(self, seconds: float) -> None:
        """Move a ``ManualClock`` on (timers fire); refused on the real clock."""
        if not isinstance(self.clock, ManualClock):
            raise SeatError("advance() needs a table opened with clock=ManualClock()")
        self.clock.advance(seconds)

    def frame(self, seat_index: int) -> Image.Image:
        """What seat ``seat_index``'s simulated panel holds, upright, read back from the
        modelled display RAM (so it proves the driver, not just the drawing)."""
        panel = self.panels[seat_index]
        with self.seats[seat_index].device.lock:  # never half of one frame, half the next
            image = panel.shown()  # a panel without power or init shows nothing
        screen = self.config.seats[seat_index].screen
        rotation = screen.rotation if screen is not None else 0
        if rotation:
            image = image.rotate(rotation * 90, expand=True)
        return image

    # -- faults (companion/seats/simfaults.py) --------------------------------------------
    @property
    def sim_faults(self) -> list[SimFault]:
        """The faults put in now, in the order they were."""
        return list(self._faults)

    def put_fault(self, kind: str, seat: int, role: str = "select") -> SimFault:
        """Put a fault into seat ``seat`` (its number, from 1): ``screen-missing``,
        ``mux-missing`` or ``button-stuck`` (``role``'s button). Idempotent."""
        fault = self._fault(kind, seat, role)
        if fault not in self._faults:
            self._faults.append(fault)
            self._apply(fault, True)
        return fault

    def lift_fault(self, kind: str, seat: int, role: str = "select") -> bool:
        """Take a fault out again (False if it was not put in): a screen is powered
        again, a multiplexer answers again, a button comes up. The seat watch then finds
        the part answering (``watch.check()``, or its thread)."""
        fault = self._fault(kind, seat, role)
        if fault not in self._faults:
            return False
        self._faults.remove(fault)
        self._apply(fault, False)
        return True

    def _fault(self, kind: str, seat: int, role: str) -> SimFault:
        fault = SimFault.parse(f"{kind}:{seat}:{role if kind == 'button-stuck' else ''}")
        if not 1 <= fault.seat <= len(self.seats):
            raise ValueError(f"there is no seat {fault.seat} (seats 1-{len(self.seats)})")
        return fault

    def _apply(self, fault: SimFault, on: bool) -> None:
        index = fault.seat - 1
        if fault.kind == "screen-missing":
            panel = self.panels[index]
            panel.lose_power() if on else panel.restore_power()
        elif fault.kind == "mux-missing":
            screen = self.config.seats[index].screen
            assert screen is not None and screen.mux is not None
            dead = self._mux_buses[screen.bus].dead
            dead.add(screen.mux) if on else dead.discard(screen.mux)
        else:
            pin = self.pin(index, fault.role)
            if on:
                pin.drive_low()
                self._settle()
            else:
                pin.shorted = False  # (a pin shorted since the start)
                pin.drive_high()
                self._settle()

    def _shorted(self, seat_index: int, button: str) -> bool:
        return SimFault("button-stuck", seat_index + 1, button) in self._faults

    def _settle(self) -> None:
        if isinstance(self.clock, ManualClock):
            self.clock.advance(self.config.bounce_ms / 1000 + 0.001)


def open_seats(config: TableConfig, backend: str | None = None, *,
               clock: Clock | None = None, pin_factory: Any = None,
               i2c: Callable[[int, int], Any] | None = None,
               smbus: Callable[[int], SMBusLike] | None = None,
               bus_exists: Callable[[int], bool] | None = None,
               pods: PodManager | None = None,
               sim_faults: Sequence[str | SimFault] = ()) -> TableHardware:
    """Open every seat of ``config``; returns a ``SimTable`` for ``sim``.

    ``backend`` defaults to ``default_backend()``. The keyword arguments replace parts
    for tests: ``clock`` (e.g. ``ManualClock()``), ``pin_factory`` (gpiozero), ``i2c``
    (``(bus, address) -> luma interface``), ``smbus`` (``bus -> object with
    write_byte``, for multiplexers), ``bus_exists`` (``pi`` only) and ``pods`` (the
    ``PodManager`` for pod seats; by default one that scans USB). The table owns the
    manager from then on and closes it with the seats.

    Pod seats (``pod = "<id>"``) need ``pi``: a pod is a real USB device, and a table of
    pods alone runs on any Linux machine. ``sim`` refuses them.

    A screen (or multiplexer) that does not answer is no error: its seat opens with the
    screen down (``Seat.screen_error``) for the ``watch`` to take back. ``sim_faults``
    (``sim`` only) are faults in place from the start, ``"screen-missing:3"`` or
    ``SimFault``s (:mod:`.simfaults`).
    """
    backend = backend or default_backend()
    faults = _checked_faults(config, backend, sim_faults)
    owns_clock = clock is None
    clock = clock or MonotonicClock()
    wiring: _SimWiring | None = None
    root_bus: Callable[[int], int]
    if backend == "sim":
        wiring = _SimWiring(config, faults, pin_factory)
        pin_factory = wiring.pin_factory
        i2c, smbus = i2c or wiring.i2c, smbus or wiring.smbus
        root_bus = int  # simulated buses are what the config says
    else:
        check_buses(config, bus_exists or i2c_bus_exists)
        i2c, smbus, root_bus = i2c or _luma_i2c, smbus or _smbus2, i2c_root_bus
    if any(seat.pod is not None for seat in config.seats):
        pods = pods or PodManager()
    else:
        pods = None
    buses: dict[int, MuxBus] = {}
    seats: list[Seat] = []
    try:
        for seat_config in config.seats:
            if seat_config.pod is not None:
                assert pods is not None
                seats.append(_open_pod_seat(seat_config, config, clock, pods))
            else:
                seats.append(_open_seat(seat_config, config, clock, pin_factory, i2c, smbus,
                                        buses, root_bus))
    except BaseException:
        # Half a table is no table: close what opened (pins, pods, buses) and say why.
        for opened in seats:
            opened.close()
        if pods is not None:
            pods.close()
        for bus in buses.values():
            bus.close()
        if owns_clock:
            clock.close()  # type: ignore[attr-defined]
        raise
    if wiring is not None:
        return SimTable(config, seats, clock, list(buses.values()), owns_clock,
                        wiring.pin_factory, wiring.panels, faults, wiring.mux_buses)
    if pods is not None:
        pods.start()  # the seats are ready for their pods' button events
    return TableHardware(config, seats, clock, list(buses.values()), owns_clock, pods)


def _checked_faults(config: TableConfig, backend: str,
                    sim_faults: Sequence[str | SimFault]) -> list[SimFault]:
    """The backend and the faults to put in, checked before anything opens."""
    if backend not in BACKENDS:
        raise SeatError(f"unknown seat backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if backend == "sim":
        for seat in config.seats:
            if seat.pod is not None:
                raise SeatError(
                    f"seat {seat.number} uses pod '{seat.pod}', and the sim backend simulates "
                    "wired seats only. Fix: use the pi backend (--backend pi; a table of pods "
                    "alone runs off a Raspberry Pi too), or give the seat buttons and a screen")
    faults = [f if isinstance(f, SimFault) else SimFault.parse(f) for f in sim_faults]
    if faults and backend != "sim":
        raise SeatError("faults are put into the simulated table only (--backend sim)")
    for fault in faults:
        if not 1 <= fault.seat <= len(config.seats):
            raise SeatError(f"fault {fault.kind}:{fault.seat}: there is no seat {fault.seat} "
                            f"(seats 1-{len(config.seats)})")
    return faults


class _SimWiring:
    """The simulated table's parts as its seats open them: gpiozero's ``MockFactory``
    (unless a test brings its own), a modelled panel per screen and a modelled
    multiplexer per bus, with the faults that are in place from the start."""

    def __init__(self, config: TableConfig, faults: list[SimFault], pin_factory: Any = None):
        self.config = config
        self.faults = faults
        if pin_factory is None:
            from gpiozero.pins.mock import MockFactory, MockPWMPin
            pin_factory = MockFactory(pin_class=MockPWMPin)  # PWM so PWMLEDs work too
        self.pin_factory = pin_factory
        self.panels: list[CountingInterface] = []  # in seat order: panel i is seat i + 1's
        self.mux_buses: dict[int, SimMuxBus] = {}
        _short_stuck_buttons(config, faults, pin_factory)

    def i2c(self, bus: int, address: int) -> CountingInterface:
        """The next seat's panel (powered off if its screen is missing)."""
        self.panels.append(CountingInterface())
        if SimFault("screen-missing", len(self.panels)) in self.faults:
            self.panels[-1].lose_power()
        return self.panels[-1]

    def smbus(self, bus: int) -> SimMuxBus:
        """Bus ``bus``'s multiplexer, its missing channels dead."""
        self.mux_buses[bus] = SimMuxBus()
        self.mux_buses[bus].dead = {s.screen.mux for s in self.config.seats
                                    if s.screen is not None and s.screen.mux is not None
                                    and s.screen.bus == bus
                                    and SimFault("mux-missing", s.number) in self.faults}
        return self.mux_buses[bus]


def _open_pod_seat(seat: SeatConfig, config: TableConfig, clock: Clock,
                   pods: PodManager) -> PodSeat:
    assert seat.pod is not None
    binding = pods.bind(seat.pod, seat.number, hold_ms=round(config.hold_time * 1000),
                        bounce_ms=round(config.bounce_ms), contrast=config.contrast)
    return PodSeat(seat.number, binding, clock=clock, dim_after=config.dim_after,
                   browse_timeout=config.browse_timeout, contrast=config.contrast,
                   dim_contrast=config.dim_contrast, name=seat.name)


def _open_seat(seat: SeatConfig, config: TableConfig, clock: Clock, pin_factory: Any,
               i2c: Callable[[int, int], Any], smbus: Callable[[int], SMBusLike],
               buses: dict[int, MuxBus], root_bus: Callable[[int], int]) -> Seat:
    assert seat.buttons is not None and seat.screen is not None
    device = _open_screen(seat, i2c, smbus, buses)
    led = buttons = None
    try:
        buttons = SeatButtons(seat.buttons.previous, seat.buttons.select, seat.buttons.next,
                              pin_factory=pin_factory, bounce_ms=config.bounce_ms,
                              hold_time=config.hold_time, clock=clock)
        if seat.led is not None:
            led = _open_led(seat, pin_factory)
        return Seat(seat.number, buttons, device, led, clock=clock,
                    dim_after=config.dim_after, browse_timeout=config.browse_timeout,
                    contrast=config.contrast, dim_contrast=config.dim_contrast,
                    name=seat.name, i2c_bus=root_bus(seat.screen.bus))
    except BaseException:
        if buttons is not None:
            buttons.close()
        if led is not None:
            led.close()
        device.cleanup()
        raise


def _open_screen(seat: SeatConfig, i2c: Callable[[int, int], Any],
                 smbus: Callable[[int], SMBusLike], buses: dict[int, MuxBus]) -> PageDiffSSD1306:
    screen = seat.screen
    assert screen is not None
    interface = None
    try:
        interface = i2c(screen.bus, screen.address)
        if screen.mux is not None and screen.channel is not None:
            if screen.bus not in buses:
                buses[screen.bus] = MuxBus(smbus(screen.bus), owns_bus=True)
            interface = buses[screen.bus].channel(interface, screen.mux, screen.channel)
        # A panel that does not answer is the seat's screen down, not the table's end.
        return PageDiffSSD1306(interface, rotate=screen.rotation, missing_ok=True)
    except Exception as exc:  # luma and smbus2 raise OSError and errors of their own
        if interface is not None:
            try:
                interface.cleanup()
            except Exception:  # the first error is the one worth reporting
                pass
        raise _screen_error(seat, exc) from exc


def _screen_error(seat: SeatConfig, exc: Exception) -> SeatError:
    screen = seat.screen
    assert screen is not None
    where = f"seat {seat.number}'s screen ({screen.describe()})"
    if isinstance(exc, PermissionError) or "permission" in str(exc).lower():
        return SeatError(f"{where}: permission denied ({exc}). Fix: add the user to the "
                         "i2c group (sudo adduser $USER i2c) and log in again")
    return SeatError(f"{where} does not answer ({exc}). Fix: check its four wires and run "
                     f"`i2cdetect -y {screen.bus}` (with the mux channel selected if it "
                     "sits behind one)")


def _short_stuck_buttons(config: TableConfig, faults: Sequence[SimFault],
                         pin_factory: Any) -> None:
    """Buttons stuck from the start: their pins shorted to ground before they open."""
    for fault in faults:
        buttons = config.seats[fault.seat - 1].buttons
        if fault.kind == "button-stuck" and buttons is not None:
            pin_factory.pin(getattr(buttons, fault.role),
                            pin_class=ShortedButtonPin).drive_low()


def _open_led(seat: SeatConfig, pin_factory: Any) -> Any:
    from gpiozero import LED, PWMLED
    try:
        return (PWMLED if seat.led_pwm else LED)(seat.led, pin_factory=pin_factory)
    except Exception as exc:
        raise SeatError(f"cannot open seat {seat.number}'s LED on GPIO{seat.led}: {exc}") from exc


def _luma_i2c(bus: int, address: int) -> Any:
    from luma.core.interface.serial import i2c
    return i2c(port=bus, address=address)


def _smbus2(bus: int) -> SMBusLike:
    import smbus2
    return smbus2.SMBus(bus)
