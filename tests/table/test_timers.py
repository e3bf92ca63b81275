"""Step timers at the table: set by the host per game, shown on every screen, held by a
pause, resumed after a restart, and ended as the game says (docs/table.md, "Timers")."""
from __future__ import annotations

import logging
import math
import threading

import pytest

from companion.engine import HOST, PUBLIC, ActionRejected, Journal
from companion.errors import JournalError
from companion.table import Table
from tests.engine.test_journal import deny_commit
from tests.table.conftest import claim_all


@pytest.fixture
def timed(hardware, tmp_path):
    """A table whose step timers run on the seats' fake clock."""
    tables: list[Table] = []

    def make() -> Table:
        table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware),
                      timer_clock=hardware.clock)
        tables.append(table)
        claim_all(hardware)
        return table

    yield make
    for table in tables:
        table.close()


def discussing(table, seconds=30):
    """Moon Yeti at four seats in round 1's discussion, with a discussion timer."""
    table.start("moon-yeti", 4, {"time_source": "typed", "discussion_seconds": seconds},
                seed="timers")
    table.submit(0, {"type": "declare", "minute": 7})
    assert table.match.step() == "discuss1"


def timer(table, viewer=PUBLIC):
    return table.payload(viewer)[1]["timer"]


def test_the_discussion_timer_shows_everywhere_and_ends_the_discussion(timed, hardware):
    table = timed()
    discussing(table)
    shown = timer(table)
    assert shown["seconds"] == 30 and shown["left"] == 30 and shown["running"]
    assert shown["ends"] is True
    assert all(timer(table, seat) == shown for seat in range(4))
    assert hardware[2].display.timer == "0:30"

    table.submit(1, {"type": "ready"})  # a seat may still be ready before the time
    hardware.advance(21)
    assert hardware[0].display.timer == "0:09"
    # The last seconds blink the lights of the seats still talking, and only theirs.
    assert [hardware[s].led_state for s in range(4)] == ["blink", "off", "blink", "blink"]
    assert table.match.step() == "discuss1"

    hardware.advance(9)
    assert table.match.step() == "vote1"  # the discussion is over: the vote opened
    state = table.match.snapshot()["state"]
    assert all(state["ready"])
    assert table.match.acting() == [0, 1, 2, 3], "a timer cast a ballot"
    entries = table.journal.entries(table.match.id)
    assert [e.actor for e in entries][-1] == "timekeeper"
    assert entries[-1].action == {"type": "discussion_over"}
    assert timer(table) is None  # the vote is not timed
    assert hardware[0].display.timer == ""
    log = next(p for p in table.payload(PUBLIC)[1]["board"] if p["part"] == "log")
    assert "The discussion's time ran out: the vote opened" in log["lines"]


def test_a_pause_holds_the_timer_and_resuming_runs_it_on(timed, hardware):
    table = timed()
    discussing(table)
    hardware.advance(10)
    table.submit(HOST, {"type": "pause"})
    held = timer(table)
    assert held["running"] is False and held["left"] == 20 and held["since"] is None
    hardware.advance(300)
    assert table.match.step() == "discuss1" and timer(table) == held
    table.submit(HOST, {"type": "resume"})
    assert timer(table)["running"] and timer(table)["left"] == 20
    hardware.advance(19)
    assert table.match.step() == "discuss1"
    hardware.advance(1)
    assert table.match.step() == "vote1"


def test_a_restart_resumes_the_timer_where_it_was_noted(timed, hardware):
    table = timed()
    discussing(table)
    hardware.advance(12)  # noted every 5 s: at 20 s left
    table.close()

    again = timed()
    assert again.resume() is not None
    shown = timer(again)
    assert shown["left"] == 20 and shown["running"]
    hardware.advance(20)
    assert again.match.step() == "vote1"


def test_a_turn_timer_only_says_the_time_is_up(timed, hardware):
    table = timed()
    table.start("booty-dice", 3, {"turn_seconds": 5}, seed="turns")
    roller = table.match.acting()[0]
    hardware.advance(6)
    shown = timer(table)
    assert shown["left"] == 0 and shown["running"] is False  # the payload says so
    assert hardware[roller].display.timer == "0:00"
    assert table.match.acting() == [roller]  # nothing was done for the roller
    assert not [e for e in table.journal.entries(table.match.id) if e.actor == "timekeeper"]

    table.submit(roller, {"type": "stop"})
    while table.match.acting() == [roller]:  # resolve the turn (targets, if any)
        seat_choices = table.match.legal_actions(roller)
        table.submit(roller, seat_choices[0])
    assert timer(table)["left"] == 5 and timer(table)["running"]  # the next turn's own


def test_nothing_but_the_timekeeper_ends_a_discussion(timed, hardware):
    table = timed()
    discussing(table)
    with pytest.raises(ActionRejected) as seat:
        table.submit(2, {"type": "discussion_over"})
    assert seat.value.code == "unknown_action"
    with pytest.raises(ActionRejected) as stale:
        table.match.time_up('["discuss1",null]x')
    assert stale.value.code == "stale"


def test_an_untimed_match_has_no_timer(timed, hardware):
    table = timed()
    discussing(table, seconds=0)
    assert timer(table) is None
    assert hardware[0].display.timer == ""
    hardware.advance(3600)
    assert table.match.step() == "discuss1"


def test_the_host_adds_time_or_ends_it_now(timed, hardware):
    table = timed()
    discussing(table)
    hardware.advance(25)
    table.add_time(30)
    assert timer(table)["left"] == 35 and timer(table)["running"]
    hardware.advance(34)
    assert table.match.step() == "discuss1"
    table.add_time(-15)  # less time than is left: it ends now, as running out would
    hardware.advance(0)
    assert table.match.step() == "vote1"
    with pytest.raises(ActionRejected) as none:
        table.add_time(30)
    assert none.value.code == "not_now"


def test_a_held_timer_takes_more_time_and_stays_held(timed, hardware):
    table = timed()
    discussing(table)
    table.submit(HOST, {"type": "pause"})
    table.add_time(60)
    assert timer(table) == {"seconds": 30, "left": 90.0, "since": None, "running": False,
                            "ends": True}
    hardware.advance(200)
    assert table.match.step() == "discuss1"


def test_ending_a_held_timer_ends_the_discussion_when_the_match_resumes(timed, hardware):
    table = timed()
    discussing(table)
    table.submit(HOST, {"type": "pause"})
    table.add_time(-900)
    hardware.advance(1)
    assert table.match.step() == "discuss1" and timer(table)["left"] == 0
    table.submit(HOST, {"type": "resume"})
    hardware.advance(0)
    assert table.match.step() == "vote1"


def test_time_up_now_ends_a_timer_however_much_was_added(timed, hardware):
    table = timed()
    discussing(table)
    for _ in range(40):
        table.add_time(30)  # 30 + 1,200 s: more than the longest timer an option sets
    table.add_time(-math.inf)  # the host page's "Time's up now"
    hardware.advance(0)
    assert table.match.step() == "vote1"


def test_a_closed_table_makes_no_ending_move(timed, hardware, caplog):
    """The end is due (the host's "Time's up now") but the table closes before the
    clock makes the move: nothing is tried on the closed journal, nothing is logged."""
    table = timed()
    discussing(table)
    table.add_time(-math.inf)
    table.close()
    with caplog.at_level(logging.INFO):
        hardware.advance(5)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert table.timekeeper.shown() is None


def test_a_change_the_journal_cannot_write_leaves_the_timer_as_it_was(timed, hardware):
    """The timer follows the change while it is built; a failed commit puts it back."""
    table = timed()
    discussing(table, seconds=30)
    hardware.advance(10)
    all_ready = [{"type": "ready"}] * 4  # the last one would open the vote (no timer)
    for seat in range(3):
        table.submit(seat, all_ready[seat])
    deny_commit(table.journal)
    with pytest.raises(JournalError):
        table.submit(3, {"type": "ready"})
    assert table.match.step() == "discuss1"
    assert timer(table)["running"] and table.timekeeper.left() == pytest.approx(20)
    hardware.advance(5)
    assert hardware[0].display.timer == "0:15"  # still counting, from where it was
    table.journal._db.set_authorizer(None)
    table.submit(3, {"type": "ready"})
    assert table.match.step() == "vote1" and table.timekeeper.shown() is None


def test_the_step_timers_run_on_a_thread_of_their_own_name(hardware, tmp_path):
    """The table's own timer clock names its thread for what it does (the seats' clock
    is "seat-clock")."""
    table = Table(Journal(tmp_path / "own.sqlite3"), list(hardware))
    try:
        claim_all(hardware)
        table.start("moon-yeti", 4, {"time_source": "typed", "discussion_seconds": 30},
                    seed="named")
        table.submit(0, {"type": "declare", "minute": 7})
        assert "step-timers" in {t.name for t in threading.enumerate()}
    finally:
        table.close()
