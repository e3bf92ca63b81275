"""Seat pod firmware for a Raspberry Pi Pico running MicroPython (see README.md)."""
import micropython

# First of all: a 0x03 byte from the table (inside a frame) must not stop the boot as a
# Ctrl-C. podhw.run() turns Ctrl-C back on whenever it returns to the REPL.
micropython.kbd_intr(-1)

import podhw  # noqa: E402

podhw.run()
