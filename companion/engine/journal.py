"""The journal: every match and every accepted action, append-only, in SQLite.

An action counts once its row is on disk: the database runs in WAL mode with
``synchronous=FULL``, and a match writes its entries (the action and the chance steps it
set off) in one transaction before it swaps its new state in. Nothing is ever updated
or deleted; host undo is itself an entry. Loading a match replays its entries.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.engine.chance import Clock
from companion.engine.match import Entry, Match, canonical
from companion.engine.rules import Game
from companion.errors import ActionRejected, JournalError

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    seats    INTEGER NOT NULL,
    names    TEXT NOT NULL,
    options  TEXT NOT NULL,
    seed     TEXT NOT NULL,
    created  REAL NOT NULL,
    rules    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS entries (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS finished (
    match_id TEXT PRIMARY KEY REFERENCES matches(id),
    at       REAL NOT NULL
);
"""


class Journal:
    """An append-only journal of matches in one SQLite file. Thread-safe.

    Use as a context manager, or call :meth:`close` (idempotent).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            if str(path) != ":memory:":  # an in-memory journal, for tests
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._add_rules_column()
        except sqlite3.DatabaseError as exc:
            if getattr(self, "_db", None) is not None:
                self._db.close()
            raise JournalError(
                f"cannot open the journal {self.path}: {exc}. If the file is damaged,"
                f" move it aside (the companion starts a new one) and keep it for"
                f" `sqlite3 {self.path.name} .recover`.") from exc
        self._closed = False

    def _add_rules_column(self) -> None:
        """Journals written before games had rules versions: every match in them was
        recorded under version 1 of its game's rules."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "rules" not in columns:
            self._db.execute(
                "ALTER TABLE matches ADD COLUMN rules INTEGER NOT NULL DEFAULT 1")

    # -- writing ----------------------------------------------------------------------
    def begin(self, match: Match, entries: list[Entry] = ()) -> None:
        """Record a new match's header (its seats, options and seed) and its first
        entries (the deal) in one transaction: a match is never on disk without them."""
        header = ("INSERT INTO matches (id, game, seats, names, options, seed, created,"
                  " rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  [(match.id, match.game.spec.id, match.seats, json.dumps(match.names),
                    canonical(match.options), match.seed, time.time(),
                    match.game.spec.rules)])
        self._execute(header, self._entry_rows(match.id, entries))

    def append(self, match_id: str, entries: list[Entry]) -> None:
        """Write ``entries`` in one transaction; returns once they are on disk."""
        self._execute(self._entry_rows(match_id, entries))

    @staticmethod
    def _entry_rows(match_id: str, entries: list[Entry]) -> tuple[str, list[tuple[Any, ...]]]:
        now = time.time()
        return ("INSERT INTO entries (match_id, seq, actor, action, at) VALUES (?, ?, ?, ?, ?)",
                [(match_id, e.seq, json.dumps(e.actor), canonical(e.action), now)
                 for e in entries])

    def finish(self, match_id: str) -> None:
        """Mark a match as over, so a restart does not offer to resume it."""
        self._execute(("INSERT OR IGNORE INTO finished (match_id, at) VALUES (?, ?)",
                       [(match_id, time.time())]))

    def _execute(self, *statements: tuple[str, list[tuple[Any, ...]]]) -> None:
        """Run each ``(sql, rows)`` in one transaction."""
        with self._lock:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for sql, rows in statements:
                    if rows:
                        self._db.executemany(sql, rows)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"could not write the journal: {exc}") from exc

    # -- reading ----------------------------------------------------------------------
    def match_ids(self) -> list[str]:
        """Every match in the journal, oldest first."""
        rows = self._query("SELECT id FROM matches ORDER BY created, rowid")
        return [r[0] for r in rows]

    def unfinished_ids(self) -> list[str]:
        """Matches not marked finished, oldest first."""
        rows = self._query("SELECT id FROM matches WHERE id NOT IN"
                           " (SELECT match_id FROM finished) ORDER BY created, rowid")
        return [r[0] for r in rows]

    def header(self, match_id: str) -> dict[str, Any]:
        rows = self._query(
            "SELECT game, seats, names, options, seed, created, rules FROM matches"
            " WHERE id = ?", (match_id,))
        if not rows:
            raise JournalError(f"no match {match_id!r} in {self.path}")
        game, seats, names, options, seed, created, rules = rows[0]
        try:
            return {"id": match_id, "game": game, "seats": seats, "names": json.loads(names),
                    "options": json.loads(options), "seed": seed, "created": created,
                    "rules": rules}
        except (TypeError, ValueError) as exc:
            raise self._damaged(exc) from exc

    def entries(self, match_id: str) -> list[Entry]:
        rows = self._query(
            "SELECT seq, actor, action FROM entries WHERE match_id = ? ORDER BY seq",
            (match_id,))
        try:
            entries = [Entry(seq, json.loads(actor), json.loads(action))
                       for seq, actor, action in rows]
        except (TypeError, ValueError) as exc:  # a row the journal never wrote
            raise self._damaged(exc) from exc
        for entry in entries:
            if (type(entry.seq) is not int or not isinstance(entry.action, dict)
                    or not isinstance(entry.actor, (int, str))):
                raise self._damaged(f"entry {entry.seq!r} of match {match_id} is garbled")
        return entries

    def load(self, match_id: str, games: Callable[[str], Game],
             clock: Clock | None = None,
             each: Callable[[Match], None] | None = None) -> Match:
        """The match replayed from its entries, attached to this journal.

        ``games`` maps a game id to its rules (``companion.games.get``).
        """
        head = self.header(match_id)
        game = games(head["game"])
        if head["rules"] != game.spec.rules:
            raise JournalError(
                f"match {match_id} in {self.path} was recorded under version"
                f" {head['rules']} of the {game.spec.title} rules, and this companion"
                f" plays version {game.spec.rules}, which records play differently; it"
                f" cannot be resumed. Start a new match (the old one stays in the"
                f" journal, untouched).")
        try:
            match = Match.replay(game, head["seats"], head["options"],
                                 head["seed"], head["names"], match_id,
                                 self.entries(match_id), clock=clock, each=each)
        except ActionRejected as exc:
            if exc.code == "journal_cut":
                raise JournalError(
                    f"match {match_id} in {self.path} was cut off before a chance step"
                    f" (a roll, a deal) was written, so it cannot be resumed; start a new"
                    f" match (this one stays in the journal)") from exc
            raise JournalError(
                f"match {match_id} in {self.path} does not replay ({exc.message});"
                f" the journal was written by another version of its rules") from exc
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            # A recorded outcome the rules cannot even apply: refused, never loaded wrong.
            raise JournalError(
                f"match {match_id} in {self.path} does not replay ({exc!r});"
                f" the journal was written by another version of its rules") from exc
        match.journal = self
        return match

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                raise self._damaged(exc) from exc

    def _damaged(self, why: object) -> JournalError:
        return JournalError(
            f"the journal {self.path} is damaged ({why}). Move it aside (the companion"
            f" starts a new one) and keep it for `sqlite3 {self.path.name} .recover`.")

    # -- closing ----------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
