"""Our side of the peer benchmark: the same 8-seat secret vote on Mutiny Table's server.

:func:`run_ours` starts the real stack (``companion.serve.Server``: the sim seats, the
table, the journal on disk, the Flask app on cheroot's threaded server, the live hub)
in a fresh process of its own on a free loopback port, puts ``bench/vote_game.py``'s
match on the table, and joins all 8 seats through their join links. The clients run in a separate process,
as the peer's do (so they do not share the server's GIL): 8 seat streams
(``/api/seat/stream``, each with its seat's cookie), 2 public streams
(``/api/public/stream``) and the 8 seats' kept-alive connections that cast the ballots
(``POST /api/seat/act``). A ballot's latency runs from just before its POST is written
until all 10 streams have received the payload that counts it (every payload carries
the number of ballots in, so every stream gets an event for every ballot); the next
ballot waits for that and for the POST's answer. The server's process does nothing
but serve.

    python -m bench.ours_vote [VOTES]     # p50 / p99 / max
"""
from __future__ import annotations

import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from http.client import HTTPConnection
from http.cookies import SimpleCookie
from pathlib import Path

from bench.sse_clients import Stream, StreamRefused

SEATS = 8
PUBLIC_STREAMS = 2
#: Untimed ballots first, as on the peer's side.
WARMUP = 16
#: How long one ballot may take to reach every stream before the run is called broken.
VOTE_TIMEOUT = 10.0


try:  # the clients read every payload: as quickly as the peer's clients (V8) do
    from orjson import loads as _loads
except ImportError:
    _loads = json.loads


class OursError(RuntimeError):
    """The benchmark could not run (the message says why)."""


# -- the server side (a fresh process of its own) ----------------------------------------
def run_ours(votes: int = 500, warmup: int = WARMUP, data_dir: str | None = None,
             pace_ms: float = 0.0) -> list[float]:
    """Cast ``votes`` timed ballots (after ``warmup`` untimed ones) on our own server
    with 10 live streams in another process; return each ballot's latency in ms.

    The server runs in a fresh Python process, as the peer's does in a fresh Node
    process: nothing the benchmarks before it left behind (threads, garbage, a warm or
    cold cache) is in its figures. The journal goes to a new temporary folder inside
    ``data_dir`` (default: the system's temporary folder, on disk as a Pi's SD card
    is); a folder on tmpfs (e.g. ``/dev/shm``) shows what the journal's fsync costs."""
    config = {"votes": votes, "warmup": warmup, "data_dir": data_dir, "pace_ms": pace_ms}
    root = Path(__file__).resolve().parent.parent
    served = subprocess.run([sys.executable, "-m", "bench.ours_vote", "--serve"],
                            input=json.dumps(config) + "\n", capture_output=True,
                            text=True, cwd=root, timeout=60 + (warmup + votes) * VOTE_TIMEOUT)
    lines = served.stdout.split()
    if served.returncode != 0 or not lines or lines[-1] != "done":
        raise OursError(f"our server's process stopped (exit {served.returncode}):"
                        f" {served.stderr.strip()[-600:]}")
    return [float(line) for line in lines[:-1]]


def serve_and_cast(votes: int, warmup: int, data_dir: str | None,
                   pace_ms: float) -> list[float]:
    """The server's process: ``mutiny serve``'s stack on a free loopback port, the
    vote on its table, the clients in a process of their own; each ballot's ms."""
    from bench.vote_game import GAME
    from companion.serve import ServeOptions, Server

    total = warmup + votes
    with tempfile.TemporaryDirectory(prefix="mutiny-bench-vote-", dir=data_dir) as tmp:
        server = Server(ServeOptions(backend="sim", seats=SEATS, data_dir=tmp,
                                     host="127.0.0.1", port=0))
        with server.in_background():
            server.table.start(GAME, SEATS, options={"rounds": total // SEATS + 2},
                               seed="bench-vote")
            return _cast(server, total, warmup, pace_ms)


def _cast(server, total: int, warmup: int, pace_ms: float) -> list[float]:
    """Join the seats; the clients' process opens the streams and casts ``total``
    ballots; the timed ones' ms."""
    from bench.stats import frozen_start
    from bench.vote_game import ballot_for
    host, port = server.http.host, server.http.port
    cookies = [_join(host, port, server.table.access.token(s)) for s in range(SEATS)]
    ballots = [json.dumps({"action": {"type": "vote", "seat": ballot_for(k % SEATS,
                                                                          1 + k // SEATS)}})
               for k in range(total)]
    config = {"host": host, "port": port, "cookies": cookies, "ballots": ballots,
              "warmup": warmup, "pace_ms": pace_ms}
    with frozen_start():  # as `mutiny serve` does once it has started
        clients = subprocess.Popen(
            [sys.executable, "-m", "bench.ours_vote", "--listen"],
            cwd=Path(__file__).resolve().parent.parent,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            out, err = clients.communicate(json.dumps(config) + "\n",
                                           timeout=30 + total * VOTE_TIMEOUT)
        except subprocess.TimeoutExpired:
            clients.kill()
            clients.communicate()
            raise OursError("the clients' process did not finish") from None
    lines = out.split()
    if clients.returncode != 0 or not lines or lines[-1] != "done":
        raise OursError(f"the clients' process stopped (exit {clients.returncode}):"
                        f" {err.strip()[-600:]}")
    return [float(line) for line in lines[:-1]]


#: The name ``python -m bench`` calls.
run = run_ours


def _join(host: str, port: int, token: str) -> str:
    """Open a seat's join link, as a phone does; return its seat cookie."""
    conn = HTTPConnection(host, port, timeout=10)
    try:
        conn.request("GET", f"/J/{token}")
        answer = conn.getresponse()
        answer.read()
        cookie = SimpleCookie()
        for header in answer.headers.get_all("Set-Cookie") or []:
            cookie.load(header)
        if answer.status != 303 or "mutiny_seat" not in cookie:
            raise OursError(f"joining a seat answered {answer.status} without a seat cookie")
        return cookie["mutiny_seat"].value
    finally:
        conn.close()


# -- the clients (their own process) ------------------------------------------------------
class _Counted(Stream):
    """A stream that keeps the number of ballots its latest payload counts."""

    def __init__(self, host: str, port: int, path: str, cookie: str | None,
                 seats: int = SEATS):
        super().__init__(host, port, path, f"mutiny_seat={cookie}" if cookie else None)
        self.seats = seats
        self.count = -1  # ballots counted by the last payload received

    def feed(self, data: bytes) -> bool:  # type: ignore[override]
        """Take received bytes; True when a payload moved this stream's count."""
        moved = False
        for _id, payload in super().feed(data):
            count = _ballots_counted(_loads(payload), self.seats)
            if count != self.count:
                self.count, moved = count, True
        return moved


def _ballots_counted(payload: dict, seats: int = SEATS) -> int:
    """How many ballots a seat's or the public's payload counts, over all votes."""
    match = payload.get("match")
    if not match:
        return -1
    state = match["state"]
    vote = state["vote"]
    return (state["round"] - 1) * seats + (vote["ballots_in"] if vote else 0)


class _Caster:
    """One seat's kept-alive connection: writes a ballot's POST, reads its answer."""

    def __init__(self, host: str, port: int, cookie: str):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.head = (f"POST /api/seat/act HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     f"Content-Type: application/json\r\nCookie: mutiny_seat={cookie}\r\n")
        self.buffer = b""
        self.answered = True

    def cast(self, body: str) -> None:
        data = body.encode()
        self.sock.sendall(f"{self.head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        self.answered = False

    def feed(self, data: bytes) -> None:
        self.buffer += data
        head, sep, rest = self.buffer.partition(b"\r\n\r\n")
        if not sep:
            return
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if len(rest) < length:
            return
        status = head.split(b"\r\n", 1)[0]
        if b" 200 " not in status + b" ":
            raise OursError(f"a ballot was refused: {status.decode(errors='replace')}"
                            f" {rest[:300]!r}")
        self.buffer, self.answered = rest[length:], True


def listen(host: str, port: int, cookies: list[str], ballots: list[str], warmup: int,
           pace_ms: float, out=sys.stdout) -> None:
    """Open the 10 streams and the 8 seats' connections; cast ``ballots`` in turn (seat
    k % 8 casts ballot k), each at least ``pace_ms`` after the last began and once the
    last reached every stream and was answered. Writes the ms of each ballot after the
    first ``warmup`` (from just before its POST until the last stream received the
    payload that counts it), one a line, then "done"."""
    streams = [_Counted(host, port, "/api/seat/stream", c) for c in cookies]
    streams += [_Counted(host, port, "/api/public/stream", None)
                for _ in range(PUBLIC_STREAMS)]
    casters = [_Caster(host, port, c) for c in cookies]
    selector = selectors.DefaultSelector()
    for reader in streams + casters:
        selector.register(reader.sock, selectors.EVENT_READ, reader)

    def until(target: int, caster: _Caster | None) -> float:
        """Read until every stream counts ``target`` ballots and ``caster`` has its
        answer; return when the last stream received it (the monotonic clock)."""
        reached = None
        while reached is None or (caster is not None and not caster.answered):
            ready = selector.select(VOTE_TIMEOUT)
            if not ready:
                raise OursError(f"ballot {target} did not reach every stream"
                                f" within {VOTE_TIMEOUT:.0f} s")
            # Everything select() found had arrived by now: parsing one stream's event
            # must not count against the streams read after it.
            now = time.monotonic()
            for key, _ in ready:
                data = key.fileobj.recv(1 << 16)
                if not data:
                    raise OursError("the server closed a connection")
                key.data.feed(data)
            if reached is None and min(s.count for s in streams) >= target:
                reached = now
        return reached

    until(0, None)  # every stream is open and holds the current payload
    last_start = float("-inf")
    for k, ballot in enumerate(ballots):
        wait = last_start + pace_ms / 1000.0 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        caster = casters[k % SEATS]
        last_start = time.monotonic()
        caster.cast(ballot)
        latency = (until(k + 1, caster) - last_start) * 1000.0
        if k >= warmup:
            out.write(f"{latency:.6f}\n")
    out.write("done\n")
    out.flush()


def _serve_main() -> int:
    config = json.loads(sys.stdin.readline())
    try:
        latencies = serve_and_cast(config["votes"], config["warmup"], config["data_dir"],
                                   config["pace_ms"])
    except OursError as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write("".join(f"{ms:.6f}\n" for ms in latencies) + "done\n")
    return 0


def _listen_main() -> int:
    config = json.loads(sys.stdin.readline())
    try:
        listen(config["host"], config["port"], config["cookies"], config["ballots"],
               config["warmup"], config["pace_ms"])
    except (OursError, StreamRefused) as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    from bench.peer import figures
    votes = int(argv[0]) if argv else 500
    latencies = run_ours(votes)
    print(json.dumps({"benchmark": "peer, our side (Mutiny Table)", "votes": votes,
                      **figures(latencies)}))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--listen"]:
        sys.exit(_listen_main())
    if sys.argv[1:2] == ["--serve"]:
        sys.exit(_serve_main())
    sys.exit(main(sys.argv[1:]))
