"""The gate decides before a thread waits (issue 26): every request whose end could be
read two ways is held until whole or refused at the gate, in the API's JSON under
``/api/``, and no thread of the pool ever waits for a byte of it.

Real sockets against a real server bound to 127.0.0.1, in this process. Strangers on
the Wi-Fi come from other loopback addresses (127.0.0.2 and up); the players from
127.0.0.1. Nothing is timed.
"""
from __future__ import annotations

import json
import logging
import socket

import pytest

from companion.serve import HttpServer, ServeOptions, Server
from tests.reliability.helpers import Client
from tests.reliability.test_stalls import stranger
from tests.web.test_quick import FlaskCount

SEATS = 4
ACT = b"/api/seat/act"


@pytest.fixture
def server(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=SEATS, game="booty-dice",
                                 data_dir=str(tmp_path), host="127.0.0.1", port=0))
    server.start_table()
    with server.in_background():
        yield server


@pytest.fixture
def quiet_log(caplog):
    """Everything the server logs (the ``mutiny`` logger and the gate's), checked for
    tracebacks and errors at the end of the test."""
    caplog.set_level(logging.INFO)
    yield caplog
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        caplog.text


def head(*fields: bytes, target: bytes = ACT, method: bytes = b"POST",
         version: bytes = b"HTTP/1.1") -> bytes:
    """A request head with a Host header and ``fields``."""
    lines = [method + b" " + target + b" " + version, b"Host: 127.0.0.1",
             b"Content-Type: application/json", *fields]
    return b"\r\n".join(lines) + b"\r\n\r\n"


CHUNKED = b"Transfer-Encoding: chunked"

#: Heads with a body that never comes whole, or that could be read two ways.
HALF_SENT = {
    "plus length": head(b"Content-Length: +500"),
    "spaced length": head(b"Content-Length:  500"),
    "zero-led length": head(b"Content-Length: 0500"),
    "exponent length": head(b"Content-Length: 5e2"),
    "two lengths": head(b"Content-Length: 500", b"Content-Length: 500"),
    "two lengths that disagree": head(b"Content-Length: 500", b"Content-Length: 5"),
    "length with chunks": head(b"Content-Length: 0", CHUNKED) + b"1f4\r\n{",
    "chunks": head(CHUNKED) + b"1f4\r\n{",
    "chunks in gzip": head(b"Transfer-Encoding: gzip, chunked") + b"1f4\r\n{",
    "chunk size zz": head(CHUNKED) + b"zz\r\n{",
    "short body": head(b"Content-Length: 100") + b"{",
    "asks to continue": head(b"Expect: 100-continue", b"Content-Length: 500"),
    "half a head": head()[:40],
}


def test_ninety_six_half_sent_heads_of_every_odd_kind_stall_no_seat(server, quiet_log,
                                                                   figures):
    """The audit's flood: 96 heads of every odd kind from 4 addresses (24 each, all an
    address may hold), more connections than the pool has threads. Every seat's view is
    still answered, and not one thread of the pool holds any of them."""
    port = server.http.port
    phones = []
    for seat in range(SEATS):
        phone = Client(port, timeout=30)
        assert phone.get(f"/J/{server.table.access.token(seat)}")[0] == 303
        phones.append(phone)
    kinds = list(HALF_SENT.values())
    held = []
    try:
        for n in range(96):
            sock = stranger(port, n % 4)
            sock.sendall(kinds[n % len(kinds)])
            held.append(sock)
        answered = 0
        for _round in range(10):
            for seat, phone in enumerate(phones):
                status, view = phone.json("GET", "/api/seat/view")
                assert status == 200 and view["viewer"] == seat
                answered += 1
        # (the last view's thread may not have marked itself idle yet)
        idle = server.http._server.requests.idle
        assert idle >= HttpServer.THREADS - 1, f"{HttpServer.THREADS - idle} threads held"
    finally:
        for sock in held:
            sock.close()
    figures("gate", half_sent_heads=96, seat_views_meanwhile=answered,
            pool_threads_idle=idle)


def answer_of(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The whole answer on ``sock``, read until the server closes (past any ``100
    Continue``)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    while top.startswith(b"HTTP/1.1 100 "):
        top, _, body = body.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in fields.items()}, body


def refused(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    sock = stranger(port, 1)
    try:
        sock.sendall(request)
        return answer_of(sock)
    finally:
        sock.close()


#: Requests the server never serves, each with its status and the API's code.
MALFORMED = {
    "plus length": (head(b"Content-Length: +500"), 400, "bad_request"),
    "exponent length": (head(b"Content-Length: 5e2") + b"x" * 500, 400, "bad_request"),
    "underscored length": (head(b"Content-Length: 5_00"), 400, "bad_request"),
    "negative length": (head(b"Content-Length: -1"), 400, "bad_request"),
    "listed length": (head(b"Content-Length: 2, 2") + b"{}", 400, "bad_request"),
    "space before the colon": (head(b"Content-Length : 2") + b"{}", 400, "bad_request"),
    "folded length": (head(b"Content-Length:", b" 2") + b"{}", 400, "bad_request"),
    "two lengths that disagree": (head(b"Content-Length: 2", b"Content-Length: 3")
                                  + b"{} ", 400, "bad_request"),
    "length with chunks": (head(b"Content-Length: 0", CHUNKED) + b"2\r\n{}\r\n0\r\n\r\n",
                           400, "bad_request"),
    "chunks in HTTP/1.0": (head(CHUNKED, version=b"HTTP/1.0") + b"2\r\n{}\r\n0\r\n\r\n",
                           400, "bad_request"),
    "chunks in gzip": (head(b"Transfer-Encoding: gzip, chunked") + b"2\r\n{}\r\n0\r\n\r\n",
                       501, "not_implemented"),
    "gzip alone": (head(b"Transfer-Encoding: gzip") + b"{}", 400, "bad_request"),
    "chunked twice": (head(b"Transfer-Encoding: chunked, chunked"), 400, "bad_request"),
    "chunk size zz": (head(CHUNKED) + b"zz\r\n{}\r\n0\r\n\r\n", 400, "bad_request"),
    "chunk size 0x2": (head(CHUNKED) + b"0x2\r\n{}\r\n0\r\n\r\n", 400, "bad_request"),
    "chunk longer than its size": (head(CHUNKED) + b"1\r\n{}\r\n0\r\n\r\n", 400,
                                   "bad_request"),
    "chunk line ending in LF": (head(CHUNKED) + b"2\n{}\r\n0\r\n\r\n", 400, "bad_request"),
    "malformed trailer": (head(CHUNKED) + b"2\r\n{}\r\n0\r\nno colon\r\n\r\n", 400,
                          "bad_request"),
    "length past the limit": (head(b"Content-Length: 70000"), 413, "too_large"),
    "chunk past the limit": (head(CHUNKED) + b"10000\r\n", 413, "too_large"),
    "head past 16 KB": (head(b"Cookie: " + b"a" * 17000), 413, "too_large"),
    "HTTP/2.0": (head(method=b"GET", target=b"/api/seat/view", version=b"HTTP/2.0"), 505,
                 "bad_version"),
    "lower-case method": (head(method=b"get", target=b"/api/seat/view"), 400,
                          "bad_request"),
    "full URL": (head(method=b"GET", target=b"http://127.0.0.1/api/seat/view"), 400,
                 "bad_request"),
    "fragment": (head(method=b"GET", target=b"/api/seat/view#x"), 400, "bad_request"),
    "no Host": (b"GET /api/seat/view HTTP/1.1\r\n\r\n", 400, "bad_request"),
    "two Hosts": (head(b"Host: evil.example", method=b"GET", target=b"/api/seat/view"),
                  400, "bad_request"),
    "bare LF": (b"GET /api/seat/view HTTP/1.1\nHost: 127.0.0.1\n\n", 400, "bad_request"),
    "no version": (b"GET /api/seat/view\r\nHost: 127.0.0.1\r\n\r\n", 400, "bad_request"),
}


@pytest.mark.parametrize("kind", list(MALFORMED))
def test_each_malformed_kind_gets_its_refusal_in_json_and_no_traceback(server, quiet_log,
                                                                       kind):
    request, status, code = MALFORMED[kind]
    got, fields, body = refused(server.http.port, request)
    assert got == status
    assert fields["content-type"] == "application/json"
    assert fields["connection"] == "close"
    assert fields["x-content-type-options"] == "nosniff"
    refusal = json.loads(body)
    assert set(refusal) == {"code", "message"} and refusal["code"] == code


def test_outside_the_api_a_refusal_is_plain_text(server, quiet_log):
    for request in (head(b"Content-Length: +5", target=b"/table"),
                    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n",  # TLS hello
                    b"GARBAGE\r\n\r\n"):
        status, fields, body = refused(server.http.port, request)
        assert status == 400 and fields["content-type"].startswith("text/plain")
        assert body and not body.startswith(b"{")


def test_a_request_not_whole_in_time_gets_408_in_json(server, quiet_log, monkeypatch):
    from companion.web import gate
    monkeypatch.setattr(gate, "REQUEST_SECONDS", 0.5)
    for request in (HALF_SENT["zero-led length"], HALF_SENT["chunks"],
                    HALF_SENT["two lengths"], HALF_SENT["asks to continue"]):
        status, _fields, body = refused(server.http.port, request)
        assert status == 408 and json.loads(body)["code"] == "too_slow"


def seat_zero(server) -> bytes:
    """The Cookie header line of seat 1's phone."""
    phone = Client(server.http.port, timeout=30)
    assert phone.get(f"/J/{server.table.access.token(0)}")[0] == 303
    return b"Cookie: mutiny_seat=" + phone.cookies["mutiny_seat"].encode()


def hold(die: int) -> bytes:
    return json.dumps({"action": {"type": "hold", "die": die}}).encode()


def answers(sock: socket.socket, count: int) -> list[tuple[int, bytes]]:
    """``count`` answers (each with a Content-Length) read off a kept-alive ``sock``."""
    data, found = b"", []
    while len(found) < count:
        end = data.find(b"\r\n\r\n")
        if data.startswith(b"HTTP/1.1 100 ") and end >= 0:
            data = data[end + 4:]  # (a client takes any number of 100 Continue)
            continue
        if end >= 0:
            top = data[:end].decode("latin-1")
            length = int(top.lower().split("content-length: ", 1)[1].split("\r\n")[0])
            if len(data) >= end + 4 + length:
                found.append((int(top.split()[1]), data[end + 4:end + 4 + length]))
                data = data[end + 4 + length:]
                continue
        chunk = sock.recv(65536)
        assert chunk, f"closed after {len(found)} answers"
        data += chunk
    return found


def test_good_bodies_chunked_or_with_a_length_are_served(server, quiet_log):
    """A body with its length takes the quick path; one in chunks (with an extension
    and a trailer), one whose length has a leading zero, and one sent after ``100
    Continue`` reach Flask; all are served, and the connection stays usable after each
    (a chunked body's trailers are read too)."""
    cookie = seat_zero(server)
    flask = FlaskCount(server.app)
    sock = socket.create_connection(("127.0.0.1", server.http.port), timeout=30)
    try:
        body = hold(1)
        sock.sendall(head(cookie, b"Content-Length: %d" % len(body)) + body)
        [(status, reply)] = answers(sock, 1)
        assert status == 200 and json.loads(reply)["ok"] is True
        assert flask.seen == 0  # the quick path answered it
        body = hold(2)
        chunked = (b"%x;note=first\r\n%s\r\n" % (5, body[:5]) + b"%x\r\n%s\r\n"
                   % (len(body) - 5, body[5:]) + b"0\r\nX-Trailer: yes\r\n\r\n")
        sock.sendall(head(cookie, CHUNKED) + chunked[:20])  # in two segments
        sock.sendall(chunked[20:] + head(cookie, method=b"GET", target=b"/api/seat/view"))
        (status, reply), (viewed, view) = answers(sock, 2)
        assert status == 200 and json.loads(reply)["ok"] is True
        assert viewed == 200 and json.loads(view)["viewer"] == 0
        assert flask.seen == 2
        body = hold(3)
        sock.sendall(head(cookie, b"Content-Length: 0%d" % len(body)) + body)
        assert answers(sock, 1)[0][0] == 200
        sock.sendall(head(cookie, b"Expect: 100-continue",
                          b"Content-Length: %d" % len(hold(4))))
        assert sock.recv(64).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(hold(4))
        assert answers(sock, 1)[0][0] == 200
    finally:
        sock.close()
