"""journal: the time to commit one action to disk, and to resume a 2,000-action match.

Commits are timed around ``Journal.append`` (WAL, synchronous=FULL: the fsync is in the
figure). The long match is the benchmark's repeating 8-seat secret vote, so it can run
to 2,000 actions; resuming is ``Journal.load``, which replays every entry.
"""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from bench.vote_game import GAME as VOTE
from companion.engine import Journal, Match


def run(commits: int = 500, long_match: int = 2000) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.sqlite3")
        times: list[float] = []
        append = journal.append

        def timed(match_id, entries, finished=False, alongside=None):
            started = time.perf_counter()
            append(match_id, entries, finished, alongside=alongside)
            times.append((time.perf_counter() - started) * 1000)
        journal.append = timed
        match = Match.create(VOTE, 8, {"rounds": 100_000}, seed="journal", journal=journal)
        rng = random.Random(4)
        while match.version < long_match:
            seat = rng.choice(match.acting())
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        journal.close()
        with Journal(Path(tmp) / "journal.sqlite3") as again:
            started = time.perf_counter()
            loaded = again.load(match.id, lambda _game_id: VOTE)
            resume = time.perf_counter() - started
        assert loaded.snapshot() == match.snapshot()
    return {"commit_ms": times[:commits] if len(times) > commits else times,
            "resume_s": resume, "actions": match.version}
