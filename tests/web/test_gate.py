"""cheroot's own refusals, behind the gate (companion/web/gate.py GatedRequest).

The gate refuses every malformed request itself; should one still reach cheroot, its
refusal is shaped as the API's. Here cheroot reads requests straight off a socket pair,
on a connection of the real server (not serving), with no gate in front.
"""
from __future__ import annotations

import json
import socket

import pytest

from companion.serve import HttpServer


@pytest.fixture
def connection(app):
    """(cheroot's connection of the server, the client's end of its socket)."""
    http = HttpServer("127.0.0.1", 0, app)
    ours, theirs = socket.socketpair()
    ours.settimeout(5)
    theirs.settimeout(5)
    conn = http._server.ConnectionClass(http._server, ours)
    try:
        yield conn, theirs
    finally:
        conn.close()
        theirs.close()
        http.shutdown()


def served(connection, request: bytes) -> tuple[bool, bytes]:
    """Whether cheroot keeps the connection after ``request``, and what it answered."""
    conn, client = connection
    client.sendall(request)
    kept = conn.communicate()
    client.setblocking(False)
    try:
        return kept, client.recv(65536)
    finally:
        client.setblocking(True)


@pytest.mark.parametrize("request_, status, code", [
    (b"GET /api/seat/view HTTP/2.0\r\nHost: localhost\r\n\r\n", 505, "bad_version"),
    (b"get /api/seat/view HTTP/1.1\r\nHost: localhost\r\n\r\n", 400, "bad_request"),
    (b"GET /api/seat/view#top HTTP/1.1\r\nHost: localhost\r\n\r\n", 400, "bad_request"),
    (b"POST /api/seat/act HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n",
     501, "not_implemented"),
])
def test_cheroots_own_refusals_under_the_api_are_its_json(connection, request_, status,
                                                          code):
    kept, answer = served(connection, request_)
    top, body = answer.split(b"\r\n\r\n", 1)
    assert not kept and top.startswith(b"HTTP/1.1 %d " % status)
    assert b"\r\nContent-Type: application/json\r\n" in top
    refusal = json.loads(body)
    assert refusal["code"] == code and refusal["message"]


def test_elsewhere_cheroot_answers_in_its_own_words(connection):
    kept, answer = served(connection, b"GET /table HTTP/2.0\r\nHost: localhost\r\n\r\n")
    assert not kept and answer.startswith(b"HTTP/1.1 505 ")
    assert b"Content-Type: text/plain" in answer


def test_what_a_chunked_request_leaves_is_read_before_the_next_one(connection):
    """cheroot reads no trailer and not the final empty line of a chunked body: the
    request reads them after its answer, and the next request is read whole."""
    body = b'{"pin": "000000"}'
    kept, answer = served(connection, (
        b"POST /api/host/login HTTP/1.1\r\nHost: localhost\r\nContent-Type:"
        b" application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n"
        b"0\r\nX-Checked: yes\r\n\r\n" % (len(body), body)))
    assert kept and answer.startswith(b"HTTP/1.1 401 ") and b"bad_pin" in answer
    kept, answer = served(connection, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert kept and answer.startswith(b"HTTP/1.1 200 ")
