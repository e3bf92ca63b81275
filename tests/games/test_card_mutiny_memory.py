"""Card Mutiny: what the table remembers and tells. Views keep no card turned back face
down; the public history names what turned up (and, by default, where); every change
of gold has its event; the re-deal keeps what the viewer knows; the seats' screens.
Stacked deals: see tests/games/card_mutiny_helpers.py.
"""
from __future__ import annotations

import json
import random

import pytest

from companion.bots import Bot, knowledge_of, level
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

# -- the pure memory game (option history_names_places off) ----------------------------

def test_nothing_in_any_view_tells_what_is_under_a_card_turned_back_face_down():
    match = new(full(["silver", "copper"]), history_names_places=False)
    flips(match, "A1", "A2")
    end_turn(match)
    for viewer in [PUBLIC, 0, 1, 2]:
        state = match.view(viewer)["state"]
        assert state["grid"][0][:2] == ["down", "down"]
        text = json.dumps(state)
        assert "A1" not in text and "A2" not in text and '"index": 0' not in text
        assert match.view(viewer)["state"]["open"] == []
    # The public log names the cards, never where they lie.
    assert said(match)[-1] == "Seat 1: Silver coin / Copper coin, no match"
    assert pub(match)["log"][-1] == {"kind": "no_match", "seat": 0,
                                     "cards": ["silver", "copper"]}


def test_redeal_redraws_every_face_down_card_but_keeps_every_view():
    match = new(full(["silver", "copper"]), history_names_places=False)
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


# -- the history names the places (option history_names_places, on by default) ---------

NAMED = ["Anne", "Bo", "Cy"]


def test_the_history_names_where_each_card_turned_up_lay():
    match = new(full(["silver", "copper", "gold", "gold", "ruby", "dud"]), names=NAMED)
    flips(match, "A1", "A2")
    assert said(match)[-1] == "Anne: Silver coin at A1 / Copper coin at A2, no match"
    assert pub(match)["log"][-1] == {"kind": "no_match", "seat": 0,
                                     "cards": ["silver", "copper"], "cells": [0, 1]}
    end_turn(match)
    flips(match, "A3", "A4", "A5")                  # Bo: a pair, then the Ruby
    flips(match, "A6")                              # Cy: a dud
    assert said(match)[-3:] == ["Bo: a pair of Gold coins at A3 and A4 (+600)",
                                "Bo takes the Ruby at A5 (+500)", "Cy: a dud at A6"]
    # Every screen words it from the server: the table's story and the phones' board.
    assert match.summary()["lines"][-1] == "Cy: a dud at A6"
    story = [p for p in match.board() if p["part"] == "log"][0]["lines"]
    assert story[-3:] == said(match)[-3:]


def test_maps_rocks_mutinies_and_events_are_named_at_their_places():
    match = new("map map map rock mutiny kraken gold gold", seats=2, names=NAMED[:2])
    flips(match, "A1", "A2", "A3")                  # Anne: a map set
    flips(match, "A4")                              # Bo: a Rock
    flips(match, "A5")                              # Anne, a Captain: her own Mutiny
    flips(match, "A6")                              # Bo: the Kraken
    assert said(match)[-4:] == [
        "Anne: a Treasure Map set at A1, A2 and A3, worth 1000 at the end",
        "Bo: a Rock at A4, it stays in the grid",
        "Anne: a Mutiny at A5, ignored (a Captain revealed it)",
        "Bo: Kraken at A6, everyone discards their lowest coin"]


def test_a_try_the_turn_ends_is_named_as_it_turns_back_face_down():
    match = new(full(["copper", "ruby", "silver", "gold"]), names=NAMED)
    flips(match, "A1", "A2")                        # a coin, then the Ruby ends the turn
    assert said(match)[-1] == "Anne takes the Ruby at A2 (+500)"
    end_turn(match)
    assert said(match)[-1] == "Anne: Copper coin at A1 turned back face down"
    assert pub(match)["log"][-1] == {"kind": "turned_back", "seat": 0,
                                     "cards": ["copper"], "cells": [0]}
    flips(match, "A3", "A4")                        # a miss is named once, by its no_match
    end_turn(match)
    assert [e["kind"] for e in pub(match)["log"]][-2:] == ["turned_back", "no_match"]


def test_with_the_option_off_the_history_names_only_the_cards():
    match = new(full(["copper", "ruby", "gold", "gold"]), names=NAMED,
                history_names_places=False)
    flips(match, "A1", "A2")                        # the Copper coin turns back unnamed
    end_turn(match)
    flips(match, "A3", "A4")
    assert said(match)[1:] == ["Anne takes the Ruby (+500)",
                               "Bo: a pair of Gold coins (+600)"]
    assert not any("cells" in e or e["kind"] == "turned_back" for e in pub(match)["log"])


def test_redeal_keeps_the_cards_the_history_names_where_they_lie():
    match = new(full(["silver", "copper"]))
    flips(match, "A1", "A2")
    end_turn(match)
    state = st(match)
    others = 0
    for seed in range(20):
        twin = GAME.redeal(state, PUBLIC, random.Random(seed))
        assert twin["grid"][:2] == state["grid"][:2]
        assert GAME.view(twin, PUBLIC) == GAME.view(state, PUBLIC)
        assert sorted(twin["grid"] + twin["stack"]) == sorted(state["grid"] + state["stack"])
        others += twin["grid"][2:] != state["grid"][2:]
    assert others == 20


def drawn_again(state: dict, name: str) -> bool:
    """Whether the re-deal draws the card at ``name`` again (it moves in some draws)."""
    k = idx(name)
    return len({GAME.redeal(state, PUBLIC, random.Random(s))["grid"][k]
                for s in range(30)}) > 1


def test_a_storm_of_their_row_lets_the_redeal_draw_them_again():
    match = new(full(["silver", "copper", "gold", "storm"]))
    flips(match, "A1", "A2")
    end_turn(match)
    assert not drawn_again(st(match), "A1")
    flips(match, "A4")                              # seat 1: the Storm, on row A
    match.apply(1, {"type": "storm_row", "row": 0})
    assert drawn_again(st(match), "A1") and drawn_again(st(match), "A2")


def test_a_place_emptied_and_refilled_is_drawn_again_and_the_rest_kept():
    match = new(full(["silver", "copper", "silver", "dud"]))
    flips(match, "A1", "A2")
    end_turn(match)
    flips(match, "A1", "A3", "A4")                  # seat 1: the silver pair, then a dud
    assert pub(match)["log"][-2]["cells"] == [0, 2]
    state = st(match)
    assert drawn_again(state, "A1") and not drawn_again(state, "A2")


def test_redeal_refuses_a_history_that_names_a_card_not_there():
    match = new(full(["silver", "copper"]))
    flips(match, "A1", "A2")
    end_turn(match)
    broken = st(match)
    broken["grid"] = broken["grid"][1] + broken["grid"][0] + broken["grid"][2:]
    with pytest.raises(RedealFailed):
        GAME.redeal(broken, PUBLIC, random.Random(1))


def test_peeks_stay_private_with_places_named():
    match = new(full(["parrot", "silver", "copper"]))
    flip(match, "A1")
    flip(match, "C3", kind="peek")
    end_turn(match)
    assert all("C3" not in line for line in said(match))
    assert all(idx("C3") not in e.get("cells", ()) for e in pub(match)["log"])
    state = st(match)
    assert drawn_again(state, "C3")
    for viewer in (PUBLIC, 0, 1, 2):
        twin = GAME.redeal(state, viewer, random.Random(2))
        assert GAME.view(twin, viewer) == GAME.view(state, viewer)


def _watched_while_a_place_is_refilled(**options) -> tuple[Match, Bot]:
    """Seat 2's bot sees a miss at A1 / A2, then looks away while seat 1 takes A1 in a
    pair and the place is refilled."""
    match = new(full(["silver", "copper", "silver", "dud"]), **options)
    bot = Bot(GAME, 2, level("normal", iterations=4, seconds=None, depth=4), seed=1)
    flips(match, "A1", "A2")
    bot.watch(match.view(2))
    end_turn(match)
    flips(match, "A1", "A3", "A4")
    bot.watch(match.view(2))
    return match, bot


def test_a_bot_reads_places_from_the_history_as_the_redeal_does():
    match, bot = _watched_while_a_place_is_refilled()
    # The pair named A1: the bot forgets it though it never saw the place empty.
    assert bot.memory["seen"] == {idx("A2"): "copper"}
    truth = st(match)["grid"]
    knowledge = knowledge_of(match, 2)
    # Even a bot without a memory ("easy") plays worlds with the history's cards in place.
    for seed in range(5):
        assert knowledge.sample(random.Random(seed)).state["grid"][idx("A2")] == truth[1]
        world = knowledge.sample(random.Random(seed), bot.memory)
        assert GAME.view(world.state, 2) == match.view(2)["state"]
    # Without places, the bot remembers a silver at A1 that has gone: it was not told.
    _, unnamed = _watched_while_a_place_is_refilled(history_names_places=False)
    assert unnamed.memory["seen"] == {idx("A1"): "silver", idx("A2"): "copper"}


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
    assert summary["lines"][-1] == "Anne: a pair of Gold coins at A1 and A2 (+600)"


# -- every change of gold has its event --------------------------------------------------

def test_kraken_names_every_coin_it_discards():
    deal = ("gold gold copper copper silver silver silver silver copper copper "
            "kraken ruby")
    match = new(deal, names=["Anne", "Bo", "Cy"])
    flips(match, "A1", "A2", "A3", "A4", "B5")
    assert pub(match)["gold"][0] == 1300
    flips(match, "A5", "A6", "A7", "B1", "B2", "B3", "B4")
    assert pub(match)["gold"] == [1200, 900, 0]
    assert said(match)[-4:-1] == ["Bo: Kraken at B4, everyone discards their lowest coin",
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
