"""The Pico's hardware for the pod: USB serial, pins, I2C, clock; and the main loop.

Everything board-specific sits here, so podapp, keys, oled and podlink run unchanged
under the tests' stand-in ``machine`` module.
"""
import os
import select
import sys
import time

import machine
import micropython

import podapp
import podconfig
from keys import Keys
from oled import SSD1306

LOOP_WAIT_MS = 2  # the loop sleeps in poll() this long when there is nothing to read


class Clock:
    """Milliseconds since boot that never wrap (``time.ticks_ms()`` wraps after 12 days)."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.total = 0

    def now(self) -> int:
        """Main loop only: moves the count on."""
        tick = time.ticks_ms()
        self.total += time.ticks_diff(tick, self.last)
        self.last = tick
        return self.total

    def raw(self) -> int:
        """Safe in an interrupt handler: the raw tick, converted later by ``at()``."""
        return time.ticks_ms()

    def at(self, raw: int) -> int:
        """A raw tick taken before the last ``now()``, on the ``now()`` scale."""
        return self.total - time.ticks_diff(self.last, raw)


class UsbPort:
    """The USB serial port MicroPython's REPL normally uses, as raw bytes.

    ``stdin``, ``stdout`` and ``poller`` are the board's own unless handed in (tests).
    """

    def __init__(self, stdin=None, stdout=None, poller=None):
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        if poller is None:
            poller = select.poll()
            poller.register(sys.stdin, select.POLLIN)
        self.poller = poller

    def read(self, limit: int = 256) -> bytes:
        out = bytearray()
        while len(out) < limit and self.poller.poll(0):
            byte = self.stdin.read(1)
            if not byte:
                break
            out += byte
            if byte[0] == 3:
                # Maybe mpremote's Ctrl-C (podlink.INTERRUPTS): what follows it (its
                # Ctrl-A) must stay unread for the REPL.
                break
        return bytes(out)

    def write(self, data) -> None:
        self.stdout.write(data)

    def wait(self, ms: int) -> None:
        self.poller.poll(ms)


def _input(number: int):
    return machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)


def new_session() -> int:
    """A random number per boot: tells the table this pod restarted."""
    try:
        return int.from_bytes(os.urandom(4), "big")
    except AttributeError:  # a port without os.urandom
        import random
        return random.getrandbits(32)


def build(config: dict, clock: Clock, port=None, session=None):
    """The pod and its port, from the config's pins."""
    pins = [_input(config[name]) for name in ("previous", "select", "next")]
    keys = Keys(pins, clock)
    i2c = machine.I2C(config["i2c"], sda=machine.Pin(config["sda"]),
                      scl=machine.Pin(config["scl"]), freq=config["freq"])
    screen = SSD1306(i2c, config["address"], config["flip"])
    led_pin = None
    if config["led"] is not None:
        led_pin = machine.Pin(config["led"], machine.Pin.OUT, value=0)
    port = port or UsbPort()
    session = new_session() if session is None else session
    pod = podapp.Pod(port, screen, keys, podapp.Led(led_pin), machine.unique_id(), session,
                     config["seat"])
    return pod, port


def safe_mode(config: dict) -> bool:
    """Select held down at power-up: leave the REPL alone (a pod that misbehaves)."""
    return _input(config["select"]).value() == 0


def run(port=None) -> None:
    """The main loop; returns to the REPL when mpremote interrupts (see UsbPort.read).

    ``port``: the USB port unless handed in (tests).
    """
    # The link is binary: 0x03 in a frame must be data, not a KeyboardInterrupt.
    micropython.kbd_intr(-1)
    try:
        config = podconfig.load()
        if config["error"]:
            print("pod:", config["error"])
        if safe_mode(config):
            print("pod: select held at power-up, staying in the REPL")
            return
        clock = Clock()
        pod, port = build(config, clock, port)
        try:
            while pod.step(clock.now()):
                if not pod.screen.busy():  # pages to send: no sleeping until they are out
                    port.wait(LOOP_WAIT_MS)
        finally:
            pod.led.mode(0)
            pod.led.update(0)
    finally:
        micropython.kbd_intr(3)  # the REPL gets Ctrl-C back
