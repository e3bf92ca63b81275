"""Live updates over real HTTP on loopback: many streams at once, one press, all hear it."""
from __future__ import annotations

import http.client
import json
import queue
import threading
import time

import pytest

from companion.serve import Server, ServeOptions


@pytest.fixture
def server(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=8, game="moon-yeti",
                                 data_dir=str(tmp_path), host="127.0.0.1", port=0))
    server.start_table()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    thread.join(10)


def cookie_for(server, seat):
    conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
    conn.request("GET", "/J/" + server.table.access.token(seat))
    reply = conn.getresponse()
    reply.read()
    conn.close()
    assert reply.status == 303
    return reply.getheader("Set-Cookie").split(";")[0]


class Stream(threading.Thread):
    """One SSE client: puts every (id, payload) it receives on a queue."""

    def __init__(self, server, path, cookie=None):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=20)
        self.conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        self.reply = self.conn.getresponse()
        assert self.reply.status == 200
        self.events: queue.Queue = queue.Queue()
        self.start()

    def run(self):
        fields = {}
        try:
            for raw in self.reply:
                line = raw.decode().rstrip("\n")
                if not line:
                    if fields.get("event") == "payload":
                        self.events.put((int(fields["id"]), json.loads(fields["data"])))
                    fields = {}
                elif not line.startswith(":") and ": " in line:
                    key, value = line.split(": ", 1)
                    fields[key] = value
        except (OSError, ValueError, AttributeError):  # closed from another thread
            pass

    def next(self, timeout=20):
        return self.events.get(timeout=timeout)

    def close(self):
        self.conn.close()


def press(server, seat, button="select"):
    for down in (True, False):
        conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
        conn.request("POST", "/sim/press",
                     json.dumps({"seat": seat, "button": button, "down": down}),
                     {"Content-Type": "application/json"})
        assert conn.getresponse().status == 200
        conn.close()


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_a_button_press_reaches_eight_phones_and_two_tables(server):
    press(server, 0)  # claim seat 1 (its first press only claims)
    phones = [Stream(server, "/api/seat/stream", cookie_for(server, s)) for s in range(8)]
    tables = [Stream(server, "/api/public/stream") for _ in range(2)]
    sim = Stream(server, "/sim/stream")  # the /sim page is live too
    try:
        first = [s.next() for s in phones + tables]
        assert [p["viewer"] for _, p in first] == [*range(8), "public", "public"]
        assert all(p["match"]["step"] == "declare" for _, p in first)
        press(server, 0)  # seat 1 declares the time: every view moves on
        if not wait_for(lambda: server.table.match.step() != "declare", 3.0):
            # On a machine loaded to the hilt the release can come after the hold
            # time, which makes the press a hold (private screen), not a choice.
            press(server, 0)
        for stream, (old_id, _) in zip(phones + tables, first):
            new_id, payload = stream.next()
            while payload["match"]["step"] == "declare":
                new_id, payload = stream.next()
            assert new_id > old_id and payload["match"]["step"] != "declare"
        # Meanwhile other requests are answered (the streams starve nothing).
        conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=5)
        conn.request("GET", "/api/public/view")
        assert conn.getresponse().status == 200
    finally:
        for stream in phones + tables + [sim]:
            stream.close()


def test_a_reconnecting_phone_gets_the_current_payload_first(server):
    cookie = cookie_for(server, 3)
    stream = Stream(server, "/api/seat/stream", cookie)
    _, before = stream.next()
    stream.close()
    server.table.submit(0, {"type": "declare"})  # happens while the phone sleeps
    again = Stream(server, "/api/seat/stream", cookie)
    try:
        _, now = again.next()
        assert now["match"]["step"] != before["match"]["step"]
        assert now == server.table.payload(3)[1]
    finally:
        again.close()
