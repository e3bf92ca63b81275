"""Journal damage is never silent (issue 18, finding 6; issue 26).

A journal is played, its process "dies" (the files are copied as they are on disk while
the journal is still open, as a pulled plug leaves them), then the copy is damaged in
each way the issue found: the WAL truncated, a bit flipped in it, the WAL cut in half,
the database file truncated beside it, and a damaged ``access.sqlite3``. Each must be
refused with one message saying what was found and what to do, and the damaged files
moved aside, as they were, into a dated folder (:func:`refused_and_moved`, which the
other files' tests in ``test_file_damage.py`` use too). An undamaged copy opens as it
was (the note adds no false alarm), and so does a journal whose note lags behind (a
power cut).
"""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

import companion.games
from companion.access import SeatAccess
from companion.engine import Journal, Match
from companion.engine.journal import wal_in_use
from companion.errors import JournalError, MutinyError
from tests.engine.contract import random_options

SIDE = ("-wal", "-shm", ".commits")


def played_journal(folder: Path, actions: int = 120) -> tuple[Path, dict[str, int]]:
    """A moon-yeti and a booty-dice match with ``actions`` random actions, in a journal
    copied while still open. Returns the copy's path and each match's version."""
    folder.mkdir()
    live_path = folder / "live" / "journal.sqlite3"
    rng = random.Random(18)
    journal = Journal(live_path, wal_pages=1000)  # the whole play in one pass over the WAL
    matches = []
    for game_id in ("moon-yeti", "booty-dice"):
        game = companion.games.get(game_id)
        matches.append(Match.create(game, game.spec.max_seats, random_options(game, rng),
                                    seed=rng.random(), journal=journal))
    for _ in range(actions):
        playing = [m for m in matches if not m.is_over]
        if not playing:
            break
        match = rng.choice(playing)
        actor, action = rng.choice([(a, x) for a in match.acting()
                                    for x in match.legal_actions(a)])
        match.apply(actor, action)
    copy = folder / "journal.sqlite3"
    for suffix in ("", *SIDE):
        source = Path(f"{live_path}{suffix}")
        if source.exists():
            shutil.copyfile(source, f"{copy}{suffix}")
    versions = {m.id: m.version for m in matches}
    journal.close()
    assert Path(f"{copy}-wal").stat().st_size > 0, "the play must still be in the WAL"
    return copy, versions


def flip_bit(path: Path, offset: int) -> None:
    with open(path, "r+b") as file:
        file.seek(offset)
        byte = file.read(1)[0]
        file.seek(offset)
        file.write(bytes([byte ^ 0x10]))


def wal(path: Path) -> Path:
    return Path(f"{path}-wal")


def files_of(path: Path) -> dict[str, bytes]:
    """The file and its side files as they are now (SQLite's -shm left out: it is an
    index of the WAL, rebuilt from it by any reader, no evidence)."""
    return {p.name: p.read_bytes() for p in path.parent.iterdir()
            if p.is_file() and p.name.startswith(path.name) and not p.name.endswith("-shm")}


def kept_folders(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.iterdir() if p.name.startswith(f"{path.name}.damaged-"))


def refused_and_moved(path: Path, open_it: Callable[[Path], Any] = Journal,
                      error: type[Exception] = JournalError) -> str:
    """Open the damaged file: it must be refused with one message naming it, what was
    found and what to do; every file it had must be moved, as it was, into a new folder
    beside it with a WHY.txt; and the next start must begin clean, the damage still
    kept. Returns the message."""
    before, earlier = files_of(path), kept_folders(path)
    with pytest.raises(error) as refused:
        open_it(path)
    message = str(refused.value)
    assert "\n" not in message and "Traceback" not in message
    assert f"{path} is damaged: " in message
    assert "moved aside" in message and ".recover" in message
    (folder,) = [f for f in kept_folders(path) if f not in earlier]
    assert str(folder) in message
    assert files_of(path) == {} and not Path(f"{path}-shm").exists(), "not moved aside"
    for name, content in before.items():
        assert (folder / name).read_bytes() == content, f"{name} not kept as found"
    assert str(path) in (folder / "WHY.txt").read_text()
    opened = open_it(path)  # the next start: a new file, the damage left where it is
    opened.close()
    assert kept_folders(path) == sorted(earlier + [folder])
    assert {n: (folder / n).read_bytes() for n in before} == before
    return message


def test_an_undamaged_journal_opens_whole_and_a_lagging_note_is_no_alarm(tmp_path):
    path, versions = played_journal(tmp_path / "a")
    with Journal(path) as journal:
        for match_id, version in versions.items():
            assert journal.load(match_id, companion.games.get).version == version
    # A power cut can leave the note behind the journal (it is never flushed): fine.
    path2, versions2 = played_journal(tmp_path / "b")
    Path(f"{path2}.commits").write_text("3\n")
    with Journal(path2) as journal:
        for match_id, version in versions2.items():
            assert journal.load(match_id, companion.games.get).version == version
    assert not [p for p in tmp_path.rglob("*.damaged-*")]


@pytest.mark.parametrize("cut", ["empty", "header only", "half", "last frame"])
def test_a_truncated_wal_is_refused_and_kept(tmp_path, cut):
    path, _versions = played_journal(tmp_path / "j")
    size = wal_in_use(wal(path))
    os.truncate(wal(path), {"empty": 0, "header only": 32, "half": size // 2,
                            "last frame": size - 4096 - 24}[cut])
    message = refused_and_moved(path)
    assert "rows where" in message


def test_a_bit_flipped_in_the_wal_is_refused_and_kept(tmp_path):
    path, _versions = played_journal(tmp_path / "j")
    flip_bit(wal(path), 32 + 24 + 100)  # inside the first frame's page
    refused_and_moved(path)


def test_without_its_note_a_bit_flipped_wal_is_still_refused_by_its_checksums(tmp_path):
    path, _versions = played_journal(tmp_path / "j")
    Path(f"{path}.commits").unlink()  # a journal copied without it, or from before it
    flip_bit(wal(path), 32 + 24 + 100)
    message = refused_and_moved(path)
    assert "frame 1 of its WAL fails its checksum" in message


def test_without_its_note_a_wal_torn_in_its_last_transaction_opens(tmp_path):
    """What a crash leaves (the last transaction half written) is no damage: the journal
    opens at the action before, as SQLite recovers it."""
    path, versions = played_journal(tmp_path / "j")
    Path(f"{path}.commits").unlink()
    size = wal_in_use(wal(path))
    flip_bit(wal(path), size - 10)  # inside the last frame written
    with Journal(path) as journal:
        assert set(journal.match_ids()) == set(versions)
    assert not list(path.parent.glob("journal.sqlite3.damaged-*"))


def test_a_database_file_truncated_beside_its_wal_is_refused_and_kept(tmp_path):
    path, _versions = played_journal(tmp_path / "j", actions=400)
    # Move the first part of the play into the file, then damage the file.
    with Journal(path) as journal:
        journal.match_ids()
    os.truncate(path, path.stat().st_size // 2)
    refused_and_moved(path)


def test_serve_refuses_a_cut_wal_in_one_line(tmp_path):
    """Through the command: one line saying what was found, exit status 1."""
    import subprocess
    import sys
    path, _versions = played_journal(tmp_path / "data")
    os.truncate(wal(path), wal_in_use(wal(path)) // 2)
    mutiny = Path(sys.executable).with_name("mutiny")
    done = subprocess.run([str(mutiny), "serve", "--backend", "sim", "--seats", "4",
                           "--data-dir", str(path.parent), "--port", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    (said,) = [line for line in done.stderr.splitlines() if line.startswith("mutiny: ")]
    assert f"the journal {path} is damaged: it holds" in said and "moved aside" in said
    assert list(path.parent.glob("journal.sqlite3.damaged-*")) and not path.exists()


def test_a_damaged_access_file_is_refused_and_moved(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 4)
    access.close()
    with open(path, "r+b") as file:  # the header's magic string, scribbled on
        file.write(b"not a database at all")
    message = refused_and_moved(path, lambda p: SeatAccess(p, 4), MutinyError)
    assert "SQLite cannot read it" in message and "join again" in message
