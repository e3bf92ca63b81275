"""Journal damage is never silent (issue 18, finding 6).

A journal is played, its process "dies" (the files are copied as they are on disk while
the journal is still open, as a pulled plug leaves them), then the copy is damaged in
each way the issue found: the WAL truncated, a bit flipped in it, the WAL cut in half,
the database file truncated beside it, and a damaged ``access.sqlite3``. Each must be
refused with what was found and what to do, and the damaged files kept aside, as they
were, under a dated name. An undamaged copy opens as it was (the note adds no false
alarm), and so does a journal whose note lags behind (a power cut).
"""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

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


def snapshot(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()}


def refused_and_kept(path: Path) -> str:
    """Open the damaged journal: it must be refused, and every file it had, as it was,
    must be in a dated folder beside it. Returns the message."""
    before = snapshot(path)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    message = str(refused.value)
    assert "does not replay to its last committed action" in message
    assert "move" in message and ".recover" in message
    kept = [p for p in path.parent.iterdir() if p.name.startswith("journal.sqlite3.damaged-")]
    assert len(kept) == 1 and str(kept[0]) in message
    for name, content in before.items():
        # (-shm is SQLite's index of the WAL, rebuilt from it by any reader: no evidence)
        if name.startswith("journal.sqlite3") and not name.endswith("-shm"):
            assert (kept[0] / name).read_bytes() == content, f"{name} not kept as found"
    assert "journal.sqlite3" in (kept[0] / "WHY.txt").read_text()
    # Refused again at the next start, and the first copy is not overwritten.
    with pytest.raises(JournalError):
        Journal(path)
    assert [p for p in path.parent.iterdir() if p.name.startswith("journal.sqlite3.dam")] \
        == kept
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
    message = refused_and_kept(path)
    assert "rows where" in message


def test_a_bit_flipped_in_the_wal_is_refused_and_kept(tmp_path):
    path, _versions = played_journal(tmp_path / "j")
    flip_bit(wal(path), 32 + 24 + 100)  # inside the first frame's page
    refused_and_kept(path)


def test_without_its_note_a_bit_flipped_wal_is_still_refused_by_its_checksums(tmp_path):
    path, _versions = played_journal(tmp_path / "j")
    Path(f"{path}.commits").unlink()  # a journal copied without it, or from before it
    flip_bit(wal(path), 32 + 24 + 100)
    message = refused_and_kept(path)
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
    refused_and_kept(path)


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
    assert "does not replay to its last committed action" in done.stderr
    assert list(path.parent.glob("journal.sqlite3.damaged-*"))


def test_a_damaged_access_file_is_refused_and_kept(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 4)
    access.close()
    content = path.read_bytes()
    with open(path, "r+b") as file:  # the header's magic string, scribbled on
        file.write(b"not a database at all")
    with pytest.raises(MutinyError) as refused:
        SeatAccess(path, 4)
    message = str(refused.value)
    assert "access.sqlite3" in message and "join again" in message
    kept = list(tmp_path.glob("access.sqlite3.damaged-*"))
    assert len(kept) == 1 and str(kept[0]) in message
    assert (kept[0] / "access.sqlite3").read_bytes()[21:] == content[21:]
