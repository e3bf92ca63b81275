"""Answers gzipped for a browser that takes it (companion/web/compress.py): pages and
JSON, never the live stream, never a short answer."""
from __future__ import annotations

import gzip

from companion.web.compress import SMALLEST
from tests.web.conftest import join

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_pages_and_json_are_gzipped_when_the_browser_takes_them(app, table, host):
    table.start("moon-yeti", 4, seed="gzip")
    phone = join(app, table, 0)
    for client, path, kind in ((phone, "/seat/", "text/html"), (phone, "/table", "text/html"),
                               (phone, "/api/seat/view", "application/json"),
                               (phone, "/api/public/view", "application/json"),
                               (host, "/api/host/view", "application/json")):
        plain = client.get(path)
        packed = client.get(path, headers=GZIP)
        assert plain.status_code == packed.status_code == 200, path
        assert packed.mimetype == kind and packed.headers["Content-Encoding"] == "gzip", path
        assert "Content-Encoding" not in plain.headers, path
        assert "Accept-Encoding" in packed.headers["Vary"] == plain.headers["Vary"], path
        assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data), path
        body = gzip.decompress(packed.data)
        if kind == "application/json":  # the same data (a payload may move on between asks)
            assert body[:1] == plain.data[:1] == b"{", path
        else:
            assert body.startswith(b"<!doctype html>"), path


def test_the_live_stream_and_short_answers_go_as_they_are(app, table):
    table.start("moon-yeti", 4, seed="gzip")
    phone = join(app, table, 0)
    stream = phone.get("/api/seat/stream", headers=GZIP, buffered=False)
    try:
        assert stream.mimetype == "text/event-stream"
        assert "Content-Encoding" not in stream.headers
        assert next(iter(stream.response)).startswith(b"retry:")
    finally:
        stream.close()
    version = phone.get("/api/seat/view").json["version"]
    reply = phone.post("/api/seat/act", json={"action": {"type": "nothing"}, "version": version},
                       headers=GZIP)
    assert len(reply.data) < SMALLEST
    assert "Content-Encoding" not in reply.headers and "Vary" not in reply.headers


def test_static_files_are_not_gzipped_twice(client):
    reply = client.get("/static/seat.js", headers=GZIP)
    assert reply.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(reply.data).startswith(b"//")
