"""Captain's Orders in cards mode (C4): players hold real cards and enter ranks only when
the rules need them (a pass or an ask, an accusation, the points, a declared card); the
entries respect the deck and can always be completed.

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

import random

from companion.engine import PUBLIC, Match
from companion.games.captains_orders.entry import completable, entry_ranks
from tests.engine.contract import rejected
from tests.games.captains_orders_helpers import ONWARD, accuse, cards, last, st, turn

# -- cards mode (C4) -------------------------------------------------------------------

def test_cards_mode_keeps_turns_orders_and_owners_with_ranks_entered():
    match = cards()
    others = [1, 2, 3]
    assert match.legal_actions(0) == (
        [{"type": "play", "rank": r} for r in range(1, 11)]
        + [{"type": "pass", "to": s} for s in others]
        + [{"type": "ask", "target": s} for s in others]
        + [{"type": "accuse", "target": s} for s in others])
    match.apply(0, {"type": "play", "rank": 7})
    assert match.legal_actions(1) == (
        [{"type": "follow"}] + [{"type": "belay", "rank": r} for r in range(1, 7)]
        + [{"type": "accuse", "target": s} for s in (0, 2, 3)])
    match.apply(1, {"type": "follow"})
    assert match.view(PUBLIC)["state"]["sizes"] == [6, 5, 6, 6]
    assert [a["rank"] for a in match.legal_actions(2) if a["type"] == "belay"] == [
        1, 2, 3, 4, 5, 6]
    match.apply(2, {"type": "belay", "rank": 1})
    assert st(match)["order"] == {"rank": 1, "owner": 2}
    # Nothing is lower than a 1: no belay.
    assert match.legal_actions(3) == [{"type": "follow"}] + [
        {"type": "accuse", "target": s} for s in (0, 1, 2)]


def test_cards_mode_pass_and_ask_are_confirmed_by_the_players_who_hold_the_cards():
    match = cards()
    match.apply(0, {"type": "pass", "to": 2})
    assert match.acting() == [2] and match.legal_actions(2) == [{"type": "discard"}]
    match.apply(2, {"type": "discard"})
    match.apply(1, {"type": "ask", "target": 3})
    assert match.legal_actions(3) == [{"type": "give"}]
    match.apply(3, {"type": "give"})
    match.apply(1, {"type": "discard"})
    assert match.view(PUBLIC)["state"]["sizes"] == [5, 6, 6, 5] and turn(match) == 2


def test_cards_mode_a_right_accusation_needs_only_the_lowest_cards():
    match = cards()
    accuse(match, 0, 2)
    assert match.step() == "enter" and match.acting() == [0]
    for seat, low in enumerate((4, 3, 1, 2)):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "enter", "rank": low})
    assert last(match)["winners"] == [0] and last(match)["captains"] == [2]
    assert last(match)["points"] == [None] * 4


def test_cards_mode_points_need_the_full_hands_of_the_mutineers_only():
    match = cards()
    accuse(match, 0, 1)
    for seat, low in enumerate((4, 3, 1, 2)):
        match.apply(seat, {"type": "enter", "rank": low})
    # Seat 3 is the Captain, seat 1 accused: seats 2 and 4 enter their whole hands.
    assert st(match)["need"] == [1, 6, 1, 6] and match.acting() == [1]
    ranks = [a["rank"] for a in match.legal_actions(1)]
    assert ranks == list(range(3, 11))  # no lower than the lowest card entered
    for rank in (9, 9, 10, 10, 10):
        match.apply(1, {"type": "enter", "rank": rank})
    for rank in (5, 6, 7, 8, 8):
        match.apply(3, {"type": "enter", "rank": rank})
    summary = last(match)
    assert summary["points"] == [None, 51, None, 36] and summary["winners"] == [1]
    assert summary["hands"][1] == [3, 9, 9, 10, 10, 10]


def test_cards_mode_entries_respect_the_deck():
    match = cards()
    match.apply(0, {"type": "play", "rank": 1})
    accuse(match, 1, 0)

    def offered(seat: int) -> list[int]:
        return [a["rank"] for a in match.legal_actions(seat)]

    assert offered(0) == list(range(2, 11))  # the only 1 was played as an order
    match.apply(0, {"type": "enter", "rank": 10})
    # Every hand might be needed in full: seat 1's five cards would all be 10s, and
    # with a lowest of 10 seat 2's six too - eleven 10s.
    assert 10 not in offered(1) and 9 in offered(1)
    match.apply(1, {"type": "enter", "rank": 2})
    match.apply(2, {"type": "enter", "rank": 2})
    assert offered(3)[0] == 3  # both 2s are in
    assert rejected(match, 3, {"type": "enter", "rank": 2}) == "bad_value"


def test_cards_mode_entries_never_get_stuck_whatever_is_entered():
    for seed in range(30):
        rng = random.Random(seed)
        match = cards(seats=rng.choice([4, 6, 8]))
        accuse(match, 0, rng.randrange(1, match.seats))
        while match.step() == "enter":
            seat = match.acting()[0]
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        assert match.step() in ("scored", "over")


def test_the_entry_choices_are_exactly_the_entries_that_can_be_completed():
    for seed in range(40):
        rng = random.Random(seed)
        match = cards(seats=rng.choice([4, 5, 8]))
        for _ in range(rng.randrange(8)):  # a few orders played first
            seat = turn(match)
            if st(match)["order"] is None:
                match.apply(seat, {"type": "play", "rank": rng.choice(free_ranks(match))})
            else:
                match.apply(seat, {"type": "follow"})
        accuse(match, turn(match), (turn(match) + 1) % match.seats)
        while match.step() == "enter":
            state, seat = st(match), match.acting()[0]
            mine = state["entries"][seat]
            brute = [r for r in range(mine[0] if mine else 1, 11) if completable(
                state, [e + [r] if s == seat else e for s, e in enumerate(state["entries"])])]
            assert entry_ranks(state, seat) == brute and brute
            match.apply(seat, {"type": "enter", "rank": rng.choice(brute)})


def free_ranks(match: Match) -> list[int]:
    """Cards mode, no order: the ranks the turn player may play as an order."""
    return [a["rank"] for a in match.legal_actions(turn(match)) if a["type"] == "play"]


def _cards_run_down(match: Match) -> None:
    while not (turn(match) == 0 and st(match)["hands"][0] == [None]):
        seat = turn(match)
        match.apply(seat, {"type": "pass", "to": ONWARD[seat]})
        match.apply(ONWARD[seat], {"type": "discard"})


def test_cards_mode_a_declared_face_down_card_is_revealed_and_checked():
    match = cards()
    _cards_run_down(match)
    match.apply(0, {"type": "pass", "to": 1})
    match.apply(0, {"type": "declare", "captain": True})
    assert match.step() == "reveal" and match.acting() == [0]
    match.apply(0, {"type": "reveal", "rank": 2})
    assert match.step() == "enter" and match.acting() == [1]  # seat 1 holds no card
    # The receiver holds the 2: their lowest card is no higher.
    assert [a["rank"] for a in match.legal_actions(1)] == [1, 2]
    match.apply(1, {"type": "enter", "rank": 2})
    match.apply(2, {"type": "enter", "rank": 1})
    match.apply(3, {"type": "enter", "rank": 4})
    assert st(match)["need"] == [0, 2, 1, 1] and match.acting() == [1]
    match.apply(1, {"type": "enter", "rank": 3})
    summary = last(match)
    assert summary["reason"] == "wrong_declaration" and summary["winners"] == [1]
    assert summary["ending"]["card"] == 2


def test_cards_mode_the_receiver_must_enter_the_declared_card():
    match = cards()
    _cards_run_down(match)
    match.apply(0, {"type": "pass", "to": 1})
    match.apply(0, {"type": "declare", "captain": True})
    match.apply(0, {"type": "reveal", "rank": 5})
    assert [a["rank"] for a in match.legal_actions(1)] == [1, 2, 3, 4, 5]
    match.apply(1, {"type": "enter", "rank": 3})
    match.apply(2, {"type": "enter", "rank": 1})
    match.apply(3, {"type": "enter", "rank": 4})
    # Seat 3 is the Captain; seats 2 and 4 compare points, and seat 2 holds the 5.
    assert match.legal_actions(1) == [{"type": "enter", "rank": 5}]
    match.apply(1, {"type": "enter", "rank": 5})
    assert last(match)["winners"] == [1] and last(match)["reason"] == "wrong_declaration"


def test_cards_mode_a_declared_order_needs_no_reveal():
    match = cards()
    _cards_run_down(match)
    match.apply(0, {"type": "play", "rank": 1})
    match.apply(0, {"type": "declare", "captain": True})
    assert match.step() == "enter"
    for seat, low in ((1, 3), (2, 2), (3, 4)):
        match.apply(seat, {"type": "enter", "rank": low})
    assert last(match)["winners"] == [0] and last(match)["reason"] == "captain_emptied"
