"""A pod's buttons, screen and LED as ``Seat`` sees them, and the seat they make.

``PodSeat`` is the very ``Seat`` a wired seat uses, given devices backed by the pod's
binding:

* ``PodButtons`` fire ``when_pressed`` / ``when_held`` / ``when_released`` as the pod's
  BUTTON messages arrive (the pod times holds and debounces, so a slow link cannot turn
  a tap into a hold);
* ``PodScreen`` packs each frame ``Seat`` renders into SSD1306 pages; the link sends
  the pages the pod does not have yet;
* ``PodLed`` turns ``on()`` / ``blink()`` / ``off()`` into LED messages.
"""
from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, Callable

from PIL import Image

from companion.clocks import Clock
from companion.seats import podlink
from companion.seats.buttons import ROLES, ButtonState, wrap_callback
from companion.seats.screen import HEIGHT, WIDTH
from companion.seats.seat import CONTRAST, DIM_CONTRAST, Seat
from companion.seats.ssd1306 import pack_pages

if TYPE_CHECKING:
    from companion.seats.pods.binding import PodBinding, PodStatus

log = logging.getLogger(__name__)


class PodButton(ButtonState):
    """One pod button: the part of ``SeatButton``'s interface that ``Seat`` uses.

    Events come from the pod already debounced and with holds timed; ``feed()`` ignores
    the ones that make no sense in the current state (a hold while up, a second press).
    """

    def __init__(self, name: str):
        self.name = name
        self.when_pressed: Callable[..., Any] | None = None
        self.when_held: Callable[..., Any] | None = None
        self.when_released: Callable[..., Any] | None = None
        self._pressed = self._held = self._was_held = self._closed = False
        self._changed = threading.Condition()

    def feed(self, kind: str) -> None:
        """Apply one event (``press``, ``hold`` or ``release``) and fire its callback."""
        with self._changed:
            handler = self._apply(kind)
            self._changed.notify_all()
        call = wrap_callback(handler, self)
        if call is not None:
            try:
                call()
            except Exception:  # one bad handler must not kill the pod's thread
                log.exception("pod button %s callback failed", self.name)

    def _apply(self, kind: str) -> Callable[..., Any] | None:
        if self._closed:
            return None
        if kind == "press" and not self._pressed:
            self._pressed, self._held = True, False
            return self.when_pressed
        if kind == "hold" and self._pressed and not self._held:
            self._held = True
            return self.when_held
        if kind == "release" and self._pressed:
            self._pressed, self._was_held, self._held = False, self._held, False
            return self.when_released
        return None

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


class PodButtons:
    """A pod's three buttons, like ``SeatButtons``: ``previous``, ``select``, ``next``."""

    def __init__(self) -> None:
        self.previous, self.select, self.next = (PodButton(role) for role in ROLES)

    def __iter__(self):
        return iter((self.previous, self.select, self.next))

    def __getitem__(self, role: str) -> PodButton:
        if role not in ROLES:
            raise KeyError(f"no button {role!r}; buttons are {', '.join(ROLES)}")
        return getattr(self, role)

    def feed(self, button: int, kind: int) -> None:
        """One BUTTON message: ``button`` and ``kind`` are podlink's numbers."""
        self[ROLES[button]].feed(podlink.KINDS[kind])

    def cut_off(self) -> None:
        """The pod restarted with buttons down: let them go without confirming anything.

        The press was never finished, so it must not act: the release is preceded by a
        hold (a held select only ends the private view, it never confirms).
        """
        for button in self:
            if button.is_pressed:
                button.feed("hold")
                button.feed("release")

    def close(self) -> None:
        for button in self:
            button.close()


class PodScreen:
    """The seat's "display device": frames become pages for the pod (luma's interface)."""

    mode = "1"

    def __init__(self, binding: PodBinding):
        self.binding = binding
        self.size = (WIDTH, HEIGHT)
        self.width, self.height = self.size

    def display(self, image: Image.Image) -> None:
        self.binding.set_pages(pack_pages(image, podlink.PAGES))

    def contrast(self, level: int) -> None:
        self.binding.set_contrast(level)

    def invalidate(self) -> None:
        """Send every page again (the seat calls this after a failed update)."""
        self.binding.resend()

    def cleanup(self) -> None:
        """Nothing to release: the manager closes the link."""


class PodLed:
    """The pod's LED, the part of gpiozero's ``LED`` that ``Seat`` uses."""

    def __init__(self, binding: PodBinding):
        self.binding = binding

    def on(self) -> None:
        self.binding.set_led("on")

    def off(self) -> None:
        self.binding.set_led("off")

    def blink(self, on_time: float = 0.5, off_time: float = 0.5) -> None:
        """Blinking is the pod's own 0.5 s / 0.5 s; the times are not sent."""
        self.binding.set_led("blink")

    def close(self) -> None:
        """Nothing to release."""


class PodSeat(Seat):
    """A ``Seat`` whose buttons, screen and LED are a pod's: the same state machine, the
    same interface for the runtime (``show``, ``show_qr``, ``when_action``...)."""

    def __init__(self, number: int, binding: PodBinding, *, clock: Clock | None = None,
                 dim_after: float = 300.0, browse_timeout: float = 4.0,
                 contrast: int = CONTRAST, dim_contrast: int = DIM_CONTRAST, name: str = ""):
        self.pod = binding
        super().__init__(number, binding.buttons, PodScreen(binding), PodLed(binding),
                         clock=clock, dim_after=dim_after, browse_timeout=browse_timeout,
                         contrast=contrast, dim_contrast=dim_contrast, name=name)

    def status(self) -> PodStatus:
        """This seat's pod, as ``pod_report()`` gives it."""
        return self.pod.status(self.pod.clock())
