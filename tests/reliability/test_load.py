"""Load: a long game night on one table, with phones that drop and reconnect.

A real server on loopback (in this process, so its memory can be read) runs the
benchmark's repeating 8-seat secret vote (bench/vote_game.py) while ten live streams
(the eight seats' phones and two table displays) drop their connection at random
moments and reconnect, and a driver applies the votes through the seat API as fast as
the server takes them. Every stream must end on exactly the server's payload; after
every reconnect the first event must be the current payload (never an older one); one
connection never sends an event twice or out of order; the same event id always
carries the same payload; and the process's memory stays flat.
"""
from __future__ import annotations

import gc
import hashlib
import http.client
import json
import math
import random
import socket
import threading
import time
from pathlib import Path

import pytest

from bench.vote_game import GAME as VOTE_GAME
from bench.vote_game import ballot_for
from companion.engine import PUBLIC
from companion.serve import ServeOptions, Server
from tests.reliability.helpers import Client

SEATS = 8


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


class Phone(threading.Thread):
    """One live stream that drops and reconnects at random, checking what it gets."""

    def __init__(self, server: Server, viewer, cookie: str | None, seed: int):
        super().__init__(daemon=True)
        self.server, self.viewer, self.cookie = server, viewer, cookie
        self.rng = random.Random(seed)
        self.calm = threading.Event()  # no more drops: the night is over
        self.done = threading.Event()
        self.last: tuple[int, dict] | None = None
        self.connections = 0
        self.events = 0
        self.problems: list[str] = []
        self.texts: dict[int, bytes] = {}  # event id -> payload digest (per viewer)
        self.sock: socket.socket | None = None

    def hang_up(self) -> None:
        """End the stream now (the phone is put away)."""
        self.done.set()
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def run(self) -> None:
        while not self.done.is_set():
            try:
                self.one_connection()
            except (OSError, http.client.HTTPException, ValueError):
                pass  # a dropped connection; reconnect

    def one_connection(self) -> None:
        table = self.server.table
        current = table.payload(self.viewer)[0]  # what a new stream must start at (or after)
        conn = http.client.HTTPConnection("127.0.0.1", self.server.http.port, timeout=30)
        conn.connect()
        self.sock = conn.sock  # (the response keeps it after the connection lets go)
        conn.request("GET", "/api/seat/stream" if self.viewer != PUBLIC else
                     "/api/public/stream", headers={"Cookie": self.cookie} if self.cookie else {})
        reply = conn.getresponse()
        if reply.status != 200:
            self.problems.append(f"stream answered {reply.status}")
            return
        self.connections += 1
        first, previous, fields = True, None, {}
        # Drop after a random number of lines: mid-event as often as between events.
        drop_after = self.rng.randint(1, 400)
        try:
            for count, raw in enumerate(reply):
                if self.done.is_set():
                    return
                if count >= drop_after and not self.calm.is_set():
                    return  # the phone went to sleep
                line = raw.decode().rstrip("\n")
                if line:
                    if not line.startswith(":") and ": " in line:
                        key, value = line.split(": ", 1)
                        fields[key] = value
                    continue
                if fields.get("event") == "payload":
                    serial, text = int(fields["id"]), fields["data"]
                    self.events += 1
                    if first and serial < current:
                        self.problems.append(f"reconnected at {serial}, behind {current}")
                    if previous is not None and serial <= previous:
                        self.problems.append(f"event {serial} after {previous}")
                    if self.last is not None and serial < self.last[0]:
                        self.problems.append(f"went back from {self.last[0]} to {serial}")
                    digest = hashlib.sha1(text.encode()).digest()
                    if self.texts.setdefault(serial, digest) != digest:
                        self.problems.append(f"event {serial} carried two payloads")
                    while len(self.texts) > 500:  # the test's own memory stays flat too
                        self.texts.pop(next(iter(self.texts)), None)
                    first, previous = False, serial
                    self.last = (serial, json.loads(text))
                fields = {}
        finally:
            conn.close()


@pytest.fixture
def server(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=SEATS, data_dir=str(tmp_path),
                                 host="127.0.0.1", port=0))
    server.start_table()
    with server.in_background():
        yield server


@pytest.mark.slow
def test_ten_dropping_streams_through_a_long_night_lose_nothing(server, request, figures):
    actions = 10_000 if request.config.full_run else 1_000
    rounds = math.ceil(actions / SEATS)
    table = server.table
    table.start(VOTE_GAME, SEATS, {"rounds": rounds}, seed="load")
    port = server.http.port
    seats = []
    for seat in range(SEATS):
        phone = Client(port)
        assert phone.get("/J/" + table.access.token(seat))[0] == 303
        seats.append(phone)
    viewers = [*range(SEATS), PUBLIC, PUBLIC]
    shared: dict = {}
    streams = []
    for index, viewer in enumerate(viewers):
        cookie = f"mutiny_seat={seats[viewer].cookies['mutiny_seat']}" if viewer != PUBLIC else None
        stream = Phone(server, viewer, cookie, seed=index)
        stream.texts = shared.setdefault(viewer, {})  # one id, one payload, per viewer
        streams.append(stream)
        stream.start()

    gc.collect()
    applied = 0
    rss = {}
    most_streams = 0
    started = time.monotonic()
    for round_ in range(1, rounds + 1):
        order = list(range(SEATS))
        random.Random(round_).shuffle(order)
        for seat in order:
            if applied == actions:
                break
            action = {"type": "vote", "seat": ballot_for(seat, round_)}
            status, body = seats[seat].json("POST", "/api/seat/act", {
                "action": action, "version": table.turn_version(seat)})
            assert status == 200, (round_, seat, body)
            applied += 1
            if applied == actions // 10:  # warmed up: every stream and thread is there
                gc.collect()
                rss["after_warm_up"] = rss_mb()
            most_streams = max(most_streams, server.hub.streams)
    seconds = time.monotonic() - started
    gc.collect()
    rss["at_the_end"] = rss_mb()

    # Every stream ends on exactly the server's payload.
    for stream in streams:
        stream.calm.set()
    deadline = time.monotonic() + 120
    for stream in streams:
        while time.monotonic() < deadline and (
                stream.last is None or stream.last[0] != table.payload(stream.viewer)[0]):
            time.sleep(0.05)
    for stream in streams:
        serial, payload = table.payload(stream.viewer)
        assert stream.last is not None and stream.last[0] == serial, stream.viewer
        assert stream.last[1] == json.loads(json.dumps(payload)), stream.viewer
    for stream in streams:
        stream.hang_up()
        stream.join(60)
    assert table.match.version == actions and table.match.is_over == (actions % SEATS == 0)
    problems = [f"{s.viewer}: {p}" for s in streams for p in s.problems]
    assert not problems, problems[:10]
    growth = rss["at_the_end"] - rss["after_warm_up"]
    reconnects = sum(s.connections - 1 for s in streams)
    assert reconnects >= len(streams)  # every stream dropped at least once
    assert growth < 30, f"memory grew by {growth:.1f} MB"
    figures("load", actions=applied, streams=len(streams), reconnects=reconnects,
            events_received=sum(s.events for s in streams), most_open_streams=most_streams,
            rss_mb_after_warm_up=round(rss["after_warm_up"], 1),
            rss_mb_at_the_end=round(rss["at_the_end"], 1), rss_growth_mb=round(growth, 1),
            seconds=round(seconds, 1), actions_per_second=round(applied / seconds))
