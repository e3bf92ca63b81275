"""A pod's three buttons on pin interrupts: debounced edges, then press, hold, release.

Each button closes its pin to ground (pull-up, so 0 means pressed). The interrupt
handler only notes the edge's time and level; the main loop turns the notes into events
with the same rules as the Pi's wired buttons (companion/seats/buttons.py): an edge
within ``bounce_ms`` of the last accepted edge is bounce, and when that window closes
the pin is read again, so a tap shorter than the window still ends in a release. A hold
is due ``hold_ms`` after an accepted press; because times come from the interrupts, a
main loop held up (a slow screen, a busy USB port) still orders and times every edge
right, and no press is missed.
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
        self.down = [pin.value() == 0 for pin in pins]
        self.last_edge = [None] * count
        self.hold_due = [None] * count
        self.recheck = [None] * count
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
        """The ``(button, kind)`` events that happened up to ``now``, in time order."""
        out = []
        # Swap first: a handler running meanwhile appends to the list we now hold.
        edges, self.edges = self.edges, []
        for raw, index, pressed in edges:
            when = self.clock.at(raw)
            self._holds(when, out)
            self._edge(index, when, pressed, out)
        self._rechecks(now, out)
        self._holds(now, out)
        return out

    def _edge(self, index: int, when: int, pressed: bool, out: list) -> None:
        last = self.last_edge[index]
        if last is not None and when - last < self.bounce_ms:
            if self.recheck[index] is None:
                self.recheck[index] = last + self.bounce_ms
            return
        self._accept(index, when, pressed, out)

    def _rechecks(self, now: int, out: list) -> None:
        for index in range(len(self.pins)):
            due = self.recheck[index]
            if due is not None and now >= due:
                self.recheck[index] = None
                self._holds(due, out)
                self._accept(index, due, self.pins[index].value() == 0, out)

    def _accept(self, index: int, when: int, pressed: bool, out: list) -> None:
        if pressed == self.down[index]:
            return
        self.down[index] = pressed
        self.last_edge[index] = when
        self.hold_due[index] = when + self.hold_ms if pressed else None
        out.append((index, PRESS if pressed else RELEASE))

    def _holds(self, when: int, out: list) -> None:
        for index in range(len(self.pins)):
            due = self.hold_due[index]
            if due is not None and when >= due:
                self.hold_due[index] = None
                out.append((index, HOLD))
