"""A seat's behaviour, driven through the simulated table's mock pins."""
from __future__ import annotations

import threading

import pytest

from companion.engine.display import Choice, Display
from companion.seats import ScreenState, render

from .conftest import assert_golden, vote_display

MUTINY = {"type": "vote", "side": "mutiny"}
DEFEND = {"type": "vote", "side": "defend"}
ABSTAIN = {"type": "vote", "side": "abstain"}


@pytest.fixture
def seat(table):
    seat = table[0]
    seat.actions = []
    seat.when_action = seat.actions.append
    seat.show(vote_display())
    return seat


def test_a_short_select_confirms_the_highlighted_action(table, seat):
    table.click(0, "select")
    assert seat.actions == [MUTINY]
    assert seat.mode == "rest"


def test_next_and_previous_move_and_wrap(table, seat):
    table.click(0, "next")
    assert seat.highlight == 1
    table.click(0, "next")
    table.click(0, "next")
    assert seat.highlight == 0  # wrapped past the end
    table.click(0, "previous")
    assert seat.highlight == 2  # wrapped past the start
    table.click(0, "select")
    assert seat.actions == [ABSTAIN]


def test_a_hold_shows_private_lines_and_does_not_confirm(table, seat):
    table.hold(0, "select")
    assert seat.mode == "private"
    assert table.frame(0).tobytes() == render(ScreenState("private", vote_display())).tobytes()
    table.advance(10)  # as long as it is held
    assert seat.mode == "private"
    table.release(0, "select")
    assert seat.actions == []
    assert seat.mode == "browse"
    table.advance(5)
    assert seat.mode == "rest"


def test_other_buttons_wait_while_private_lines_show(table, seat):
    table.hold(0, "select")
    table.click(0, "next")
    assert seat.highlight == 0 and seat.mode == "private"
    table.release(0, "select")
    assert seat.actions == []


def test_a_secret_choice_is_masked_at_rest_and_shown_while_browsing(table, seat):
    table.click(0, "next")  # onto "Defend the Captain", secret
    assert seat.mode == "browse"
    assert_golden(table.frame(0), "browse_secret_shown")
    table.advance(3.9)
    assert seat.mode == "browse"
    table.advance(0.2)  # browse_timeout (4 s) after the last press
    assert seat.mode == "rest"
    assert_golden(table.frame(0), "rest_secret_masked")


def test_select_on_a_masked_choice_only_reveals_it(table, seat):
    table.click(0, "next")
    table.advance(5)  # back at rest: masked
    table.click(0, "select")
    assert seat.actions == [] and seat.mode == "browse"
    table.click(0, "select")  # now the player can read what they confirm
    assert seat.actions == [DEFEND]
    assert seat.mode == "rest"  # the confirmed secret hides again at once


def test_a_press_on_a_dimmed_screen_only_wakes_it(table, seat):
    panel = table.panels[0]
    table.advance(299)
    assert not seat.is_dimmed
    table.advance(2)
    assert seat.is_dimmed and seat.mode == "dim" and panel.contrast == 0
    assert_golden(table.frame(0), "dim")
    table.click(0, "next")
    assert not seat.is_dimmed and panel.contrast == 0xCF
    assert seat.highlight == 0  # the waking press did not move
    table.advance(301)
    table.click(0, "select")  # a waking select does not confirm
    assert seat.actions == [] and seat.mode == "rest"
    table.click(0, "select")  # the next one does
    assert seat.actions == [MUTINY]


def test_timers_fire_at_odd_times_too(table, seat):
    # Float times like 1000.631 + 300 - 1000.631 come out a hair under 300: the dim
    # and browse timers must still act when they fire.
    table.press(0, "select")
    table.advance(0.6)
    table.release(0, "select")  # activity at a time with a long fraction
    table.advance(4.0)
    assert seat.mode == "rest"
    table.advance(296.0)
    assert seat.is_dimmed


def test_a_waking_hold_does_not_show_private_lines(table, seat):
    table.advance(301)
    table.hold(0, "select")
    assert seat.mode == "rest"
    table.release(0, "select")
    assert seat.actions == []


def test_activity_postpones_dimming(table, seat):
    table.advance(200)
    table.click(0, "next")
    table.advance(200)
    assert not seat.is_dimmed
    seat.show(vote_display(lines=("Something happened",)))  # a new display is activity too
    table.advance(200)
    assert not seat.is_dimmed
    table.advance(101)
    assert seat.is_dimmed


def test_show_keeps_the_highlight_on_the_same_action(table, seat):
    table.click(0, "next")
    table.click(0, "next")  # Abstain
    reordered = vote_display(choices=(Choice("Abstain", ABSTAIN), Choice("Mutiny!", MUTINY)))
    seat.show(reordered)
    assert seat.highlight == 0
    seat.show(vote_display(choices=(Choice("Mutiny!", MUTINY), Choice("Abstain", ABSTAIN))))
    assert seat.highlight == 1
    seat.show(vote_display(choices=(Choice("Row", {"type": "row"}),
                                    Choice("Rest", {"type": "rest"}))))
    assert seat.highlight == 0  # gone: back to the first


def test_show_redraws_only_when_the_image_changes(table, seat):
    stats = seat.device.stats
    before = stats.copy()
    seat.show(vote_display())
    seat.show(vote_display(confirm={"not": "drawn"}))
    assert (stats - before).transfers == 0 and (stats - before).unchanged_frames == 0
    seat.show(vote_display(lines=("Round 4 - night", "Captain: seat 2", "Rum: 4 barrels")))
    sent = stats - before
    assert sent.frames == 1 and 0 < sent.data_bytes < 128  # a digit's columns of one page


def test_the_panel_shows_what_the_seat_drew(table, seat):
    table.click(0, "next")
    assert table.frame(0).tobytes() == seat.frame().tobytes()
    assert table.frame(0).tobytes() == render(ScreenState("browse", vote_display(), 1)).tobytes()


def test_the_qr_code_claims_the_seat_on_a_press(table):
    seat = table[1]
    seat.actions, claims = [], []
    seat.when_action = seat.actions.append

    def claimed():  # the runtime shows the seat's display at once
        claims.append(seat.mode)
        seat.show(vote_display())

    seat.when_claimed = claimed
    url = "HTTP://10.42.0.1:8000/J/3F2A9C0D4E5B6A7988776655443322AA"
    seat.show_qr(url)
    assert seat.mode == "qr"
    assert_golden(table.frame(1).crop((0, 0, 64, 64)), "qr_code_only")
    table.press(1, "select")
    assert claims == ["qr"] and seat.mode == "rest"
    table.release(1, "select")
    assert seat.actions == []  # the claiming press does not also vote


def test_the_led_follows_the_display(table, seat):
    led = table.led_pin(0)
    assert seat.led_state == "on" and led.state == 1
    seat.show(vote_display(led="off"))
    assert seat.led_state == "off" and led.state == 0
    seat.show(vote_display(led="blink"))
    assert seat.led_state == "blink" and table.led(0) == "blink"
    assert seat.led._blink_thread is not None  # gpiozero blinks it on its own thread
    seat.show(vote_display(led="off"))
    assert seat.led._blink_thread is None and led.state == 0


def test_when_changed_reports_new_frames_and_led_changes(table, seat):
    changes = []
    seat.when_changed = lambda: changes.append(seat.mode)
    table.click(0, "next")
    assert changes == ["browse"]
    seat.show(vote_display(led="off"))  # same image, new LED state
    assert changes == ["browse", "browse"]
    table.advance(5)
    assert changes[-1] == "rest"


def test_a_failing_screen_is_down_until_revived(table, seat):
    panel = table.panels[0]
    real = panel.data
    panel.data = lambda data: (_ for _ in ()).throw(OSError(121, "Remote I/O error"))
    table.click(0, "next")  # the redraw fails: logged, not raised
    assert seat.highlight == 1 and isinstance(seat.screen_error, OSError)
    panel.data = real
    seat.tick()  # a tick never touches a screen that is down: the seat watch does
    assert seat.screen_error is not None
    assert seat.revive_screen() and seat.screen_error is None
    assert table.frame(0).tobytes() == render(ScreenState("browse", vote_display(), 1)).tobytes()


def test_a_confirmed_choice_goes_out_before_the_screen_is_redrawn(table, seat):
    # The frame the player waits for is the one the action brings: the seat's own
    # "back at rest" frame is drawn after the action is handed on, never before.
    table.click(0, "next")  # browsing, on "Defend the Captain"
    browsing = table.frame(0).tobytes()
    seen = []
    seat.when_action = lambda action: seen.append((action, table.frame(0).tobytes()))
    table.click(0, "select")
    assert seen == [(DEFEND, browsing)]  # handed on while the screen still browsed
    assert seat.mode == "rest"
    assert table.frame(0).tobytes() == render(ScreenState("rest", vote_display())).tobytes()


def test_a_screen_the_action_redrew_is_not_drawn_again(table, seat):
    panel = table.panels[0]
    sent = []

    def runtime(action):
        seat.show(vote_display(title="Voted"))  # the runtime's answer, drawn at once
        sent.append(panel.data_bytes)
    seat.when_action = runtime
    table.click(0, "select")
    assert sent and panel.data_bytes == sent[0]  # nothing drawn after the answer
    assert table.frame(0).tobytes() == render(
        ScreenState("rest", vote_display(title="Voted"))).tobytes()


def test_callbacks_may_call_back_into_the_seat(table, seat):
    seat.when_action = lambda action: seat.show(vote_display(title="Voted"))
    table.click(0, "select")
    assert seat.display.title == "Voted"


def test_show_from_another_thread_while_buttons_are_pressed(table, seat):
    displays = [vote_display(lines=(f"line {n}",)) for n in range(50)]

    def runtime():
        for display in displays:
            seat.show(display)

    worker = threading.Thread(target=runtime)
    worker.start()
    for _ in range(25):
        table.click(0, "next")
    worker.join()
    assert seat.display == displays[-1]
    assert table.frame(0).tobytes() == seat.frame().tobytes()


def test_close_is_idempotent_and_stops_everything(table, seat):
    seat.close()
    seat.close()
    assert seat.is_closed
    seat.show(vote_display(title="after"))  # ignored, not an error
    assert seat.display.title == "Mutiny at Dawn"
    assert table.panels[0].is_closed
    assert table.panels[0].image().getbbox() is None  # luma's cleanup clears the panel


def test_no_choices_means_select_does_nothing(table):
    seat = table[1]
    got = []
    seat.when_action = got.append
    seat.show(Display(title="Waiting", lines=("Seat 1 is choosing",)))
    table.click(1, "select")
    table.click(1, "next")
    table.hold(1, "select")
    table.release(1, "select")
    assert got == [] and seat.highlight == 0


# -- menus: groups, Back, and what shows at rest ----------------------------------------------

REST = {"type": "rest"}
TARGETS = ("Bonny", "Drake")


def pass_display(hand=(7, 9), **overrides) -> Display:
    """A card game's turn: pass a card (a group per card, then the target), or rest."""
    choices = tuple(
        Choice(f"Pass your {card} to {name}", pass_action(card, seat), secret=True,
               group=("Pass a card", str(card)), short=f"{card} to {name}")
        for card in hand for seat, name in enumerate(TARGETS, start=1)) + (
        Choice("Rest", REST),)
    return vote_display(title="Your turn", lines=("Deck: 30 cards",), choices=choices,
                        **overrides)


def pass_action(card: int, seat: int) -> dict:
    return {"type": "pass", "card": card, "to": seat}


@pytest.fixture
def dealt(table, seat):
    seat.show(pass_display())
    return seat


def test_a_group_opens_and_back_leaves_it_for_free(table, dealt):
    seat = dealt
    assert [line.label for line in seat.menu_lines] == ["Pass a card", "Rest"]
    table.click(0, "select")  # on "Pass a card": a public group opens at once
    assert seat.menu_path == ("Pass a card",) and seat.mode == "browse"
    assert [line.label for line in seat.menu_lines] == ["7", "9", "< Back"]
    table.click(0, "previous")  # wraps onto "< Back"
    table.click(0, "select")
    assert seat.menu_path == () and seat.highlight == 0  # on the group it left
    table.click(0, "select")
    table.click(0, "select")  # into "7"
    assert seat.menu_path == ("Pass a card", "7") and seat.highlight == 0
    table.click(0, "next")  # "7 to Drake"
    assert seat.actions == []  # browsing never reached the runtime
    table.click(0, "select")
    assert seat.actions == [pass_action(7, 2)]
    assert seat.mode == "rest" and seat.menu_path == ()  # back at the top, at rest


def test_opening_and_leaving_five_times_then_confirming_sends_one_action(table, dealt):
    seat = dealt
    for _ in range(5):
        table.click(0, "select")  # open "Pass a card"
        table.click(0, "previous")  # "< Back"
        table.click(0, "select")  # leave
        assert seat.menu_path == () and seat.highlight == 0
    table.click(0, "next")
    table.click(0, "select")  # "Rest"
    assert seat.actions == [REST]


def test_browsing_ends_back_at_the_top_level(table, dealt):
    seat = dealt
    table.click(0, "select")
    table.click(0, "next")
    table.click(0, "select")  # into "9"
    assert seat.menu_path == ("Pass a card", "9")
    table.advance(3.9)
    assert seat.menu_path == ("Pass a card", "9") and seat.mode == "browse"
    table.advance(0.2)
    assert seat.mode == "rest" and seat.menu_path == () and seat.highlight == 0
    assert table.frame(0).tobytes() == render(ScreenState("rest", pass_display())).tobytes()


def test_what_shows_at_rest_does_not_depend_on_the_secrets_inside_a_group(table, dealt):
    seat = dealt
    rest = table.frame(0).tobytes()
    for hand in ((3, 5, 8), (1,)):
        table.click(0, "select")
        table.click(0, "select")  # into the first card's group
        seat.show(pass_display(hand=hand))
        assert seat.menu_path == ()  # that card is gone: back to the top
        table.advance(5)
        assert seat.mode == "rest" and table.frame(0).tobytes() == rest


def test_held_select_keeps_the_menu_level(table, dealt):
    seat = dealt
    table.click(0, "select")
    table.hold(0, "select")
    table.advance(10)
    assert seat.mode == "private" and seat.menu_path == ("Pass a card",)
    table.release(0, "select")
    assert seat.mode == "browse" and seat.menu_path == ("Pass a card",)
    assert seat.actions == []


def test_a_new_display_keeps_the_level_while_it_exists(table, dealt):
    seat = dealt
    table.click(0, "select")
    table.click(0, "next")  # on "9" inside "Pass a card"
    seat.show(pass_display(hand=(3, 9, 7)))  # drawn a 3: the level is still there
    assert seat.menu_path == ("Pass a card",) and seat.menu_lines[seat.highlight].label == "9"
    table.click(0, "select")
    table.click(0, "next")  # "9 to Drake"
    seat.show(pass_display(hand=(9,)))  # the highlighted action is still offered
    assert seat.menu_path == ("Pass a card", "9") and seat.highlight == 1
    seat.show(pass_display(hand=(4, 5)))  # the 9 is gone, and with it the level
    assert seat.menu_path == () and seat.highlight == 0


def test_a_choice_that_moves_into_a_group_keeps_the_highlight(table, seat):
    table.click(0, "next")
    table.click(0, "next")  # browsing "Abstain"
    grouped = tuple(Choice(c.label, c.action, c.secret, group=("Vote",))
                    for c in vote_display().choices)
    seat.show(vote_display(choices=grouped))
    assert seat.menu_path == ("Vote",) and seat.highlight == 2
    table.click(0, "select")
    assert seat.actions == [ABSTAIN]
    seat.show(vote_display(choices=grouped))  # at rest now: the top level, on its group
    assert seat.menu_path == () and seat.highlight == 0


def test_a_group_of_secrets_shows_at_rest_without_its_count(table, dealt):
    assert_golden(table.frame(0), "rest_group")
    table.click(0, "next")
    table.click(0, "previous")
    assert_golden(table.frame(0), "browse_group")
    table.click(0, "select")
    table.click(0, "select")
    assert_golden(table.frame(0), "browse_in_group")


def press_to(table, seat, index: int) -> None:
    """Confirm choice ``index`` with the buttons alone: open each group on its path."""
    choice = seat.display.choices[index]
    table.click(0, "next")  # browsing: secret lines show, select acts on them
    for name in choice.group:
        while not (seat.menu_lines[seat.highlight].is_group
                   and seat.menu_lines[seat.highlight].label == name):
            table.click(0, "next")
        table.click(0, "select")
    while seat.menu_lines[seat.highlight].index != index:
        table.click(0, "next")
    table.click(0, "select")


def test_every_choice_of_a_menu_is_reached_and_confirmed_once(table, dealt):
    seat = dealt
    display = pass_display(hand=(7, 9, 3))
    seat.show(display)
    for index, choice in enumerate(display.choices):
        press_to(table, seat, index)
        assert seat.actions == [choice.action] and seat.menu_path == ()
        seat.actions.clear()


def test_presses_to_choose_plans_the_buttons_from_anywhere(table, dealt):
    seat = dealt
    display = pass_display(hand=(7, 9, 3))
    seat.show(display)
    for index, choice in enumerate(display.choices):
        for start in ((), ("select",), ("select", "next", "select"), ("next",)):
            table.advance(5)  # at rest, at the top
            for button in start:  # somewhere in the menu, browsing (or a confirmed Rest)
                table.click(0, button)
            seat.actions.clear()
            presses = seat.presses_to_choose(index)
            for button in presses:
                table.click(0, button)
            assert seat.actions == [choice.action], (index, start, presses)
    table.advance(5)
    assert seat.menu_lines[seat.highlight].label == "Rest"  # where the last choice left it
    assert seat.presses_to_choose(0) == ["next", "select", "select", "select"]
    with pytest.raises(IndexError):
        seat.presses_to_choose(len(display.choices))
