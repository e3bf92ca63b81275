"""The journal: every match and every accepted action, append-only, in SQLite.

An action counts once its row is on disk: the database runs in WAL mode with
``synchronous=FULL``, and a match writes its entries (the action and the chance steps it
set off) in one transaction, and puts its state back if that fails. Nothing is ever updated
or deleted; host undo is itself an entry. Loading a match replays its entries.

Damage is never silent. SQLite recovers a WAL up to its last frame with a good checksum
and drops the rest without a word, which is right after a crash (only the transaction
being written is lost, and it was never acknowledged) and wrong after damage (a WAL cut
or bit-flipped further back loses committed actions). So after every commit the journal
notes how many rows it holds in a small side file, ``<journal>.commits``, and each entry
carries a checksum of its own text (SQLite keeps none of a row's). At open the journal
is checked before anything else touches it (:mod:`companion.damage`, shared with the
table's other files): a journal holding fewer rows than its note, one SQLite cannot read
or that fails SQLite's own check, or an entry whose text no longer matches its checksum
is refused with what was found and what to do, and its files are moved aside, as found.
See docs/security.md, "Damage".
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Sequence

from companion.damage import (  # noqa: F401 (read through the journal)
    SIDE_FILES,
    CommitNote,
    StoredFile,
    count_rows,
    keep_aside,
    wal_damage,
    wal_in_use,
)
from companion.engine.chance import Clock
from companion.engine.match import Entry, Match, canonical
from companion.engine.rules import Game
from companion.engine.sidekick import Sidekick
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
    crc      INTEGER,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS finished (
    match_id TEXT PRIMARY KEY REFERENCES matches(id),
    at       REAL NOT NULL
);
"""


#: The tables whose rows the commit note counts.
TABLES = ("matches", "entries", "finished")
#: Pages the WAL holds before SQLite checkpoints it back to its start (SQLite's
#: default is 1,000: 4 MB, a long stall on an SD card every few hundred actions, and
#: four times the layout at each open). At 256 (1 MB) a checkpoint comes every hundred
#: actions or so and costs a quarter as much (docs/performance.md, "Why each speed
#: trick is there").
WAL_PAGES = 256
#: What the commit note counts: every row of :data:`TABLES`.
_count_rows = count_rows(*TABLES)
__all__ = ["Journal", "SIDE_FILES", "entry_crc", "keep_aside", "wal_damage", "wal_in_use"]


def entry_crc(match_id: bytes, seq: int, actor: bytes, action: bytes) -> int:
    """The checksum kept with each entry: a CRC-32 of its text as stored (UTF-8), which
    finds any one byte changed, in its action or in the checksum itself."""
    return zlib.crc32(b"\x1f".join((match_id, str(seq).encode(), actor, action)))


def _entries_unchanged(db: sqlite3.Connection) -> str | None:
    """The first entry whose text no longer matches its checksum, said, or None. Entries
    written before journals kept checksums (``crc`` NULL) are not checked here; their
    JSON and their replay still are when they are loaded."""
    if "crc" not in {r[1] for r in db.execute("PRAGMA table_info(entries)")}:
        return None  # a journal from before the checksums: the column comes at open
    db.text_factory = bytes  # (a changed byte may no longer be UTF-8)
    try:
        for match_id, seq, actor, action, crc in db.execute(
                "SELECT match_id, seq, actor, action, crc FROM entries"
                " WHERE crc IS NOT NULL"):
            texts = (match_id, actor, action)
            if (type(seq) is not int or not all(isinstance(t, bytes) for t in texts)
                    or entry_crc(match_id, seq, actor, action) != crc):
                name = (match_id.decode(errors="replace") if isinstance(match_id, bytes)
                        else match_id)
                return (f"entry {seq} of match {name} no longer matches the checksum"
                        f" written with it: a byte of it changed on disk")
    finally:
        db.text_factory = str
    return None


class Journal:
    """An append-only journal of matches in one SQLite file. Thread-safe.

    Use as a context manager, or call :meth:`close` (idempotent).
    """

    def __init__(self, path: str | Path, wal_pages: int = WAL_PAGES):
        """``wal_pages``: see :data:`WAL_PAGES` (a test that reads the WAL's bytes may
        want every commit in one pass over it)."""
        self.path = Path(path)
        self._wal_pages = wal_pages
        self._lock = threading.Lock()
        self._note: CommitNote | None = None
        self._rows = 0
        self._sidekick = Sidekick("journal-sidekick")
        self._file = StoredFile(
            self.path, "the journal", "a new journal, the match being played not resumed",
            count=_count_rows, also=_entries_unchanged, wal_checksums=True,
            error=JournalError)
        self._db = self._file.open(self._set_up)
        self._note = self._file.note(self._rows, keep=True)
        self._closed = False

    def _set_up(self, db: sqlite3.Connection) -> None:
        self._db = db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        self._add_columns()
        if not self._file.in_memory:  # (an in-memory journal, for tests)
            self._rows = _count_rows(db)
            self._lay_out_wal()

    def _lay_out_wal(self) -> None:
        """Write the WAL out to its full size once, at open, so that no commit grows it.

        SQLite deletes the WAL when the journal closes, and while a WAL grows, each
        commit's fsync must also flush the file's new size through the file system's
        own journal: about twice as slow a commit as one that overwrites frames in place
        (``bench/journal_bench.py``; the figures in docs/performance.md, "Why each
        speed trick is there"; on an SD card it is one more flash write each time). SQLite checkpoints the WAL back to its start once
        it holds ``wal_pages`` pages, so that size is all it ever needs: one
        throwaway transaction of that size is written, and the checkpoint that follows
        sends the next commit to the front (its pages land on the database's free list,
        which the next open's layout reuses)."""
        pages = self._wal_pages
        self._db.execute(f"PRAGMA wal_autocheckpoint={pages:d}")
        page = self._db.execute("PRAGMA page_size").fetchone()[0]
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size >= page * pages:
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("CREATE TABLE wal_layout (filler BLOB)")
        self._db.execute("INSERT INTO wal_layout VALUES (zeroblob(?))", (page * pages,))
        self._db.execute("DROP TABLE wal_layout")
        self._db.execute("COMMIT")
        self._db.execute("PRAGMA wal_checkpoint(RESTART)")
        self._db.execute("PRAGMA shrink_memory")  # the filler's pages out of the cache

    def _add_columns(self) -> None:
        """Journals written before games had rules versions: every match in them was
        recorded under version 1 of its game's rules. Journals written before entries
        had checksums: their entries keep none (``crc`` NULL), later ones have one."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "rules" not in columns:
            self._db.execute(
                "ALTER TABLE matches ADD COLUMN rules INTEGER NOT NULL DEFAULT 1")
        if "crc" not in {row[1] for row in self._db.execute("PRAGMA table_info(entries)")}:
            self._db.execute("ALTER TABLE entries ADD COLUMN crc INTEGER")

    # -- writing ----------------------------------------------------------------------
    def begin(self, match: Match, entries: Sequence[Entry] = ()) -> None:
        """Record a new match's header (its seats, options and seed) and its first
        entries (the deal) in one transaction: a match is never on disk without them."""
        header = ("INSERT INTO matches (id, game, seats, names, options, seed, created,"
                  " rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  [(match.id, match.game.spec.id, match.seats, json.dumps(match.names),
                    canonical(match.options), match.seed, time.time(),
                    match.game.spec.rules)])
        self._execute(header, self._entry_rows(match.id, entries))

    def append(self, match_id: str, entries: list[Entry], finished: bool = False,
               alongside: Callable[[], None] | None = None) -> None:
        """Write ``entries`` in one transaction; returns once they are on disk.
        ``finished``: they end the match, which is marked over in the same transaction
        (as :meth:`finish` would). ``alongside``: work to do on another thread while the
        commit waits for the disk (:mod:`companion.engine.sidekick`); it is done when
        this returns or raises, and it runs only once the entries are staged, so a
        refused write never starts it."""
        self._execute(self._entry_rows(match_id, entries),
                      self._finished_rows(match_id) if finished else ("", []),
                      alongside=alongside)

    @staticmethod
    def _entry_rows(match_id: str,
                    entries: Sequence[Entry]) -> tuple[str, list[tuple[Any, ...]]]:
        now = time.time()
        rows = []
        for e in entries:
            actor, action = json.dumps(e.actor), canonical(e.action)
            rows.append((match_id, e.seq, actor, action, now,
                         entry_crc(match_id.encode(), e.seq, actor.encode(), action.encode())))
        return ("INSERT INTO entries (match_id, seq, actor, action, at, crc)"
                " VALUES (?, ?, ?, ?, ?, ?)", rows)

    def rename(self, match_id: str, names: list[str]) -> None:
        """The match's seats are called ``names`` from now on (``Match.rename``)."""
        self._execute(("UPDATE matches SET names = ? WHERE id = ?",
                       [(json.dumps(names), match_id)]))

    def finish(self, match_id: str) -> None:
        """Mark a match as over, so a restart does not offer to resume it."""
        self._execute(self._finished_rows(match_id))

    @staticmethod
    def _finished_rows(match_id: str) -> tuple[str, list[tuple[Any, ...]]]:
        return ("INSERT OR IGNORE INTO finished (match_id, at) VALUES (?, ?)",
                [(match_id, time.time())])

    def _execute(self, *statements: tuple[str, list[tuple[Any, ...]]],
                 alongside: Callable[[], None] | None = None) -> None:
        """Run each ``(sql, rows)`` in one transaction (``alongside``: see :meth:`append`)."""
        with self._lock:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                self._db.execute("BEGIN IMMEDIATE")
                added = 0
                for sql, rows in statements:
                    if rows:
                        done = self._db.executemany(sql, rows).rowcount
                        # The note counts rows the file holds: a rename adds none.
                        added += done if sql.startswith("INSERT") else 0
                failed = self._commit(alongside)
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"could not write the journal: {exc}") from exc
            self._rows += added
            if self._note is not None:
                self._note.write(self._rows)
        if failed:
            raise failed[0]  # the entries are on disk: the work alongside failed, not them

    def _commit(self, alongside: Callable[[], None] | None) -> list[BaseException]:
        """``COMMIT``, with ``alongside`` on the sidekick meanwhile; its error, if any,
        is returned (to be raised once the commit is counted), never taken for the
        commit's."""
        if alongside is None:
            self._db.execute("COMMIT")
            return []
        failed: list[BaseException] = []

        def job() -> None:
            try:
                alongside()
            except Exception as exc:
                failed.append(exc)

        self._sidekick.during(lambda: self._db.execute("COMMIT"), job)
        return failed

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

    def finished_since(self, since: float) -> list[tuple[str, float]]:
        """(match id, when it was marked over) of every match marked over at or after
        ``since`` (a ``time.time()``), in that order."""
        return [(r[0], r[1]) for r in self._query(
            "SELECT match_id, at FROM finished WHERE at >= ? ORDER BY at, rowid", (since,))]

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
            "SELECT seq, actor, action, crc FROM entries WHERE match_id = ? ORDER BY seq",
            (match_id,))
        for seq, actor, action, crc in rows:
            if crc is not None and not (
                    isinstance(actor, str) and isinstance(action, str) and type(seq) is int
                    and entry_crc(match_id.encode(), seq, actor.encode(),
                                  action.encode()) == crc):
                raise self._damaged(f"entry {seq} of match {match_id} no longer matches"
                                    f" the checksum written with it")
        rows = [row[:3] for row in rows]
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
             each: Callable[[Match], None] | None = None,
             opened: Callable[[Match], None] | None = None) -> Match:
        """The match replayed from its entries, attached to this journal.

        ``games`` maps a game id to its rules (``companion.games.get``); ``each`` and
        ``opened`` as for :meth:`Match.replay`.
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
                                 self.entries(match_id), clock=clock, each=each,
                                 opened=opened)
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
                self._sidekick.close()
                self._db.close()
                if self._note is not None:
                    self._note.close()
                    self._note = None

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
