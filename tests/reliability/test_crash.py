"""Crash and restart: `mutiny serve` killed with SIGKILL at random moments, and torn
journal files.

The play-and-kill test drives a real server process through the host and seat API at
full speed (every registered game in turn, random legal actions), kills it at random
moments, and after every kill checks the journal against what the server acknowledged:
every acknowledged action is there, in order; nothing refused is there; the one request
the kill cut off is there or not, whole; nothing else. Then it restarts the server and
checks that what every viewer is shown is a replay of the journal.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import companion.games
from companion.engine import CHANCE, HOST, PUBLIC, Journal, Match
from companion.engine.chance import Chance
from companion.engine.journal import wal_in_use
from companion.engine.match import HOST_ACTIONS
from companion.errors import JournalError
from companion.table import Table
from companion.table.table import _hosts_word
from tests.engine.contract import random_options
from tests.reliability.helpers import Client, Cut, Serve, canon, free_port

GAMES = list(companion.games.GAMES)
TABLE_SEATS = 8


def plain(value: Any) -> Any:
    """A value as it comes back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


# -- play, kill, check, restart -------------------------------------------------------------
class Driver:
    """Plays a `mutiny serve` through its API and remembers every request it sent."""

    def __init__(self, data_dir: Path, rng: random.Random, budget: tuple[int, int]):
        self.data_dir = data_dir
        self.rng = rng
        self.budget_range = budget
        self.port = free_port()
        self.serve: Serve | None = None
        self.seats: list[Client] = []
        self.host: Client | None = None
        # match id -> [(actor, canonical action, "ok" | "refused" | "cut")] in send order
        self.records: dict[str, list[tuple[Any, str, str]]] = {}
        self.game_of: dict[str, str] = {}
        self.acked_in: dict[str, int] = {}
        self.budget: dict[str, int] = {}
        self.rotation = GAMES[:]
        rng.shuffle(self.rotation)
        self.next_game = 0
        self.killed = threading.Event()
        self.timer: threading.Timer | None = None
        self.kill_on_post: int | None = None  # kill during the n-th POST from now
        self.stats = {"kills": 0, "kills_during_start": 0, "starts": 0,
                      "acknowledged": 0, "refused": 0, "cut": 0, "cut_applied": 0,
                      "journal_entries_checked": 0, "resumed_matches_compared": 0,
                      "views_compared": 0, "matches_started": 0,
                      "acked_per_game": {g: 0 for g in GAMES},
                      "resumed_per_game": {g: 0 for g in GAMES}}

    # the process
    def start(self) -> None:
        self.serve = Serve(self.data_dir, self.port, TABLE_SEATS).wait_ready()
        self.stats["starts"] += 1
        for phone in self.seats:
            phone.close()  # connections to the killed process are dead
        # Cookies outlive a restart that resumes a match; a restart with no match to
        # play on is a new game night, where every old cookie is dead (security.md).
        resumed = Client(self.port).json("GET", "/api/public/view")[1]["match"] is not None
        if self.seats and not resumed:
            for phone in self.seats:
                assert phone.json("GET", "/api/seat/view")[0] == 401, "last night's cookie"
            self.seats = []
        if not self.seats:
            for _, token in sorted(self.serve.tokens().items()):
                phone = Client(self.port)
                status, headers, _ = phone.get(f"/J/{token}")
                assert status == 303 and "mutiny_seat" in phone.cookies
                self.seats.append(phone)
        old_host = self.host
        if old_host is not None:  # the host's login belongs to the run that is gone
            old_host.close()  # and so does its kept-alive connection
            assert old_host.json("GET", "/api/host/view")[0] == 401
        self.host = Client(self.port)
        status, body = self.host.json("POST", "/api/host/login", {"pin": self.serve.pin})
        assert status == 200, body

    def kill_during_start(self) -> None:
        """A restart killed before it answers (while it replays the journal)."""
        doomed = Serve(self.data_dir, self.port, TABLE_SEATS)
        time.sleep(self.rng.uniform(0.0, 1.0))
        doomed.kill()
        self.stats["kills_during_start"] += 1

    def kill_later(self, seconds: float) -> None:
        def kill() -> None:
            self.killed.set()
            self.serve.kill()
        self.killed.clear()
        self.timer = threading.Timer(seconds, kill)
        self.timer.daemon = True
        self.timer.start()

    # playing
    def play_until_killed(self) -> None:
        while True:
            status, first = self.seats[0].json("GET", "/api/seat/view")
            assert status == 200, first
            match = first["match"]
            if (match is None or match["over"]
                    or self.acked_in.get(match["match"], 0) >= self.budget_for(match["match"])):
                self.next_match(match)
                continue
            match_id, players = match["match"], len(match["names"])
            candidates = []
            views = [first] + [self.seats[s].json("GET", "/api/seat/view")[1]
                               for s in range(1, players)]
            for seat, view in enumerate(views):
                assert view["viewer"] == seat and view["match"]["match"] == match_id
                candidates += [(seat, a, view["version"]) for a in view["match"]["you"]["legal"]]
            if not candidates or match["paused"] or self.rng.random() < 0.04:
                status, hview = self.host.json("GET", "/api/host/view")
                assert status == 200, hview
                legal = hview["host"]["legal"]
                game_moves = [a for a in legal if a["type"] not in HOST_ACTIONS]
                engine = [a for a in legal if a["type"] in ("pause", "undo")]
                if match["paused"]:
                    host_moves = [a for a in legal if a["type"] == "resume"]
                else:
                    assert candidates or game_moves, (
                        f"nobody can act in {match_id} at step {match['step']!r}")
                    host_moves = game_moves + (engine if self.rng.random() < 0.5 else [])
                if host_moves:
                    candidates = [(HOST, a, hview["version"]) for a in host_moves]
            assert candidates, f"nobody can act in {match_id} at step {match['step']!r}"
            actor, action, version = self.rng.choice(candidates)
            stale = self.rng.random() < 0.05
            self.act(match_id, actor, action, version - 1 if stale else version, stale)

    def budget_for(self, match_id: str) -> int:
        if match_id not in self.budget:
            self.budget[match_id] = self.rng.randint(*self.budget_range)
        return self.budget[match_id]

    def act(self, match_id: str, actor: Any, action: dict, version: int, stale: bool) -> None:
        client = self.host if actor == HOST else self.seats[actor]
        path = "/api/host/act" if actor == HOST else "/api/seat/act"
        record = self.records.setdefault(match_id, [])
        if self.kill_on_post is not None:
            self.kill_on_post -= 1
            if self.kill_on_post == 0:  # while the server takes this one in
                self.kill_on_post = None
                self.kill_later(self.rng.uniform(0.0, 0.015))
        try:
            status, body = client.json("POST", path, {"action": action, "version": version})
        except Cut:
            record.append((actor, canon(action), "cut"))
            self.stats["cut"] += 1
            raise
        if stale:
            assert status == 409 and body["code"] == "stale", body
            record.append((actor, canon(action), "refused"))
            self.stats["refused"] += 1
            return
        assert status == 200, (actor, action, body)
        record.append((actor, canon(action), "ok"))
        self.acked_in[match_id] = self.acked_in.get(match_id, 0) + 1
        self.stats["acknowledged"] += 1
        game = self.game_of.get(match_id)
        if game:
            self.stats["acked_per_game"][game] += 1

    def next_match(self, match: dict | None) -> None:
        if match is not None and not match["over"]:
            status, hview = self.host.json("GET", "/api/host/view")
            self.act(match["match"], HOST, {"type": "end"}, hview["version"], False)
            return
        if match is not None and self.rng.random() < 0.5:
            status, body = self.host.json("POST", "/api/host/lobby", {})
            assert status == 200, body
        game_id = self.rotation[self.next_game % len(self.rotation)]
        self.next_game += 1
        game = companion.games.get(game_id)
        players = self.rng.randint(game.spec.min_seats, min(game.spec.max_seats, TABLE_SEATS))
        options = random_options(game, self.rng)
        status, body = self.host.json("POST", "/api/host/start", {
            "game": game_id, "players": players, "options": options})
        assert status == 200, body
        self.game_of[body["match"]] = game_id
        self.records.setdefault(body["match"], [])
        self.stats["matches_started"] += 1

    # checking
    def check_journal(self) -> None:
        """With the server dead: the journal holds exactly what was acknowledged."""
        with Journal(self.data_dir / "journal.sqlite3") as journal:
            for match_id in journal.match_ids():
                entries = [(e.actor, canon(e.action)) for e in journal.entries(match_id)
                           if e.actor != CHANCE]
                sent = [r for r in self.records.get(match_id, []) if r[2] != "refused"]
                assert whole(sent, entries), (
                    f"match {match_id} ({self.game_of.get(match_id)}): the journal's"
                    f" actions {entries} are not the acknowledged ones {sent}")
                self.stats["journal_entries_checked"] += len(journal.entries(match_id))
                # Every match on disk replays, with no chance step left half-done.
                journal.load(match_id, companion.games.get)

    def check_resumed(self) -> None:
        """With the server back: every viewer is shown a replay of the journal."""
        status, public = Client(self.port).json("GET", "/api/public/view")
        assert status == 200
        with Journal(self.data_dir / "journal.sqlite3") as journal:
            playing = []
            for match_id in journal.unfinished_ids():
                if not journal.load(match_id, companion.games.get).is_over:
                    playing.append(match_id)
            if not playing:
                assert public["match"] is None, "the server resumed a match that is over"
                return
            replay = journal.load(playing[-1], companion.games.get)
        assert public["match"] == plain(replay.view(PUBLIC))
        assert public["summary"] == plain(replay.summary())
        for seat in range(TABLE_SEATS):
            status, view = self.seats[seat].json("GET", "/api/seat/view")
            assert status == 200, "a seat's cookie did not survive the restart"
            expected = plain(replay.view(seat)) if seat < replay.seats else None
            assert view["match"] == expected
            if 0 < seat < replay.seats:  # (seat 1's screen also holds the host PIN)
                # As the table shows it: a match killed while paused says so first.
                shown = _hosts_word(replay, replay.display(seat))
                assert view["display"] == plain(shown.to_dict())
        status, hview = self.host.json("GET", "/api/host/view")
        host = plain(replay.view(HOST))["host"]
        assert (hview["host"]["legal"], hview["host"]["can_undo"], hview["host"]["options"]) \
            == (host["legal"], host["can_undo"], host["options"])
        self.stats["resumed_matches_compared"] += 1
        self.stats["views_compared"] += 2 + TABLE_SEATS
        self.stats["resumed_per_game"][replay.game.spec.id] += 1
        # Nothing of a chance step is left undone in what was resumed.
        state = replay.snapshot()
        assert replay.is_over or replay.game.chance_action(
            state["state"], Chance(replay.seed, state["meta"]["draws"])) is None


def whole(sent: list[tuple[Any, str, str]], entries: list[tuple[Any, str]]) -> bool:
    """Whether ``entries`` is ``sent`` with every "ok" request present and each "cut"
    request present or absent (never in part, never out of order)."""
    positions = {0}
    for actor, action, outcome in sent:
        following = set()
        for at in positions:
            if at < len(entries) and entries[at] == (actor, action):
                following.add(at + 1)
            if outcome == "cut":
                following.add(at)
        positions = following
    return len(entries) in positions


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_nothing_acknowledged(tmp_path, request, figures):
    full = request.config.full_run
    kills = 60 if full else 6
    seed = time.time_ns() % 10**9 if full else 11
    rng = random.Random(seed)
    driver = Driver(tmp_path / "data", rng, budget=(10, 120) if full else (4, 14))
    started = time.monotonic()
    driver.start()
    try:
        while driver.stats["kills"] < kills or min(driver.stats["acked_per_game"].values()) < 3:
            if rng.random() < 0.5:
                driver.kill_later(rng.uniform(0.3, 2.5))  # at any moment
            else:
                driver.killed.clear()
                driver.kill_on_post = rng.randint(1, 25)  # in the middle of an action
            try:
                driver.play_until_killed()
            except Cut:
                pass
            driver.timer.join(120)
            assert driver.killed.is_set(), (
                f"a request failed while the server was up:\n{driver.serve.output}")
            assert driver.serve.proc.returncode == -9, driver.serve.output
            driver.stats["kills"] += 1
            driver.check_journal()
            if rng.random() < 0.2:
                driver.kill_during_start()
                driver.check_journal()
            driver.start()
            driver.check_resumed()
    finally:
        if driver.serve is not None:
            driver.serve.stop()
    driver.check_journal()
    assert all(driver.stats["acked_per_game"][g] >= 3 for g in GAMES)
    cut_applied = 0
    with Journal(driver.data_dir / "journal.sqlite3") as journal:
        for match_id, sent in driver.records.items():
            applied = sum(1 for e in journal.entries(match_id) if e.actor != CHANCE)
            cut_applied += applied - sum(1 for r in sent if r[2] == "ok")
    driver.stats["cut_applied"] = cut_applied
    figures("crash", **driver.stats, seconds=round(time.monotonic() - started, 1), seed=seed)


# -- torn journal files ------------------------------------------------------------------
def build_journal(path: Path, rng: random.Random, transactions: int):
    """A journal with a match of every game and random actions, still open (as when the
    power goes). Returns (journal, matches, boundaries, snapshots): after transaction i
    the -wal file was ``boundaries[i][0]`` bytes long and each match at the version in
    ``boundaries[i][1]``; ``snapshots[(match, version)]`` is its state then."""
    journal = Journal(path, wal_pages=1000)  # every commit in one pass over the WAL
    wal = Path(str(path) + "-wal")
    matches, boundaries, snapshots = [], [], {}

    def boundary() -> None:
        boundaries.append((wal_in_use(wal), {m.id: m.version for m in matches}))

    for game_id in GAMES:
        game = companion.games.get(game_id)
        seats = rng.randint(game.spec.min_seats, game.spec.max_seats)
        match = Match.create(game, seats, random_options(game, rng), seed=rng.random(),
                             journal=journal)
        matches.append(match)
        snapshots[(match.id, match.version)] = match.snapshot()
        boundary()
    for _ in range(transactions):
        live = [m for m in matches if not m.is_over]
        if not live:
            break
        match = rng.choice(live)
        moves = [(a, act) for a in match.acting() for act in match.legal_actions(a)]
        actor, action = rng.choice(moves)
        match.apply(actor, action)
        snapshots[(match.id, match.version)] = match.snapshot()
        boundary()
    return journal, matches, boundaries, snapshots


def torn_copy(source: Path, into: Path, cut_file: str, cut: int) -> Path:
    into.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(str(source) + suffix, str(into / source.name) + suffix)
    os.truncate(into / (source.name + cut_file), cut)
    return into / source.name


@pytest.mark.slow
def test_a_torn_wal_recovers_to_the_last_whole_action(tmp_path, request, figures):
    full = request.config.full_run
    seed = time.time_ns() % 10**9 if full else 5
    rng = random.Random(seed)
    source = tmp_path / "journal.sqlite3"
    journal, matches, boundaries, snapshots = build_journal(source, rng, 150)
    size = wal_in_use(Path(str(source) + "-wal"))
    assert [b[0] for b in boundaries] == sorted(b[0] for b in boundaries)  # one WAL pass
    cuts = 400 if full else 40
    refused = 0
    try:
        for trial in range(cuts):
            # Half the cuts anywhere, half within a few bytes of a commit's end.
            if trial % 2:
                cut = rng.randrange(size + 1)
            else:
                cut = max(0, rng.choice(boundaries)[0] + rng.randint(-40, 40))
            copy = torn_copy(source, tmp_path / f"cut{trial}", "-wal", cut)
            whole_ones = [b for b in boundaries if b[0] <= cut]
            expected = whole_ones[-1][1] if whole_ones else {}
            try:
                with Journal(copy) as torn:
                    assert set(torn.match_ids()) == set(expected)
                    for match_id, version in expected.items():
                        loaded = torn.load(match_id, companion.games.get)
                        assert loaded.version == version, f"cut at {cut}: not the last whole action"
                        assert loaded.snapshot() == snapshots[(match_id, version)]
            except JournalError as exc:
                said = str(exc)  # refused at open (moved aside) or at load (what to do)
                assert any(w in said.lower() for w in ("moved aside", "move it aside",
                                                       "cannot be resumed"))
                refused += 1
            shutil.rmtree(copy.parent)
    finally:
        journal.close()
    figures("torn_wal", cuts=cuts, recovered=cuts - refused, refused=refused,
            transactions=len(boundaries), seed=seed)


@pytest.mark.slow
def test_a_cut_journal_file_is_refused_or_loaded_whole(tmp_path, request, figures):
    """The main database file cut short (after a checkpoint moved half the journal into
    it): every match either loads exactly as it was written, or is refused with a
    message saying what to do. Never a match with actions silently missing."""
    full = request.config.full_run
    seed = time.time_ns() % 10**9 if full else 6
    rng = random.Random(seed)
    source = tmp_path / "journal.sqlite3"
    journal, matches, boundaries, snapshots = build_journal(source, rng, 60)
    checkpoint = sqlite3.connect(source)
    checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the first half into the file
    checkpoint.close()
    rng2 = random.Random(rng.random())
    for _ in range(60):
        live = [m for m in matches if not m.is_over]
        match = rng2.choice(live)
        actor, action = rng2.choice([(a, x) for a in match.acting()
                                     for x in match.legal_actions(a)])
        match.apply(actor, action)
    final = {m.id: m.snapshot() for m in matches}
    playing = next((m.id for m in reversed(matches) if not m.is_over), None)  # newest alive
    size = source.stat().st_size
    cuts = 400 if full else 40
    outcomes = {"whole": 0, "refused": 0}
    try:
        for trial in range(cuts):
            cut = rng.randrange(size)
            copy = torn_copy(source, tmp_path / f"cut{trial}", "", cut)
            try:
                with Journal(copy) as torn:
                    for match in matches:
                        try:
                            loaded = torn.load(match.id, companion.games.get)
                        except JournalError:
                            # (a lost header row says "no match ..."; the rest say what
                            # to do)
                            outcomes["refused"] += 1
                            continue
                        assert loaded.snapshot() == final[match.id], (
                            f"seed {seed} cut at {cut}: {match.game.spec.id} loaded wrong")
                        outcomes["whole"] += 1
                    # And the table, as at start-up: resumes whole or refuses.
                    table = Table(torn, seat_count=8)
                    try:
                        resumed = table.resume()
                    except JournalError as exc:
                        assert "move it aside" in str(exc).lower() or "could not write" in str(exc)
                    else:  # the match being played, whole, or none (and a log line)
                        assert resumed is None or (resumed.id == playing and
                                                   resumed.snapshot() == final[resumed.id]), (
                            f"seed {seed} cut at {cut}: resumed {resumed.game.spec.id},"
                            f" not the match being played")
                    finally:
                        table.close()  # (its step timers too; the journal closes twice)
            except JournalError as exc:  # refused at open, its files moved aside
                assert "moved aside" in str(exc)
                outcomes["refused"] += len(matches)
            shutil.rmtree(copy.parent)
    finally:
        journal.close()
    figures("cut_journal_file", cuts=cuts, match_loads_whole=outcomes["whole"],
            match_loads_refused=outcomes["refused"], seed=seed)


def test_serve_refuses_a_damaged_journal_with_what_to_do(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    journal, *_ = build_journal(data / "journal.sqlite3", random.Random(3), 20)
    journal.close()  # checkpointed into the file: now damage the file itself
    path = data / "journal.sqlite3"
    os.truncate(path, path.stat().st_size // 2)
    serve = Serve(data, free_port(), 4)
    try:
        serve.wait_ready()
    except AssertionError:  # it exited: refused the journal
        assert serve.proc.returncode == 1
        assert "moved aside" in serve.output
    else:  # it refused only the matches it could not read, and runs on a new one
        serve.stop()
        assert "cannot resume match" in serve.output
    assert "Traceback" not in serve.output


def test_a_match_written_without_its_deal_is_not_resumed(tmp_path, caplog):
    """A journal from before the header and the deal were written together: a kill
    between the two left a match nobody can play. It is refused, not resumed."""
    path = tmp_path / "journal.sqlite3"
    game = companion.games.get("moon-yeti")
    with Journal(path) as journal:
        match = Match(game, 4, game.spec.resolve_options({}), "seed",
                      [f"S{i}" for i in range(4)], "cut-before-the-deal")
        journal.begin(match)  # the header alone, as the kill left it
        with pytest.raises(JournalError, match="cannot be resumed"):
            journal.load(match.id, companion.games.get)
    table = Table(Journal(path), seat_count=4)
    try:
        assert table.resume() is None
        assert table.payload(PUBLIC)[1]["match"] is None
    finally:
        table.close()
    assert "cannot resume match cut-before-the-deal" in caplog.text
