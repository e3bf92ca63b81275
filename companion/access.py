"""Who may act for which seat: join links, phones, seat names, the host's PIN and login.

The access model (docs/security.md states it in five lines):

- A seat's join link (its QR code) holds a token of 128 random bits, written as 32
  upper-case hex digits so the whole URL fits a 29x29 QR code in alphanumeric mode.
- Each phone that opens it gets a grant of its own (a random id in a signed cookie), bound
  to that seat. A seat has one phone at a time, like a console's controller: a second
  phone is asked first, and taking the seat over ends the first phone's grant, which is
  remembered as *taken over* so that phone is told why it can no longer act. The host
  sees every seat's phone and can revoke it; replacing a seat's token revokes it too.
- Access lasts one game night. A new match from the lobby gives every seat a new join
  link (a photo of last match's code is dead; phones already joined play on); a start
  that resumes no match is a new night: new links, a new cookie key, no phones.
- Tokens, grants, names and the cookie key are kept in a small SQLite file next to the
  journal, so a restart that resumes the match being played keeps every phone joined.
- Every open of the file is a new *boot*: turn versions carry it (:attr:`SeatAccess.boot`),
  so an action sent before a restart is never taken for one sent after it.

The table code (:data:`TABLE_CODE_LETTERS` letters, :meth:`SeatAccess.check_table_code`)
is what a phone types at ``/join`` instead of scanning: it leads only to a seat whose join
code the table display shows anyway (one nobody has had tonight), and it is new each
match and each night.

The host PIN is new at every start. Wrong PINs (and wrong table codes) lock the client
that sent them, doubling with each failure past the first few; many clients together
lock everyone for a minute at most (:class:`Lockouts`). Each login is a session of its
own, ended by logging out.
"""
from __future__ import annotations

import hmac
import logging
import secrets
import sqlite3
import string
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from companion.damage import StoredFile, read_counter
from companion.errors import MutinyError

log = logging.getLogger(__name__)

TOKEN_BYTES = 16  # 128 bits
PIN_DIGITS = 6
#: Letters of the table code a phone types at /join: 26^4 = 456,976 codes.
TABLE_CODE_LETTERS = 4
#: Wrong PINs (or table codes) one client may send before it is locked out.
FREE_TRIES = 5
FIRST_LOCK_SECONDS = 30.0
MAX_LOCK_SECONDS = 900.0
#: Wrong PINs from all clients together, within :data:`GLOBAL_WINDOW` seconds, that lock
#: every client for :data:`GLOBAL_LOCK_SECONDS` (never longer: the real host waits a
#: minute at most for what others did).
GLOBAL_TRIES = 12
GLOBAL_WINDOW = 60.0
GLOBAL_LOCK_SECONDS = 60.0
#: Clients whose failures are remembered (the oldest unlocked ones are forgotten first).
CLIENTS_KEPT = 1024
#: A phone's grant ends this long after it joined, whatever else happens: a game night
#: (the seat cookie's own Max-Age is the same, so a copied cookie dies with it).
GRANT_SECONDS = 16 * 3600
#: How long a host's handover code (:meth:`HostPin.hand_over`) stays good, once.
HANDOVER_SECONDS = 120.0
#: A turn version is ``boot * BOOT_STRIDE + count``: the versions of two boots never meet.
BOOT_STRIDE = 1 << 24

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
CREATE TABLE IF NOT EXISTS phones (
    id     TEXT PRIMARY KEY,
    seat   INTEGER NOT NULL,
    joined REAL NOT NULL,
    device TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS taken_over (
    id   TEXT PRIMARY KEY,
    seat INTEGER NOT NULL,
    at   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
"""


def new_token() -> str:
    return secrets.token_hex(TOKEN_BYTES).upper()


def new_table_code() -> str:
    """Four random capital letters (``KQRT``): what a phone types at ``/join``."""
    return "".join(secrets.choice(string.ascii_uppercase) for _ in range(TABLE_CODE_LETTERS))


def typed_code(text: object) -> bytes | None:
    """A typed table code as it is compared: capitals, spaces and dashes dropped
    (``kq-rt`` is ``KQRT``); None for anything but a string."""
    if not isinstance(text, str):
        return None
    kept = "".join(c for c in text if not c.isspace() and c != "-").upper()
    # ("replace": a lone surrogate, valid in JSON, cannot be encoded otherwise)
    return kept.encode("utf-8", "replace")


class SeatAccess:
    """Join tokens, generations and names of a table's seats. Thread-safe.

    The file is written through on every change and read once, at open: every request
    and every live event asks for a seat's generation or names, and a copy in memory
    answers without a query (this process is the file's only writer)."""

    def __init__(self, path: str | Path, seats: int, clock: Callable[[], float] = time.time):
        self.seats = seats
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        # Checked before opening, like the journal (companion.damage): what the commit
        # note counts is the file's starts (its boot count, flushed before it is noted).
        stored = StoredFile(
            Path(path), "the seat access file", "every phone must join again by its"
            " seat's code (it holds no play: join links, phones, names, the cookie key)",
            counted="starts", count=read_counter("counters", "boot"))
        stored.open(lambda db: self._open(seats, stored.in_memory, db))
        stored.note(self.boot)

    def _open(self, seats: int, in_memory: bool, db: sqlite3.Connection) -> None:
        self._db = db
        self._db.executescript(SCHEMA)
        for seat in range(seats):
            self._db.execute("INSERT OR IGNORE INTO seats (seat, token, generation)"
                             " VALUES (?, ?, 0)", (seat, new_token()))
        #: This run's boot number (0 for a file in memory): see :data:`BOOT_STRIDE`.
        self.boot = 0 if in_memory else self._count_boot()
        self.secret_key = self._key("cookies")
        self.table_code = self._table_code()
        #: Wrong table codes, per client (as for the host PIN): :meth:`check_table_code`.
        self.code_tries = Lockouts("table codes")
        self._rows: dict[int, tuple[str, int, str | None]] = {
            seat: (token, generation, name) for seat, token, generation, name in
            self._db.execute("SELECT seat, token, generation, name FROM seats")}
        self._phones: dict[str, tuple[int, float, str]] = {
            phone: (seat, joined, device) for phone, seat, joined, device in
            self._db.execute("SELECT id, seat, joined, device FROM phones ORDER BY joined")}
        self._taken: dict[str, tuple[int, float]] = {
            phone: (seat, at) for phone, seat, at in
            self._db.execute("SELECT id, seat, at FROM taken_over")}

    def _count_boot(self) -> int:
        self._db.execute("INSERT INTO counters (name, value) VALUES ('boot', 1)"
                         " ON CONFLICT (name) DO UPDATE SET value = value + 1")
        return self._db.execute("SELECT value FROM counters WHERE name = 'boot'").fetchone()[0]

    def _key(self, name: str, new: bool = False) -> bytes:
        row = self._db.execute("SELECT value FROM keys WHERE name = ?", (name,)).fetchone()
        if row and not new:
            return bytes(row[0])
        value = secrets.token_bytes(32)
        self._db.execute("INSERT OR REPLACE INTO keys (name, value) VALUES (?, ?)",
                         (name, value))
        return value

    def _table_code(self, new: bool = False) -> str:
        """The table code kept in the file (so a resumed night keeps it), or a new one."""
        row = self._db.execute("SELECT value FROM keys WHERE name = 'table-code'").fetchone()
        if row and not new:
            return bytes(row[0]).decode()
        code = new_table_code()
        self._db.execute("INSERT OR REPLACE INTO keys (name, value) VALUES ('table-code', ?)",
                         (code.encode(),))
        return code

    def check_table_code(self, guess: object, client: str = "") -> bool:
        """Is ``guess`` this table's code (typed by a phone at ``/join``)? Wrong codes
        lock ``client`` out as wrong PINs do (:class:`Lockouts`): raises
        :class:`CodeLocked` while it is (a try while locked is not even compared)."""
        code = self.table_code.encode()
        return self.code_tries.attempt(
            client, lambda: (given := typed_code(guess)) is not None
            and hmac.compare_digest(given, code), CodeLocked)

    @property
    def first_version(self) -> int:
        """Where this boot's turn versions start: above every version of earlier boots."""
        return self.boot * BOOT_STRIDE

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

    def replace(self, seat: int, told: bool = True) -> str:
        """A new token for ``seat``; the old one and every phone of the seat stop
        working. With ``told`` (a lost phone replaced) the phone that held it is told
        it was taken over (:meth:`taken_over`), as when another phone takes the seat;
        without (a kick) it is simply not at a seat any more."""
        token = new_token()
        with self._lock:
            self._db.execute("UPDATE seats SET token = ?, generation = generation + 1"
                             " WHERE seat = ?", (token, seat))
            _old, generation, name = self._rows[seat]
            self._rows[seat] = (token, generation + 1, name)
            self._forget_taken([p for p, row in self._taken.items() if row[0] == seat])
            held = [p for p, row in self._phones.items() if row[0] == seat]
            if told:
                self._take_over(held, seat, self._clock())
            else:
                self._drop_phones(held)
        return token

    def new_link(self, seat: int) -> str:
        """A new join token for ``seat``, its phones kept: the old link stops working.
        The host page's QR code is always a new link (the seat is told of each phone
        that joins with it)."""
        token = new_token()
        with self._lock:
            self._set_token(seat, token)
        return token

    def _set_token(self, seat: int, token: str) -> None:
        # Callers hold the lock.
        self._db.execute("UPDATE seats SET token = ? WHERE seat = ?", (token, seat))
        _old, generation, name = self._rows[seat]
        self._rows[seat] = (token, generation, name)

    def new_match(self) -> None:
        """A match starts from the lobby: every seat gets a new join link (a photo of
        the last match's code is dead), and the table a new code; phones already
        joined play on."""
        for seat in range(self.seats):
            self.new_link(seat)
        with self._lock:
            self.table_code = self._table_code(new=True)

    def new_night(self) -> None:
        """A new game night: new join links, a new cookie key, no phones. Every cookie
        and link of an earlier night stops working; seat names are kept."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            for seat in range(self.seats):
                self._db.execute("UPDATE seats SET token = ?, generation = generation + 1"
                                 " WHERE seat = ?", (new_token(), seat))
            self._db.execute("DELETE FROM phones")
            self._db.execute("DELETE FROM taken_over")
            self.secret_key = self._key("cookies", new=True)
            self.table_code = self._table_code(new=True)
            self._db.execute("COMMIT")
            self._rows = {seat: (token, generation, name) for seat, token, generation, name
                          in self._db.execute("SELECT seat, token, generation, name"
                                              " FROM seats")}
            self._phones = {}
            self._taken = {}

    # -- phones -------------------------------------------------------------------------
    def join(self, token: str, device: str = "") -> tuple[int, str] | None:
        """A phone opened a join link: ``(seat, phone id)`` for a current token (the
        phone's own grant, to keep in its cookie), or None. A seat has one phone at a
        time: the phone that held it is *taken over* (:meth:`taken_over` says when).
        Whether to take a held seat over is the joining phone's question to answer
        first (the join page asks it)."""
        seat = self.seat_for(token)
        if seat is None:
            return None
        phone, joined = secrets.token_hex(16), self._clock()
        device = " ".join(device.split())[:40]
        with self._lock:
            if self.seat_for(token) != seat:  # another phone used the code meanwhile
                return None
            self._forget_taken([p for p, (_s, at) in self._taken.items()
                                if joined - at > GRANT_SECONDS])
            self._take_over([p for p, row in self._phones.items() if row[0] == seat],
                            seat, joined)
            self._db.execute("INSERT INTO phones (id, seat, joined, device) VALUES"
                             " (?, ?, ?, ?)", (phone, seat, joined, device))
            self._phones[phone] = (seat, joined, device)
            # A code is good once, like a console's pairing code: whoever saved it (a
            # photo of the seat's screen, the table display's code) cannot use it later
            # to take the seat over.
            self._set_token(seat, new_token())
        return seat, phone

    def taken_over(self, phone: object) -> tuple[int, float] | None:
        """``(seat, when)`` if another phone took this phone's seat over (tonight), else
        None: the phone is then told why it can no longer act."""
        row = self._taken.get(phone) if isinstance(phone, str) else None
        if row is None or row[0] >= self.seats or self._clock() - row[1] > GRANT_SECONDS:
            return None
        return row

    def phone_seat(self, phone: object) -> int | None:
        """The seat a phone's grant is for, or None (revoked, replaced, another night,
        or joined more than :data:`GRANT_SECONDS` ago)."""
        row = self._phones.get(phone) if isinstance(phone, str) else None
        if row is None or row[0] >= self.seats or self._clock() - row[1] > GRANT_SECONDS:
            return None
        return row[0]

    def phones(self, seat: int) -> list[dict[str, Any]]:
        """The phone holding ``seat`` (one at most), as the host page lists it: a short
        id (not the grant itself), when it joined and what browser it is."""
        return [{"id": phone[:8], "joined": joined, "device": device}
                for phone, (s, joined, device) in list(self._phones.items()) if s == seat]

    def revoke(self, seat: int, short_id: str) -> bool:
        """Let one phone of ``seat`` go (by the short id :meth:`phones` shows). The
        seat's code changes too: the phone cannot come back through any link it has
        seen, only through a code the host shows or the seat's own screen."""
        with self._lock:
            doomed = [p for p, row in self._phones.items()
                      if row[0] == seat and p[:8] == short_id]
            self._drop_phones(doomed)
            if doomed:
                self._set_token(seat, new_token())
        return bool(doomed)

    def _drop_phones(self, phones: list[str]) -> None:
        # Callers hold the lock.
        for phone in phones:
            self._db.execute("DELETE FROM phones WHERE id = ?", (phone,))
            self._phones.pop(phone, None)

    def _take_over(self, phones: list[str], seat: int, at: float) -> None:
        # Callers hold the lock. The phones lose the seat and are told so from now on.
        self._drop_phones(phones)
        for old in phones:
            self._db.execute("INSERT OR REPLACE INTO taken_over (id, seat, at)"
                             " VALUES (?, ?, ?)", (old, seat, at))
            self._taken[old] = (seat, at)

    def _forget_taken(self, phones: list[str]) -> None:
        # Callers hold the lock.
        for phone in phones:
            self._db.execute("DELETE FROM taken_over WHERE id = ?", (phone,))
            self._taken.pop(phone, None)

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
            if not self._closed:
                self._closed = True
                self._db.close()


class Lockouts:
    """Wrong tries per client (its address), for a secret a stranger might guess: the
    host PIN, the table code.

    After :data:`FREE_TRIES` wrong tries a client is locked for 30 s, doubling with each
    further failure up to 15 minutes. One client therefore cannot lock anyone else out.
    Many clients together (one stranger changing addresses) lock every client once
    :data:`GLOBAL_TRIES` wrong tries arrive within a minute, for
    :data:`GLOBAL_LOCK_SECONDS`, never longer, and the count starts again: whatever the
    clients, at most 12 guesses a minute reach the secret."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic):
        self.what = what  # "wrong PINs", for the log
        self._clock = clock
        self._clients: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._recent: list[float] = []  # times of the latest wrong tries, from anyone
        self._everyone_until = 0.0
        self._lock = threading.Lock()

    def locked_for(self, client: str = "") -> float:
        """Seconds until ``client``'s next try is allowed (0 when it is)."""
        now = self._clock()
        own = self._clients.get(client, (0, 0.0))[1]
        return max(0.0, own - now, self._everyone_until - now)

    def attempt(self, client: str, right: Callable[[], bool],
                locked: type[TooManyTries]) -> bool:
        """``right()``, counted: raises ``locked(seconds)`` while ``client`` is locked
        out (``right`` is not even called), forgets its failures when right, counts
        one when wrong."""
        with self._lock:
            wait = self.locked_for(client)
            if wait > 0:
                raise locked(wait)
            if right():
                self._clients.pop(client, None)
                return True
            self._failed(client)
            return False

    def _failed(self, client: str) -> None:
        now = self._clock()
        failures = self._clients.pop(client, (0, 0.0))[0] + 1
        until = 0.0
        if failures >= FREE_TRIES:
            until = now + min(MAX_LOCK_SECONDS,
                              FIRST_LOCK_SECONDS * 2 ** (failures - FREE_TRIES))
        self._clients[client] = (failures, until)
        while len(self._clients) > CLIENTS_KEPT:  # forget the oldest, unlocked first
            oldest = next((c for c, (_n, u) in self._clients.items() if u <= now),
                          next(iter(self._clients)))
            del self._clients[oldest]
        self._recent = [t for t in self._recent if t > now - GLOBAL_WINDOW] + [now]
        if len(self._recent) >= GLOBAL_TRIES:
            self._everyone_until = now + GLOBAL_LOCK_SECONDS
            self._recent = []
            log.warning("%d wrong %s within a minute from several clients; every try"
                        " waits %.0f s", GLOBAL_TRIES, self.what, GLOBAL_LOCK_SECONDS)


class HostPin:
    """The host PIN of this run, its lock-outs (:class:`Lockouts`) and the host's
    logins."""

    def __init__(self, pin: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.pin = pin or f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        self._clock = clock
        self._tries = Lockouts("PINs", clock)
        self._sessions: set[str] = set()
        self._handovers: dict[str, float] = {}  # one-time link -> when it stops working
        self._lock = threading.Lock()

    def locked_for(self, client: str = "") -> float:
        """Seconds until ``client``'s next try is allowed (0 when it is)."""
        return self._tries.locked_for(client)

    def check(self, guess: object, client: str = "") -> bool:
        """True for the right PIN. Raises :class:`PinLocked` while ``client`` is locked
        out (a try while locked is not even compared)."""
        # ("replace": a lone surrogate, valid in JSON, cannot be encoded otherwise)
        given = guess.strip().encode("utf-8", "replace") if isinstance(guess, str) else None
        return self._tries.attempt(
            client, lambda: given is not None and hmac.compare_digest(given, self.pin.encode()),
            PinLocked)

    # -- the host's logins ----------------------------------------------------------------
    def open_session(self) -> str:
        """A new login (after the right PIN): a random id for the host's cookie."""
        session = secrets.token_hex(16)
        with self._lock:
            self._sessions.add(session)
        return session

    def has_session(self, session: object) -> bool:
        """Is this a login of this run that was not logged out?"""
        return isinstance(session, str) and session in self._sessions

    def close_session(self, session: object) -> None:
        """Log out: this login stops working at once."""
        if isinstance(session, str):
            with self._lock:
                self._sessions.discard(session)

    # -- handing host powers to another phone ---------------------------------------------
    def hand_over(self) -> str:
        """A one-time token a logged-in host shows as a QR code, so a phone at the table
        becomes a host without the PIN ever reaching a screen of the network. It works
        once, for :data:`HANDOVER_SECONDS`; a new one ends any earlier one."""
        token = secrets.token_hex(TOKEN_BYTES).upper()
        with self._lock:
            self._handovers = {token: self._clock() + HANDOVER_SECONDS}
        return token

    def is_handover(self, token: object) -> bool:
        """Is ``token`` a handover still to be taken (without taking it)?"""
        until = self._handovers.get(token) if isinstance(token, str) else None
        return until is not None and self._clock() < until

    def take_handover(self, token: object) -> str | None:
        """A new login for the phone that took handover ``token``, or None (used,
        replaced or expired)."""
        with self._lock:
            until = self._handovers.pop(token, None) if isinstance(token, str) else None
        if until is None or self._clock() >= until:
            return None
        return self.open_session()


class TooManyTries(MutinyError, PermissionError):
    """Too many wrong tries from this client: try again after ``retry_after`` seconds."""

    what = "tries"

    def __init__(self, retry_after: float):
        super().__init__(f"too many wrong {self.what}; try again in {retry_after:.0f} s")
        self.retry_after = retry_after


class PinLocked(TooManyTries):
    """Too many wrong PINs: try again after ``retry_after`` seconds."""

    what = "PINs"


class CodeLocked(TooManyTries):
    """Too many wrong table codes: try again after ``retry_after`` seconds."""

    what = "codes"
