"""Captain's Orders: the rulebook's rules, rulings C1-C5, both modes, and the secrets.

Most tests stack the deck (the ``stack`` option): six cards to seat 1, six to seat 2 ...
and the last seat deals round 1, so seat 1 (index 0) plays first. The standard hands:
seat 3 holds the only 1, so it is the Captain.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from companion.engine import HOST, PUBLIC, Journal, Match, RedealFailed
from companion.engine.display import menu
from companion.errors import OptionError
from companion.games import get
from companion.games.captains_orders import DECK, GAME, decide, judge, parse_stack
from companion.games.captains_orders.entry import completable, entry_ranks
from tests.engine.contract import rejected

A = [2, 5, 6, 7, 8, 9]
B = [3, 4, 5, 6, 7, 8]
C = [1, 9, 9, 10, 10, 10]   # the Captain: the only 1
D = [4, 6, 7, 8, 9, 10]
#: Two Captains (the two 2s) and no 1 in play.
A2 = [2, 5, 6, 7, 8, 9]
C2 = [2, 9, 9, 10, 10, 10]
#: A Captain at seat 1, and three Mutineers with the same 45 points.
LOW = [1, 2, 3, 3, 4, 4]
TIE = [5, 6, 7, 8, 9, 10]
#: Seat 1 rich, seat 4 the Captain.
RICH = [9, 9, 10, 10, 10, 10]
POOR = [2, 3, 4, 5, 6, 7]
CAPT4 = [1, 8, 8, 8, 9, 9]


def deck(*hands: list[int]) -> str:
    return ",".join(str(rank) for hand in hands for rank in hand)


def new(*rounds: tuple[list[int], ...], seats: int = 4, **options) -> Match:
    """A match whose round ``k`` deals ``rounds[k]`` (one hand per seat)."""
    stack = "/".join(deck(*hands) for hands in rounds)
    return Match.create(GAME, seats, {"first_dealer": seats, "stack": stack, **options},
                        seed=1)


def cards(seats: int = 4, **options) -> Match:
    return Match.create(GAME, seats, {"mode": "cards", "first_dealer": seats, **options},
                        seed=1)


def st(match: Match) -> dict:
    return match.snapshot()["state"]


def hand(match: Match, seat: int) -> list:
    return st(match)["hands"][seat]


def turn(match: Match) -> int:
    return st(match)["turn"]


def play(match: Match, seat: int, rank: int) -> None:
    match.apply(seat, {"type": "play", "rank": rank})


def pass_card(match: Match, seat: int, rank: int, to: int, discard: int | None = None) -> None:
    match.apply(seat, {"type": "pass", "rank": rank, "to": to})
    if discard is not None:
        match.apply(to, {"type": "discard", "rank": discard})


def ask(match: Match, seat: int, target: int, give: int, discard: int) -> None:
    match.apply(seat, {"type": "ask", "target": target})
    match.apply(target, {"type": "give", "rank": give})
    match.apply(seat, {"type": "discard", "rank": discard})


def accuse(match: Match, seat: int, target: int) -> None:
    match.apply(seat, {"type": "accuse", "target": target})


#: A typical round of the standard hands, one whole decision per entry: an order followed
#: round the table, a pass and its discard, an ask, a give and a discard, an order
#: belayed and followed, then a (wrong) discovery.
TYPICAL_ROUND = [
    (0, {"type": "play", "rank": 7}), (1, {"type": "follow", "rank": 8}),
    (2, {"type": "follow", "rank": 9}), (3, {"type": "follow", "rank": 10}),
    (1, {"type": "pass", "rank": 3, "to": 2}), (2, {"type": "discard", "rank": 10}),
    (2, {"type": "ask", "target": 3}), (3, {"type": "give", "rank": 4}),
    (2, {"type": "discard", "rank": 9}), (3, {"type": "play", "rank": 6}),
    (0, {"type": "belay", "rank": 5}), (1, {"type": "follow", "rank": 7}),
    (2, {"type": "accuse", "target": 0}),
]


#: Who passes to whom while hands are emptied: seat 1 is never passed to again, so it
#: runs out first.
ONWARD = {0: 1, 1: 2, 2: 3, 3: 1}


def next_round(match: Match, first: int = 0) -> None:
    """Every seat says it has seen the reveal (``first`` first): the next round starts."""
    seats = match.seats
    for seat in [(first + step) % seats for step in range(seats)]:
        match.apply(seat, {"type": "next_round"})


def run_down(match: Match) -> None:
    """Phones: every player passes their highest card on and the receiver discards it
    at once, until seat 1 holds one card (everyone else too) and it is seat 1's turn."""
    while not (turn(match) == 0 and len(hand(match, 0)) == 1):
        seat = turn(match)
        rank = max(hand(match, seat))
        pass_card(match, seat, rank, ONWARD[seat], discard=rank)


def last(match: Match) -> dict:
    return st(match)["last_round"]


# -- the game, the deck and the deal -------------------------------------------------

def test_registered_with_its_options():
    assert get("captains-orders") is GAME
    spec = GAME.spec
    assert (spec.min_seats, spec.max_seats) == (4, 8) and GAME.has_secrets
    names = {opt.name for opt in spec.options}
    assert names == {"mode", "wins", "shared_victory", "empty_ends_round",
                     "stuck_discovers", "first_dealer", "stack", "next_round",
                     "turn_seconds"}
    assert spec.resolve_options()["mode"] == "phones"


def test_the_deck_is_a_pairs_deck_of_55_cards():
    assert len(DECK) == 55
    assert Counter(DECK) == {rank: rank for rank in range(1, 11)}


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
def test_six_cards_each_and_the_rest_stays_out_of_play(seats):
    match = Match.create(GAME, seats, {}, seed=seats)
    state = st(match)
    assert all(len(h) == 6 for h in state["hands"])
    assert len(state["undealt"]) == 55 - 6 * seats
    assert Counter(sum(state["hands"], []) + state["undealt"]) == Counter(DECK)
    public = match.view(PUBLIC)["state"]
    assert public["sizes"] == [6] * seats and public["out_of_play"] == 55 - 6 * seats
    assert "undealt" not in public and "hands" not in public


def test_the_stack_deals_six_by_six_in_seat_order():
    match = new((A, B, C, D))
    assert st(match)["hands"] == [A, B, C, D]
    assert Counter(st(match)["undealt"]) == Counter(DECK) - Counter(A + B + C + D)


@pytest.mark.parametrize("text", ["1,1", "2,2,2", "0", "11", "x", "3,/4,a"])
def test_a_stack_that_is_no_pairs_deck_is_refused(text):
    with pytest.raises(OptionError):
        parse_stack(text)
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"stack": text})


def test_a_stack_needs_the_phones_mode_and_the_first_dealer_must_sit_at_the_table():
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"mode": "cards", "stack": "1"})
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"first_dealer": 5})


def test_play_begins_left_of_the_dealer_and_the_deal_passes_left():
    match = Match.create(GAME, 5, {"first_dealer": 2, "stack": deck(A, B, C, D)}, seed=3)
    assert st(match)["dealer"] == 1 and turn(match) == 2
    accuse(match, 2, 0)
    assert match.step() == "scored"
    next_round(match, 4)
    assert st(match)["dealer"] == 2 and turn(match) == 3 and st(match)["round"] == 2
    assert all(len(h) == 6 for h in st(match)["hands"])


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


# -- secrets -----------------------------------------------------------------------

def test_a_pass_shows_its_card_to_the_two_players_only():
    views = []
    for rank in (5, 9):
        match = new((A, B, C, D))
        pass_card(match, 0, rank, 2)
        views.append({v: match.view(v) for v in (PUBLIC, HOST, 1, 3)})
        assert match.view(2)["state"]["me"]["log"] == [
            {"kind": "pass", "seat": 0, "to": 2, "card": rank}]
        assert match.view(0)["state"]["me"]["log"][0]["card"] == rank
        assert f"Got {rank} from" in " ".join(match.display(2).private)
    for viewer in (PUBLIC, HOST, 1, 3):
        first, second = views[0][viewer], views[1][viewer]
        first.pop("match"), second.pop("match")
        assert first == second


def _picked(choices, path):
    """The choices one menu level holds, by their actions (groups as their names)."""
    return [item.label if item.is_group else choices[item.index].action
            for item in menu(choices, path)]


def test_a_turn_lists_whole_decisions_filed_in_menus():
    match = new((A, B, C, D))
    choices = match.display(0).choices
    assert [(item.label, item.is_group, item.secret) for item in menu(choices)] == (
        [("Pass a card", True, False)]
        + [(f"Play your {r} as an order", False, True) for r in A]
        + [("Ask for a card", True, False), ("Discover Captain", True, False)])
    # "Discover Captain" holds whole accusations, while the orders stay on offer.
    assert _picked(choices, ("Discover Captain",)) == [
        {"type": "accuse", "target": s} for s in (1, 2, 3)]
    accusations = [c for c in choices if c.group == ("Discover Captain",)]
    assert [c.label for c in accusations] == [
        f"Accuse Seat {n} of being the Captain" for n in (2, 3, 4)]
    assert all(c.secret for c in accusations)
    assert [a for a in _picked(choices, ()) if isinstance(a, dict)] == [
        {"type": "play", "rank": r} for r in A]
    # A pass: the card, then the player; the cards are secret below the public menu name.
    cards = menu(choices, ("Pass a card",))
    assert [item.label for item in cards] == [str(r) for r in A]
    assert all(item.is_group and item.secret for item in cards)
    assert [c.label for c in choices if c.group == ("Pass a card", "7")] == [
        "Pass your 7 to Seat 2", "Pass your 7 to Seat 3", "Pass your 7 to Seat 4"]
    assert _picked(choices, ("Ask for a card",)) == [
        {"type": "ask", "target": s} for s in (1, 2, 3)]
    # Looking through the menus is the seat's business: nothing reaches the match.
    assert match.version == 1 and match.display(0).choices == choices


def test_a_standing_order_lists_its_cards_then_discover_captain():
    match = new((A, B, C, D))
    play(match, 0, 7)
    choices = match.display(1).choices
    assert [(item.label, item.is_group, item.secret) for item in menu(choices)] == (
        [(f"Follow with your {r}", False, True) for r in (7, 8)]
        + [(f"Belay with your {r}", False, True) for r in (3, 4, 5, 6)]
        + [("Discover Captain", True, False)])
    # Cards mode: the rank of an order is entered, so orders are a menu too.
    match = cards()
    assert [item.label for item in menu(match.display(0).choices)] == [
        "Play an order", "Pass a card", "Ask for a card", "Discover Captain"]
    match.apply(0, {"type": "play", "rank": 7})
    assert [item.label for item in menu(match.display(1).choices)] == [
        "Follow the order", "Belay the order", "Discover Captain"]


def test_no_view_shows_another_hand_until_the_reveal():
    match = new((A, B, C, D))
    play(match, 0, 7)
    match.apply(1, {"type": "follow", "rank": 8})
    public_state = match.view(PUBLIC)["state"]
    assert all("card" not in e for e in public_state["events"])
    for seat in range(4):
        me = match.view(seat)["state"]["me"]
        assert set(me) == {"seat", "hand", "log"}  # no menu: browsing is the seat's own
        assert me["hand"] == hand(match, seat)
        assert all(seat in (e["seat"], e.get("to")) for e in me["log"])
    public = match.view(PUBLIC)["state"]
    assert "hands" not in public and "me" not in public and public["last_round"] is None
    accuse(match, 2, 1)
    assert match.view(PUBLIC)["state"]["last_round"]["hands"][2] == C


def test_the_redeal_keeps_what_a_seat_knows_of_a_pass():
    match = new((A, B, C, D))
    pass_card(match, 0, 9, 2)
    state = st(match)
    rng = random.Random(4)
    changed = 0
    for _ in range(40):
        twin = GAME.redeal(state, 0, rng)
        assert twin["hands"][0] == state["hands"][0] and 9 in twin["hands"][2]
        assert GAME.view(twin, 0) == GAME.view(state, 0)
        assert Counter(sum(twin["hands"], []) + twin["undealt"]) == Counter(DECK)
        changed += twin["hands"][1] != state["hands"][1]
    assert changed


def test_the_redeal_keeps_every_followed_card_no_lower_than_its_order():
    match = new((A, B, C, D))
    play(match, 0, 7)
    match.apply(1, {"type": "follow", "rank": 7})
    match.apply(2, {"type": "follow", "rank": 9})
    state = st(match)
    rng = random.Random(5)
    for viewer in (PUBLIC, 3):
        for _ in range(30):
            twin = GAME.redeal(state, viewer, rng)
            follows = [e for e in twin["events"] if e["kind"] == "follow"]
            assert all(e["card"] >= 7 for e in follows)
            assert all(e["card"] in twin["hands"][0] for e in follows)
            pool = sum(twin["hands"], []) + twin["undealt"] + twin["discards"] + twin["played"]
            assert Counter(pool) == Counter(DECK)
            assert GAME.view(twin, viewer) == GAME.view(state, viewer)


def test_the_redeal_never_spends_a_card_needed_face_up_later():
    # Seat 1 holds both 2s and passes one to seat 3, who discards (seat 1 does not see
    # what) and later belays with a 2: that discard cannot have been the 2.
    match = new(([2, 2, 5, 6, 7, 8], B, C, D))
    pass_card(match, 0, 2, 2, discard=10)
    play(match, 1, 8)
    match.apply(2, {"type": "belay", "rank": 2})
    state = st(match)
    rng = random.Random(6)
    for _ in range(60):
        twin = GAME.redeal(state, 0, rng)
        assert 2 not in twin["discards"] and twin["hands"][0] == state["hands"][0]
        assert GAME.view(twin, 0) == GAME.view(state, 0)


def test_a_round_that_cannot_be_replayed_is_refused_not_returned_unchanged():
    match = new(([2, 2, 5, 6, 7, 8], B, C, D))
    pass_card(match, 0, 2, 2, discard=10)
    state = st(match)
    # Seat 2 cannot hold a 2: seat 1 holds one and passed the other to seat 3.
    state["events"].append({"kind": "play", "seat": 1, "rank": 2})
    with pytest.raises(RedealFailed):
        GAME.redeal(state, 0, random.Random(7))


#: The journal of ``TYPICAL_ROUND`` under rules 1, when a turn was recorded menu by menu
#: (a card picked or a menu opened, then the move): measured once on that version, 19
#: entries (21 if one player picks a card and goes back before deciding).
RULES_1_ENTRIES = 19


def test_a_typical_rounds_journal_holds_one_entry_per_decision():
    with Journal(":memory:") as journal:
        stack = deck(A, B, C, D)
        match = Match.create(GAME, 4, {"first_dealer": 4, "stack": stack}, seed=1,
                             journal=journal)
        for seat, action in TYPICAL_ROUND:
            match.apply(seat, action)
        assert match.step() == "scored" and last(match)["reason"] == "wrong_accusation"
        recorded = journal.entries(match.id)
        # The deal, then one entry per decision.
        assert len(recorded) == 1 + len(TYPICAL_ROUND) == 14 < RULES_1_ENTRIES
        assert [e.action for e in recorded[1:]] == [a for _, a in TYPICAL_ROUND]
        assert journal.header(match.id)["rules"] == GAME.spec.rules == 3


def test_undo_stays_off_through_the_play_and_takes_back_hand_entries():
    match = new((A, B, C, D))
    seen = []
    for seat, step in TYPICAL_ROUND[:-1]:
        match.apply(seat, step)
        seen.append(match.can_undo)
    assert seen == [False] * (len(TYPICAL_ROUND) - 1)
    match = cards()
    accuse(match, 0, 2)
    match.apply(0, {"type": "enter", "rank": 5})
    assert match.can_undo
    match.apply(HOST, {"type": "undo"})
    assert st(match)["entries"][0] == [] and match.acting() == [0]


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
    assert match.display(1).private[0] == "Hand 3 4 5 6 7 8"
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
