"""Every file's damage is said out loud (issue 26).

The table keeps four SQLite files: the journal, the night's standings (``night.sqlite3``),
the table's notes (``table.sqlite3``) and the seat access file (``access.sqlite3``). Each
is written, then "dies" as a killed process or a power cut leaves it (its files copied
while it is still open), or is closed, and is then damaged in each way the issue names:
a bad header, the file cut in half or to nothing, its WAL cut or lost, the file missing
beside its WAL or its commit note, and, in the journal, one byte changed inside a stored
action. Each must be refused at open with one message naming the file, what was found
and what to do, the files moved, as found, into a folder of their own with a WHY.txt,
and the next start must begin clean (:func:`refused_and_moved`). What a kill or a power
cut leaves is never taken for damage, here and through a real `mutiny serve`.
"""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

import companion.games
from companion.access import SeatAccess
from companion.damage import keep_aside, wal_in_use
from companion.engine import Journal, Match
from companion.engine.journal import entry_crc
from companion.errors import JournalError, MutinyError
from companion.table.night import Night
from companion.table.notes import TableNotes
from tests.reliability.helpers import MUTINY, Client, Cut, Serve, free_port
from tests.reliability.test_journal_damage import (
    files_of,
    flip_bit,
    kept_folders,
    refused_and_moved,
)

SIDE = ("-wal", "-shm", ".commits")


def finished_match(seed: int) -> Match:
    """A booty-dice match played to its end with random legal actions (no journal)."""
    rng = random.Random(seed)
    game = companion.games.get("booty-dice")
    match = Match.create(game, 2, seed=f"night-{seed}")
    while not match.is_over:
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
    return match


@dataclass(frozen=True)
class Kind:
    """One of the table's files: its name, how it is opened, what it is filled with."""

    name: str
    open: Callable[[Path], Any]
    fill: Callable[[Any], None]
    wal: bool  # kept in WAL mode (the seat access file keeps a rollback journal)
    error: type[Exception] = MutinyError

    def __repr__(self) -> str:
        return self.name


def fill_journal(journal: Journal) -> None:
    rng = random.Random(len(journal.match_ids()))
    game = companion.games.get("moon-yeti")
    match = Match.create(game, 4, seed=f"damage-{rng.random()}", journal=journal)
    for _ in range(40):
        moves = [(a, x) for a in match.acting() for x in match.legal_actions(a)]
        if match.is_over or not moves:
            break
        match.apply(*rng.choice(moves))


def fill_night(night: Night) -> None:
    for seed in range(3):  # the audit's night: three matches in the standings
        assert night.record(finished_match(seed))


def fill_notes(notes: TableNotes) -> None:
    notes.set("vibrate", False)
    notes.note_timer("m1", "discussion", 42.0)


def fill_access(access: SeatAccess) -> None:
    access.rename(0, "Ann")
    access.new_match()


KINDS = [
    Kind("journal.sqlite3", Journal, fill_journal, wal=True, error=JournalError),
    Kind("night.sqlite3", Night, fill_night, wal=True),
    Kind("table.sqlite3", TableNotes, fill_notes, wal=True),
    Kind("access.sqlite3", lambda p: SeatAccess(p, 4), fill_access, wal=False),
]
IN_WAL = [k for k in KINDS if k.wal]


def closed(kind: Kind, folder: Path, starts: int = 2) -> Path:
    """The file written and closed cleanly (``starts`` times opened), in ``folder``."""
    folder.mkdir(parents=True)
    path = folder / kind.name
    for _ in range(starts):
        opened = kind.open(path)
        kind.fill(opened)
        opened.close()
    return path


def killed(kind: Kind, folder: Path) -> Path:
    """The file as a kill (or a power cut, once the commits were flushed) leaves it:
    opened a second time, written, and its files copied while it is still open."""
    live = closed(kind, folder / "live", starts=1)
    opened = kind.open(live)
    kind.fill(opened)
    path = folder / kind.name
    for suffix in ("", *SIDE):
        if Path(f"{live}{suffix}").exists():
            shutil.copyfile(f"{live}{suffix}", f"{path}{suffix}")
    opened.close()
    shutil.rmtree(live.parent)
    if kind.wal:
        assert wal_in_use(Path(f"{path}-wal")) > 32, "the writes must still be in the WAL"
    return path


def refused(kind: Kind, path: Path) -> str:
    return refused_and_moved(path, kind.open, kind.error)


# -- damage, file by file ------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_bad_header_is_refused_and_moved(tmp_path, kind):
    path = closed(kind, tmp_path / "d")
    with open(path, "r+b") as file:
        file.write(b"not a database at all")
    assert "SQLite cannot read it" in refused(kind, path)


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_file_cut_in_half_is_refused_and_moved(tmp_path, kind):
    path = closed(kind, tmp_path / "d")
    os.truncate(path, path.stat().st_size // 2)
    message = refused(kind, path)
    assert "SQLite" in message or "were committed" in message


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_file_cut_to_nothing_is_refused_by_its_note(tmp_path, kind):
    path = closed(kind, tmp_path / "d")
    os.truncate(path, 0)
    assert "cut to 0 bytes while its note" in refused(kind, path)


@pytest.mark.parametrize("kind", IN_WAL, ids=repr)
def test_a_file_cut_to_nothing_beside_its_wal_is_refused(tmp_path, kind):
    """(SQLite itself would delete that WAL, and every commit in it, at the first
    open: the check reads the files' sizes before any SQLite connection.)"""
    path = killed(kind, tmp_path / "d")
    os.truncate(path, 0)
    assert "cut to 0 bytes while its WAL holds" in refused(kind, path)


@pytest.mark.parametrize("kind", IN_WAL, ids=repr)
def test_a_lost_wal_is_refused(tmp_path, kind):
    path = killed(kind, tmp_path / "d")
    Path(f"{path}-wal").unlink()
    Path(f"{path}-shm").unlink()
    assert "were committed" in refused(kind, path)


@pytest.mark.parametrize("kind", IN_WAL, ids=repr)
def test_a_wal_cut_after_its_header_is_refused(tmp_path, kind):
    path = killed(kind, tmp_path / "d")
    os.truncate(Path(f"{path}-wal"), 32)
    assert "were committed" in refused(kind, path)


def test_the_night_with_half_its_wal_is_refused(tmp_path):
    kind = KINDS[1]
    path = killed(kind, tmp_path / "d")
    wal = Path(f"{path}-wal")
    os.truncate(wal, wal_in_use(wal) // 2)
    assert "were committed" in refused(kind, path)


@pytest.mark.parametrize("kind", IN_WAL, ids=repr)
def test_a_file_missing_beside_its_wal_is_refused(tmp_path, kind):
    path = killed(kind, tmp_path / "d")
    path.unlink()
    assert "the file is missing while its WAL" in refused(kind, path)


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_file_missing_beside_its_note_is_refused(tmp_path, kind):
    path = closed(kind, tmp_path / "d")
    path.unlink()
    assert "the file is missing while its note" in refused(kind, path)


def test_a_byte_changed_inside_a_stored_action_is_refused(tmp_path):
    """The audit's case: a letter of an action's text changed on disk. SQLite keeps no
    checksum of a row and reads it back; the entry's own checksum does not match."""
    kind = KINDS[0]
    path = closed(kind, tmp_path / "d")
    data = path.read_bytes()
    at = data.rindex(b'"type":"') + len(b'"type":"')  # inside the last action written
    flip_bit(path, at)
    message = refused(kind, path)
    assert "no longer matches the checksum written with it" in message


def test_a_journal_from_before_the_checksums_opens_and_checks_its_new_entries(tmp_path):
    """A journal written before entries had a checksum opens as it did: its entries
    keep none (they are checked by their JSON and their replay when loaded), and every
    entry written from then on has one."""
    path = closed(KINDS[0], tmp_path / "d", starts=1)
    old = sqlite3.connect(path)
    old.execute("ALTER TABLE entries DROP COLUMN crc")  # as an older companion wrote it
    old.close()
    with Journal(path) as journal:
        (old_id,) = journal.match_ids()
        journal.load(old_id, companion.games.get)  # opens and replays as before
        fill_journal(journal)  # a new match, written by this companion
    db = sqlite3.connect(path)
    rows = db.execute("SELECT match_id, seq, actor, action, crc FROM entries").fetchall()
    db.close()
    assert {row[4] for row in rows if row[0] == old_id} == {None}
    new = [row for row in rows if row[0] != old_id]
    assert new and all(crc == entry_crc(m.encode(), seq, actor.encode(), action.encode())
                       for m, seq, actor, action, crc in new)
    assert not kept_folders(path)


def test_a_second_damage_gets_a_folder_of_its_own(tmp_path):
    """Two damages of the same file with the same last change (to the second): the
    second folder is new, the first is never overwritten."""
    path = tmp_path / "night.sqlite3"
    path.write_bytes(b"first damage")
    first = keep_aside(path, "first")
    path.write_bytes(b"second damage")
    os.utime(path, (os.stat(first / path.name).st_mtime,) * 2)
    second = keep_aside(path, "second")
    assert second != first and second.name == f"{first.name}-2"
    assert (first / path.name).read_bytes() == b"first damage"
    assert (second / path.name).read_bytes() == b"second damage"
    assert (first / "WHY.txt").read_text() == "first\n"


# -- no false alarm --------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_what_a_kill_leaves_opens_whole(tmp_path, kind):
    path = killed(kind, tmp_path / "d")
    expected = files_of(path)
    opened = kind.open(path)
    opened.close()
    assert not kept_folders(path) and expected


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_a_note_a_power_cut_left_behind_is_no_alarm(tmp_path, kind):
    """The note is written after the commit's flush and never flushed itself: after a
    power cut it can only lag behind the file (or be gone, or torn)."""
    for lag in ("1\n", "", "0000000\x00\x00"):
        path = killed(kind, tmp_path / f"lag{len(lag)}")
        Path(f"{path}.commits").write_text(lag)
        opened = kind.open(path)
        opened.close()
        assert not kept_folders(path)


@pytest.mark.parametrize("kind", IN_WAL, ids=repr)
def test_a_wal_torn_in_its_last_frame_is_no_alarm(tmp_path, kind):
    """A kill in the middle of a commit leaves its last frame half written: that
    transaction was never acknowledged (nor noted), and SQLite drops it, rightly."""
    path = killed(kind, tmp_path / "d")
    wal = Path(f"{path}-wal")
    note = Path(f"{path}.commits")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as probe:
        before = probe.execute("PRAGMA page_size").fetchone()[0]
    os.truncate(wal, wal_in_use(wal) - before // 2)  # the last frame, torn
    note.write_text("0\n")  # (the torn commit never reached its note; earlier ones did)
    opened = kind.open(path)
    opened.close()
    assert not kept_folders(path)


def test_a_seat_access_file_killed_in_the_middle_of_a_write_is_no_alarm(tmp_path):
    """The seat access file keeps a rollback journal: a kill in the middle of a write
    leaves it "hot", and the open rolls that write back, as SQLite does."""
    kind = KINDS[3]
    live = closed(kind, tmp_path / "live")
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("PRAGMA cache_size = 2")  # spills to the file mid-write, as a big one
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE seats SET name = 'half written'")
    writer.execute("CREATE TABLE filler (x BLOB)")
    writer.executemany("INSERT INTO filler VALUES (randomblob(3000))", [()] * 20)
    path = tmp_path / "d" / kind.name
    path.parent.mkdir()
    for suffix in ("", "-journal"):
        shutil.copyfile(f"{live}{suffix}", f"{path}{suffix}")
    writer.execute("ROLLBACK")
    writer.close()
    assert Path(f"{path}-journal").stat().st_size > 0
    access = kind.open(path)
    assert access.names()[0] == "Ann"
    access.close()
    assert not kept_folders(path)


# -- through `mutiny serve` ------------------------------------------------------------------
def test_serve_refuses_a_damaged_night_in_one_line_and_the_next_start_says_where(tmp_path):
    """The audit's night: three matches, then the file cut to nothing. `mutiny serve`
    ends with one line and status 1; the next start (systemd's, 2 s later) begins a new
    night, and its log and its host page say where the damage is kept."""
    data = tmp_path / "data"
    path = closed(KINDS[1], data)  # (makes the folder)
    os.truncate(path, 0)
    done = subprocess.run([str(MUTINY), "serve", "--backend", "sim", "--seats", "4",
                           "--data-dir", str(data), "--port", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    (said,) = [line for line in done.stderr.splitlines() if line.startswith("mutiny: ")]
    assert f"the night's standings {path} is damaged: the file is cut to 0 bytes" in said
    (folder,) = kept_folders(path)
    assert str(folder) in said and not path.exists()

    serve = Serve(data, free_port(), 4).wait_ready()
    try:
        assert f"night.sqlite3 was moved aside into {folder}" in serve.output
        host = Client(serve.port)
        status, _ = host.json("POST", "/api/host/login", {"pin": serve.pin})
        assert status == 200
        status, view = host.json("GET", "/api/host/view")
        assert status == 200
        (item,) = view["host"]["damage"]
        assert item["file"] == "night.sqlite3" and item["folder"] == str(folder)
        assert "cut to 0 bytes" in item["why"]
        status, public = Client(serve.port).json("GET", "/api/public/view")
        assert "damage" not in public.get("host", {})  # the host's page only
    finally:
        serve.stop()


@pytest.mark.slow
def test_serve_killed_again_and_again_finds_no_damage(tmp_path):
    """SIGKILL at random moments while the host plays (a kill lands in the middle of a
    write now and then): every restart opens all four files and resumes, and nothing is
    ever moved aside."""
    data = tmp_path / "data"
    port = free_port()
    rng = random.Random(26)
    resumed = 0
    for _ in range(5):
        serve = Serve(data, port, 4).wait_ready()  # (a refused file ends it: no PIN)
        host = Client(port)
        assert host.json("POST", "/api/host/login", {"pin": serve.pin})[0] == 200
        status, view = host.json("GET", "/api/host/view")
        if view["match"] is None or view["match"]["over"]:
            status, body = host.json("POST", "/api/host/start",
                                     {"game": "booty-dice", "players": 2})
            assert status == 200, body
        else:
            resumed += 1
        killer = threading.Timer(rng.uniform(0.05, 0.4), serve.kill)
        killer.start()
        try:
            while True:
                status, view = host.json("GET", "/api/host/view")
                legal = [a for a in view["host"]["legal"] if a["type"] != "end"]
                if not legal:
                    break
                host.json("POST", "/api/host/act", {"action": rng.choice(legal),
                                                    "version": view["version"]})
        except Cut:
            pass
        killer.join()
        assert serve.proc.returncode == -9
    assert resumed >= 1
    assert not [p for p in data.iterdir() if ".damaged-" in p.name]
