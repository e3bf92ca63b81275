"""A real `mutiny serve` process and a small HTTP client with cookies, for the suite."""
from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

MUTINY = Path(sys.executable).with_name("mutiny")
PIN_LINE = re.compile(r"host page \S+, PIN (\d{6})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cut(Exception):
    """The server went away in the middle of a request (it was killed)."""


class Serve:
    """One `mutiny serve --backend sim` process; its whole output is kept."""

    def __init__(self, data_dir: Path, port: int, seats: int = 8, *extra: str):
        self.data_dir = Path(data_dir)
        self.port = port
        self.proc = subprocess.Popen(
            [str(MUTINY), "serve", "--backend", "sim", "--seats", str(seats), "--data-dir",
             str(data_dir), "--port", str(port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self._chunks: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._chunks.append(line)

    @property
    def output(self) -> str:
        return b"".join(self._chunks).decode("utf-8", "replace")

    @property
    def pin(self) -> str:
        found = PIN_LINE.search(self.output)
        assert found, f"no PIN in the server log:\n{self.output}"
        return found.group(1)

    def wait_ready(self, limit: float = 120.0) -> "Serve":
        """Until the server answers and has logged its PIN (it does so just before
        serving)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._reader.join(5)
                raise AssertionError(f"serve exited {self.proc.returncode}:\n{self.output}")
            if PIN_LINE.search(self.output):
                try:
                    status, _, _ = Client(self.port, timeout=5).get("/healthz")
                    if status == 200:
                        return self
                except Cut:
                    pass
            time.sleep(0.05)
        raise AssertionError(f"serve never became ready:\n{self.output}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the plug is pulled."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self._reader.join(10)

    def stop(self) -> int:
        """SIGTERM, the polite way; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(60)
        self._reader.join(10)
        return self.proc.returncode

    def tokens(self) -> dict[int, str]:
        """Each seat's join token, read from the server's access file."""
        db = sqlite3.connect(self.data_dir / "access.sqlite3", timeout=30)
        try:
            return dict(db.execute("SELECT seat, token FROM seats").fetchall())
        finally:
            db.close()


class Client:
    """One browser: a keep-alive connection and its cookies."""

    def __init__(self, port: int, timeout: float = 60.0, source: str | None = None):
        """``source``: the loopback address it connects from (127.0.0.2 and up: another
        device on the Wi-Fi, as the server sees it)."""
        self.port = port
        self.timeout = timeout
        self.source = source
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None
        self.raw_set_cookies: list[str] = []

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        head = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            head.setdefault("Content-Type", "application/json")
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=self.timeout,
                    source_address=(self.source, 0) if self.source else None)
            self._conn.request(method, path, data, head)
            reply = self._conn.getresponse()
            content = reply.read()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise Cut(f"{method} {path}: {exc!r}") from exc
        for value in reply.msg.get_all("Set-Cookie") or []:
            self.raw_set_cookies.append(value)
            name, _, rest = value.partition("=")
            cookie_value = rest.split(";", 1)[0]
            if "Max-Age=0" in value or "expires=Thu, 01 Jan 1970" in value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = cookie_value
        if reply.getheader("Connection", "").lower() == "close":
            self.close()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, content

    def get(self, path: str, **kw: Any) -> tuple[int, dict[str, str], bytes]:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any):
        return self.request("POST", path, body if body is not None else {}, **kw)

    def json(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, _, content = self.request(method, path, body)
        try:
            return status, json.loads(content)
        except ValueError:
            return status, content

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
