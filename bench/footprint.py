"""footprint: peak memory of `mutiny serve` with 8 simulated seats and 10 live streams,
and the time from starting the command to its first answered request."""
from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEATS = 8
MUTINY = Path(sys.executable).with_name("mutiny")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers=headers or {})
    return conn, conn.getresponse()


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(presses: int = 60) -> dict[str, float]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        proc = subprocess.Popen([str(MUTINY), "serve", "--backend", "sim", "--seats", str(SEATS),
                                 "--game", "moon-yeti", "--data-dir", tmp, "--port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            first_answer = _wait_answer(port, started)
            streams = _open_streams(port, Path(tmp) / "access.sqlite3")
            for n in range(presses):
                _click(port, n % SEATS)
            time.sleep(0.5)
            rss = _peak_rss_mb(proc.pid)
            for conn, _reply in streams:
                conn.close()
        finally:
            proc.terminate()
            proc.wait(20)
    return {"start_to_first_answer_s": first_answer, "peak_rss_mb": rss}


def _wait_answer(port: int, started: float) -> float:
    while time.monotonic() - started < 60:
        try:
            conn, reply = _get(port, "/healthz")
            reply.read()
            conn.close()
            if reply.status == 200:
                return time.monotonic() - started
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("mutiny serve never answered")


def _open_streams(port: int, access: Path) -> list:
    streams = []
    for token in _tokens(access):
        conn, reply = _get(port, "/J/" + token)
        reply.read()
        cookie = reply.getheader("Set-Cookie").split(";")[0]
        conn.close()
        streams.append(_get(port, "/api/seat/stream", {"Cookie": cookie}))
    streams += [_get(port, "/api/public/stream") for _ in range(2)]
    return streams


def _tokens(access: Path) -> list[str]:
    """The seats' join tokens, from the access file beside the journal (what the seats'
    QR codes show)."""
    with sqlite3.connect(f"file:{access}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT token FROM seats ORDER BY seat")]


def _click(port: int, seat: int) -> None:
    for down in (True, False):
        body = json.dumps({"seat": seat, "button": "select", "down": down})
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/sim/press", body, {"Content-Type": "application/json"})
        conn.getresponse().read()
        conn.close()
        time.sleep(0.04)
