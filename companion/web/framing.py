"""Where a request ends, judged from its bytes before any thread of the pool reads it.

The gate (:mod:`companion.web.gate`) peeks at what a client has sent and asks
:func:`judge` whether it is a whole request (let it in), not yet one (wait), or one the
server will never serve (refuse, with the answer's status). The rules are the strict
reading of RFC 9112, the same everywhere a request's end could be read two ways:

- the request line is ``METHOD SP /path SP HTTP/1.x`` with lines ending in CRLF (a bare
  CR or LF is refused, not guessed at); another HTTP version is ``505``;
- a header line is ``name:value`` with no space before the colon and no folding onto a
  second line; HTTP/1.1 carries exactly one ``Host``;
- ``Content-Length`` is digits only (``+500``, ``5e2``, ``5_00``, ``500, 500`` are
  refused; ``0500`` is five hundred), and repeated ones must agree;
- ``Transfer-Encoding`` must end in ``chunked`` (once), never comes with a
  ``Content-Length`` nor in HTTP/1.0 (all refused ``400``), and any coding besides
  ``chunked`` is ``501``;
- a chunked body is walked chunk by chunk (hex sizes, extensions, the CRLF after each
  chunk, the trailer lines and the final empty line): it is whole only at its end;
- a head past :data:`HEAD_BYTES` or a body past the limit (a chunked body counted as
  sent, sizes and all) is ``413``, refused as soon as it says so.

cheroot then reads exactly what was judged, so it never waits for a byte.
:func:`answer` shapes every refusal: the API's JSON ``{"code", "message"}`` for a
target under ``/api/``, plain text elsewhere.
"""
from __future__ import annotations

import json
import re
import urllib.parse
from dataclasses import dataclass
from http import HTTPStatus

from companion.web import guard

#: The longest request head taken (request line and headers).
HEAD_BYTES = 16 * 1024
#: The longest chunk-size line (size and extensions).
CHUNK_LINE_BYTES = 1024

#: The API's code for each status the server answers below the app.
ERROR_CODES = {**guard.HTTP_CODES, 408: "too_slow", 414: "too_large", 500: "http_error",
               501: "not_implemented", 503: "busy", 505: "bad_version"}

_TOKEN = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_REQUEST_LINE = re.compile(rb"(" + _TOKEN + rb") ([\x21-\x7e]+) HTTP/([0-9]+)\.([0-9]+)")
#: Header lines, each ending in CRLF: visible characters, spaces, tabs and obs-text.
_FIELDS = re.compile(rb"(?:" + _TOKEN + rb":[\t\x20-\x7e\x80-\xff]*\r\n)*")
_FIELD = re.compile(_TOKEN + rb":[\t\x20-\x7e\x80-\xff]*")


_BARE_LINE_END = re.compile(rb"\r(?!\n)|(?<!\r)\n")
_QUOTED = rb'"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"'
_CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]+)(?:[ \t]*;[ \t]*" + _TOKEN + rb"(?:[ \t]*=[ \t]*(?:"
                         + _TOKEN + rb"|" + _QUOTED + rb"))?)*")
#: What a chunk-size line may look like before its CRLF has arrived.
_CHUNK_LINE_SO_FAR = re.compile(rb"(?:[0-9A-Fa-f]+(?:[ \t]*;[^\r\n]*)?\r?)?")


@dataclass(frozen=True)
class Verdict:
    """What the gate does with the bytes of a request so far."""

    #: "wait" (not whole yet), "go" (whole: a thread may read it) or "refuse".
    action: str
    #: The refusal's HTTP status and message.
    status: int = 0
    message: str = ""
    #: The request line's target, as far as it could be made out (refusals only).
    target: bytes | None = None
    #: The client waits for ``100 Continue`` before sending its body.
    expects_continue: bool = False


WAIT = Verdict("wait")
GO = Verdict("go")


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def judge(data: bytes, body_limit: int) -> Verdict:
    """Is ``data`` (what a client has sent so far on a connection, from the start of a
    request) a whole request, not yet one, or one to refuse? ``body_limit``: the
    largest body taken."""
    try:
        return _judge(data, body_limit)
    except _Refused as refused:
        return Verdict("refuse", refused.status, refused.message, target_of(data))


def _judge(data: bytes, body_limit: int) -> Verdict:
    start = 2 if data.startswith(b"\r\n") else 0  # one empty line before is allowed
    end = data.find(b"\r\n\r\n", start)
    if end < 0:
        return _head_so_far(data, start)
    if end - start > HEAD_BYTES:
        raise _Refused(413, "that request's head is too large")
    line_end = data.find(b"\r\n", start)
    version = _request_line(data[start:line_end])
    fields = data[line_end + 2:end + 2]  # each header line with its CRLF
    if _FIELDS.fullmatch(fields) is None:
        raise _Refused(400, "a header line is malformed (name:value, no folding, no"
                            " space before the colon)")
    named = _Fields(fields)
    hosts = named.values(b"host")
    if len(hosts) > 1 or (version == (1, 1) and not hosts):
        raise _Refused(400, "an HTTP/1.1 request carries exactly one Host header")
    body_at = end + 4
    if _is_chunked(named, version):
        if _chunks_whole(data, body_at, body_limit):
            return GO
    else:
        length = _content_length(named)
        if length > body_limit:
            raise _Refused(413, "that request is far too large")
        if len(data) - body_at >= length:
            return GO
    return Verdict("wait", expects_continue=any(
        value.lower() == b"100-continue" for value in named.values(b"expect")))


def _head_so_far(data: bytes, start: int) -> Verdict:
    """A head still arriving: refused at once if what came already cannot start one."""
    if len(data) - start >= HEAD_BYTES:
        raise _Refused(413, "that request's head is too large")
    so_far = data[start:start + HEAD_BYTES]
    if _bare_line_end(so_far):
        raise _Refused(400, "HTTP lines end with CRLF")
    line_end = so_far.find(b"\r\n")
    if line_end >= 0:
        _request_line(so_far[:line_end])
    return WAIT


def _bare_line_end(so_far: bytes) -> bool:
    """Does ``so_far`` (lines still arriving) hold a CR or LF not in a CRLF? (A CR at its
    very end may be one whose LF is on its way.)"""
    return _BARE_LINE_END.search(so_far[:-1] if so_far.endswith(b"\r") else so_far) \
        is not None


def _request_line(line: bytes) -> tuple[int, int]:
    """The HTTP version of a well-formed request line (else refused)."""
    parts = _REQUEST_LINE.fullmatch(line)
    if parts is None:
        raise _Refused(400, "the request line is malformed")
    method, target, major, minor = parts.groups()
    if method.upper() != method:
        raise _Refused(400, "methods are upper case")
    if not (target.startswith(b"/") or (target == b"*" and method == b"OPTIONS")) \
            or b"#" in target:
        raise _Refused(400, "the request's target is a path (no fragment)")
    version = (int(major), int(minor))
    if version not in ((1, 0), (1, 1)):
        raise _Refused(505, "this server speaks HTTP/1.0 and HTTP/1.1")
    return version


class _Fields:
    """The header lines of a head (each ``name:value`` CRLF, checked already), for the
    values of a few names. (Found by plain search in a lower-case copy: a third of the
    time of a case-blind regular expression, on every request.)"""

    def __init__(self, fields: bytes):
        self._fields = fields
        self._lower = b"\n" + fields.lower()  # every name now follows a "\n"

    def values(self, name: bytes) -> list[bytes]:
        """The values of every ``name`` header (lower case), without the spaces and
        tabs around them."""
        key = b"\n" + name + b":"
        found = []
        at = self._lower.find(key)
        while at >= 0:
            start = at + len(key)
            end = self._lower.find(b"\r\n", start)
            found.append(self._fields[start - 1:end - 1].strip(b" \t"))
            at = self._lower.find(key, end)
        return found


def _is_chunked(fields: _Fields, version: tuple[int, int]) -> bool:
    """Does the body come in chunks (RFC 9112 section 6.1, 6.3)? Refuses every framing
    that could be read two ways."""
    values = fields.values(b"transfer-encoding")
    if not values:
        return False
    if version == (1, 0):
        raise _Refused(400, "HTTP/1.0 has no Transfer-Encoding")
    if fields.values(b"content-length"):
        raise _Refused(400, "a request gives a Content-Length or Transfer-Encoding, not both")
    codings = [c.strip().lower() for value in values for c in value.split(b",") if c.strip()]
    if not codings or codings[-1] != b"chunked" or codings.count(b"chunked") > 1:
        raise _Refused(400, "a request's body is chunked last, and once")
    if len(codings) > 1:
        raise _Refused(501, "this server takes no transfer coding but chunked")
    return True


def _content_length(fields: _Fields) -> int:
    """The body's length (0 without a Content-Length); every spelling but digits, and
    Content-Lengths that disagree, refused."""
    values = fields.values(b"content-length")
    if not values:
        return 0
    if len(values) == 1 and values[0].isdigit() and len(values[0]) <= 12:
        return int(values[0])  # (as nearly every request gives it)
    if not all(value.isdigit() for value in values):  # (ASCII digits: bytes)
        raise _Refused(400, "Content-Length is digits only")
    lengths = {value.lstrip(b"0") or b"0" for value in values}
    if len(lengths) > 1:
        raise _Refused(400, "two Content-Length headers disagree")
    digits = lengths.pop()
    return int(digits) if len(digits) <= 12 else 10 ** 12  # (too large either way)


def _chunks_whole(data: bytes, at: int, body_limit: int) -> bool:
    """Has the chunked body starting at ``data[at]`` arrived to its end (RFC 9112
    section 7.1)? Malformed chunks are refused ``400``; more than ``body_limit`` bytes of
    it, sizes and trailers included, ``413``."""
    start = at
    while True:
        line_end = data.find(b"\r\n", at, at + CHUNK_LINE_BYTES)
        if line_end < 0:
            so_far = data[at:at + CHUNK_LINE_BYTES]
            if len(so_far) >= CHUNK_LINE_BYTES or not _CHUNK_LINE_SO_FAR.fullmatch(so_far):
                raise _Refused(400, "a chunk's size line is malformed")
            return False
        line = _CHUNK_LINE.fullmatch(data, at, line_end)
        if line is None:
            raise _Refused(400, "a chunk's size line is malformed")
        size_digits = line.group(1).lstrip(b"0") or b"0"
        size = int(size_digits, 16) if len(size_digits) <= 8 else body_limit + 1
        at = line_end + 2
        if size == 0:
            return _trailers_whole(data, at, start, body_limit)
        if at + size + 2 - start > body_limit:
            raise _Refused(413, "that request is far too large")
        after = data[at + size:at + size + 2]
        if not b"\r\n".startswith(after):
            raise _Refused(400, "a chunk is longer than its size says")
        if len(after) < 2:
            return False
        at += size + 2


def _trailers_whole(data: bytes, at: int, start: int, body_limit: int) -> bool:
    """Have the trailer lines after the last chunk, and the empty line ending them,
    arrived?"""
    while True:
        if at - start > body_limit:
            raise _Refused(413, "that request is far too large")
        line_end = data.find(b"\r\n", at, at + HEAD_BYTES)
        if line_end < 0:
            so_far = data[at:at + HEAD_BYTES]
            if len(so_far) >= HEAD_BYTES or _bare_line_end(so_far):
                raise _Refused(400, "a trailer line is malformed")
            return False
        if line_end == at:
            return True
        if _FIELD.fullmatch(data, at, line_end) is None:
            raise _Refused(400, "a trailer line is malformed")
        at = line_end + 2


def target_of(data: bytes) -> bytes | None:
    """The path a request's first line names, as far as it can be made out of a line
    however broken (its first word starting with ``/``, or the path of a full URL);
    None when there is none."""
    begin = 2 if data.startswith(b"\r\n") else 0
    line_end = data.find(b"\n", begin, begin + HEAD_BYTES)
    line = data[begin:line_end] if line_end >= 0 else data[begin:begin + HEAD_BYTES]
    for word in line.split()[:3]:
        if word.startswith(b"/"):
            return word
        if b"://" in word:
            path = urllib.parse.urlsplit(word).path
            return path or None
    return None


def under_api(target: bytes | None) -> bool:
    """Is ``target`` (a request's raw target) a route of the API, answered in JSON?"""
    if not target:
        return False
    path = urllib.parse.unquote_to_bytes(target.split(b"?", 1)[0])
    return path.startswith(b"/api/")


def answer(status: int, message: str, target: bytes | None) -> bytes:
    """The whole HTTP answer refusing a request (its connection then closes): the
    API's JSON ``{"code", "message"}`` for a target under ``/api/``, else the message
    as plain text; with the security headers every answer carries."""
    if under_api(target):
        body = json.dumps({"code": ERROR_CODES.get(status, "http_error"),
                           "message": message}, separators=(",", ":")).encode()
        kind = "application/json"
    else:
        body = message.encode()
        kind = "text/plain; charset=utf-8"
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Refused"
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {kind}",
             f"Content-Length: {len(body)}", "Connection: close",
             *(f"{name}: {value}" for name, value in guard.SECURITY_HEADERS.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
