"""Who may act for which seat: join tokens, seat names, the host PIN.

A seat's join token (in its QR code) is 128 random bits, written as 32 upper-case hex
digits so the whole join URL fits a 29x29 QR code in alphanumeric mode. Tokens, seat
names and the key that signs cookies are kept in a small SQLite file next to the journal,
so phones stay joined across a restart. Replacing a seat's token bumps the seat's
generation: every cookie made from the old token stops working at once.

The host PIN is new at every start; wrong PINs lock the login for a while, doubling with
each failure past the first few.
"""
from __future__ import annotations

import hmac
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable

from companion.errors import MutinyError

TOKEN_BYTES = 16  # 128 bits
PIN_DIGITS = 6
FREE_TRIES = 5
FIRST_LOCK_SECONDS = 30.0
MAX_LOCK_SECONDS = 900.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS seats (
    seat       INTEGER PRIMARY KEY,
    token      TEXT NOT NULL,
    generation INTEGER NOT NULL,
    name       TEXT
);
CREATE TABLE IF NOT EXISTS keys (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
"""


def new_token() -> str:
    return secrets.token_hex(TOKEN_BYTES).upper()


class SeatAccess:
    """Join tokens, generations and names of a table's seats. Thread-safe.

    The file is written through on every change and read once, at open: every request
    and every live event asks for a seat's generation or names, and a copy in memory
    answers without a query (this process is the file's only writer)."""

    def __init__(self, path: str | Path, seats: int):
        self.seats = seats
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.executescript(SCHEMA)
        for seat in range(seats):
            self._db.execute("INSERT OR IGNORE INTO seats (seat, token, generation)"
                             " VALUES (?, ?, 0)", (seat, new_token()))
        self.secret_key = self._key("cookies")
        self._rows: dict[int, tuple[str, int, str | None]] = {
            seat: (token, generation, name) for seat, token, generation, name in
            self._db.execute("SELECT seat, token, generation, name FROM seats")}

    def _key(self, name: str) -> bytes:
        row = self._db.execute("SELECT value FROM keys WHERE name = ?", (name,)).fetchone()
        if row:
            return bytes(row[0])
        value = secrets.token_bytes(32)
        self._db.execute("INSERT INTO keys (name, value) VALUES (?, ?)", (name, value))
        return value

    def token(self, seat: int) -> str:
        """The seat's current join token."""
        row = self._rows.get(seat)
        if row is None:
            raise MutinyError(f"no seat {seat}")
        return row[0]

    def generation(self, seat: int) -> int:
        """How many times the seat's token was replaced (-1 for no such seat)."""
        row = self._rows.get(seat)
        return -1 if row is None else row[1]

    def seat_for(self, token: str) -> int | None:
        """The seat whose current token this is (compared in constant time), or None."""
        given = token.strip().upper().encode()
        found = None
        for seat, (current, _generation, _name) in list(self._rows.items()):
            if hmac.compare_digest(given, current.encode()) and seat < self.seats:
                found = seat
        return found

    def replace(self, seat: int) -> str:
        """A new token for ``seat``; the old one and its cookies stop working."""
        token = new_token()
        with self._lock:
            self._db.execute("UPDATE seats SET token = ?, generation = generation + 1"
                             " WHERE seat = ?", (token, seat))
            _old, generation, name = self._rows[seat]
            self._rows[seat] = (token, generation + 1, name)
        return token

    def names(self) -> list[str]:
        """Every seat's name ("Seat N" for a seat nobody named)."""
        rows = self._rows
        return [(rows[s][2] if s in rows else None) or f"Seat {s + 1}"
                for s in range(self.seats)]

    def rename(self, seat: int, name: str) -> None:
        with self._lock:
            self._db.execute("UPDATE seats SET name = ? WHERE seat = ?", (name, seat))
            token, generation, _old = self._rows[seat]
            self._rows[seat] = (token, generation, name)

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


class HostPin:
    """The host PIN of this run, with a lock-out that grows with each wrong guess."""

    def __init__(self, pin: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.pin = pin or f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        self._clock = clock
        self._failures = 0
        self._locked_until = 0.0
        self._lock = threading.Lock()

    def locked_for(self) -> float:
        """Seconds until the next try is allowed (0 when it is)."""
        return max(0.0, self._locked_until - self._clock())

    def check(self, guess: object) -> bool:
        """True for the right PIN. Raises :class:`PinLocked` while locked out."""
        with self._lock:
            wait = self.locked_for()
            if wait > 0:
                raise PinLocked(wait)
            # ("replace": a lone surrogate, valid in JSON, cannot be encoded otherwise)
            given = guess.strip().encode("utf-8", "replace") if isinstance(guess, str) else None
            if given is not None and hmac.compare_digest(given, self.pin.encode()):
                self._failures = 0
                return True
            self._failures += 1
            if self._failures >= FREE_TRIES:
                extra = self._failures - FREE_TRIES
                self._locked_until = self._clock() + min(MAX_LOCK_SECONDS,
                                                         FIRST_LOCK_SECONDS * 2 ** extra)
            return False


class PinLocked(MutinyError, PermissionError):
    """Too many wrong PINs: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: float):
        super().__init__(f"too many wrong PINs; try again in {retry_after:.0f} s")
        self.retry_after = retry_after
