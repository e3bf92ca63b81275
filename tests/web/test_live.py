"""Live updates over real HTTP on loopback: many streams at once, one press, all hear it."""
from __future__ import annotations

import http.client
import json
import queue
import socket
import subprocess
import sys
import threading
import time

import pytest

from companion.serve import ServeOptions, Server


@pytest.fixture
def server(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=8, game="moon-yeti",
                                 data_dir=str(tmp_path), host="127.0.0.1", port=0))
    server.start_table()
    with server.in_background():
        yield server


def cookie_for(server, seat):
    conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
    conn.request("GET", "/J/" + server.table.access.token(seat))
    reply = conn.getresponse()
    reply.read()
    conn.close()
    assert reply.status == 303
    return reply.getheader("Set-Cookie").split(";")[0]


class Stream(threading.Thread):
    """One SSE client: puts every (id, payload) it receives on a queue (and, with
    ``heard``, appends ``("phone", viewer, id)`` to that list as each one arrives)."""

    def __init__(self, server, path, cookie=None, heard=None):
        super().__init__(daemon=True)
        self.heard = heard
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
                        payload = json.loads(fields["data"])
                        if self.heard is not None:
                            self.heard.append(("phone", payload["viewer"], int(fields["id"])))
                        self.events.put((int(fields["id"]), payload))
                    fields = {}
                elif not line.startswith(":") and ": " in line:
                    key, value = line.split(": ", 1)
                    fields[key] = value
        except (OSError, ValueError, AttributeError):  # closed from another thread
            pass

    def next(self, timeout=20):
        return self.events.get(timeout=timeout)

    def close(self):
        # Shut the socket down first: that wakes the reading thread, which holds the
        # response's buffer (closing alone would wait for the next event).
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass
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
        for stream, (old_id, _) in zip(phones + tables, first, strict=True):
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


def test_a_phone_keeps_one_connection_for_its_actions(server):
    """Keep-alive: a phone's next action does not pay for a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
    conn.request("GET", "/J/" + server.table.access.token(0))
    reply = conn.getresponse()
    reply.read()
    cookie = reply.getheader("Set-Cookie").split(";")[0]
    first = conn.sock
    for _ in range(3):
        conn.request("GET", "/api/seat/view", headers={"Cookie": cookie})
        reply = conn.getresponse()
        assert json.loads(reply.read())["viewer"] == 0
        assert reply.getheader("Connection", "").lower() != "close"
        assert conn.sock is first
    conn.close()


def test_streams_past_the_limit_are_refused_and_retried(server, monkeypatch):
    from companion.web import live
    phone = Stream(server, "/api/public/stream")
    try:
        phone.next()
        monkeypatch.setattr(live, "MAX_STREAMS", server.hub.streams)
        conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
        conn.request("GET", "/api/public/stream")
        reply = conn.getresponse()
        assert reply.status == 503
        assert json.loads(reply.read())["code"] == "busy"
        conn.close()
        monkeypatch.setattr(live, "MAX_STREAMS", 40)
        again = Stream(server, "/api/public/stream")  # the page's retry gets in
        assert again.next()[1]["viewer"] == "public"
        again.close()
    finally:
        phone.close()


@pytest.mark.slow
def test_the_acting_seats_frame_comes_before_any_phone_hears_of_it_under_load(server):
    """docs/table.md, "Drawing order": a seat's press is drawn on its own screen before
    any phone hears of it, every time, with two processes spinning on the two cores.
    The order is read from one list that the panels and the phones' readers append to
    as things happen: by sequence, never by a duration."""
    happened: list = []
    for index, panel in enumerate(server.hardware.panels):
        def sent(data, send=panel.data, index=index):
            happened.append(("frame", index))
            return send(data)
        panel.data = sent
    table, hw = server.table, server.hardware
    for seat in range(8):
        table.claim(seat)
    phones = [Stream(server, "/api/seat/stream", cookie_for(server, s), heard=happened)
              for s in range(8)]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    checked = 0
    try:
        for phone in phones:
            phone.next()
        for pressed in range(30):
            if table.match.is_over:
                table.match = None
                table.start("moon-yeti", 8, seed=f"order-{pressed}")

            def drawn_seat():  # a seat to act whose screen shows its choices now
                return next((s for s in table.match.acting() if isinstance(s, int)
                             and hw[s].display and hw[s].display.choices
                             and hw[s].display.choices == table.display(s).choices), None)
            assert wait_for(lambda: drawn_seat() is not None, 10)
            seat = drawn_seat()
            version = table.match.version

            def caught_up():  # every phone has read the last change's event
                last = {h[1]: h[2] for h in happened if h[0] == "phone"}
                return all(last.get(s) == table.payload(s)[0] for s in range(8))
            for _attempt in range(3):  # a masked line's first select only reveals it
                hw.pin(seat, "select").drive_low()
                time.sleep(0.12)  # the press is in (debounced), well short of a hold
                assert wait_for(caught_up, 10)
                mark = len(happened)
                hw.pin(seat, "select").drive_high()  # the release confirms the choice
                if wait_for(lambda: table.match.version != version, 3.0):
                    break
            assert table.match.version != version, "no press acted"
            assert wait_for(lambda: any(h[0] == "phone" for h in happened[mark:]), 10)
            after = happened[mark:]
            heard = after.index(next(h for h in after if h[0] == "phone"))
            assert ("frame", seat) in after[:heard], after
            checked += 1
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        for phone in phones:
            phone.close()
    assert checked == 30


def test_the_server_hands_streams_over_and_publishers_write_them(server):
    phones = [Stream(server, "/api/seat/stream", cookie_for(server, s)) for s in range(2)]
    try:
        for phone in phones:
            phone.next()
        assert wait_for(lambda: len(server.hub._outlets) == 2, 10)
        for seat in range(len(phones)):
            server.table.rename(seat, f"Direct {seat}")
        for seat, phone in enumerate(phones):
            # A rename reaches every phone (the match names every seat): a phone may
            # hear of the other seat's rename before its own.
            payload: dict = {}
            for _ in range(3):
                _, payload = phone.next()
                if payload["seat"]["name"] == f"Direct {seat}":
                    break
            assert payload["viewer"] == seat
            assert payload["seat"]["name"] == f"Direct {seat}"
    finally:
        for phone in phones:
            phone.close()
    assert wait_for(lambda: not server.hub._outlets and server.hub.streams == 0, 20)


@pytest.mark.slow
def test_a_phone_that_stops_reading_holds_up_nobody(server):
    """Its socket fills up; publishers leave the rest to its own thread and go on, the
    other phones keep getting every change, and when it reads again it gets the
    newest payload."""
    stalled = socket.create_connection(("127.0.0.1", server.http.port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(b"GET /api/public/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    watcher = Stream(server, "/api/public/stream")
    try:
        watcher.next()
        assert wait_for(lambda: len(server.hub._outlets) == 2, 10)

        def rename_many():
            for n in range(300):
                server.table.rename(2, f"Pirate {n:03d} " + "~" * 20)
        renaming = threading.Thread(target=rename_many, daemon=True)
        renaming.start()
        renaming.join(60)
        assert not renaming.is_alive(), "a full socket blocked the table"
        seen = ""
        while "Pirate 299" not in seen:
            seen = json.dumps(watcher.next()[1])
        # Now the stalled phone reads: its stream is alive and ends on the newest.
        stalled.settimeout(20)
        received = b""
        while b"Pirate 299" not in received:
            chunk = stalled.recv(1 << 16)
            assert chunk, "the stalled phone's stream was closed"
            received += chunk
    finally:
        watcher.close()
        stalled.close()
