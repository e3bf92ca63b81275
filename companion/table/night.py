"""The game night: every match the table finished tonight, and the standings across games.

A group plays a game three times, switches games, and at the end wants to know who did
best. The night keeps, for each finished match, the game, the players (by seat name),
the winners, the game's own scores and when it ended; the standings add up wins per
player name across every game, and each game's own score where the game keeps one (a
game with no score label, such as a vote, counts wins only).

It lives in a small SQLite file beside the journal (``night.sqlite3``), so a restart
keeps it. The file is checked at open as the journal is (:mod:`companion.damage`): a
night file that SQLite cannot read, or that holds fewer rows than its commit note
(``night.sqlite3.commits``) says were committed (its WAL lost, the file cut), is
refused and moved aside, never started again from nothing without a word. The host starts a new night from the host page, and a night with nothing
played for :data:`NIGHT_GAP` seconds is over: the next match (or the next start) begins
a new one, so next week's group does not find last week's standings; the night is exported as JSON
and CSV (docs/table.md, "Game night"). Everything here is public: a match's result is
shown to the whole table once it is over.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import logging
import sqlite3
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any, Callable

from companion.damage import StoredFile, count_rows

log = logging.getLogger(__name__)

#: The file's name, in the journal's folder.
FILE_NAME = "night.sqlite3"
#: Matches the table display lists (the newest first); the exports hold every one.
SHOWN_MATCHES = 12
#: Seconds without a match ending (or a night starting) after which a night is over.
NIGHT_GAP = 8 * 3600

SCHEMA = """
CREATE TABLE IF NOT EXISTS nights (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    started REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id          TEXT PRIMARY KEY,
    night       INTEGER NOT NULL,
    game        TEXT NOT NULL,
    title       TEXT NOT NULL,
    names       TEXT NOT NULL,
    winners     TEXT NOT NULL,
    scores      TEXT NOT NULL,
    score_label TEXT NOT NULL,
    reason      TEXT NOT NULL,
    ended       REAL NOT NULL
);
"""


class Night:
    """Tonight's finished matches and standings, kept in a SQLite file. Thread-safe.

    Tonight is also kept in memory: the standings the table shows after every action
    are built from there, not read back from the file. A match recorded with
    ``save=False`` is in the standings at once and reaches the file at the next
    :meth:`save` (the table saves once the phones were told of the match's end; were
    the power to go before that, :meth:`missing` finds it in the journal again)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        """Raises :class:`~companion.damage.StoredFileError` for a damaged file (moved aside)."""
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        stored = StoredFile(Path(path), "the night's standings",
                            "tonight's standings start again (the journal keeps every match)",
                            count=_count_rows)
        self._db = stored.open(self._set_up)
        self._closed = False
        self._rows = _count_rows(self._db)
        self._note = stored.note(self._rows, keep=True)
        self._payload: dict[str, Any] | None = None  # rebuilt after each change
        self._unsaved: list[tuple[Any, ...]] = []  # rows recorded, not yet in the file
        self._night, self._started, self._tonight = self._load()
        if self._night is None or self._is_over():
            self.new_night()

    def _set_up(self, db: sqlite3.Connection) -> None:
        if str(self.path) != ":memory:":
            # A commit in WAL mode is one flush to disk; the default rollback journal
            # took four (a match's end waited for them, tens of ms each on an SD card).
            # FULL: the flush comes before the commit note, never after.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)

    @classmethod
    def beside(cls, journal_path: str | Path) -> "Night":
        """The night kept next to a journal file (in memory for a journal in memory)."""
        if str(journal_path) == ":memory:":
            return cls(":memory:")
        return cls(Path(journal_path).parent / FILE_NAME)

    def _load(self) -> tuple[int | None, float, list[dict[str, Any]]]:
        """The newest night in the file: its id, when it started and its matches."""
        row = self._db.execute("SELECT id, started FROM nights ORDER BY id DESC LIMIT 1"
                               ).fetchone()
        if row is None:
            return None, 0.0, []
        rows = self._db.execute(
            "SELECT id, night, game, title, names, winners, scores, score_label, reason,"
            " ended FROM matches WHERE night = ? ORDER BY ended, rowid", (row[0],)).fetchall()
        return row[0], row[1], [_match_entry(n, r) for n, r in enumerate(rows, start=1)]

    def _is_over(self) -> bool:
        """Has tonight seen nothing for :data:`NIGHT_GAP` seconds?"""
        last = max([self._started] + [m["ended"] for m in self._tonight])
        return self._clock() - last > NIGHT_GAP

    def new_night(self) -> None:
        """Start a new night: the standings start again (earlier nights stay in the
        file, out of the standings and exports)."""
        with self._lock:
            self.save()  # last night's matches still waiting belong to last night
            started = self._clock()
            cursor = self._db.execute("INSERT INTO nights (started) VALUES (?)", (started,))
            self._counted(1)
            self._night, self._started, self._tonight = cursor.lastrowid, started, []
            self._payload = None

    def record(self, match: Any, *, save: bool = True, ended: float | None = None) -> bool:
        """Add a finished match (a :class:`~companion.engine.Match` that is over) to
        tonight. A match already recorded (seen again when a restart finds it over) is
        not added twice. Returns True when it was added.

        ``save=False``: in tonight's standings now, in the file at the next
        :meth:`save`. ``ended``: when it ended (default: now)."""
        result = match.result()
        if result is None:
            return False
        label = match.summary().get("score_label") or ""
        with self._lock:
            if self.has(match.id):
                return False
            if self._is_over():
                self.new_night()
            ended = self._clock() if ended is None else ended
            row = (match.id, self._night, match.game.spec.id, match.game.spec.title,
                   json.dumps(list(match.names)), json.dumps(list(result.winners)),
                   json.dumps(list(result.scores)), label, result.reason or "", ended)
            self._tonight.append(_match_entry(len(self._tonight) + 1, row))
            self._tonight.sort(key=lambda m: m["ended"])  # (one ended earlier: a restart)
            for number, entry in enumerate(self._tonight, start=1):
                entry["number"] = number
            self._unsaved.append(row)
            self._payload = None
            if save:
                self.save()
        return True

    def has(self, match_id: str) -> bool:
        """Whether the match was recorded, tonight or on an earlier night."""
        with self._lock:
            return (any(row[0] == match_id for row in self._unsaved)
                    or self._db.execute("SELECT 1 FROM matches WHERE id = ?",
                                        (match_id,)).fetchone() is not None)

    def save(self) -> None:
        """Write the matches recorded with ``save=False`` to the file. A failed write
        is logged and tried again at the next save: the match stays in the standings."""
        with self._lock:
            if not self._unsaved or self._closed:
                return
            try:
                with self._db:  # one transaction (a commit, one flush to disk)
                    self._db.execute("BEGIN")
                    added = self._db.executemany(
                        "INSERT OR IGNORE INTO matches (id, night, game, title, names,"
                        " winners, scores, score_label, reason, ended)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._unsaved).rowcount
            except sqlite3.Error as exc:
                log.error("the night's file %s: %s (kept, tried again)", self.path, exc)
                return
            self._unsaved = []
            self._counted(added)

    def _counted(self, added: int) -> None:
        """``added`` rows were committed: the commit note says so (after the commit's
        flush, so after a power cut it can only lag behind the file)."""
        self._rows += added
        if self._note is not None:
            self._note.write(self._rows)

    def missing(self, finished: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """Of ``finished`` (match id, when it ended: the journal's
        ``finished_since(started())``), the matches tonight has not recorded."""
        return [(match_id, at) for match_id, at in finished if not self.has(match_id)]

    # -- reading ------------------------------------------------------------------------
    def started(self) -> float:
        """When tonight started (a time from the night's clock, ``time.time``)."""
        return self._started

    def matches(self) -> list[dict[str, Any]]:
        """Tonight's matches, oldest first, each with its players, winners and scores
        (the caller's own copy)."""
        with self._lock:
            return copy.deepcopy(self._tonight)

    def standings(self, matches: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """One row per player name: its ``rank``, matches played, wins, and per game its
        own score (summed over tonight's matches of that game, where the game keeps a
        score). Best first: most wins, then fewest matches played, then name; players
        equal in wins and matches played share a rank, and the next rank counts them
        all (standard competition ranking: 1, 2, 2, 4)."""
        rows: dict[str, dict[str, Any]] = {}
        for match in self.matches() if matches is None else matches:
            for seat, name in enumerate(match["players"]):
                row = rows.setdefault(name, {"name": name, "played": 0, "wins": 0,
                                             "games": {}})
                row["played"] += 1
                won = name in match["winners"]
                row["wins"] += int(won)
                game = row["games"].setdefault(match["game"], {
                    "title": match["title"], "played": 0, "wins": 0, "score": None,
                    "score_label": match["score_label"]})
                game["played"] += 1
                game["wins"] += int(won)
                if match["score_label"] and seat < len(match["scores"]):
                    game["score"] = (game["score"] or 0) + match["scores"][seat]
        ranked = sorted(rows.values(), key=lambda r: (-r["wins"], r["played"], r["name"]))
        for place, row in enumerate(ranked):
            above = ranked[place - 1] if place else None
            tied = above is not None and (above["wins"], above["played"]) == \
                (row["wins"], row["played"])
            row["rank"] = above["rank"] if above is not None and tied else place + 1
        return ranked

    def to_dict(self) -> dict[str, Any]:
        """The whole night: what the JSON export holds."""
        matches = self.matches()
        return {"started": self.started(), "matches": matches,
                "standings": self.standings(matches)}

    def payload(self) -> dict[str, Any]:
        """The ``night`` part of the public payload: the standings and the newest
        matches (``count`` tells how many there were in all). Kept between changes:
        the table asks for it after every action."""
        with self._lock:
            if self._payload is None:
                self._payload = self._build_payload(self._tonight)
            return self._payload

    def _build_payload(self, matches: list[dict[str, Any]]) -> dict[str, Any]:
        # Of its own: nothing in it is a list kept in ``matches`` (standings are new).
        return {"count": len(matches), "standings": self.standings(matches),
                "matches": [{"number": m["number"], "title": m["title"],
                             "players": list(m["players"]), "winners": list(m["winners"])}
                            for m in matches[-SHOWN_MATCHES:]][::-1]}

    def to_csv(self) -> str:
        """The night as CSV: one row per player per match (a spreadsheet sums it)."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["match", "ended", "game", "player", "seat", "won", "score",
                         "score_label", "reason"])
        for match in self.matches():
            ended = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(match["ended"]))
            for seat, name in enumerate(match["players"]):
                score = match["scores"][seat] if seat < len(match["scores"]) else ""
                writer.writerow([match["number"], ended, match["title"], csv_cell(name),
                                 seat + 1, "yes" if name in match["winners"] else "no",
                                 score if match["score_label"] else "",
                                 match["score_label"], csv_cell(match["reason"])])
        return out.getvalue()

    def close(self) -> None:
        """Save what is still to be saved and close the file (idempotent)."""
        with self._lock:
            if not self._closed:
                self.save()
                self._db.close()
                self._closed = True
            if self._note is not None:
                self._note.close()
                self._note = None


#: What the commit note counts: every row (nights and matches are only ever added).
_count_rows = count_rows("nights", "matches")


def _match_entry(number: int, row: tuple[Any, ...]) -> dict[str, Any]:
    """One of tonight's matches as :meth:`Night.matches` gives it (winners by name),
    from its row in the file (the columns of ``matches`` in order)."""
    match_id, _night, game, title, names, winners, scores, label, reason, ended = row
    names = json.loads(names)
    return {"number": number, "match": match_id, "game": game, "title": title,
            "players": names, "winners": [names[w] for w in json.loads(winners)],
            "scores": json.loads(scores), "score_label": label, "reason": reason,
            "ended": ended}


def csv_cell(text: str) -> str:
    """A seat name as a CSV cell a spreadsheet will not run as a formula (OWASP CSV
    injection: a name is typed by a player). The first character is judged by its
    compatibility form, since some spreadsheets read a full-width "＝" as "="."""
    first = unicodedata.normalize("NFKC", text[:1])[:1]
    return "'" + text if first in ("=", "+", "-", "@", "\t", "\r") else text
