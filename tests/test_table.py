"""The table runtime: seat buttons (MockFactory pins) -> engine actions -> screens."""
from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest

from companion.engine import HOST, Display, Journal
from companion.errors import ActionRejected
from companion.seats import (CountingInterface, ManualClock, load_table_config, open_seats,
                             sim_table_config)
from companion.table import ScreenPainter, Table

TABLE_8 = Path(__file__).resolve().parents[1] / "hardware" / "table-8.toml"


@pytest.fixture
def hardware():
    with open_seats(sim_table_config(4), "sim", clock=ManualClock()) as hw:
        yield hw


@pytest.fixture
def table(hardware, tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware))
    yield table
    table.close()


def claim_all(hardware):
    for seat in range(hardware.seat_count):
        hardware.click(seat, "select")


def choose(hardware, seat, wanted):
    """Pick, with the seat's buttons alone, the first choice whose action matches."""
    device = hardware[seat]
    choices = device.display.choices
    target = next(i for i, c in enumerate(choices) if wanted(c.action))
    hardware.click(seat, "next")  # browsing: a secret label shows, select confirms it
    while device.highlight != target:
        hardware.click(seat, "next")
    hardware.click(seat, "select")
    return choices[target].action


def test_unclaimed_seats_show_a_join_code_and_a_press_claims_the_seat(table, hardware):
    assert [hardware[s].mode for s in range(4)] == ["qr"] * 4
    blank_qr = hardware.frame(1)
    hardware.click(1, "next")  # this press only claims
    assert table.is_claimed(1) and hardware[1].mode == "rest"
    assert hardware.frame(1) != blank_qr
    assert hardware[1].display.title == "Mutiny Table"  # waiting for seat 1
    assert table.access.seat_for(table.join_url(2).rsplit("/", 1)[1]) == 2


def test_seat_one_picks_a_game_and_player_count_with_buttons(table, hardware):
    claim_all(hardware)
    choose(hardware, 0, lambda a: a.get("game") == "moon-yeti")
    assert hardware[0].display.title == "Moon Yeti"
    choose(hardware, 0, lambda a: a.get("players") == 4)
    assert table.match is not None and table.match.game.spec.id == "moon-yeti"
    assert table.journal.match_ids() == [table.match.id]


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


def test_another_seats_move_does_not_make_a_seats_choices_stale(table):
    table.start("moon-yeti", 4, seed="stale-free")
    table.submit(0, {"type": "declare"})
    for seat in range(4):
        table.submit(seat, {"type": "ready"})
    versions = [table.turn_version(s) for s in range(4)]
    target = table.match.legal_actions(0)[0]
    table.submit(0, target, version=versions[0])
    # Seat 2's choices did not change when seat 1 voted: its version still holds.
    vote = table.match.legal_actions(1)[0]
    table.submit(1, vote, version=versions[1])


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


def test_seat_one_picks_the_game_from_its_phone_too(table, hardware):
    version = table.submit(0, {"type": "lobby_game", "game": "booty-dice"},
                           version=table.turn_version(0))
    table.submit(0, {"type": "lobby_players", "players": 2}, version=version)
    assert table.match.game.spec.id == "booty-dice" and table.match.seats == 2
    with pytest.raises(ActionRejected):
        table.submit(1, {"type": "lobby_back"})


def test_the_host_pin_shows_only_behind_select_on_seat_one(hardware, tmp_path):
    from companion.access import HostPin
    table = Table(Journal(tmp_path / "j.sqlite3"), list(hardware), pin=HostPin("123456"))
    lobby = table.display(0)
    assert "Host PIN 123456" in lobby.private
    assert not any("123456" in line for line in lobby.lines)
    assert all("123456" not in json.dumps(table.payload(s)[1]["display"]["lines"])
               for s in range(4))
    table.close()


# -- screens drawn in the background, a thread per I2C bus ----------------------------------

class GatedPanel(CountingInterface):
    """A simulated panel whose first transfer after ``armed`` waits for ``gate``."""

    def __init__(self, gate: threading.Event, waited: list[bool]):
        super().__init__()
        self.armed = False
        self._gate, self._waited = gate, waited

    def data(self, data):
        if self.armed:
            self.armed = False
            self._waited.append(self._gate.wait(5))  # one thread for both: times out
        super().data(data)


def test_each_i2c_bus_is_drawn_on_a_thread_of_its_own():
    """Seat 1 (bus 1) cannot finish its frame until seat 5 (bus 0) has been drawn: only
    a second thread can draw seat 5 meanwhile."""
    seat_five_drawn, waited, panels = threading.Event(), [], []

    def panel(bus, address):
        panels.append(GatedPanel(seat_five_drawn, waited) if bus == 1 else CountingInterface())
        return panels[-1]

    config = load_table_config(TABLE_8, "sim")
    with open_seats(config, "sim", clock=ManualClock(), i2c=panel) as hw:
        assert [seat.i2c_bus for seat in hw] == [1] * 4 + [0] * 4
        seat_one_drawn, threads, settled = threading.Event(), {}, []

        def drawn(index, event):
            def changed():
                threads[index] = threading.current_thread().name
                event.set()
            return changed

        hw[0].when_changed = drawn(0, seat_one_drawn)
        hw[4].when_changed = drawn(4, seat_five_drawn)
        panels[0].armed = True  # seat 1's: the first screen opened
        painter = ScreenPainter(list(hw), settle=settled.append)
        try:
            painter.paint(0, Display(title="Seat one"))
            painter.paint(4, Display(title="Seat five"))
            assert seat_one_drawn.wait(10) and seat_five_drawn.wait(10)
        finally:
            painter.close()
        assert waited == [True]
        assert threads == {0: "seat-screens-i2c-1", 4: "seat-screens-i2c-0"}
        assert settled and set(settled) == {ScreenPainter.SETTLE_SECONDS}  # phones first
        assert hw[0].display.title == "Seat one" and hw[4].display.title == "Seat five"


class BrokenScreen:
    """A seat device on bus 1 whose screen fails every time."""

    i2c_bus = 1
    when_action = when_claimed = None

    def show(self, display):
        raise OSError(121, "Remote I/O error")

    show_qr = show

    def close(self):
        pass


def test_background_screens_coalesce_per_seat_and_survive_a_failing_screen(caplog):
    go = threading.Event()
    with open_seats(sim_table_config(3), "sim", clock=ManualClock()) as hw:
        devices = [hw[0], BrokenScreen(), hw[2]]  # all three on bus 1: one thread
        frames = hw[0].device.stats.frames
        last_drawn = threading.Event()
        hw[2].when_changed = last_drawn.set
        painter = ScreenPainter(devices, settle=lambda timeout: go.wait(5))
        with caplog.at_level(logging.ERROR, logger="companion.table"):
            painter.paint(0, Display(title="Old"))
            painter.paint(0, Display(title="New"))  # before the round: replaces "Old"
            painter.paint(1, Display(title="Lost"))
            painter.paint(2, Display(title="After the broken one"))
            go.set()
            assert last_drawn.wait(10)
        painter.close()
        painter.close()  # idempotent
        assert hw[0].display.title == "New"
        assert hw[0].device.stats.frames == frames + 1  # "Old" was never drawn
        assert hw[2].display.title == "After the broken one"
        assert "seat 2: drawing failed" in caplog.text
