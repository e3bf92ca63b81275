"""``mutiny serve``: the seats, the table runtime and the web app in one process."""
from __future__ import annotations

import contextlib
import gc
import ipaddress
import logging
import os
import signal
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from cheroot import wsgi

from companion.access import HostPin, SeatAccess
from companion.engine import Journal
from companion.errors import MutinyError
from companion.seats import (
    SimFault,
    default_backend,
    load_table_config,
    open_seats,
    sim_table_config,
)
from companion.seats.pods import pod_report
from companion.table import Table
from companion.web import create_app
from companion.web.gate import ClientCount, CountedConnection, Gate
from companion.web.live import Connection, Hub

log = logging.getLogger("mutiny")


@dataclass
class ServeOptions:
    """What `mutiny serve` was asked for (the command line's options)."""

    game: str | None = None
    seats: int | None = None
    backend: str | None = None
    config: str | None = None
    data_dir: str | None = None
    host: str | None = None
    port: int = 8000
    #: Serve on this machine's local network address (a laptop table): every join link
    #: and QR code carries it. ``host``, if given, is that address instead.
    lan: bool = False
    #: Serve the simulated table's page (``/sim``) with ``lan`` too, to the host only.
    #: Without ``lan`` the sim backend always serves it (docs/security.md).
    sim_page: bool = False
    #: Faults put into the simulated table from the start, ``KIND[:SEAT[:ROLE]]``
    #: (:mod:`companion.seats.simfaults`); lifted on ``/sim``.
    sim_faults: list[str] = field(default_factory=list)


#: The file in the data directory that holds this run's host PIN, readable by the
#: service's own user only: what `mutiny host-pin` prints on the Pi.
HOST_PIN_FILE = "host-pin"


def write_host_pin(data_dir: Path, pin: str) -> None:
    """Keep this run's PIN where only someone at the Pi itself (its user or root) can
    read it: the host's way in when no seat screen shows it (docs/security.md)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / HOST_PIN_FILE
    path.unlink(missing_ok=True)  # a new file, so its mode is ours whatever was there
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(pin + "\n")


def read_host_pin(data_dir: Path) -> str:
    """The PIN of the table running on ``data_dir`` (`mutiny host-pin`)."""
    path = data_dir / HOST_PIN_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        raise MutinyError(f"no table is running on {data_dir} (no {HOST_PIN_FILE} file"
                          f" there); give its --data-dir") from None
    except PermissionError:
        raise MutinyError(f"{path} is readable by the table's own user only: run this as"
                          f" that user (sudo -u USER mutiny host-pin) or as root") from None


def default_data_dir() -> Path:
    """``$MUTINY_DATA_DIR``, else ``$XDG_DATA_HOME/mutiny``, else ``~/.local/share/mutiny``."""
    if os.environ.get("MUTINY_DATA_DIR"):
        return Path(os.environ["MUTINY_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "mutiny"


class Server:
    """Everything `mutiny serve` runs, built and torn down in one place (for tests too)."""

    def __init__(self, options: ServeOptions):
        # Request lines are never logged: a join link's line holds a seat's token.
        self.options = options
        backend = options.backend or default_backend()
        if options.config:
            config = load_table_config(options.config, backend=backend)
        else:
            config = sim_table_config(options.seats or 4) if backend == "sim" else \
                load_table_config("/etc/mutiny/table.toml", backend=backend)
        self.backend = backend
        try:
            faults = [SimFault.parse(spec) for spec in options.sim_faults]
        except ValueError as exc:  # a fault named wrong
            raise MutinyError(str(exc)) from None
        if options.lan:
            host = options.host or lan_address()
        else:
            host = options.host or ("127.0.0.1" if backend == "sim" else "0.0.0.0")
        self.data_dir = Path(options.data_dir) if options.data_dir else default_data_dir()
        self.journal = Journal(self.data_dir / "journal.sqlite3")
        self.hardware = open_seats(config, backend, sim_faults=faults)
        # Phones wake on table changes only; /sim also on a seat's screen changing.
        self.screens = Hub()
        self.hub = Hub(self.screens)
        self.pin = HostPin()
        write_host_pin(self.data_dir, self.pin.pin)
        self.table = Table(self.journal, list(self.hardware), base_url="", hub=self.hub,
                           access=SeatAccess(self.data_dir / "access.sqlite3",
                                             len(config.seats)),
                           pin=self.pin, background_screens=True)
        if getattr(self.hardware, "pods", None) is not None:
            self.table.pod_report = lambda: pod_report(self.hardware)
        # A part that fails or comes back: every page says so (the watch's own thread).
        self.table.seat_faults = self.hardware.faults
        self.hardware.watch.when_changed = self.table.refresh
        for seat in self.hardware:
            # Moving the highlight changes a screen without touching the match: /sim
            # must still redraw it.
            seat.when_changed = self.screens.publish
        # More names the Pi answers to (besides its addresses, localhost and its mDNS
        # names), e.g. MUTINY_HOSTS=table.example,pirates.lan
        names = [n.strip() for n in os.environ.get("MUTINY_HOSTS", "").split(",") if n.strip()]
        if options.lan:
            names.append(host)  # (an address passes the guard anyway; a name would not)
        self.app = create_app(self.table, self.hub, sim=self._sim_page(host),
                              screens=self.screens,
                              config={"MUTINY_HOSTS": names,
                                      "MUTINY_SIM_ACCESS": sim_access(host, options.lan),
                                      # What /join may speak of (pages._join_words).
                                      "MUTINY_SCREENS": self.backend != "sim" or
                                      self._sim_page(host) is not None,
                                      "MUTINY_LAPTOP": self.backend == "sim"})
        self.http = HttpServer(host, options.port, self.app)
        self.table.base_url = f"http://{_public_address(host)}:{self.http.port}"
        self.table.refresh()  # the join codes now carry the real address
        self._stop = threading.Event()

    def _sim_page(self, host: str) -> Any:
        """The simulated seats ``/sim`` shows, or None where it is off: the sim backend
        serves it, except to a laptop table on the network (``--lan``) unless asked
        for (``--sim-page``): a player's phone must not see every seat at once."""
        if self.backend != "sim" or (self.options.lan and not self.options.sim_page):
            return None
        return self.hardware

    @property
    def url(self) -> str:
        return f"http://{self.http.host}:{self.http.port}"

    @property
    def public_url(self) -> str:
        """Where phones reach this table: what every join link and QR code carries."""
        return self.table.base_url

    def start_table(self) -> None:
        """Resume the unfinished match, or start the one asked for, or show the lobby."""
        resumed = self.table.resume()
        if resumed is None:
            # No match to play on: a new game night. Every join link, phone and cookie
            # of an earlier night stops working (docs/security.md).
            self.table.access.new_night()
            self.table.refresh()
        if resumed is not None:
            if self.options.game and self.options.game != resumed.game.spec.id:
                log.warning("resuming the unfinished %s match instead of a new %s;"
                            " end it from the host page first", resumed.game.spec.id,
                            self.options.game)
        elif self.options.game:
            self.table.start(self.options.game, self.options.seats)

    def serve_forever(self) -> None:
        ticker = threading.Thread(target=self._tick, name="seat-ticker", daemon=True)
        ticker.start()
        self.hardware.watch.start()  # takes back the seat parts that answer again
        try:
            self.http.serve_forever()
        finally:
            self.close()

    @contextlib.contextmanager
    def in_background(self) -> Iterator["Server"]:
        """Serve on a thread of its own while the block runs (tests, benchmarks), then
        shut down."""
        thread = threading.Thread(target=self.serve_forever, name="mutiny-http", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.shutdown()
            thread.join(30)

    def _tick(self) -> None:
        # Seats dim after idle minutes; the ticker lets them notice without a press. It
        # also notices a pod plugged in or pulled out, for the host page.
        pods = None
        while not self._stop.wait(1.0):
            self.hardware.tick()
            if self.table.pod_report is not None:
                now = self.table.pod_report()
                if now != pods:
                    pods = now
                    self.table.refresh()

    def shutdown(self, *_: Any) -> None:
        """Stop serving (safe from a signal handler: the HTTP loop stops in its thread)."""
        self._stop.set()
        self.hub.close()
        self.screens.close()
        threading.Thread(target=self.http.shutdown, daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        self.hub.close()
        self.screens.close()
        self.http.shutdown()
        self.table.close()  # its timers, journal, night, notes and seat access
        self.hardware.close()
        (self.data_dir / HOST_PIN_FILE).unlink(missing_ok=True)


class HttpServer:
    """The HTTP server: cheroot's WSGI server with a pool of threads, behind a gate.

    Connections are kept alive between requests (a phone's next action does not open a
    new connection), and a thread of the pool serves each request, or each live stream
    for as long as it is open. The pool is sized for every stream the app admits
    (:data:`companion.web.api.STREAM_SLOTS`) plus requests being answered, and the gate
    (:mod:`companion.web.gate`) hands a thread only a request that has arrived whole, and
    bounds the connections of each client: a slow or greedy client cannot take the
    threads that players need.
    """

    #: Threads in the pool: live streams plus requests being answered.
    THREADS = 80
    #: Seconds a connection may stay silent (a stalled write to a phone fails then).
    TIMEOUT = 15
    #: Connections the kernel queues before the server accepts them.
    BACKLOG = 128

    def __init__(self, host: str, port: int, app: Any):
        limit = getattr(app, "config", {}).get("MAX_CONTENT_LENGTH") or 64 * 1024
        self._server = _Cheroot((host, port), app, numthreads=self.THREADS,
                                server_name="mutiny", timeout=self.TIMEOUT,
                                request_queue_size=self.BACKLOG, body_limit=limit)
        # The gate bounds each client instead; cheroot takes None for no limit
        # (connections.py), though its stub says int.
        self._server.keep_alive_conn_limit = None  # type: ignore[assignment]
        try:
            self._server.prepare()  # binds now: port 0 becomes a real port
        except OSError as exc:
            self._server.gate.stop()
            raise MutinyError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                f" (is another `mutiny serve` running? choose another port with"
                f" --port)") from None
        self.host, self.port = self._server.bind_addr[:2]

    @property
    def connections_per_client(self) -> int:
        """How many connections one client address may hold (see ``gate``)."""
        return self._server.clients.limit

    @connections_per_client.setter
    def connections_per_client(self, limit: int) -> None:
        self._server.clients.limit = limit

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`."""
        self._server.serve()

    def shutdown(self) -> None:
        """Stop serving and close the listening socket (idempotent)."""
        self._server.gate.stop()
        if self._server.ready:
            self._server.stop()


class _Cheroot(wsgi.Server):
    def __init__(self, *args: Any, body_limit: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.gateway = _Gateway
        self.clients = ClientCount()
        self.ConnectionClass = type("Connection", (CountedConnection,),
                                    {"counter": self.clients})
        self.gate = Gate(super().process_conn, body_limit)

    def process_conn(self, conn: Any) -> None:
        # Every connection passes here when it has something to read: new ones are
        # counted against their client first.
        if not getattr(conn, "_admitted", False):
            conn._admitted = True
            if not self.clients.admit(conn):
                self.clients.refuse(conn)
                return
        self.gate.offer(conn)

    def error_log(self, msg: str = "", level: int = 20, traceback: bool = False) -> None:
        # Into the log like everything else (cheroot writes to stderr by default).
        log.log(level, "http: %s", msg, exc_info=traceback)


class _Gateway(wsgi.Gateway_10):
    """cheroot's WSGI gateway, offering a live stream its connection (``environ
    ["mutiny.connection"]()``) once the response's headers are out, so the hub can
    write events to the socket directly (:mod:`companion.web.live`)."""

    def get_environ(self) -> dict[str, Any]:  # type: ignore[override]  # stub says None
        environ = super().get_environ()
        request = self.req

        def connection() -> Connection | None:
            if not request.sent_headers:
                return None
            return Connection(request.conn.socket, bool(request.chunked_write))
        environ["mutiny.connection"] = connection
        return environ


def sim_access(host: str, lan: bool = False) -> str:
    """Who may use ``/sim`` when the server listens on ``host``: "open" where only this
    machine can reach it (a loopback address, not a laptop table's ``lan``), else
    "host" (a logged-in host only)."""
    if lan:
        return "host"
    try:
        return "open" if ipaddress.ip_address(host).is_loopback else "host"
    except ValueError:
        return "open" if host == "localhost" else "host"


def lan_address() -> str:
    """This machine's address on its local network, found without the internet: a UDP
    socket "connected" to a private address learns the interface it would leave by
    (connecting a UDP socket sends nothing), and the addresses the host name resolves
    to are asked too. Raises :class:`MutinyError` when there is none but loopback."""
    found = []
    for probe_to in ("192.168.255.255", "10.255.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((probe_to, 9))
                found.append(probe.getsockname()[0])
        except OSError:
            pass  # no route that way
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                            socket.AF_INET)]
    except OSError:
        pass
    chosen = pick_lan_address(found)
    if chosen is None:
        raise MutinyError("this machine has no network address but loopback: join a"
                          " Wi-Fi network (or give the address with --host)")
    return chosen


def pick_lan_address(candidates: list[str]) -> str | None:
    """The address phones on the same network can reach: the first private one (home
    and hotspot networks), else the first other one; never loopback, link-local or
    unspecified (0.0.0.0)."""
    usable = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_unspecified
                or address.is_multicast):
            usable.append(address)
    private = [a for a in usable if a.is_private]
    best = private[0] if private else usable[0] if usable else None
    return str(best) if best is not None else None


def _public_address(host: str) -> str:
    """The address phones should use: the bound one, or this machine's own."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # no packet is sent for UDP connect
            return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()


def freeze_startup_objects() -> None:
    """Keep everything alive after start-up (modules, games, fonts, the table) out of
    the garbage collector's full collections: they are never garbage, and a full pass
    over them is a pause of tens of milliseconds at a random action (docs/performance.md,
    "Why each speed trick is there")."""
    gc.collect()
    gc.freeze()


def serve(options: ServeOptions) -> int:
    """Run until SIGINT or SIGTERM."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    server = Server(options)
    server.start_table()
    freeze_startup_objects()
    signal.signal(signal.SIGTERM, server.shutdown)
    signal.signal(signal.SIGINT, server.shutdown)
    where = f"{server.url}/sim" if server.app.extensions["mutiny"]["sim"] else server.url
    log.info("Mutiny Table (%s seats, %s backend) on %s; journal in %s",
             server.table.seat_count, server.backend, where, server.data_dir)
    # The one secret the log ever holds, on purpose: the host needs it to log in.
    log.info("host page %s/host, PIN %s", server.url, server.pin.pin)
    if options.lan:
        log.info("phones on this network join at %s/join (or scan a seat's code on %s/table)",
                 server.public_url, server.public_url)
    server.serve_forever()
    return 0
