"""Bots at the table (docs/bots.md, "At the table"): seated in empty seats, paced on the
table's clock whatever the search took, searching in a process of their own that gives way to the table, a
random legal action when that process dies, standing up for a phone, and back after a
restart. The pace runs on a manual clock: no test measures a wall-clock duration."""
from __future__ import annotations

import logging
import os
import signal
import threading
import time

import pytest

from companion.clocks import ManualClock
from companion.engine import PUBLIC, Journal
from companion.errors import ActionRejected
from companion.table import Table
from companion.table import bots as table_bots
from companion.table.bots import PACES, TAKEN_FROM_BOT

BOT = 3  # the bot's seat: seat 4


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def open_table(tmp_path, clock):
    made: list[Table] = []

    def make(folder: str = "one") -> Table:
        (tmp_path / folder).mkdir(exist_ok=True)
        table = Table(Journal(tmp_path / folder / "journal.sqlite3"), seat_count=4,
                      timer_clock=clock)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


def seated(table: Table, level: str = "easy") -> Table:
    for seat in range(3):
        table.claim(seat)
    table.seat_bot(BOT, level, seed="test")
    return table


def until_bot_turn(table: Table, limit: int = 400) -> None:
    """Play the people's seats (first choice) until only the bot may act."""
    match = table.match
    for _ in range(limit):
        people = [s for s in range(3) if match.legal_actions(s)]
        if not people and match.legal_actions(BOT):
            return
        assert people, f"nobody may act at {match.step()}"
        table.submit(people[0], match.legal_actions(people[0])[0])
    raise AssertionError("the bot's turn never came")


def wait_for(check, what: str, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_bot_sits_only_in_an_empty_seat_between_matches(open_table):
    table = open_table()
    table.claim(0)
    with pytest.raises(ActionRejected) as taken:
        table.seat_bot(0, "easy")
    assert taken.value.code == "seat_taken"
    with pytest.raises(ActionRejected) as level:
        table.seat_bot(2, "wicked")
    assert level.value.code == "bad_value"
    table.seat_bot(2, "normal")
    with pytest.raises(ActionRejected):
        table.seat_bot(2, "easy")  # (a bot's seat is not empty either)
    public = table.payload(PUBLIC)[1]["table"]
    assert public["names"][2] == "Bot (normal)"
    assert public["bots"][2] == {"level": "normal", "name": "Bot (normal)", "thinking": False}
    assert not table.code_is_public(2)  # nobody scans their way into a bot's hand
    table.start("booty-dice", 3)
    with pytest.raises(ActionRejected) as busy:
        table.seat_bot(1, "easy")
    assert busy.value.code == "not_now"
    assert table.match.names[2] == "Bot (normal)"


def test_seat_one_seats_and_stands_a_bot_from_the_lobby_menu(open_table):
    table = open_table()
    table.claim(0)
    offered = [c.action for c in table.display(0).choices if c.group[:1] == ("Bots",)]
    assert {"type": "lobby_bot", "seat": 2, "level": "hard"} in offered
    assert not [a for a in offered if a.get("seat") == 0]  # seat 1 has its player
    with pytest.raises(ActionRejected) as other:
        table.submit(1, {"type": "lobby_bot", "seat": 2, "level": "hard"})
    assert other.value.code == "not_your_turn"
    table.submit(0, {"type": "lobby_bot", "seat": 2, "level": "hard"})
    assert table.bots.sits(2)
    assert {"type": "lobby_bot_stands", "seat": 2} in [
        c.action for c in table.display(0).choices]
    table.submit(0, {"type": "lobby_bot_stands", "seat": 2})
    assert not table.bots.sits(2)


def test_the_bot_acts_when_its_pace_is_over_never_sooner_and_as_its_seat(open_table, clock):
    table = seated(open_table())
    match = table.start("mit-mutiny", 4, seed="paced")
    until_bot_turn(table)
    think = table.bots.seats[BOT].thinking
    assert think is not None and think.began == clock.now()
    low, high = PACES["easy"]
    assert low <= think.due - think.began <= high
    # Its light is on: the table display and the host page say it is thinking.
    assert table.payload(PUBLIC)[1]["table"]["bots"][BOT]["thinking"]
    assert "Thinking..." in table.display(BOT).lines
    before = len(table.journal.entries(match.id))
    clock.advance(think.due - clock.now() - 0.001)
    if think.chosen is None:  # the search is over long before the pace is
        wait_for(lambda: table.bots.worker.answered(think.ticket), "the search")
    assert len(table.journal.entries(match.id)) == before  # it waits for its pace
    clock.advance(0.002)
    entries = table.journal.entries(match.id)
    assert len(entries) > before and entries[before].actor == BOT
    done = table.bots.acted[-1]
    assert done["acted"] == think.due and done["how"] in ("search", "at_once")


def test_the_search_runs_in_a_process_of_its_own_that_gives_way_to_the_table(open_table):
    table = seated(open_table())
    wait_for(lambda: table.bots.worker.pid is not None, "the worker")
    pid = table.bots.worker.pid
    assert pid != os.getpid()
    # (stepped aside by its own first line, once the new interpreter has started)
    wait_for(lambda: os.getpriority(os.PRIO_PROCESS, pid) == 19, "the worker's nice")
    wait_for(lambda: os.sched_getscheduler(pid) == os.SCHED_IDLE, "the idle class")


def test_a_dead_worker_means_a_random_legal_action_logged_and_a_new_worker(
        open_table, clock, caplog):
    table = seated(open_table())
    table.start("mit-mutiny", 4, seed="dies")
    first = None
    for _ in range(20):  # a decision the search must make (not one at once)
        until_bot_turn(table)
        think = table.bots.seats[BOT].thinking
        if think.chosen is None:
            first = table.bots.worker.pid
            break
        clock.advance(think.due - clock.now())
    assert first is not None, "the bot never had to search"
    os.kill(first, signal.SIGKILL)  # the worker this test's table started
    wait_for(lambda: table.bots.worker.pid is None, "the worker to be gone")
    with caplog.at_level(logging.WARNING, "companion.table.bots"):
        clock.advance(think.due - clock.now())
    assert table.bots.acted[-1]["how"] == "fallback"
    assert "random legal action" in caplog.text
    until_bot_turn(table)
    think = table.bots.seats[BOT].thinking
    clock.advance(think.due - clock.now())
    assert table.bots.acted[-1]["how"] in ("search", "at_once")
    if think.chosen is None:
        assert table.bots.worker.pid not in (None, first)


def test_a_table_without_the_search_clock_waits_for_the_search_however_late(
        open_table, clock, monkeypatch):
    """Twin tables (tests/secrecy) must decide alike on a machine too busy to run the
    search in time: their bots search every world and wait for it past the pace, where a
    table's bot would give up after ``LATE_SECONDS`` and play at random."""
    monkeypatch.setattr(table_bots, "LATE_SECONDS", 0.05)
    table = seated(open_table())
    table.bots.search_clock = False
    table.start("mit-mutiny", 4, seed="dies")
    wait_for(lambda: table.bots.worker.pid is not None, "the worker")
    worker = table.bots.worker.pid
    os.kill(worker, signal.SIGSTOP)  # a machine with no core to spare for it
    try:
        for _ in range(20):  # a decision the search must make (not one at once)
            until_bot_turn(table)
            think = table.bots.seats[BOT].thinking
            if think.chosen is None:
                break
            clock.advance(think.due - clock.now())
        assert think.chosen is None, "the bot never had to search"
        due = threading.Thread(target=clock.advance, args=(think.due - clock.now(),))
        due.start()
        due.join(0.5)  # ten times LATE_SECONDS: a clocked table would have played
        assert due.is_alive(), "the bot gave up on its search"
    finally:
        os.kill(worker, signal.SIGCONT)
    due.join(20)
    assert not due.is_alive()
    assert table.bots.acted[-1]["how"] == "search"


def test_a_phone_takes_the_bots_seat_and_the_bot_never_acts_for_it(open_table, clock):
    table = seated(open_table())
    match = table.start("mit-mutiny", 4, seed="taken")
    until_bot_turn(table)
    think = table.bots.seats[BOT].thinking
    before = len(table.journal.entries(match.id))
    table.access.join(table.access.token(BOT), "a phone")  # (as /J/<code> does)
    table.claim(BOT)
    table.tell(BOT, "Phone joined")
    assert not table.bots.sits(BOT)
    assert f"! {TAKEN_FROM_BOT}" in table.display(BOT).lines
    assert table.display(BOT).choices  # the seat's own choices, from where the bot was
    clock.advance(think.due - clock.now() + 5)
    assert len(table.journal.entries(match.id)) == before


def test_the_player_who_takes_a_bots_seat_is_named_in_the_match_and_its_journal(
        open_table, tmp_path):
    table = seated(open_table())
    match = table.start("booty-dice", 4, seed="named")
    assert match.names[BOT] == "Bot (easy)"
    table.access.join(table.access.token(BOT), "a phone")
    table.rename(BOT, "Mei")  # the phone's name came first (/api/seat/name)
    assert match.names[BOT] == "Bot (easy)"  # the bot still plays: its name stays
    table.claim(BOT)
    assert match.names[BOT] == "Mei" and match.view(PUBLIC)["names"][BOT] == "Mei"
    table.rename(BOT, "Mei Ling")
    assert match.names[BOT] == "Mei Ling"
    table.close()
    again = open_table("one")  # a restart reads the name from the journal
    assert again.resume().names[BOT] == "Mei Ling"


def test_a_rematch_keeps_the_bot_and_a_restart_reseats_it(open_table, clock):
    table = seated(open_table(), "normal")
    match = table.start("booty-dice", 4, seed="again")
    table.submit("host", {"type": "end"})
    table.rematch()
    assert table.bots.sits(BOT) and table.match.names[BOT] == "Bot (normal)"
    playing = table.match.id
    table.close()
    again = open_table("one")  # the same folder: a restart
    assert again.resume().id == playing and match.id != playing
    assert again.bots.sits(BOT) and again.bots.seats[BOT].level == "normal"
    assert not again.is_claimed(BOT)  # a bot, not a player, sits there


def test_a_bot_with_real_pieces_rolls_fairly_and_the_table_asks_to_move_them(open_table,
                                                                              clock):
    table = open_table()
    table.claim(0)
    table.seat_bot(1, "easy", seed="pieces")
    table.start("booty-dice", 2, {"dice": "table"}, seed="pieces")
    for _ in range(200):
        if table.payload(PUBLIC)[1]["table"]["pieces"] or table.match.is_over:
            break
        if table.match.legal_actions(0):
            table.submit(0, table.match.legal_actions(0)[0])
        else:
            think = table.bots.seats[1].thinking
            clock.advance(think.due - clock.now())
    line = table.payload(PUBLIC)[1]["table"]["pieces"]
    assert line and line.startswith("Move the bot's pieces: Bot (easy) (seat 2) chose ")
    entered = [d for d in table.bots.acted if d["action"]["type"] == "enter"]
    assert entered and all(d["how"] == "at_once" for d in entered)  # never searched
