"""Captain's Orders' secrets: what a pass shows and to whom, the menus of a turn, no view of
another hand, the re-deal, and the journal and undo of a round.

Most tests stack the deck, so every hand is known; the standard hands, the conventions and
the helpers that play a turn: tests/games/captains_orders_helpers.py.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine import HOST, PUBLIC, Journal, Match, RedealFailed
from companion.engine.display import menu
from companion.games.captains_orders import DECK, GAME
from tests.games.captains_orders_helpers import (
    TYPICAL_ROUND,
    A,
    B,
    C,
    D,
    accuse,
    cards,
    deck,
    hand,
    last,
    new,
    pass_card,
    play,
    st,
)

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
        assert f"Got {rank} from" in " ".join(match.display(2).screen_private)
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
