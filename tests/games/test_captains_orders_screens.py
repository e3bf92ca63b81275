"""Captain's Orders' judging, buttons and screens: one choice per action with names in full,
the phone's words and the OLED's short lines, and the wait between rounds (until every
seat has seen the reveal, or the host or any seat starts the next).

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

import json
import random

import pytest

from companion.engine import HOST, Match
from companion.games.captains_orders import GAME, decide, judge
from tests.games.captains_orders_helpers import A, B, C, D, accuse, new, play, st, turn

# -- judging, buttons and screens --------------------------------------------------

def test_judge_and_decide():
    accuse_wrong = {"kind": "accuse", "seat": 0, "target": 1}
    assert judge([[1, 9], [5], [9], [9]], accuse_wrong) == ("wrong_accusation", [2, 3])
    assert decide([1, 5, 9, 9], accuse_wrong) == ("wrong_accusation", None, [1, 2, 3])
    assert decide([5, 1, 9, 9], accuse_wrong) == ("accused_captain", [0], [])
    assert decide([5, 1, 1, 9], {"kind": "accuse", "seat": 1, "target": 2}) == (
        "captain_named_captain", None, [0, 3])
    # A single Mutineer left who can win does, without any points counted.
    assert decide([1, 5, 9, None], {"kind": "accuse", "seat": 2, "target": 1}) == (
        "wrong_accusation", [1], [1])
    assert decide([5, 2, 1, 9], {"kind": "accuse", "seat": 3, "target": 1}) == (
        "wrong_accusation", None, [0, 1])
    declared = {"kind": "declare", "seat": 0, "declared": True, "card": 3}
    assert judge([[], [3], [4], [5]], declared) == ("captain_emptied", [0])
    assert judge([[], [2], [4], [5]], declared) == ("wrong_declaration", [3])
    # Nobody left who can win: no winner.
    assert judge([[2], [2], [], []], {"kind": "accuse", "seat": 0, "target": 1}) == (
        "captain_named_captain", [])


#: The kinds of move a turn's top-level menus name (public at rest).
TOP_MENUS = {"Pass a card", "Play an order", "Ask for a card", "Belay the order",
             "Discover Captain"}
#: Phones mode: moves whose choice shows a card of the hand, or weighs an accusation.
SECRET_KINDS = {"play", "pass", "follow", "belay", "give", "discard", "accuse"}


@pytest.mark.parametrize("mode,seats", [("phones", 4), ("phones", 8), ("cards", 5)])
def test_every_action_is_one_choice_on_screen_with_names_in_full(mode, seats):
    rng = random.Random(seats)
    names = [f"Sailor{'x' * 12}{s}" for s in range(seats)]
    match = Match.create(GAME, seats, {"mode": mode}, seed=seats, names=names)
    steps = 0
    while not match.is_over:
        for seat in range(seats):
            shown = match.display(seat)
            legal = match.legal_actions(seat)
            as_text = sorted(json.dumps(c.action, sort_keys=True) for c in shown.choices)
            assert as_text == sorted(json.dumps(a, sort_keys=True) for a in legal)
            assert len(shown.lines) <= 3 and shown.led == ("on" if legal else "off")
            for choice in shown.choices:
                kind, who = choice.action["type"], choice.action.get(
                    "to", choice.action.get("target"))
                if who is not None:
                    assert names[who] in choice.label  # screens fit text, games never cut it
                if choice.group:
                    assert choice.group[0] in TOP_MENUS
                if mode == "phones" and kind in SECRET_KINDS or kind == "accuse":
                    assert choice.secret
            actors = [a for a in match.acting() if a != seat]
            if match.step() == "turn" and actors:
                assert names[actors[0]] in shown.title
        json.dumps(match.summary())
        actor = rng.choice(match.acting())
        match.apply(actor, rng.choice(match.legal_actions(actor)))
        steps += 1
    assert steps <= GAME.max_actions(seats, match.options)


def test_holding_select_shows_the_hand_and_the_table_shows_wins():
    match = new((A, B, C, D))
    assert match.display(1).screen_private[0] == "Hand 3 4 5 6 7 8"
    assert all("3 4 5" not in line for line in match.display(1).lines)
    accuse(match, 0, 2)
    assert match.display(0).lines[0] == "You win the round!"
    summary = match.summary()
    assert summary["scores"] == [1, 0, 0, 0] and summary["score_label"] == "Round wins"


def test_the_phone_reads_the_table_in_words_and_the_oled_in_short():
    match = new((A, B, C, D), wins=1)
    shown = match.display(1)
    assert shown.lines[0] == "No order on the table" and shown.short_lines[0] == "No order"
    assert shown.lines[2] == "Cards in hand: Seat 1 6, Seat 2 6, Seat 3 6, Seat 4 6"
    assert shown.short_lines[2] == "Cards 6 6 6 6"
    play(match, turn(match), st(match)["hands"][turn(match)][-1])
    owner = st(match)["order"]["owner"]
    order = st(match)["order"]["rank"]
    assert match.display(1).lines[0] == f"Standing order: {order}, Seat {owner + 1}'s"
    assert match.display(1).short_lines[0] == f"Order {order} (Seat {owner + 1})"


def test_the_end_of_the_match_says_the_round_wins_by_name_on_the_phone():
    match = new((A, B, C, D), wins=1)
    accuse(match, 0, 2)
    assert match.is_over
    end = match.display(0)
    # The phone read "Wins 1 0 0 0", the OLED's form.
    assert end.lines == ("You win the match!", "You win the round!",
                         "Round wins: Seat 1 1, Seat 2 0, Seat 3 0, Seat 4 0")
    assert end.short_lines == ("You WIN the game!", "You win the round!", "Wins 1 0 0 0")


def test_between_rounds_the_title_fits_and_the_ready_count_is_a_line():
    match = new((A, B, C, D), (A, B, C, D))
    accuse(match, 0, 2)
    match.apply(2, {"type": "next_round"})
    shown = match.display(1)
    assert shown.title == "Round 1 over"  # it was "Round 1 over, 1/4 ready", cut on the OLED
    assert shown.lines == ("Seat 1 wins the round", "The Captain was Seat 3, holding a 1",
                           "1 of 4 ready for the next round")
    assert shown.short_lines == ("Seat 1 wins the round", "Captain Seat 3 (1)",
                                 "Wins 1 0 0 0", "1/4 ready")


def test_the_next_round_waits_until_every_seat_has_seen_the_reveal():
    match = new((A, B, C, D), (A, B, C, D))
    accuse(match, 0, 2)
    for seat in (2, 0, 3):
        match.apply(seat, {"type": "next_round"})
        assert match.step() == "scored" and st(match)["ready"][-1] == seat
        assert seat not in match.acting()  # a seat says so once
    assert match.acting() == [1, HOST]
    match.apply(1, {"type": "next_round"})
    assert match.step() == "turn" and st(match)["round"] == 2 and st(match)["ready"] == []


def test_the_host_may_start_the_next_round_for_a_seat_that_walked_away():
    match = new((A, B, C, D), (A, B, C, D))
    accuse(match, 0, 2)
    match.apply(2, {"type": "next_round"})
    match.apply(HOST, {"type": "next_round"})
    assert st(match)["round"] == 2 and match.step() == "turn"


def test_next_round_anyone_lets_the_first_seat_start_it():
    match = new((A, B, C, D), (A, B, C, D), next_round="anyone")
    accuse(match, 0, 2)
    match.apply(3, {"type": "next_round"})
    assert st(match)["round"] == 2


def test_a_seats_own_screen_says_you_for_its_own_moves_and_order():
    match = new((A, B, C, D))
    names = match.view(0)["names"]
    assert match.display(3).lines[1] == "You dealt"  # the last seat deals round 1
    assert match.display(0).lines[1] == f"{names[3]} dealt"
    play(match, 0, 7)
    mine, theirs = match.display(0), match.display(1)
    assert mine.lines[:2] == ("Standing order: 7, yours", "You order 7")
    assert mine.short_lines[0] == "Order 7 (you)"
    assert theirs.lines[:2] == (f"Standing order: 7, {names[0]}'s", f"{names[0]} orders 7")
