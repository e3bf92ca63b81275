"""Captain's Orders' registration, the pairs deck, the deal (and the stacked deal the tests
use) and who plays first.

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import PUBLIC, Match
from companion.errors import OptionError
from companion.games import get
from companion.games.captains_orders import DECK, GAME, parse_stack
from tests.games.captains_orders_helpers import A, B, C, D, accuse, deck, new, next_round, st, turn

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
