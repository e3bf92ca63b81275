"""The journal: on disk, append-only, replays to exactly the same state."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.engine import HOST, ActionRejected, Journal, Match
from companion.engine.journal import WAL_PAGES, entry_crc, wal_in_use
from companion.errors import JournalError
from tests.engine.toy import GAME


def games(game_id):
    assert game_id == GAME.spec.id
    return GAME


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as j:
        yield j


def play_some(match):
    match.apply(0, {"type": "bump"})
    match.apply(HOST, {"type": "undo"})
    match.apply(0, {"type": "vote", "seat": 1})
    match.apply(1, {"type": "vote", "seat": 2})


def test_the_journal_is_a_real_sqlite_file_in_wal_mode_with_full_sync(journal):
    mode = journal._db.execute("PRAGMA journal_mode").fetchone()[0]
    sync = journal._db.execute("PRAGMA synchronous").fetchone()[0]
    assert mode == "wal" and sync == 2  # 2 is FULL


# -- the WAL laid out at open -------------------------------------------------------------
def wal_of(path):
    return Path(f"{path}-wal")


def play_on(match, actions):
    """``actions`` more actions of whoever may act, in ``match`` and then in new
    matches of the same journal; returns the match played last."""
    for _ in range(actions):
        if match.is_over:
            match = Match.create(GAME, 3, seed=match.id, journal=match.journal)
        actor = match.acting()[0]
        match.apply(actor, match.legal_actions(actor)[0])
    return match


def test_the_wal_is_laid_out_at_open_and_no_commit_grows_it(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        page = journal._db.execute("PRAGMA page_size").fetchone()[0]
        laid_out = wal_of(path).stat().st_size
        assert laid_out >= WAL_PAGES * page
        match = Match.create(GAME, 3, seed="s", journal=journal)
        assert wal_in_use(wal_of(path)) < laid_out / 10  # written at the front
        play_on(match, 40)
        assert wal_of(path).stat().st_size == laid_out


def test_a_checkpoint_sends_the_wal_back_to_its_front(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path, wal_pages=16) as journal:
        laid_out = wal_of(path).stat().st_size
        match = Match.create(GAME, 3, seed="s", journal=journal)
        used = []
        for _ in range(40):
            match = play_on(match, 1)
            used.append(wal_in_use(wal_of(path)))
        assert wal_of(path).stat().st_size == laid_out  # never grown
        assert any(later < earlier for earlier, later in zip(used, used[1:], strict=False))
        expected = match.snapshot()
    with Journal(path) as journal:
        assert journal.load(match.id, games).snapshot() == expected


def test_each_open_lays_the_wal_out_again_without_growing_the_file(tmp_path):
    """SQLite deletes the WAL at close; the layout's pages go to the database's free
    list, and the next open's layout takes them from there."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        match = Match.create(GAME, 3, seed="s", journal=journal)
        play_some(match)
        expected = match.snapshot()
    assert not wal_of(path).exists()
    size = path.stat().st_size
    with Journal(path) as journal:
        assert wal_of(path).stat().st_size >= WAL_PAGES * 512
        assert journal.load(match.id, games).snapshot() == expected
        assert journal.match_ids() == [match.id]
    assert path.stat().st_size == size


def test_a_copy_taken_while_open_holds_every_commit(tmp_path):
    """A power cut leaves the laid-out WAL with frames of the layout behind the last
    commit: SQLite replays the commits and ignores those."""
    path = tmp_path / "live" / "j.sqlite3"
    with Journal(path) as journal:
        match = Match.create(GAME, 3, seed="s", journal=journal)
        play_some(match)
        expected = match.snapshot()
        copy = tmp_path / "j.sqlite3"
        for suffix in ("", "-wal", ".commits"):
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    with Journal(copy) as journal:
        assert journal.load(match.id, games).snapshot() == expected


def test_a_wal_without_a_header_is_not_in_use(tmp_path):
    assert wal_in_use(tmp_path / "none-wal") == 0
    (tmp_path / "zeros-wal").write_bytes(bytes(4096))
    assert wal_in_use(tmp_path / "zeros-wal") == 0


def test_a_match_reloads_from_disk_to_the_identical_state(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        match = Match.create(GAME, 3, seed="s", names=["Ann", "Bo", "Cy"], journal=journal)
        play_some(match)
        expected = match.snapshot()
    with Journal(path) as journal:
        assert journal.match_ids() == [match.id]
        again = journal.load(match.id, games)
        assert again.snapshot() == expected
        assert again.names == ["Ann", "Bo", "Cy"]
        again.apply(2, {"type": "vote", "seat": 0})  # and play on
        assert journal.entries(match.id)[-2].action == {"type": "vote", "seat": 0}


def test_finished_since_lists_the_matches_marked_over_from_a_time_on(journal):
    first = Match.create(GAME, 3, seed="a", journal=journal)
    first.apply(HOST, {"type": "end"})  # over with its last entry
    (only,) = journal.finished_since(0)
    assert only[0] == first.id
    second = Match.create(GAME, 3, seed="b", journal=journal)
    journal.finish(second.id)
    assert [m for m, _at in journal.finished_since(0)] == [first.id, second.id]
    assert [m for m, _at in journal.finished_since(only[1] + 1e-6)] == [second.id]
    assert journal.finished_since(float("inf")) == []


def test_rejected_actions_never_reach_the_journal(journal):
    match = Match.create(GAME, 3, seed=1, journal=journal)
    count = len(journal.entries(match.id))
    for bad in ({"type": "vote", "seat": 0}, {"type": "nope"}, {"type": "vote"}):
        with pytest.raises(ActionRejected):
            match.apply(0, bad)
    assert len(journal.entries(match.id)) == count == match.version


def test_the_journal_records_every_entry_in_order_with_chance_outcomes(journal):
    match = Match.create(GAME, 2, {"rounds": 2}, seed=3, journal=journal)
    match.apply(0, {"type": "vote", "seat": 1})
    match.apply(1, {"type": "vote", "seat": 0})
    entries = journal.entries(match.id)
    assert [e.seq for e in entries] == list(range(1, match.version + 1))
    assert [e.actor for e in entries] == ["chance", 0, 1, "chance"]


def test_an_action_is_not_applied_when_the_journal_cannot_write_it(journal):
    match = Match.create(GAME, 3, seed=1, journal=journal)
    before = match.snapshot()
    journal.close()
    with pytest.raises(JournalError):
        match.apply(0, {"type": "vote", "seat": 1})
    assert match.snapshot() == before


def test_replay_does_not_run_the_generator(journal):
    match = Match.create(GAME, 2, seed=5, journal=journal)
    # Rewrite the seed in the header: a replay that drew again would deal other cards.
    journal._db.execute("UPDATE matches SET seed = 'changed' WHERE id = ?", (match.id,))
    assert journal.load(match.id, games).snapshot()["state"] == match.snapshot()["state"]


def test_a_damaged_file_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="moved aside"):
        Journal(path)
    assert not path.exists()  # moved, as found, into the folder the message names
    kept = list(tmp_path.glob("j.sqlite3.damaged-*"))
    assert (kept[0] / "j.sqlite3").read_bytes() == b"this is not a database" * 100


def test_a_journal_that_does_not_replay_is_refused(journal):
    match = Match.create(GAME, 2, seed=5, journal=journal)
    match.apply(0, {"type": "vote", "seat": 1})
    action = '{"type":"vote","seat":0}'  # (its checksum with it: the rules refuse it)
    crc = entry_crc(match.id.encode(), 2, b"0", action.encode())
    journal._db.execute("UPDATE entries SET action = ?, crc = ? WHERE match_id = ? AND seq = 2",
                        (action, crc, match.id))
    with pytest.raises(JournalError, match="does not replay"):
        journal.load(match.id, games)


def test_close_is_idempotent(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    journal.close()
    journal.close()
    assert journal.closed
    with pytest.raises(sqlite3.ProgrammingError):
        journal._db.execute("SELECT 1")


def test_a_match_recorded_under_other_rules_is_refused_by_name(tmp_path):
    """A journal from before a game changed how it records play is never loaded wrong."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        match = Match.create(GAME, 3, seed="s", journal=journal)
        play_some(match)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE matches SET rules = ?", (GAME.spec.rules + 1,))
    with Journal(path) as journal:
        with pytest.raises(JournalError, match="version 2 of the High Card Vote rules"
                           ".*cannot be resumed. Start a new match"):
            journal.load(match.id, games)


def test_a_journal_written_before_rules_versions_reads_as_version_1(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the schema as it was, without the rules column
        db.executescript("""
            CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL,
                seats INTEGER NOT NULL, names TEXT NOT NULL, options TEXT NOT NULL,
                seed TEXT NOT NULL, created REAL NOT NULL);
            INSERT INTO matches VALUES ('m1', 'toy-high-card', 3, '["A","B","C"]',
                '{"dealt":true,"rounds":3}', 's', 0);""")
    with Journal(path) as journal:
        assert journal.header("m1")["rules"] == 1


def deny_commit(journal):
    """SQLite itself refuses this connection's next COMMIT (a disk that fails at the
    flush): its authorizer denies the statement."""
    def authorizer(action, arg1, *_):
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT":
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK
    journal._db.set_authorizer(authorizer)


def test_work_alongside_sees_the_new_state_before_the_commit_returns(journal, tmp_path):
    match = Match.create(GAME, 3, seed="s", names=["Ann", "Bo", "Cy"], journal=journal)
    outside = sqlite3.connect(journal.path, check_same_thread=False)
    rows = lambda: outside.execute("SELECT COUNT(*) FROM entries").fetchone()[0]  # noqa: E731
    before = rows()
    seen: list[tuple[int, bool]] = []

    def alongside():
        # The match as the action leaves it, while the commit's flush runs on the
        # journal's other thread: whether the flush has landed yet is a race between
        # two threads (on a loaded machine it often has), so only the state is pinned.
        seen.append((rows(), 0 not in match.acting()))

    match.apply(0, {"type": "vote", "seat": 1}, alongside=alongside)
    assert len(seen) == 1 and seen[0][1] is True
    assert seen[0][0] in (before, before + 1)
    assert rows() == before + 1  # and once apply returns, the entry is on disk
    outside.close()


def test_a_commit_that_fails_puts_the_match_back_after_the_work_alongside(journal):
    match = Match.create(GAME, 3, seed="s", names=["Ann", "Bo", "Cy"], journal=journal)
    before = match.snapshot()
    ran: list[bool] = []
    deny_commit(journal)
    with pytest.raises(JournalError):
        match.apply(0, {"type": "vote", "seat": 1}, alongside=lambda: ran.append(True))
    assert ran == [True]  # it ran, and nothing it built is used
    assert match.snapshot() == before and 0 in match.acting()
    journal._db.set_authorizer(None)
    match.apply(0, {"type": "vote", "seat": 1})  # the journal works again: so does play
    assert 0 not in match.acting()


def test_an_error_alongside_is_raised_once_the_entries_are_on_disk(journal, tmp_path):
    match = Match.create(GAME, 3, seed="s", names=["Ann", "Bo", "Cy"], journal=journal)

    def alongside():
        raise ValueError("a display that cannot be drawn")

    with pytest.raises(ValueError):
        match.apply(0, {"type": "vote", "seat": 1}, alongside=alongside)
    assert 0 not in match.acting()  # the action counts: it is in the journal
    loaded = journal.load(match.id, games)
    assert loaded.snapshot() == match.snapshot()


def test_a_renamed_seat_keeps_its_new_name_after_a_replay(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    match = Match.create(GAME, 3, seed="rename", names=["Ann", "Bo", "Cy"], journal=journal)
    match.rename(1, "  Bea  ")
    assert match.names == ["Ann", "Bea", "Cy"] and match.view(1)["you"]["name"] == "Bea"
    with pytest.raises(ActionRejected):
        match.rename(3, "Dee")
    with pytest.raises(ActionRejected):
        match.rename(0, "   ")
    assert journal.load(match.id, games).names == ["Ann", "Bea", "Cy"]
    journal.close()
