"""The stream clients of press-to-phones (bench/sse_clients.py): events split across
reads are found whole, and the benchmark runs end to end with them."""
from __future__ import annotations

from bench import press_to_phones
from bench.sse_clients import Stream


def unconnected() -> Stream:
    stream = Stream.__new__(Stream)  # the parser alone, without a socket
    stream.k, stream.buffer, stream.head_done, stream.events = 0, b"", False, 0
    return stream


def test_an_event_counts_once_its_last_bytes_arrive():
    stream = unconnected()
    assert stream.feed(b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n") == []
    assert stream.feed(b"\r\nid: 4\nevent: payload\ndata: {\"a\":") == []
    assert stream.feed(b" 1}\n\n: keep-alive\n\nid: 5\nevent: payload\ndata: {}\n") == [
        (4, b'{"a": 1}')]
    assert stream.feed(b"\n") == [(5, b"{}")]
    assert stream.events == 2


def test_press_to_phones_runs_with_them():
    found = press_to_phones.run(presses=3)
    assert len(found) == 3 and all(ms > 0 for ms in found)
