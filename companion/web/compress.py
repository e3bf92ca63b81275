"""Answers sent gzipped to a browser that takes it: pages, JSON, scripts and styles.

A phone on the Pi's Wi-Fi pays for every byte twice: in air time shared by the whole
table, and in the time before its page can draw. A seat's page and its payloads are
JSON and HTML of 5-20 KB that gzip to a fifth of that, in well under a millisecond.

Flask's ``after_request`` hook gzips an answer when all of these hold:

- the browser said it accepts gzip (``Accept-Encoding``);
- the answer is one of :data:`KINDS` and at least :data:`SMALLEST` bytes long: a short
  answer (``{"ok":true,"version":12}``) would grow, and so it is left exactly as it was,
  which keeps the quick path's seat actions the same as Flask's byte for byte
  (``companion/web/quick.py``, ``tests/web/test_quick.py``);
- it is not streamed: the live event stream (``text/event-stream``) goes out event by
  event as each is written, and gzip would hold events back until a block fills;
- it is not compressed already (static files come gzipped from
  :mod:`companion.web.static_files`, which keeps each one packed in memory).

Every answer that could be sent either way says ``Vary: Accept-Encoding``.
"""
from __future__ import annotations

import gzip

from flask import Flask, Response, request

#: What is worth compressing: text the pages read.
KINDS = frozenset({"text/html", "application/json", "text/javascript",
                   "application/javascript", "text/css", "text/csv", "text/plain",
                   "image/svg+xml"})
#: Below this many bytes an answer is sent as it is (gzip's own header and trailer are
#: 18 bytes; a short JSON answer would hardly shrink).
SMALLEST = 512
#: zlib's level 6: nearly level 9's size at a third of its time, on a Pi's core.
LEVEL = 6


def worth_packing(response: Response) -> bool:
    """Whether ``response`` is text of one of :data:`KINDS`, whole, long enough and not
    compressed already (whatever the browser takes)."""
    if response.direct_passthrough or response.is_streamed:
        return False
    if response.status_code < 200 or response.status_code in (204, 206, 304):
        return False
    if "Content-Encoding" in response.headers or response.mimetype not in KINDS:
        return False
    return (response.content_length or 0) >= SMALLEST


def pack(response: Response) -> Response:
    """The after-request hook: ``response`` gzipped when the browser takes it (see the
    module for when)."""
    if not worth_packing(response):
        return response
    response.vary.add("Accept-Encoding")
    if request.accept_encodings["gzip"] <= 0:
        return response
    response.set_data(gzip.compress(response.get_data(), compresslevel=LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    if response.headers.get("ETag"):
        # The same entity-tag may not name two different bodies (RFC 9110, 8.8.3).
        tag, weak = response.get_etag()
        if tag is not None:  # a tag there is (the header above)
            response.set_etag(tag + "-gz", weak=bool(weak))
    return response


def install(app: Flask) -> None:
    """Gzip ``app``'s answers for browsers that take it (see the module)."""
    app.after_request(pack)
