"""Card Mutiny: what the table remembers and tells. Views keep no card turned back face
down; the public history names what turned up (and, by default, where); every change
of gold has its event; the re-deal keeps what the viewer knows; the seats' screens.
Stacked deals: see tests/games/card_mutiny_helpers.py.
"""
from __future__ import annotations

import json
import random

import pytest

from companion.engine import PUBLIC, Match, RedealFailed
from companion.engine.display import menu
from companion.games.card_mutiny import GAME
from tests.games.card_mutiny_helpers import (
    ROWS,
    cell,
    end_turn,
    enter,
    flip,
    flips,
    full,
    idx,
    new,
    pub,
    said,
    st,
)

# -- memory stays a memory game --------------------------------------------------------

def test_nothing_in_any_view_tells_what_is_under_a_card_turned_back_face_down():
    match = new(full(["silver", "copper"]))
    flips(match, "A1", "A2")
    end_turn(match)
    for viewer in [PUBLIC, 0, 1, 2]:
        state = match.view(viewer)["state"]
        assert state["grid"][0][:2] == ["down", "down"]
        text = json.dumps(state)
        assert "A1" not in text and "A2" not in text and '"index": 0' not in text
        assert match.view(viewer)["state"]["open"] == []
    # The public log names the cards, never where they lie.
    assert "Silver coin / Copper coin, no match" in said(match)[-1]
    assert pub(match)["log"][-1] == {"kind": "no_match", "seat": 0,
                                     "cards": ["silver", "copper"]}


def test_redeal_redraws_every_face_down_card_but_keeps_every_view():
    match = new(full(["silver", "copper"]))
    flips(match, "A1", "A2")
    end_turn(match)
    state = st(match)
    changed = 0
    for seed in range(20):
        twin = GAME.redeal(state, PUBLIC, random.Random(seed))
        assert GAME.view(twin, PUBLIC) == GAME.view(state, PUBLIC)
        assert sorted(twin["grid"] + twin["stack"]) == sorted(
            state["grid"] + state["stack"])
        changed += twin["grid"][:2] != state["grid"][:2]
        assert twin["stack"] != state["stack"]
    assert changed > 10


def test_redeal_keeps_the_cards_the_viewer_is_peeking_at():
    match = new(full(["spyglass"]))
    flip(match, "A1")
    flip(match, "C3", kind="peek")
    state = st(match)
    for seed in range(10):
        twin = GAME.redeal(state, 0, random.Random(seed))
        assert twin["grid"][idx("C3")] == state["grid"][idx("C3")]
        assert GAME.view(twin, 0) == GAME.view(state, 0)
    moved = [GAME.redeal(state, 1, random.Random(s))["grid"][idx("C3")] for s in range(20)]
    assert len(set(moved)) > 1


def test_a_flip_is_one_decision_filed_in_the_seat_menu_by_row():
    match = new(full())
    assert match.legal_actions(0) == [{"type": "flip", "cell": k} for k in range(49)]
    screen = match.display(0)
    top = menu(screen.choices)
    assert [item.label for item in top] == [f"Row {r}" for r in ROWS]
    assert all(item.is_group and item.count == 7 and not item.secret for item in top)
    row_c = menu(screen.choices, ("Row C",))
    assert [item.label for item in row_c] == [f"Flip row C, column {c}" for c in range(1, 8)]
    chosen = screen.choices[row_c[4].index]
    assert chosen.action == {"type": "flip", "cell": idx("C5")} and chosen.short == "Flip C5"
    match.apply(0, chosen.action)
    assert cell(match, "C5")["state"] == "open"
    assert menu(match.display(0).choices)[2].count == 6


def test_few_face_down_cards_are_listed_one_by_one():
    match = new("gold silver gold silver copper")
    assert match.legal_actions(0) == [{"type": "flip", "cell": k} for k in range(5)]


# -- screens ---------------------------------------------------------------------------

def reachable(choices, path=()) -> list[int]:
    """The choices a seat reaches by paging through every menu level."""
    found = []
    for item in menu(choices, path):
        found += reachable(choices, path + (item.label,)) if item.is_group else [item.index]
    return found


@pytest.mark.parametrize("mode", ["grid", "cards"])
def test_every_screen_offers_each_decision_once_in_full_words(mode):
    names = ["Annabella", "Bo", "Christopher", "D"]
    match = Match.create(GAME, 4, {"mode": mode}, seed=5, names=names)
    rng = random.Random(5)
    titles = set()
    while not match.is_over:
        for seat in range(4):
            shown = match.display(seat)
            titles.add(shown.title)
            assert len(shown.lines) == 3 and all(shown.lines)
            assert [c.action for c in shown.choices] == match.legal_actions(seat)
            assert len({c.label for c in shown.choices}) == len(shown.choices)
            assert sorted(reachable(shown.choices)) == list(range(len(shown.choices)))
            # A hand-made short form is for the 21 columns of the OLED.
            assert all(len(c.short) <= 21 for c in shown.choices)
            assert (shown.led == "on") == (seat in match.acting())
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
    assert "Christopher's turn" in titles          # names are never cut
    assert match.display(0).title == "Game over"


def test_the_table_summary_names_the_turn_the_captains_and_what_happened():
    match = new("gold gold silver copper silver copper", names=["Anne", "Bo", "Cy"])
    flips(match, "A1", "A2")
    summary = match.summary()
    assert summary["headline"] == "Anne flips" and summary["turn"] == [0]
    assert summary["scores"] == [600, 0, 0] and summary["score_label"] == "gold"
    assert summary["lines"][:2] == ["Captain: Anne", "Stack 0, 4 face down, 0 discarded"]
    assert summary["lines"][-1] == "Anne: a pair of Gold coins (+600)"


# -- every change of gold has its event --------------------------------------------------

def test_kraken_names_every_coin_it_discards():
    deal = ("gold gold copper copper silver silver silver silver copper copper "
            "kraken ruby")
    match = new(deal, names=["Anne", "Bo", "Cy"])
    flips(match, "A1", "A2", "A3", "A4", "B5")
    assert pub(match)["gold"][0] == 1300
    flips(match, "A5", "A6", "A7", "B1", "B2", "B3", "B4")
    assert pub(match)["gold"] == [1200, 900, 0]
    assert said(match)[-4:-1] == ["Bo: Kraken, everyone discards their lowest coin",
                                  "Kraken: Bo discards a Copper coin (-100)",
                                  "Kraken: Anne discards a Copper coin (-100)"]


def test_plank_names_the_coin_it_discards():
    match = new("gold gold copper copper plank pearl", names=["Anne", "Bo", "Cy"])
    flips(match, "A1", "A2", "A3", "A4", "A5")
    assert said(match)[-1] == "Plank: Anne discards a Copper coin (-100)"
    assert pub(match)["log"][-1] == {"kind": "lose", "seat": 0, "card": "copper",
                                     "cause": "plank", "gold": 100}


SIGNED = {"pair": ((1, "seat"),), "gem": ((1, "seat"),), "lose": ((-1, "seat"),),
          "take": ((1, "seat"), (-1, "target"))}


def new_events(before: list, after: list) -> list:
    """The events ``after`` adds to ``before`` (the log keeps only its last entries)."""
    for start in range(len(before) + 1):
        if after[:len(before) - start] == before[start:]:
            return after[len(before) - start:]
    raise AssertionError("the log lost its order")


@pytest.mark.parametrize("seed", range(6))
def test_every_change_of_gold_has_an_event_with_its_cause(seed):
    rng = random.Random(seed)
    options = {"mode": rng.choice(["grid", "cards"]), "mutiny": rng.choice(["crew", "revealer"]),
               "coin_score": rng.choice(["per_card", "per_pair"]),
               "captain_mutiny": rng.choice(["ignored", "tied_pick"])}
    match = Match.create(GAME, rng.randint(2, 6), options, seed=seed)
    changes = 0
    while not match.is_over:
        before = pub(match)
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
        after = pub(match)
        explained = [0] * match.seats
        for event in new_events(before["log"], after["log"]):
            for sign, field in SIGNED.get(event["kind"], ()):
                explained[event[field]] += sign * event["gold"]
        moved = [b - a for a, b in zip(before["gold"], after["gold"], strict=True)]
        assert moved == explained, (moved, explained, after["log"][-4:])
        changes += any(moved)
    assert changes > 5


# -- the re-deal -----------------------------------------------------------------------

def test_redeal_refuses_a_grid_it_cannot_draw_again():
    match = new(full(["spyglass"]))
    flip(match, "A1")
    flip(match, "C3", kind="peek")
    broken = st(match)
    broken["grid"] = broken["grid"][:40]
    with pytest.raises(RedealFailed):
        GAME.redeal(broken, 0, random.Random(1))
    broken = st(match)
    broken["rocks"] = [idx("C3")]       # the peeked card is no longer face down
    with pytest.raises(RedealFailed):
        GAME.redeal(broken, 0, random.Random(1))


def test_cards_mode_hides_nothing_so_the_redeal_is_the_state():
    match = new(mode="cards")
    enter(match, "gold")
    assert GAME.redeal(st(match), 1, random.Random(1)) == st(match)
