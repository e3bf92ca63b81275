"""When a part of a seat fails: screens that recover (the whole init sequence after any
error), a table that opens with the parts that answer and takes the others back, stuck
buttons ignored until they come up, and the words the pages show."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from companion.seats import (
    CountingInterface,
    ManualClock,
    PageDiffSSD1306,
    PodManager,
    PodSeat,
    SeatWatch,
    SimFault,
    open_seats,
    render,
    sim_table_config,
)
from companion.seats.screen import ScreenState
from companion.seats.simfaults import KINDS

from .conftest import vote_display


def picture(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 12), fill=1)
    draw.text((4, 30), text, fill=1)
    return image


# -- screens that recover ---------------------------------------------------------------

def test_a_panel_that_lost_power_is_lit_again_by_the_whole_init_sequence():
    panel = CountingInterface()
    device = PageDiffSSD1306(panel)
    device.display(picture("before"))
    assert panel.shown().tobytes() == picture("before").tobytes()
    device.contrast(0x10)  # a dimmed seat
    panel.lose_power()  # a brown-out: the next transfer fails...
    with pytest.raises(OSError):
        device.display(picture("during"))
    assert device.needs_init and isinstance(device.error, OSError)
    panel.restore_power()  # ...and the panel comes back having forgotten its init
    assert not panel.is_on and not panel.charge_pump
    assert panel.shown().getbbox() is None  # dark
    device.display(picture("after"))
    assert panel.shown().tobytes() == picture("after").tobytes()
    assert panel.is_on and panel.charge_pump and panel.contrast == 0x10
    assert not device.needs_init and device.error is None


def test_pages_alone_would_leave_a_panel_that_lost_power_dark():
    # What the Pi side did before: after the error, only the pages again. The modelled
    # panel stays dark (display off, charge pump off, page addressing): the test above
    # fails without the init.
    panel = CountingInterface()
    device = PageDiffSSD1306(panel)
    panel.lose_power()
    with pytest.raises(OSError):
        device.display(picture("during"))
    panel.restore_power()
    device.needs_init = False  # pretend the driver forgot to re-send its init
    device.display(picture("after"))
    assert panel.shown().getbbox() is None
    assert panel.image().tobytes() != picture("after").tobytes()  # page addressing garbles


def test_the_init_resent_is_the_one_luma_sends_at_construction():
    first, again = CountingInterface(keep_log=True), CountingInterface(keep_log=True)
    PageDiffSSD1306(first)
    device = PageDiffSSD1306(again)
    again.lose_power()
    with pytest.raises(OSError):
        device.display(picture("x"))
    again.restore_power()
    again.log.clear()
    device.display(Image.new("1", (128, 64)))
    assert again.log == first.log  # command for command, with the blank frame


def test_a_missing_panel_at_construction_is_an_error_unless_missing_ok():
    panel = CountingInterface()
    panel.lose_power()
    with pytest.raises(OSError):
        PageDiffSSD1306(panel)
    device = PageDiffSSD1306(panel, missing_ok=True)
    assert device.needs_init
    with pytest.raises(OSError):
        device.probe()
    panel.restore_power()
    device.probe()
    device.display(picture("late"))
    assert panel.shown().tobytes() == picture("late").tobytes()


# -- a table that opens with what answers ------------------------------------------------

def at_rest(seat) -> bytes:
    return render(ScreenState("rest", seat.display, 0, seat.number)).tobytes()


def test_a_screen_missing_at_start_is_played_by_phone_and_taken_back_redrawn():
    clock = ManualClock()
    with open_seats(sim_table_config(4), "sim", clock=clock,
                    sim_faults=["screen-missing:3"]) as table:
        three = table[2]
        assert three.screen_error is not None
        assert table.faults() == [{
            "seat": 3, "part": "screen",
            "words": "Seat 3's screen does not answer: check its cable and the mux "
                     "channel 2; play seat 3 on its phone"}]
        for seat in table:
            seat.show(vote_display())
        assert table.frame(2).getbbox() is None  # nothing lit on the unpowered panel
        sent = three.device.stats.copy()
        table.click(0, "next")  # the healthy seats play on...
        three.show(vote_display(title="Changed"))  # ...and seat 3 keeps its state
        assert three.device.stats == sent  # nothing tried on the bus of a screen down
        assert table.frame(0).tobytes() == render(
            ScreenState("browse", vote_display(), 1, 1)).tobytes()
        table.watch.check(now=100.0)
        assert not table.watch.check(now=101.0) == []  # still missing: still said
        assert table.lift_fault("screen-missing", 3)
        assert table.watch.check(now=110.0) == []
        assert three.screen_error is None
        assert table.frame(2).tobytes() == at_rest(three)  # redrawn from scratch
        assert table.panels[2].power_cycles == 1 and table.panels[2].is_on


def test_a_screen_lost_mid_match_is_retried_with_back_off_and_comes_back():
    clock = ManualClock()
    with open_seats(sim_table_config(2), "sim", clock=clock) as table:
        seat = table[1]
        seat.show(vote_display())
        table.put_fault("screen-missing", 2)
        seat.show(vote_display(title="Next step"))  # the redraw fails: down
        assert seat.screen_error is not None
        tries = []
        for tick in range(0, 80):  # every 0.25 s for 20 s
            before = seat.device.stats.transfers
            table.watch.check(now=tick / 4)
            if seat.device.stats.transfers != before:
                tries.append(tick / 4)
        gaps = [b - a for a, b in zip(tries, tries[1:], strict=False)]
        assert tries[0] == 0.5 and gaps[:4] == [1.0, 2.0, 4.0, 5.0] and set(gaps[4:]) == {5.0}
        table.lift_fault("screen-missing", 2)
        table.watch.check(now=30.0)
        assert seat.screen_error is None
        assert table.frame(1).tobytes() == at_rest(seat)


def test_a_mux_that_does_not_answer_downs_every_seat_behind_it_and_says_so():
    clock = ManualClock()
    with open_seats(sim_table_config(2), "sim", clock=clock,
                    sim_faults=["mux-missing:1"]) as table:
        faults = table.faults()
        assert [(f["seat"], f["part"]) for f in faults] == [(1, "mux"), (2, "mux")]
        assert faults[0]["words"].startswith("Seat 1's screen cannot be reached: its "
                                             "multiplexer on I2C bus 1 does not answer")
        table.lift_fault("mux-missing", 1)
        table.watch.check(now=1.0)
        assert table.watch.check(now=2.0) == []
        assert table.frame(1).tobytes() == at_rest(table[1])


def test_the_watch_tells_the_table_only_when_the_faults_change():
    clock = ManualClock()
    told = []
    with open_seats(sim_table_config(2), "sim", clock=clock) as table:
        table.watch.when_changed = lambda: told.append(len(table.faults()))
        table.watch.check(now=0.0)
        assert told == []
        table.put_fault("screen-missing", 1)
        table[0].show(vote_display())
        table.watch.check(now=0.1)
        table.watch.check(now=0.2)
        assert told == [1]
        table.lift_fault("screen-missing", 1)
        table.watch.check(now=1.0)
        assert told == [1, 0]


def test_a_pod_that_never_links_is_said_missing_after_its_grace():
    now = [0.0]
    manager = PodManager(ports=lambda: [])
    seat = PodSeat(1, manager.bind("pod-a", 1), clock=ManualClock())
    watch = SeatWatch([seat], clock=lambda: now[0])
    assert watch.check() == []  # it may be linking still
    now[0] = SeatWatch.POD_GRACE
    [fault] = watch.check()
    assert fault.part == "pod" and fault.words.startswith("Seat 1's pod does not answer")
    seat.close()
    manager.close()


# -- stuck buttons ------------------------------------------------------------------------

def test_a_select_stuck_mid_match_ends_the_private_view_and_is_ignored_until_up():
    clock = ManualClock()
    with open_seats(sim_table_config(2), "sim", clock=clock) as table:
        seat = table[0]
        seat.show(vote_display())
        confirmed = []
        seat.when_action = confirmed.append
        table.put_fault("button-stuck", 1, "select")
        table.advance(1)
        assert seat.mode == "private"  # a hold, as far as anyone can tell yet
        table.advance(30)
        assert seat.stuck_buttons == ("select",) and seat.mode == "rest"
        assert [f["part"] for f in table.faults()] == ["button"]
        assert "select button is stuck down" in table.faults()[0]["words"]
        table.release(0, "select")  # a finger cannot lift a short
        assert seat.stuck_buttons == ("select",)
        table.click(0, "next")  # the other buttons still work
        assert seat.highlight == 1
        table.advance(5)
        table.lift_fault("button-stuck", 1, "select")  # it comes up: that does nothing
        assert confirmed == [] and seat.stuck_buttons == () and table.faults() == []
        table.click(0, "next")
        table.click(0, "select")  # and select works again
        assert confirmed == [{"type": "vote", "side": "abstain"}]


def test_a_button_down_at_start_is_ignored_until_it_comes_up():
    clock = ManualClock()
    with open_seats(sim_table_config(2), "sim", clock=clock,
                    sim_faults=["button-stuck:2:next"]) as table:
        seat = table[1]
        assert seat.stuck_buttons == ("next",)
        seat.show(vote_display())
        table.click(1, "previous")
        assert seat.highlight == 2
        table.lift_fault("button-stuck", 2, "next")
        assert seat.highlight == 2 and seat.stuck_buttons == ()
        table.advance(400)
        assert seat.is_dimmed  # a stuck button no longer kept it awake either


def test_a_stuck_button_does_not_keep_the_screen_awake():
    clock = ManualClock()
    with open_seats(sim_table_config(1), "sim", clock=clock,
                    sim_faults=["button-stuck:1:previous"]) as table:
        table[0].show(vote_display())
        table.advance(301)
        assert table[0].is_dimmed


def test_a_long_hold_under_the_stuck_time_is_still_a_hold():
    clock = ManualClock()
    with open_seats(sim_table_config(1), "sim", clock=clock) as table:
        seat = table[0]
        seat.show(vote_display())
        table.hold(0)
        table.advance(25)
        assert seat.mode == "private" and seat.stuck_buttons == ()
        table.release(0)
        assert seat.mode == "browse" and table.faults() == []


# -- the fault names -----------------------------------------------------------------------

def test_the_fault_kinds_are_the_doctors_and_parse_alike():
    from companion.doctor.sim import SimFaults
    assert set(KINDS) <= set(SimFaults.KINDS)
    assert {"screen-missing", "mux-missing", "button-stuck"} <= set(KINDS)
    assert SimFault.parse("button-stuck:3:next") == SimFault("button-stuck", 3, "next")
    assert SimFault.parse("screen-missing") == SimFault("screen-missing", 1, "select")
    with pytest.raises(ValueError, match="KIND"):
        SimFault.parse("screen-gone:3")
