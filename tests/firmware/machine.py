"""A stand-in for MicroPython's ``machine`` module (the WebAssembly port has none).

Only what the pod firmware uses: ``Pin`` (with interrupts, and ``drive()`` for the
tests to move an input), ``I2C`` (recording every write) and ``unique_id()``. It runs
under CPython too, where the tests drive the same firmware code.
"""


class Pin:
    IN, OUT = 0, 1
    PULL_UP = 1
    IRQ_FALLING, IRQ_RISING = 1, 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.level = 1 if value else 0
        self.handler = None
        self.trigger = 0
        self.history = []  # every value() written, for LED checks

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)
        return None

    def irq(self, handler=None, trigger=3):
        self.handler = handler
        self.trigger = trigger

    def drive(self, level, irq=True):
        """The outside world moves an input pin; its interrupt fires on a real edge.

        ``irq=False``: the handler does not run now (MicroPython schedules it; it may run
        later, see ``interrupt()``, or be lost when a burst fills the scheduler's queue).
        """
        level = 1 if level else 0
        if level == self.level:
            return
        self.level = level
        edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
        if irq and self.trigger & edge:
            self.interrupt()

    def interrupt(self):
        """Run the pin's handler now, as MicroPython's scheduler does after an edge."""
        if self.handler is not None:
            self.handler(self)


class I2C:
    def __init__(self, id=0, sda=None, scl=None, freq=400000):
        self.id = id
        self.writes = []  # (address, bytes) per transfer
        self.fail = False  # True: every transfer raises OSError, like a loose wire

    def writeto(self, address, data):
        if self.fail:
            raise OSError(5)
        self.writes.append((address, bytes(data)))

    def writevto(self, address, parts):
        data = b""
        for part in parts:
            data += bytes(part)
        self.writeto(address, data)


UID = b"\xe6\x61\x41\x03\xe7\x00\x00\x01"


def unique_id():
    return UID
