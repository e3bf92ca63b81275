"""The table runtime: seat buttons (MockFactory pins) -> engine actions -> screens, and
matches started, finished and resumed."""
from __future__ import annotations

import pytest

from companion.engine import HOST, Journal
from companion.errors import ActionRejected, JournalError
from companion.table import Table
from tests.engine.test_journal import deny_commit
from tests.table.conftest import choose, claim_all


def test_unclaimed_seats_show_a_join_code_and_a_press_claims_the_seat(table, hardware):
    assert [hardware[s].mode for s in range(4)] == ["qr"] * 4
    blank_qr = hardware.frame(1)
    hardware.click(1, "next")  # this press only claims
    assert table.is_claimed(1) and hardware[1].mode == "rest"
    assert hardware.frame(1) != blank_qr
    assert hardware[1].display.title == "Mutiny Table"  # waiting for seat 1
    assert table.access.seat_for(table.join_url(2).rsplit("/", 1)[1]) == 2


def test_a_moon_yeti_vote_is_played_by_button_presses_alone(table, hardware):
    claim_all(hardware)
    table.start("moon-yeti", 4, seed="buttons", options={"time_source": "clock"})
    match = table.match
    choose(hardware, 0, lambda a: a["type"] == "declare")
    for seat in range(4):
        choose(hardware, seat, lambda a: a["type"] == "ready")
    assert match.step() == "vote1"
    frames = [hardware.frame(s) for s in range(4)]
    while match.step() == "vote1":
        # Every seat with a ballot still to cast (the Helmsman may cast two) votes.
        for seat in match.acting():
            choose(hardware, seat, lambda a: a["type"] == "vote")
    public = match.view("public")["state"]["vote1"]
    assert public["revealed"] and public["ballots_in"] == public["ballots_total"]
    assert len(public["cast"]) == 4
    assert [hardware.frame(s) for s in range(4)] != frames


def test_a_booty_dice_turn_is_played_by_button_presses_alone(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 3, seed="turn")
    match = table.match
    assert hardware[3].display.title == "Not playing"
    roller = match.acting()[0]
    assert roller == 0
    shown = hardware.frame(0)
    choose(hardware, 0, lambda a: a["type"] == "hold")
    assert match.snapshot()["state"]["held"].count(True) == 1
    assert hardware.frame(0) != shown
    choose(hardware, 0, lambda a: a["type"] == "roll")
    choose(hardware, 0, lambda a: a["type"] == "stop")
    while match.acting() == [0] and not match.is_over:
        choose(hardware, 0, lambda a: True)  # targets, if the dice ask for any
    assert match.is_over or match.acting() == [1]
    assert hardware[1].display.led == "on" or match.is_over


def test_a_press_is_applied_exactly_once(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 2, seed="once")
    entries = len(table.journal.entries(table.match.id))
    choose(hardware, 0, lambda a: a["type"] == "hold")
    assert len(table.journal.entries(table.match.id)) == entries + 1


def test_a_stale_choice_is_refused_and_said_on_the_seat(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 2, seed="stale")
    table.press(1, {"type": "roll"})  # seat 2 is not rolling
    assert hardware[1].display.lines[0].startswith("! ")
    assert table.match.version == len(table.journal.entries(table.match.id))


def test_web_and_host_actions_go_through_the_same_door(table, hardware):
    table.start("booty-dice", 2, seed="web")
    version = table.turn_version(0)
    hold = {"type": "hold", "die": 1}
    with pytest.raises(ActionRejected) as info:
        table.submit(0, hold, version=version - 1)
    assert info.value.code == "stale"
    after = table.submit(0, hold, version=version)
    assert after > version
    with pytest.raises(ActionRejected) as info:  # a double tap acts once
        table.submit(0, hold, version=version)
    assert info.value.code == "stale"
    table.submit(HOST, {"type": "undo"}, version=table.turn_version(HOST))
    assert table.match.snapshot()["state"]["held"] == [False] * 6


def test_no_match_means_no_actions(table):
    with pytest.raises(ActionRejected) as info:
        table.submit(0, {"type": "roll"})
    assert info.value.code == "no_match"


def test_a_restarted_table_resumes_the_unfinished_match(hardware, tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = Table(Journal(path), [])
    first.start("booty-dice", 3, seed="resume")
    first.submit(0, {"type": "hold", "die": 2})
    expected = first.match.snapshot()
    first.journal.close()
    second = Table(Journal(path), list(hardware))
    resumed = second.resume()
    assert resumed.snapshot() == expected
    assert hardware[0].mode == "rest"  # players are seated already: no join code
    second.journal.close()


def test_a_finished_match_is_not_resumed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = Table(Journal(path), [])
    table.start("booty-dice", 2, seed="end")
    table.submit(HOST, {"type": "end"})
    table.journal.close()
    again = Table(Journal(path), [])
    assert again.resume() is None and again.match is None
    again.journal.close()


def test_the_seat_that_pressed_is_redrawn_before_every_other(table, hardware):
    claim_all(hardware)
    table.start("moon-yeti", 4, {"time_source": "typed"}, seed="first")
    table.submit(0, {"type": "declare", "minute": 7})
    drawn: list[int] = []
    for index in range(4):
        hardware[index].when_changed = lambda index=index: drawn.append(index)
    choose(hardware, 2, lambda action: action["type"] == "ready")
    assert table.match.snapshot()["state"]["ready"][2]
    # Every seat's screen changed ("1 of 4 ready to vote"); the presser's came first.
    assert sorted(set(drawn)) == [0, 1, 2, 3] and drawn[0] == 2


def test_a_change_the_journal_cannot_write_is_never_shown(table, hardware):
    """A change the journal cannot write is not applied, and nothing of it is shown:
    every payload and screen is as it was."""
    claim_all(hardware)
    table.start("moon-yeti", 4, {"time_source": "typed"}, seed="disk")
    before = table.match.snapshot()
    texts = [table.payload_text(viewer)[1] for viewer in ("public", 0, 1, 2, 3)]
    screens = [hardware.frame(seat).tobytes() for seat in range(4)]
    table.journal.close()  # the card is gone
    with pytest.raises(JournalError):
        table.submit(0, {"type": "declare", "minute": 7})
    assert table.match.snapshot() == before
    assert [table.payload_text(viewer)[1] for viewer in ("public", 0, 1, 2, 3)] == texts
    assert [hardware.frame(seat).tobytes() for seat in range(4)] == screens


def test_a_change_whose_flush_fails_is_never_shown(table, hardware):
    """Every screen and page is built while the commit waits for the disk: when the
    commit itself fails, what was built is thrown away and nothing of it is shown,
    not even the serials of the payloads."""
    claim_all(hardware)
    table.start("moon-yeti", 4, {"time_source": "typed"}, seed="disk")
    before = table.match.snapshot()
    payloads = [table.payload_text(viewer) for viewer in ("public", "host", 0, 1, 2, 3)]
    screens = [hardware.frame(seat).tobytes() for seat in range(4)]
    deny_commit(table.journal)
    with pytest.raises(JournalError):
        table.submit(0, {"type": "declare", "minute": 7})
    assert table.match.snapshot() == before
    assert [table.payload_text(v) for v in ("public", "host", 0, 1, 2, 3)] == payloads
    assert [hardware.frame(seat).tobytes() for seat in range(4)] == screens
    table.journal._db.set_authorizer(None)
    table.submit(0, {"type": "declare", "minute": 7})  # the disk is back: play goes on
    assert table.match.step() == "discuss1"


def test_the_hosts_word_goes_above_the_short_lines_too(table, hardware):
    """A game's 21-column lines (Booty Dice's dice codes) carry the table's own line as
    the phone's full words do."""
    claim_all(hardware)
    table.start("booty-dice", 3, seed="pause")
    table.submit(HOST, {"type": "pause"})
    shown = hardware[1].display
    assert shown.short_lines and shown.screen_lines[0] == "Paused by the host"
    assert table.payload(1)[1]["display"]["lines"][0] == "Paused by the host"
