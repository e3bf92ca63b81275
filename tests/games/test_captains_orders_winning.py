"""Captain's Orders' ways to win: discovering the Captain, emptying a hand (C3, and C3 off
with C2), and winning the game (C5).

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

import pytest

from companion.engine import PUBLIC, Match
from tests.games.captains_orders_helpers import (
    A2,
    C2,
    CAPT4,
    LOW,
    POOR,
    RICH,
    TIE,
    A,
    B,
    C,
    D,
    accuse,
    hand,
    last,
    new,
    next_round,
    pass_card,
    play,
    run_down,
    st,
    turn,
)

# -- discovering the Captain -----------------------------------------------------------

def test_a_mutineer_who_names_the_captain_wins_the_round():
    match = new((A, B, C, D))
    accuse(match, 0, 2)
    summary = last(match)
    assert summary["reason"] == "accused_captain" and summary["winners"] == [0]
    assert summary["captains"] == [2] and summary["lowest"] == 1
    assert summary["hands"] == [A, B, C, D]
    assert st(match)["wins"] == [1, 0, 0, 0] and match.step() == "scored"


def test_a_wrong_accusation_gives_the_round_to_the_other_mutineer_with_most_points():
    match = new((A, B, C, D))
    accuse(match, 0, 1)
    summary = last(match)
    assert summary["reason"] == "wrong_accusation"
    assert summary["points"] == [37, 33, 49, 44]
    # Seat 3 has the most points, but it is the Captain; seat 1 accused and cannot win.
    assert summary["winners"] == [3]


@pytest.mark.parametrize("target", [0, 2])
def test_with_two_captains_a_mutineer_may_name_either(target):
    match = new((A2, B, C2, D))
    play(match, 0, 9)
    accuse(match, 1, target)
    assert last(match)["captains"] == [0, 2]
    assert last(match)["winners"] == [1] and last(match)["reason"] == "accused_captain"


def test_a_captain_cannot_win_by_naming_another_captain():
    match = new((A2, B, C2, D))
    accuse(match, 0, 2)
    summary = last(match)
    assert summary["reason"] == "captain_named_captain"
    assert summary["winners"] == [3]  # B has 33 points, D 44; the Captains cannot win


def test_a_three_way_tie_on_points_shares_the_round():
    match = new((LOW, TIE, TIE, TIE))
    accuse(match, 0, 1)
    assert last(match)["winners"] == [1, 2, 3]
    assert st(match)["wins"] == [0, 1, 1, 1]


# -- emptying a hand (C3) ------------------------------------------------------------

def test_a_captain_who_empties_their_hand_by_passing_and_declares_wins():
    match = new(([1, 5, 6, 7, 8, 9], B, [2, 9, 9, 10, 10, 10], D))
    run_down(match)
    assert hand(match, 0) == [1]
    pass_card(match, 0, 1, 1)
    assert match.step() == "declare" and match.acting() == [0]
    assert match.view(PUBLIC)["state"]["emptied"] == {"seat": 0, "how": "pass", "to": 1,
                                                      "rank": None}
    match.apply(0, {"type": "declare", "captain": True})
    summary = last(match)
    assert summary["reason"] == "captain_emptied" and summary["winners"] == [0]
    assert summary["ending"]["card"] == 1
    # No discard after the emptying pass: the card is in the receiver's hand.
    assert summary["hands"][1] == [1, 3]


def test_a_captain_may_also_empty_their_hand_with_an_order():
    match = new(([1, 5, 6, 7, 8, 9], B, [2, 9, 9, 10, 10, 10], D))
    run_down(match)
    play(match, 0, 1)
    assert match.view(PUBLIC)["state"]["emptied"]["rank"] == 1
    match.apply(0, {"type": "declare", "captain": True})
    assert last(match)["winners"] == [0]


def test_either_of_two_captains_wins_by_emptying_their_hand():
    match = new((A2, B, C2, D))
    run_down(match)
    assert [hand(match, s) for s in range(4)] == [[2], [3], [2], [4]]
    pass_card(match, 0, 2, 1)
    match.apply(0, {"type": "declare", "captain": True})
    assert last(match)["reason"] == "captain_emptied" and last(match)["winners"] == [0]


def test_a_wrong_declaration_cannot_win_and_the_card_scores_for_its_receiver():
    match = new((A, B, C, D))
    run_down(match)
    pass_card(match, 0, 2, 1)
    match.apply(0, {"type": "declare", "captain": True})
    summary = last(match)
    assert summary["reason"] == "wrong_declaration"
    assert summary["hands"] == [[], [2, 3], [1], [4]]
    # The passed 2 gives seat 2 five points, one more than seat 4.
    assert summary["winners"] == [1]


def test_c3_emptying_a_hand_ends_the_round_even_without_a_declaration():
    match = new((A, B, C, D))
    run_down(match)
    pass_card(match, 0, 2, 1)
    match.apply(0, {"type": "declare", "captain": False})
    summary = last(match)
    assert summary["reason"] == "no_declaration" and summary["winners"] == [1]
    assert summary["ending"]["card"] is None  # not declared: the card is not named
    assert match.step() == "scored"


def test_giving_away_the_last_asked_card_also_empties_a_hand():
    match = new((A, B, C, D))
    run_down(match)
    match.apply(0, {"type": "ask", "target": 1})
    match.apply(1, {"type": "give", "rank": 3})
    assert match.step() == "declare" and match.acting() == [1]
    assert match.view(PUBLIC)["state"]["emptied"] == {"seat": 1, "how": "give", "to": 0,
                                                      "rank": None}
    match.apply(1, {"type": "declare", "captain": True})
    summary = last(match)
    # No discard by the asker; the 3 is no Captain's card (seat 3 holds the 1).
    assert summary["hands"] == [[2, 3], [], [1], [4]]
    assert summary["reason"] == "wrong_declaration" and summary["winners"] == [0]


# -- C3 off: an empty hand stays in the round; C2 ------------------------------------

def _everyone_empties_but_seat_3(match: Match) -> None:
    """C3 off, after ``run_down`` (hands 2 / 3 / 1 / 4): nobody declares. Seat 1 passes
    its 2 (seat 2 discards its 3), seat 2 orders 2, seat 3 belays with 1, seat 4
    follows with 4: only seat 3, the owner of the order 1, has a card left."""
    pass_card(match, 0, 2, 1)
    match.apply(0, {"type": "declare", "captain": False})
    assert match.step() == "discard" and match.acting() == [1]  # the pass goes on
    match.apply(1, {"type": "discard", "rank": 3})
    play(match, 1, 2)
    match.apply(1, {"type": "declare", "captain": False})
    match.apply(2, {"type": "belay", "rank": 1})
    match.apply(2, {"type": "declare", "captain": False})
    match.apply(3, {"type": "follow", "rank": 4})
    assert match.acting() == [3] and match.step() == "declare"
    match.apply(3, {"type": "declare", "captain": False})
    assert [hand(match, s) for s in range(4)] == [[], [], [4], []]
    assert turn(match) == 0 and st(match)["order"] == {"rank": 1, "owner": 2}


def test_c3_off_an_undeclared_empty_hand_plays_on_and_c2_makes_it_discover():
    match = new((A, B, C, D), empty_ends_round=False)
    run_down(match)
    _everyone_empties_but_seat_3(match)
    # An empty hand can neither follow nor belay: C2, it must discover.
    assert match.legal_actions(0) == [{"type": "accuse", "target": s} for s in (1, 2, 3)]
    accuse(match, 0, 2)
    # Seat 3 holds the only card left, so it is the Captain: an empty hand may win.
    assert last(match)["reason"] == "accused_captain"
    assert last(match)["captains"] == [2] and last(match)["winners"] == [0]


def test_c2_off_a_stuck_player_may_pass_the_turn_and_an_empty_hand_may_ask():
    match = new((A, B, C, D), empty_ends_round=False, stuck_discovers=False)
    run_down(match)
    _everyone_empties_but_seat_3(match)
    assert match.legal_actions(0) == [{"type": "skip"}] + [
        {"type": "accuse", "target": s} for s in (1, 2, 3)]
    match.apply(0, {"type": "skip"})
    match.apply(1, {"type": "skip"})
    # The order came back to seat 3 and was discarded: seat 4 faces no order, and with
    # no card it may only ask (the one player holding cards) or discover.
    assert turn(match) == 3 and st(match)["order"] is None
    assert match.legal_actions(3) == [{"type": "ask", "target": 2}] + [
        {"type": "accuse", "target": s} for s in (0, 1, 2)]
    match.apply(3, {"type": "ask", "target": 2})
    match.apply(2, {"type": "give", "rank": 4})
    match.apply(2, {"type": "declare", "captain": True})
    # The 4 is the only card left in any hand: the declaration is right (C3).
    assert last(match)["reason"] == "captain_emptied" and last(match)["winners"] == [2]


# -- winning the game (C5) -----------------------------------------------------------

def test_the_first_player_to_three_round_wins_wins_the_game():
    rounds = [(A, B, C, D), (RICH, POOR, POOR, CAPT4), (RICH, POOR, POOR, CAPT4)]
    match = new(*rounds)
    accuse(match, 0, 2)                     # round 1: seat 1 finds the Captain
    next_round(match, 2)
    accuse(match, 1, 2)                     # round 2: wrong, seat 1 has most points
    next_round(match)
    accuse(match, 2, 1)                     # round 3: the same
    assert match.is_over
    result = match.result()
    assert result.winners == [0] and result.scores == [3, 0, 0, 0]
    assert st(match)["history"] == [
        {"round": 1, "winners": [0], "reason": "accused_captain"},
        {"round": 2, "winners": [0], "reason": "wrong_accusation"},
        {"round": 3, "winners": [0], "reason": "wrong_accusation"}]


def test_c5_players_reaching_the_target_together_share_the_victory():
    match = new((LOW, TIE, TIE, TIE), wins=1)
    accuse(match, 0, 1)
    assert match.is_over and match.result().winners == [1, 2, 3]
    assert match.acting() == []


def test_c5_off_tied_leaders_play_on_until_one_leads_alone():
    match = new((LOW, TIE, TIE, TIE), (TIE, TIE, TIE, [1, 2, 3, 3, 4, 4]), wins=1,
                shared_victory=False)
    accuse(match, 0, 1)
    assert not match.is_over and match.step() == "scored"
    next_round(match, 3)
    accuse(match, 1, 3)
    assert match.is_over and match.result().winners == [1]
    assert match.result().scores == [0, 2, 1, 1]
