"""What the table knows of one pod: its seat, what it should show, how far its button
events got. A binding outlives the pod's connections, so a pod unplugged and plugged back
in is redrawn in full and none of its presses is lost or taken twice."""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from companion.seats import podlink
from companion.seats.pods.devices import PodButtons
from companion.seats.seat import CONTRAST

if TYPE_CHECKING:
    from companion.seats.pods.connection import PodConnection

LED_MODES = {"off": 0, "on": 1, "blink": 2}


def monotonic_ms() -> int:
    """The link's clock: whole milliseconds that only go forward."""
    return int(time.monotonic() * 1000)


@dataclass(frozen=True)
class PodStatus:
    """One line of ``pod_report()``: for ``mutiny doctor`` and the host page."""

    id: str | None  #: the pod's unique id (None: a port that never said HELLO)
    seat: int | None  #: the seat the table config gives it (None: not in the config)
    port: str | None  #: where it is plugged in now (None: not plugged in)
    firmware: str | None  #: the version its HELLO gave
    connected: bool  #: linked and heard from within the last few seconds
    dropped: int  #: frames thrown away, both directions (corrupt, unknown, repeated...)
    #: linked, silent, unplugged, waiting (never seen), no-hello, "cannot open: ..." or
    #: "protocol N ..." (a port whose pod speaks another protocol)
    state: str
    installed_seat: int | None = None  #: the seat `mutiny pod install --seat` wrote
    connects: int = 0  #: links made since the table started (re-plugs show here)
    details: dict[str, Any] = field(default_factory=dict)  #: counters, each side

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class PodBinding:
    """One pod id and what the table wants it to show; outlives its connections.

    ``seat`` is the seat number the table config gives the id (None: a pod nobody
    named). ``session`` and ``rx_expected`` remember how far the pod's button events
    got, so a re-plugged pod's resent events are recognised and taken once.
    """

    def __init__(self, uid: str, seat: int | None = None, *, hold_ms: int = 600,
                 bounce_ms: int = 30, contrast: int = CONTRAST):
        self.uid = uid
        self.seat = seat
        self.buttons = PodButtons()
        self.lock = threading.Lock()
        self.pages: list[bytes] = [bytes(podlink.PAGE_BYTES)] * podlink.PAGES
        self.led = 0
        self.contrast = contrast
        self.setup = (hold_ms, bounce_ms)
        self.resends = 0  # bumped by resend(): connections then send every page again
        self.session: int | None = None
        self.rx_expected = 0
        self.connection: PodConnection | None = None
        self.port: str | None = None
        self.firmware: str | None = None
        self.installed_seat: int | None = None
        self.pod_counters: dict[str, int] = {}
        self.connects = 0
        #: waiting (never linked), linked, silent (stopped answering) or unplugged
        self.state = "waiting"
        self.totals: dict[str, int] = {name: 0 for name in podlink.STATS}
        self.clock: Callable[[], int] = monotonic_ms  # the manager's, for reports

    def set_pages(self, pages: list[bytes]) -> None:
        with self.lock:
            self.pages = list(pages)
        self._wake()

    def set_contrast(self, level: int) -> None:
        with self.lock:
            self.contrast = level
        self._wake()

    def set_led(self, state: str) -> None:
        with self.lock:
            self.led = LED_MODES.get(state, 0)
        self._wake()

    def resend(self) -> None:
        with self.lock:
            self.resends += 1
        self._wake()

    def wanted(self) -> tuple[tuple[int, int], int, int, list[bytes], int]:
        """(setup, contrast, led, pages, resends) as one consistent snapshot."""
        with self.lock:
            return self.setup, self.contrast, self.led, list(self.pages), self.resends

    def _wake(self) -> None:
        connection = self.connection
        if connection is not None:
            connection.wake()

    def status(self, now: int) -> PodStatus:
        """This pod as ``pod_report()`` gives it: its link, its counters, its state."""
        connection = self.connection
        here = dict(self.totals)
        if connection is not None:
            for name, value in connection.link.stats.items():
                here[name] += value
        noise = connection.noise() if connection is not None else 0
        dropped = sum(here[name] for name in podlink.DROPPED) + noise
        dropped += self.pod_counters.get("dropped", 0)
        linked = connection is not None and connection.binding is self
        alive = (linked and connection is not None
                 and connection.link.silent_for(now) < podlink.TIMEOUT_MS)
        state = "silent" if linked and not alive else self.state
        return PodStatus(id=self.uid, seat=self.seat, port=self.port,
                         firmware=self.firmware, connected=alive, dropped=dropped, state=state,
                         installed_seat=self.installed_seat or None, connects=self.connects,
                         details={"table": here, "pod": dict(self.pod_counters)})
