"""Captain's Orders' turns: with no order (play, pass, ask, discover) and under a standing
order (follow, belay, an order back at its owner).

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

from companion.engine import PUBLIC
from tests.engine.contract import rejected
from tests.games.captains_orders_helpers import A, B, C, D, hand, new, pass_card, play, st, turn

# -- a turn with no order ------------------------------------------------------------

def test_with_no_order_a_player_plays_or_passes_a_card_asks_or_discovers():
    match = new((A, B, C, D))
    assert match.acting() == [0]
    assert match.legal_actions(0) == (
        [{"type": "play", "rank": r} for r in A]
        + [{"type": "pass", "rank": r, "to": s} for r in A for s in (1, 2, 3)]
        + [{"type": "ask", "target": s} for s in (1, 2, 3)]
        + [{"type": "accuse", "target": s} for s in (1, 2, 3)])


def test_play_an_order_puts_it_face_up_and_the_turn_passes_left():
    match = new((A, B, C, D))
    play(match, 0, 7)
    state = st(match)
    assert state["order"] == {"rank": 7, "owner": 0} and 7 not in state["hands"][0]
    assert turn(match) == 1
    assert match.view(PUBLIC)["state"]["events"] == [{"kind": "play", "seat": 0, "rank": 7}]


def test_pass_a_card_then_the_receiver_discards_face_down():
    match = new((A, B, C, D))
    pass_card(match, 0, 9, 2)
    assert match.step() == "discard" and match.acting() == [2]
    assert hand(match, 2) == [1, 9, 9, 9, 10, 10, 10]
    assert match.legal_actions(2) == [{"type": "discard", "rank": r} for r in (1, 9, 10)]
    match.apply(2, {"type": "discard", "rank": 10})
    assert hand(match, 0) == [2, 5, 6, 7, 8] and hand(match, 2) == [1, 9, 9, 9, 10, 10]
    assert st(match)["discards"] == [10] and turn(match) == 1
    assert match.view(PUBLIC)["state"]["discards"] == 1


def test_ask_for_a_card_the_asked_player_chooses_then_the_asker_discards():
    match = new((A, B, C, D))
    asks = [a for a in match.legal_actions(0) if a["type"] == "ask"]
    assert asks == [{"type": "ask", "target": s} for s in (1, 2, 3)]
    match.apply(0, {"type": "ask", "target": 1})
    assert match.step() == "give" and match.acting() == [1]
    assert match.legal_actions(1) == [{"type": "give", "rank": r} for r in B]
    match.apply(1, {"type": "give", "rank": 3})
    assert match.step() == "discard" and match.acting() == [0]
    assert hand(match, 0) == [2, 3, 5, 6, 7, 8, 9]
    match.apply(0, {"type": "discard", "rank": 9})
    assert hand(match, 0) == [2, 3, 5, 6, 7, 8] and hand(match, 1) == [4, 5, 6, 7, 8]
    assert turn(match) == 1


def test_browsing_moves_are_gone_and_targets_come_in_seat_order():
    match = new((A, B, C, D))
    for browse in ({"type": "pick", "rank": 5}, {"type": "back"},
                   {"type": "open", "menu": "accuse"}):
        assert rejected(match, 0, browse) == "unknown_action"
    play(match, 0, 7)
    match.apply(1, {"type": "follow", "rank": 8})
    assert [a["target"] for a in match.legal_actions(2) if a["type"] == "accuse"] == [0, 1, 3]


# -- a standing order ----------------------------------------------------------------

def test_follow_with_equal_or_higher_belay_with_lower_or_discover():
    match = new((A, B, C, D))
    play(match, 0, 7)
    assert match.legal_actions(1) == (
        [{"type": "follow", "rank": r} for r in (7, 8)]
        + [{"type": "belay", "rank": r} for r in (3, 4, 5, 6)]
        + [{"type": "accuse", "target": s} for s in (0, 2, 3)])
    assert rejected(match, 1, {"type": "follow", "rank": 6}) == "bad_value"
    assert rejected(match, 1, {"type": "play", "rank": 6}) == "not_now"


def test_following_passes_the_card_to_the_owner_with_no_discard():
    match = new((A, B, C, D))
    play(match, 0, 7)
    match.apply(1, {"type": "follow", "rank": 8})
    assert hand(match, 0) == [2, 5, 6, 8, 8, 9] and hand(match, 1) == [3, 4, 5, 6, 7]
    assert match.step() == "turn" and turn(match) == 2


def test_belaying_replaces_the_order_and_its_owner():
    match = new((A, B, C, D))
    play(match, 0, 7)
    match.apply(1, {"type": "belay", "rank": 4})
    state = st(match)
    assert state["order"] == {"rank": 4, "owner": 1} and state["played"] == [7, 4]
    assert turn(match) == 2


def test_an_order_back_at_its_owner_is_discarded_and_the_turn_passes_on():
    match = new((A, B, C, D))
    play(match, 0, 7)
    match.apply(1, {"type": "follow", "rank": 8})
    match.apply(2, {"type": "follow", "rank": 9})
    match.apply(3, {"type": "follow", "rank": 10})
    state = st(match)
    assert state["order"] is None and turn(match) == 1
    assert state["events"][-1] == {"kind": "return", "seat": 0, "rank": 7}
    assert hand(match, 0) == [2, 5, 6, 8, 8, 9, 9, 10]
    assert {"type": "play", "rank": 3} in match.legal_actions(1)


def test_a_belayed_order_comes_back_to_its_new_owner():
    match = new((A, B, C, D))
    play(match, 0, 9)
    match.apply(1, {"type": "belay", "rank": 5})
    match.apply(2, {"type": "follow", "rank": 9})
    match.apply(3, {"type": "follow", "rank": 6})
    assert turn(match) == 0 and st(match)["order"]["owner"] == 1
    match.apply(0, {"type": "follow", "rank": 7})
    assert st(match)["order"] is None and turn(match) == 2
    assert hand(match, 1) == [3, 4, 6, 6, 7, 7, 8, 9]
