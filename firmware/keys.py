"""A pod's three buttons on pin interrupts: debounced edges, then press, hold, release.

Each button closes its pin to ground (pull-up, so 0 means pressed). The interrupt
handler only notes the time and the level it reads; the main loop turns the notes into
events by the Pi's rule for wired buttons (companion/seats/buttons.py): a change of level
counts only once the new level has lasted ``bounce_ms`` without another edge, and it
counts from its edge. A spike on a long lead (10 us to a few ms) is then never a press,
and a bouncing contact gives one press when it settles.

MicroPython runs a pin handler a little after its edge (it is scheduled, not run in the
interrupt itself), so a spike may be over before its handler reads the pin, and a burst
of edges can lose a handler call. The main loop therefore also reads each pin every
round: a level the notes did not foresee is a new edge at that moment, as on the Pi
when its timer finds the pin moved without an edge.

A hold is due ``hold_ms`` after the press's edge, unless the button was released before
that (a release still in doubt holds the hold back until it is decided). Events come
out in the order of their edges, so an early press decided late still comes before a
later hold. Because times come from the interrupts, a main loop held up (a slow screen,
a busy USB port) still orders and times every edge right, and no press is missed.
"""
PRESS, HOLD, RELEASE = 0, 1, 2
MAX_EDGES = 64  # a wildly bouncing contact must not eat the heap


class Keys:
    """``pins``: three input pins (previous, select, next) with ``irq()`` and ``value()``.

    ``clock`` gives ``raw()`` (a value the interrupt handler may take) and ``at(raw)``
    (that value on the main loop's millisecond scale).
    """

    def __init__(self, pins, clock, hold_ms: int = 600, bounce_ms: int = 30):
        self.pins = pins
        self.clock = clock
        self.hold_ms = hold_ms
        self.bounce_ms = bounce_ms
        self.edges = []  # (raw time, button, pressed), appended by the handlers
        self.overflow = 0
        count = len(pins)
        self.down = [pin.value() == 0 for pin in pins]  # the debounced level
        self.pending = [None] * count  # (pressed, since): a level not yet stable
        self.hold_due = [None] * count
        self.decided = []  # (time, button, kind) not handed out yet
        for index in range(count):
            pin = pins[index]
            # The pin's own constants: their values differ between ports (4 | 8 on rp2).
            pin.irq(handler=self._handler(index), trigger=pin.IRQ_FALLING | pin.IRQ_RISING)

    def _handler(self, index: int):
        pin, clock = self.pins[index], self.clock

        def on_edge(_pin):
            # self.edges, not a saved reference: events() swaps the list.
            if len(self.edges) < MAX_EDGES:
                self.edges.append((clock.raw(), index, pin.value() == 0))
            else:
                self.overflow += 1
        return on_edge

    def configure(self, hold_ms: int, bounce_ms: int) -> None:
        """Take the table's hold and debounce times (its SETUP message)."""
        self.hold_ms = max(1, hold_ms)
        self.bounce_ms = bounce_ms

    def events(self, now: int) -> list:
        """The ``(button, kind)`` events decided up to ``now``, in the order they happened."""
        # Swap first: a handler running meanwhile appends to the list we now hold.
        edges, self.edges = self.edges, []
        for raw, index, pressed in edges:
            when = self.clock.at(raw)
            self._settle(when)  # what was stable long enough before this edge
            self.pending[index] = (pressed, when)
        self._read_pins(now)
        self._settle(now)
        return self._hand_out()

    def _read_pins(self, now: int) -> None:
        """A pin not at the level its notes lead to changed unnoted: an edge now."""
        for index in range(len(self.pins)):
            pressed = self.pins[index].value() == 0
            pending = self.pending[index]
            expected = self.down[index] if pending is None else pending[0]
            if pressed != expected:
                self.pending[index] = (pressed, now)

    def _settle(self, until: int) -> None:
        """Decide every level and hold that ``until`` makes certain."""
        for index in range(len(self.pins)):
            self._hold(index, until)  # before a release that comes after it
            pending = self.pending[index]
            if pending is not None and pending[1] + self.bounce_ms <= until:
                self.pending[index] = None
                self._change(index, pending[0], pending[1])
                self._hold(index, until)  # a press decided late may be due its hold too

    def _change(self, index: int, pressed: bool, when: int) -> None:
        if pressed == self.down[index]:
            return  # a spike, or bounce that settled where it started
        self.down[index] = pressed
        self.hold_due[index] = when + self.hold_ms if pressed else None
        self.decided.append((when, index, PRESS if pressed else RELEASE))

    def _hold(self, index: int, until: int) -> None:
        due = self.hold_due[index]
        if due is None or due > until:
            return
        pending = self.pending[index]
        if pending is not None and not pending[0] and pending[1] <= due:
            return  # released before the hold was due, if that release proves stable
        self.hold_due[index] = None
        self.decided.append((due, index, HOLD))

    def _hand_out(self) -> list:
        """Decided events older than any change still in doubt, oldest first."""
        doubt = None
        for index in range(len(self.pins)):
            pending = self.pending[index]
            if pending is not None and pending[0] != self.down[index]:
                if doubt is None or pending[1] < doubt:
                    doubt = pending[1]
        ready, waiting = [], []
        for event in self.decided:
            (ready if doubt is None or event[0] < doubt else waiting).append(event)
        self.decided = waiting
        ready.sort(key=lambda event: event[0])  # stable: a button's own stay in order
        return [(index, kind) for _, index, kind in ready]
