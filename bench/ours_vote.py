"""Our side of the peer benchmark: the same 8-seat secret vote on Mutiny Table's server.

:func:`run_ours` starts the real stack (``companion.serve.Server``: the sim seats, the
table, the journal on disk, the Flask app on cheroot's threaded server, the live hub)
on a free loopback port in a thread, puts ``bench/vote_game.py``'s match on the table,
and joins all 8 seats through their join links. The clients run in a separate process
(so they do not share the server's GIL): 8 seat streams (``/api/seat/stream``, each
with its seat's cookie) and 2 public streams (``/api/public/stream``). Each ballot is a
``POST /api/seat/act`` from this process; its latency runs from just before the POST
until all 10 streams have received the payload that counts it (every payload carries
the number of ballots in, so every stream gets an event for every ballot). Both
processes stamp times with ``time.monotonic()`` (CLOCK_MONOTONIC: one clock for every
process on Linux).

    python -m bench.ours_vote [VOTES]     # p50 / p99 / max
"""
from __future__ import annotations

import json
import os
import queue
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.client import HTTPConnection
from http.cookies import SimpleCookie
from pathlib import Path

SEATS = 8
PUBLIC_STREAMS = 2
#: Untimed ballots first, as on the peer's side.
WARMUP = 16
#: How long one ballot may take to reach every stream before the run is called broken.
VOTE_TIMEOUT = 10.0


class OursError(RuntimeError):
    """The benchmark could not run (the message says why)."""


# -- the server side (this process) -------------------------------------------------------
def run_ours(votes: int = 500, warmup: int = WARMUP, data_dir: str | None = None,
             pace_ms: float = 0.0) -> list[float]:
    """Cast ``votes`` timed ballots (after ``warmup`` untimed ones) on our own server
    with 10 live streams in another process; return each ballot's latency in ms.

    The journal goes to a new temporary folder inside ``data_dir`` (default: the
    system's temporary folder, on disk as a Pi's SD card is); a folder on tmpfs (e.g.
    ``/dev/shm``) shows what the journal's fsync costs."""
    # Imported here: the listener process runs this file as a script, without them.
    from bench.vote_game import GAME
    from companion.serve import Server, ServeOptions

    total = warmup + votes
    with tempfile.TemporaryDirectory(prefix="mutiny-bench-vote-", dir=data_dir) as tmp:
        server = Server(ServeOptions(backend="sim", seats=SEATS, data_dir=tmp,
                                     host="127.0.0.1", port=0))
        with server.in_background():
            server.table.start(GAME, SEATS, options={"rounds": total // SEATS + 2},
                               seed="bench-vote")
            return _cast(server, total, warmup, pace_ms)


def _cast(server, total: int, warmup: int, pace_ms: float) -> list[float]:
    """Join the seats, open the streams, cast ``total`` ballots; the timed ones' ms."""
    from bench.stats import frozen_start
    host, port = server.http.host, server.http.port
    cookies = [_join(host, port, server.table.access.token(s)) for s in range(SEATS)]
    listener = _Listener(host, port, cookies)
    seats = [HTTPConnection(host, port, timeout=VOTE_TIMEOUT) for _ in range(SEATS)]
    latencies: list[float] = []
    last_start = float("-inf")
    try:
        with frozen_start():  # as `mutiny serve` does once it has started
            for k in range(total):
                wait = last_start + pace_ms / 1000.0 - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                last_start = time.monotonic()
                latency = _ballot(k, seats, cookies, listener)
                if k >= warmup:
                    latencies.append(latency)
        return latencies
    finally:
        for conn in seats:
            conn.close()
        listener.stop()


def _ballot(k: int, seats: list[HTTPConnection], cookies: list[str],
            listener: "_Listener") -> float:
    """Cast ballot ``k`` (0-based) from its seat; ms until every stream has it."""
    from bench.vote_game import ballot_for
    seat, round_ = k % SEATS, 1 + k // SEATS
    body = json.dumps({"action": {"type": "vote", "seat": ballot_for(seat, round_)}})
    headers = {"Content-Type": "application/json", "Cookie": f"mutiny_seat={cookies[seat]}"}
    started = time.monotonic()
    seats[seat].request("POST", "/api/seat/act", body.encode(), headers)
    answer = seats[seat].getresponse()
    text = answer.read()
    if answer.status != 200:
        raise OursError(f"ballot {k + 1} refused: {answer.status} {text[:300]!r}")
    return (listener.reached(k + 1) - started) * 1000.0


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


class _Listener:
    """The clients' process, and a thread here that hands on what it reports."""

    def __init__(self, host: str, port: int, cookies: list[str]):
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--listen"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.reports: queue.Queue[tuple[int, float] | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, name="bench-listener", daemon=True)
        self.reader.start()
        self.process.stdin.write(json.dumps({"host": host, "port": port, "cookies": cookies}) + "\n")
        self.process.stdin.flush()
        self.reached(0)  # every stream is open and holds the current payload

    def _read(self) -> None:
        for line in self.process.stdout:
            count, stamp = line.split()
            self.reports.put((int(count), float(stamp)))
        self.reports.put(None)

    def reached(self, target: int) -> float:
        """Wait until every stream holds a payload counting ``target`` ballots; return
        when the last of them received it (the listener's monotonic clock)."""
        while True:
            try:
                report = self.reports.get(timeout=VOTE_TIMEOUT)
            except queue.Empty:
                raise OursError(f"ballot {target} did not reach every stream "
                                f"within {VOTE_TIMEOUT:.0f} s") from None
            if report is None:
                raise OursError(f"the stream listener ended (exit {self.process.poll()}) "
                                f"waiting for ballot {target}")
            if report[0] >= target:
                return report[1]

    def stop(self) -> None:
        try:
            self.process.stdin.close()  # the listener ends when its stdin does
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=5)
        self.process.stdout.close()


# -- the clients (the listener process) ---------------------------------------------------
class _Stream:
    """One Server-Sent-Events stream over a raw socket (HTTP/1.0: no chunking)."""

    def __init__(self, host: str, port: int, path: str, cookie: str | None,
                 seats: int = SEATS):
        self.seats = seats
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        lines = [f"GET {path} HTTP/1.0", f"Host: {host}:{port}", "Accept: text/event-stream"]
        if cookie:
            lines.append(f"Cookie: mutiny_seat={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        self.headers_done = False
        self.count = -1  # ballots counted by the last payload received

    def feed(self, data: bytes) -> bool:
        """Take received bytes; True when a payload moved this stream's count."""
        self.buffer += data
        if not self.headers_done:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return False
            status = head.split(b"\r\n", 1)[0]
            if b" 200 " not in status + b" ":
                raise OursError(f"a stream answered {status.decode(errors='replace')}")
            self.headers_done, self.buffer = True, rest
        moved = False
        while b"\n\n" in self.buffer:
            event, _, self.buffer = self.buffer.partition(b"\n\n")
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    count = _ballots_counted(json.loads(line[6:]), self.seats)
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


def listen(host: str, port: int, cookies: list[str], out=sys.stdout, stdin=sys.stdin) -> None:
    """Open the 10 streams; each time every one of them holds a payload counting more
    ballots, write "COUNT MONOTONIC_TIME" (the time the last of them received it).
    Returns when ``stdin`` closes."""
    streams = [_Stream(host, port, "/api/seat/stream", c) for c in cookies]
    streams += [_Stream(host, port, "/api/public/stream", None) for _ in range(PUBLIC_STREAMS)]
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    selector.register(stdin, selectors.EVENT_READ, None)
    reported = -2
    while True:
        ready = selector.select()
        # Everything select() found had arrived by now: parsing one stream's event must
        # not count against the streams read after it.
        now = time.monotonic()
        for key, _ in ready:
            if key.data is None:
                if not stdin.readline():
                    return
                continue
            stream: _Stream = key.data
            data = stream.sock.recv(1 << 16)
            if not data:
                raise OursError("the server closed a stream")
            if stream.feed(data):
                low = min(s.count for s in streams)
                if low > reported:
                    reported = low
                    out.write(f"{low} {now:.9f}\n")
                    out.flush()


def _listen_main() -> int:
    config = json.loads(sys.stdin.readline())
    listen(config["host"], config["port"], config["cookies"])
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
    sys.exit(main(sys.argv[1:]))
