"""Nudges: a seat's phone buzzes when its light comes on, the table display chimes when
any light does, and the host can switch either off (docs/table.md, "Nudges")."""
from __future__ import annotations

from companion.engine import HOST, PUBLIC, Journal
from companion.table import Table
from tests.table.conftest import claim_all


def nudge(table, viewer):
    return table.payload(viewer)[1]["nudge"]


def test_the_next_roller_is_nudged_and_nobody_else(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 3, seed="nudges")
    first = table.match.acting()[0]
    counts = [nudge(table, seat)["count"] for seat in range(4)]
    assert counts[first] == 1 and sum(counts) == 1  # the first roller's light came on
    chimes = nudge(table, PUBLIC)["count"]

    table.submit(first, {"type": "stop"})
    while table.match.acting() == [first]:
        table.submit(first, table.match.legal_actions(first)[0])
    second = table.match.acting()[0]
    after = [nudge(table, seat)["count"] for seat in range(4)]
    assert after[second] == counts[second] + 1
    assert [a - c for a, c in zip(after, counts, strict=True)].count(0) == 3  # only the next roller
    assert nudge(table, PUBLIC)["count"] == chimes + 1


def test_a_vote_opening_nudges_every_voter_once_and_casting_nudges_nobody(table, hardware):
    claim_all(hardware)
    table.start("moon-yeti", 4, {"time_source": "typed"}, seed="nudges")
    table.submit(0, {"type": "declare", "minute": 7})
    before = [nudge(table, seat)["count"] for seat in range(4)]
    chimes = nudge(table, PUBLIC)["count"]
    for seat in range(3):
        table.submit(seat, {"type": "ready"})  # lights go off: nobody is nudged
    assert [nudge(table, seat)["count"] for seat in range(4)] == before
    table.submit(3, {"type": "ready"})  # ... and the vote opens: every light comes on
    # (seat 4 made it open: its owner has the phone in hand already)
    assert [nudge(table, s)["count"] for s in range(4)] == [
        before[0] + 1, before[1] + 1, before[2] + 1, before[3]]
    assert nudge(table, PUBLIC)["count"] == chimes + 1


def test_the_host_switches_nudges_off_and_a_restart_keeps_it(hardware, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    table = Table(Journal(journal), list(hardware))
    assert nudge(table, 0) == {"count": 0, "vibrate": True}
    assert nudge(table, PUBLIC) == {"count": 0, "sound": True}
    table.switch_nudges("vibrate", False)
    assert nudge(table, 0)["vibrate"] is False
    assert table.payload(HOST)[1]["host"]["nudges"] == {"vibrate": False, "sound": True}
    table.close()

    again = Table(Journal(journal), list(hardware))
    assert nudge(again, 2)["vibrate"] is False and nudge(again, PUBLIC)["sound"] is True
    again.close()
