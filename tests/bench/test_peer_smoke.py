"""The peer benchmark's pieces, without a clock: its vote game keeps the engine's
contract, and the boardgame.io twin's files are where the benchmark expects them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.vote_game import GAME, ballot_for
from companion.engine import PUBLIC, Journal, Match
from tests.engine.contract import Tally, play_and_check

PEER = Path(__file__).resolve().parents[2] / "bench" / "peer"


@pytest.fixture(scope="module")
def journal():
    with Journal(":memory:") as j:
        yield j


@pytest.mark.parametrize("seats", [2, 5, 8])
def test_vote_game_keeps_the_engine_contract(journal, seats):
    tally = Tally()
    for seed in range(4):
        play_and_check(GAME, seats, seed, tally, journal, deep_every=1 if seed < 2 else 3)
    assert tally.ended == 4
    assert tally.rejections > 0 and "unknown_action" in tally.codes
    if seats > 2:  # with two seats each ballot has one choice: nothing to re-draw
        assert tally.redeals_changed > 0, "the secret ballots were never re-drawn"


def test_the_scripted_ballots_play_many_votes_and_stay_secret(journal):
    match = Match.create(GAME, 8, {"rounds": 3}, seed="smoke", journal=journal)
    for k in range(20):
        seat, round_ = k % 8, 1 + k // 8
        target = ballot_for(seat, round_)
        assert target != seat
        match.apply(seat, {"type": "vote", "seat": target})
        public = match.view(PUBLIC)["state"]
        assert "cast" not in (public["vote"] or {}), "a ballot leaked before the reveal"
        assert public["vote"]["ballots_in"] == (k + 1) % 8
    assert match.view(PUBLIC)["state"]["round"] == 3
    last = match.view(PUBLIC)["state"]["last"]
    assert last["round"] == 2 and sum(n for _, n in last["tally"]) == 8
    assert sum(match.view(PUBLIC)["state"]["received"]) == 16


def test_the_peer_pins_boardgame_io_and_koa_compose():
    package = json.loads((PEER / "package.json").read_text())
    assert package["dependencies"] == {"boardgame.io": "0.50.2"}
    assert package["overrides"] == {"koa-compose": "4.1.0"}
    for name in ("vote.js", "server.js", "client.js"):
        assert (PEER / name).is_file(), name


def test_the_committed_lock_file_records_no_download_address():
    assert "omit-lockfile-registry-resolved=true" in (PEER / ".npmrc").read_text()
    lock = json.loads((PEER / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/boardgame.io"]["version"] == "0.50.2"
    assert lock["packages"]["node_modules/koa-compose"]["version"] == "4.1.0"
    assert not [name for name, entry in lock["packages"].items() if "resolved" in entry]
