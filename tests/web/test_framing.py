"""Where a request ends (companion/web/framing.py): a whole request is judged whole at
its last byte and not one byte before, and every framing that could be read two ways
is refused, whatever has arrived of it."""
from __future__ import annotations

import json

import pytest

from companion.web import framing

LIMIT = 1000


def post(*fields: bytes, body: bytes = b"", version: bytes = b"HTTP/1.1") -> bytes:
    return b"\r\n".join([b"POST /api/seat/act " + version, b"Host: table", *fields]) \
        + b"\r\n\r\n" + body


GOOD = {
    "a get": b"GET /api/seat/view HTTP/1.1\r\nHost: table\r\n\r\n",
    "after an empty line": b"\r\nGET / HTTP/1.0\r\n\r\n",
    "a length": post(b"Content-Length: 2", body=b"{}"),
    "a zero-led length": post(b"Content-Length: 02", body=b"{}"),
    "two lengths that agree": post(b"Content-Length: 2", b"content-length: 2", body=b"{}"),
    "chunks": post(b"Transfer-Encoding: chunked",
                   body=b"1;a=b;c=\"d;e\"\r\n{\r\n01\r\n}\r\n000\r\n\r\n"),
    "chunks with trailers": post(b"transfer-encoding: Chunked",
                                 body=b"2\r\n{}\r\n0\r\nX-A: 1\r\nX-B:\r\n\r\n"),
    "a body at the limit": post(b"Content-Length: %d" % LIMIT, body=b"x" * LIMIT),
}


@pytest.mark.parametrize("kind", list(GOOD))
def test_a_whole_request_goes_at_its_last_byte_and_not_before(kind):
    request = GOOD[kind]
    for end in range(len(request)):
        assert framing.judge(request[:end], LIMIT).action == "wait", request[:end]
    assert framing.judge(request, LIMIT).action == "go"
    # What follows it (the next request on the connection) changes nothing.
    assert framing.judge(request + b"GET / HT", LIMIT).action == "go"


def test_a_chunked_body_is_counted_as_sent_against_the_limit():
    overhead = len(b"3e0\r\n\r\n0\r\n\r\n")
    fits = post(b"Transfer-Encoding: chunked",
                body=b"%x\r\n" % (LIMIT - overhead) + b"x" * (LIMIT - overhead)
                + b"\r\n0\r\n\r\n")
    assert framing.judge(fits, LIMIT).action == "go"
    over = fits.replace(b"\r\n0\r\n\r\n", b"\r\n1\r\nx\r\n0\r\n\r\n")
    assert framing.judge(over, LIMIT).status == 413


@pytest.mark.parametrize("request_, status", [
    (post(b"Content-Length: +2", body=b"{}"), 400),
    (post(b"Content-Length: 2 2", body=b"{}"), 400),
    (post(b"Content-Length: \xd9\xa2", body=b"{}"), 400),  # an Arabic-Indic two
    (post(b"Content-Length: 2", b"Content-Length: 02 ", b"Content-Length: 3"), 400),
    (post(b"Content-Length: 99999999999999999999999"), 413),
    (post(b"Content-Length: 2", b"Transfer-Encoding: chunked"), 400),
    (post(b"Transfer-Encoding: chunked", b"Content-Length: 2"), 400),
    (post(b"Transfer-Encoding: gzip", b"Transfer-Encoding: chunked"), 501),
    (post(b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip"), 400),
    (post(b"Transfer-Encoding: identity"), 400),
    (post(b"Transfer-Encoding:"), 400),
    (post(b"Transfer-Encoding: chunked", body=b"\r\n"), 400),    # no size at all
    (post(b"Transfer-Encoding: chunked", body=b" 2\r\n"), 400),  # a space first
    (post(b"Transfer-Encoding: chunked", body=b"2 \r\n"), 400),  # a space after
    (post(b"Transfer-Encoding: chunked", body=b"2;\r\n"), 400),  # an empty extension
    (post(b"Transfer-Encoding: chunked", body=b"+2\r\n"), 400),
    (post(b"Transfer-Encoding: chunked", body=b"2\r\n{}x"), 400),
    (post(b"Transfer-Encoding: chunked", body=b"1" * 2000), 400),  # a size line forever
    (post(b"Transfer-Encoding: chunked", body=b"fffffffffffffffff\r\n"), 413),
    (post(b"X: a\x00b"), 400),
    (post(b"X: a\rb"), 400),
    (post(b"X\t: a"), 400),
    (b"POST /api/seat/act HTTP/1.1\r\nHost: table\r\nContent-Length: 5\n\r\n", 400),
    (b"GET /api/seat/view HTTP/1.1\r\nHost: table\r\nX: y", 0),  # still arriving
    (b"GET /api/seat/view HTTP/1.1\rHost: table", 400),
    (b"GET  /api/seat/view HTTP/1.1\r\n", 400),
    (b"GET /api/seat/view HTTP/1.1 \r\n", 400),
    (b"GET /api/seat/view HTTP/0.9\r\n", 505),
    (b"GET /api/seat/view HTTP/1.2\r\n", 505),
    (b"OPTIONS * HTTP/1.1\r\nHost: table\r\n\r\n", 0),
    (b"GET * HTTP/1.1\r\n", 400),
    (b"CONNECT table:443 HTTP/1.1\r\n", 400),
    (b"\r\n\r\nGET / HTTP/1.1\r\nHost: table\r\n\r\n", 400),  # one empty line only
    (b"GET /" + b"a" * framing.HEAD_BYTES, 413),
    (post(b"Transfer-Encoding: chunked", version=b"HTTP/1.0"), 400),  # 1.0 has no chunks
])
def test_a_framing_read_two_ways_is_refused(request_, status):
    verdict = framing.judge(request_, LIMIT)
    if status:
        assert (verdict.action, verdict.status) == ("refuse", status), verdict
    else:
        assert verdict.action in ("wait", "go")


def test_the_target_is_made_out_of_a_broken_line_when_it_can_be():
    assert framing.target_of(b"GET /api/x?y=1 HTTP/9\r\n") == b"/api/x?y=1"
    assert framing.target_of(b"\r\nget  /api/x") == b"/api/x"
    assert framing.target_of(b"GET http://table/api/x HTTP/1.1\r\n") == b"/api/x"
    assert framing.target_of(b"\x16\x03\x01\x00") is None
    assert framing.under_api(b"/%61pi/seat/view") and framing.under_api(b"/api/?x")
    assert not framing.under_api(b"/apix") and not framing.under_api(b"/table?/api/")


def test_a_refusal_under_the_api_is_its_json_and_elsewhere_text():
    answer = framing.answer(501, "no gzip here", b"/api/seat/act")
    top, body = answer.split(b"\r\n\r\n", 1)
    assert top.startswith(b"HTTP/1.1 501 Not Implemented\r\n")
    assert b"\r\nContent-Length: %d\r\n" % len(body) in top
    assert b"\r\nConnection: close\r\n" in top and b"\r\nX-Frame-Options: DENY" in top
    assert json.loads(body) == {"code": "not_implemented", "message": "no gzip here"}
    assert framing.answer(400, "no", b"/table").endswith(b"\r\n\r\nno")
