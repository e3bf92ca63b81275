"""Card Mutiny: the rulebook's rules, rulings F1-F6 and both modes (what the table
remembers and tells, the re-deal and the screens: test_card_mutiny_memory.py).

Most tests stack the deal (option ``stacked_deal``): the cards fill the grid row by row
from A1, the rest is the stack, top first. A short stacked deal plays a short game with
only those cards, so a test can play one to its end.
"""
from __future__ import annotations

import json

import pytest

from companion.engine import CHANCE, PUBLIC, Match
from companion.engine.display import menu
from companion.errors import OptionError
from companion.games import get
from companion.games.card_mutiny import CATALOGUE, DECK_SIZE, GAME, KINDS, deck_counts, full_deck
from tests.engine.contract import rejected
from tests.games.card_mutiny_helpers import (
    DEFAULTS,
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
    step,
    turn,
)

# -- the catalogue and the deal --------------------------------------------------------

def test_registered_under_its_id():
    assert get("card-mutiny") is GAME
    assert GAME.has_secrets


def test_the_catalogue_has_the_rulebooks_120_cards():
    counts = deck_counts(DEFAULTS)
    assert DECK_SIZE == 120 == sum(counts.values()) == len(full_deck(DEFAULTS))
    assert counts["gold"] == 16 and counts["silver"] == 36 and counts["copper"] == 36
    assert counts["map"] == 9 and counts["mutiny"] == 4
    gems = [c for c in CATALOGUE if c.category == "gem"]
    assert {c.kind: c.value for c in gems} == {
        "diamond": 600, "ruby": 500, "sapphire": 400, "emerald": 300, "pearl": 200}
    assert all(c.count == 1 for c in gems)
    assert counts["rock"] + counts["dud"] == 8 and counts["rock"] == 2       # F3
    events = [c.kind for c in CATALOGUE if c.category == "event"]
    assert events == ["storm", "parrot", "kraken", "shore_leave", "plank", "spyglass"]
    assert all(KINDS[e].count == 1 for e in events)                          # F5
    assert (KINDS["gold"].value, KINDS["silver"].value, KINDS["copper"].value) == (
        300, 200, 100)


def test_rocks_option_moves_duds_between_rocks_and_other_duds():
    counts = deck_counts({**DEFAULTS, "rocks": 0})
    assert counts["rock"] == 0 and counts["dud"] == 8
    assert len(full_deck({**DEFAULTS, "rocks": 5})) == 120


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_deal_fills_a_face_down_7x7_grid_and_a_stack_of_71(seats):
    match = Match.create(GAME, seats, seed=seats)
    s = st(match)
    assert len(s["grid"]) == 49 and len(s["stack"]) == 71
    assert sorted(s["grid"] + s["stack"]) == sorted(
        KINDS[k].code for k in full_deck(DEFAULTS))
    for viewer in [PUBLIC, *range(seats)]:
        view = match.view(viewer)["state"]
        assert view["grid"] == [["down"] * 7 for _ in range(7)]
        assert view["stack"] == 71 and view["face_down"] == 49
    assert match.acting() == [s["turn"]] and match.step() == "flip"


def test_the_first_player_is_drawn_at_random_unless_chosen():
    firsts = {turn(Match.create(GAME, 4, seed=seed)) for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert turn(new("gold*2", seats=4, first=3)) == 2


def test_the_deal_is_a_chance_action_and_shuffled():
    a, b = Match.create(GAME, 3, seed=1), Match.create(GAME, 3, seed=2)
    assert st(a)["grid"] != st(b)["grid"]


@pytest.mark.parametrize("deal", ["gold*17", "emerald emerald", "kraken*2", "treasure",
                                  "gold*x", "gold*0"])
def test_a_stacked_deal_is_checked_against_the_catalogue(deal):
    with pytest.raises(OptionError):
        new(deal)


def test_first_seat_must_exist():
    with pytest.raises(OptionError):
        new("gold*2", seats=3, first=4)


def test_rocks_option_limits_rocks_in_a_stacked_deal():
    with pytest.raises(OptionError):
        new("rock", rocks=0)
    assert st(new("dud*8", rocks=0))["grid"].startswith("U" * 8)


# -- flipping, matching and chaining ---------------------------------------------------

def test_a_long_chain_keeps_the_turn_and_fills_the_chest():
    match = new("gold gold silver silver copper copper gold gold ruby map map map")
    flips(match, "A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1")
    assert turn(match) == 0 and step(match) == "flip"
    assert pub(match)["chests"][0] == {"gold": 4, "silver": 2, "copper": 2}
    assert pub(match)["gold"] == [1800, 0, 0]
    # The matched cards are gone from the grid (their places wait for the refill).
    assert cell(match, "A1")["state"] == "taken" and cell(match, "B2") == "down"
    flip(match, "B2")   # a gem ends the chain and the turn, and goes to the chest
    assert pub(match)["gold"] == [2300, 0, 0] and turn(match) == 1


def test_a_broken_chain_keeps_the_pairs_and_shows_the_misses_until_the_turn_ends():
    match = new("gold gold silver copper copper silver")
    flips(match, "A1", "A2", "A3", "A4")
    assert step(match) == "look" and match.acting() == [0]
    for viewer in [PUBLIC, 0, 1, 2]:
        assert cell(match, "A3", viewer)["kind"] == "silver"
        assert cell(match, "A4", viewer)["state"] == "open"
    assert match.legal_actions(0) == [{"type": "end_turn"}]
    end_turn(match)
    assert pub(match)["chests"][0] == {"gold": 2}
    assert turn(match) == 1 and step(match) == "flip"
    for viewer in [PUBLIC, 0, 1, 2]:
        assert cell(match, "A3", viewer) == "down" and cell(match, "A4", viewer) == "down"
        assert cell(match, "A1", viewer) is None     # short deal: nothing to refill


def test_the_active_seat_is_asked_to_end_the_turn_after_a_miss():
    match = new("gold silver gold silver")
    flips(match, "A1", "A2")
    screen = match.display(0)
    assert screen.lines[1] == "Look, then end turn" and screen.led == "on"
    assert [c.label for c in screen.choices] == ["End turn"]
    assert match.display(1).led == "off" and match.display(1).title == "Seat 1's turn"
    assert [o["cell"] for o in pub(match)["open"]] == ["A1", "A2"]


def test_the_phone_reads_the_stack_in_words_and_the_oled_fits_it():
    match = new(full())
    shown = match.display(0)
    stack, down = pub(match)["stack"], pub(match)["face_down"]
    assert shown.lines[2] == f"{stack} cards in the stack, {down} face down"
    # 21 columns: "Stack 71, 49 face down" is 22, so the OLED has the shorter form.
    assert shown.short_lines[2] == f"Stack {stack}, {down} down"
    assert shown.lines[0] == shown.short_lines[0] == "You: 0 gold, Captain"  # it fits


def test_a_coin_then_a_map_is_no_match():
    match = new("gold map gold map map")
    flips(match, "A1", "A2")
    assert step(match) == "look"
    end_turn(match)
    assert pub(match)["chests"][0] == {} and pub(match)["face_down"] == 5


def test_a_gem_as_the_second_card_is_collected_and_the_coin_turns_back():
    match = new("gold pearl gold")
    flips(match, "A1", "A2")
    assert pub(match)["chests"][0] == {"pearl": 1}
    assert step(match) == "look"   # the gold coin is still up
    end_turn(match)
    assert cell(match, "A1") == "down" and turn(match) == 1


def test_a_face_up_card_cannot_be_flipped_and_only_the_active_player_flips():
    match = new("gold silver gold silver")
    flip(match, "A1")
    assert rejected(match, 0, {"type": "flip", "cell": idx("A1")}) == "bad_value"
    assert rejected(match, 1, {"type": "flip", "cell": idx("A2")}) == "not_your_turn"
    # A chance move sent by a seat is no move of the game's seats at all.
    assert rejected(match, 0, {"type": "deal", "first": 0}) == "unknown_action"


# -- Treasure Maps ---------------------------------------------------------------------

def test_three_maps_in_a_row_make_a_set_that_ends_the_turn_and_counts_at_the_end():
    match = new("map map map gold gold")
    flips(match, "A1", "A2")
    assert step(match) == "flip"
    flip(match, "A3")
    assert pub(match)["map_sets"] == [1, 0, 0]
    assert turn(match) == 1                  # maps cannot be chained
    # Maps are not gold: nobody is richer, everyone is still a Captain.
    assert pub(match)["gold"] == [0, 0, 0] and pub(match)["captains"] == [0, 1, 2]
    flips(match, "A4", "A5")
    assert match.is_over
    result = match.result()
    assert result.scores == [1000, 600, 0] and result.winners == [0]


def test_maps_after_a_pair_can_make_a_set():
    match = new("gold gold map map map")
    flips(match, "A1", "A2", "A3", "A4", "A5")
    assert pub(match)["map_sets"] == [1, 0, 0] and match.is_over


def test_a_map_run_broken_by_a_coin_turns_back_face_down():
    match = new("map map gold map gold")
    flips(match, "A1", "A2", "A3")
    assert step(match) == "look"
    end_turn(match)
    assert pub(match)["map_sets"] == [0, 0, 0]
    assert [cell(match, c) for c in ("A1", "A2", "A3")] == ["down"] * 3


def test_map_set_value_option():
    match = new("map map map", map_set_value=250)
    flips(match, "A1", "A2", "A3")
    assert match.result().scores == [250, 0, 0]


# -- duds and Rocks --------------------------------------------------------------------

def test_a_rock_stays_face_up_in_the_grid_for_the_rest_of_the_game():
    match = new(full(["rock", "gold", "gold", "silver", "copper"], ["diamond", "ruby"]))
    flip(match, "A1")
    assert turn(match) == 1                 # a dud ends the turn at once
    assert cell(match, "A1")["state"] == "rock"
    assert {"type": "flip", "cell": 0} not in match.legal_actions(1)
    flips(match, "A2", "A3", "A4", "A5")   # a pair, then a miss
    end_turn(match)
    # The pair's places are refilled from the stack's top, in grid order; the Rock stays.
    assert st(match)["grid"][:3] == "KDR" and cell(match, "A1")["kind"] == "rock"
    assert pub(match)["stack"] == 69 and pub(match)["rocks_up"] == 1


def test_a_dud_is_discarded_and_ends_the_turn():
    match = new("dud gold gold")
    flip(match, "A1")
    assert pub(match)["discard"] == {"dud": 1} and turn(match) == 1


# -- the Captain and Mutiny (F4) -------------------------------------------------------

def test_the_captain_is_the_richest_player_and_ties_make_several():
    match = new("gold gold copper copper silver silver mutiny")
    assert pub(match)["captains"] == [0, 1, 2]
    flips(match, "A1", "A2", "A3", "A5")
    end_turn(match)
    assert pub(match)["captains"] == [0]


def test_a_mutiny_revealed_by_the_captain_is_ignored():
    match = new("mutiny gold gold")
    flip(match, "A1")          # everyone has 0 gold: all are tied Captains
    assert pub(match)["discard"] == {"mutiny": 1}
    assert "ignored" in said(match)[-1] and turn(match) == 1


def test_a_mutiny_lets_each_non_captain_from_the_revealer_take_the_best_card():
    deal = "gold gold ruby copper copper mutiny silver silver"
    match = new(deal, seats=4)
    flips(match, "A1", "A2", "A3")          # seat 0: gold pair, then the Ruby: 1100
    flips(match, "A4", "A5", "A6")          # seat 1: copper pair, then Mutiny
    chests = pub(match)["chests"]
    assert chests[1] == {"copper": 2, "ruby": 1}
    assert chests[2] == {"gold": 1} and chests[3] == {"gold": 1} and chests[0] == {}
    assert pub(match)["captains"] == [1]


def test_tied_captains_the_revealer_picks_the_target_and_the_other_captain_sits_out():
    deal = "gold gold gold gold mutiny copper copper silver silver silver silver"
    match = new(deal, seats=4)
    flips(match, "A1", "A2", "B4", "A6")    # seat 0: gold pair (600), then a miss
    end_turn(match)
    flips(match, "A3", "A4", "B4", "A6")    # seat 1: gold pair (600), then a miss
    end_turn(match)
    flip(match, "A5")                       # seat 2 reveals the Mutiny
    assert step(match) == "target"
    assert match.legal_actions(2) == [{"type": "target", "seat": 0},
                                      {"type": "target", "seat": 1}]
    match.apply(2, {"type": "target", "seat": 1})
    chests = pub(match)["chests"]
    assert chests[0] == {"gold": 2}                     # the other Captain: untouched
    assert chests[1] == {} and chests[2] == {"gold": 1} and chests[3] == {"gold": 1}
    assert turn(match) == 3


def test_a_mutiny_on_a_nearly_empty_chest_leaves_the_last_takers_nothing():
    match = new("pearl mutiny gold gold", seats=4)
    flips(match, "A1", "A2")
    assert pub(match)["chests"] == [{}, {"pearl": 1}, {}, {}]
    assert said(match)[-2:] == ["Seat 2 turns up a Mutiny at A2 and leads it on Seat 1",
                                "Mutiny: Seat 2 takes Seat 1's Pearl (200 gold)"]


def test_mutiny_option_revealer_only_the_revealer_takes():
    match = new("gold gold ruby copper copper mutiny", seats=4, mutiny="revealer")
    flips(match, "A1", "A2", "A3", "A4", "A5", "A6")
    chests = pub(match)["chests"]
    assert chests[1] == {"copper": 2, "ruby": 1} and chests[0] == {"gold": 2}


def test_a_mutiny_takes_the_gem_before_a_coin_of_the_same_value():
    match = new("gold gold emerald mutiny", seats=2)
    flips(match, "A1", "A2", "A3", "A4")
    assert pub(match)["chests"] == [{"gold": 2}, {"emerald": 1}]


# -- coin scoring (F1) -----------------------------------------------------------------

def test_coins_score_per_card_by_default_and_per_pair_as_an_option():
    match = new("gold gold silver silver")
    flips(match, "A1", "A2", "A3", "A4")
    assert match.result().scores == [1000, 0, 0]
    match = new("gold gold silver silver pearl", coin_score="per_pair")
    flips(match, "A1", "A2", "A3", "A4", "A5")
    assert match.result().scores == [700, 0, 0]


# -- events (F5) -----------------------------------------------------------------------

def test_storm_reshuffles_the_face_down_cards_of_the_row_the_revealer_picks():
    deal = full(["storm"])
    match = new(deal)
    before = st(match)["grid"]
    flip(match, "A1")
    assert step(match) == "storm"
    rows = match.legal_actions(0)
    assert rows[0] == {"type": "storm_row", "row": 0} and len(rows) == 7
    match.apply(0, {"type": "storm_row", "row": 1})
    after = st(match)["grid"]
    assert sorted(after[7:14]) == sorted(before[7:14])
    assert after[1:7] == before[1:7] and after[14:] == before[14:]
    assert turn(match) == 1 and pub(match)["discard"] == {"storm": 1}
    assert "Storm on row B" in " ".join(said(match))


def test_storm_moves_the_cards_with_a_chance_action_only_the_journal_knows():
    match = new(full(["storm", "gold", "silver", "copper", "map", "dud", "pearl"]))
    flip(match, "A1")
    entries = match.apply(0, {"type": "storm_row", "row": 0})
    assert [e.actor for e in entries] == [0, CHANCE]
    assert entries[1].action["type"] == "storm_shuffle"
    assert sorted(entries[1].action["order"]) == list(range(6))


def test_parrot_shows_one_card_to_the_peeker_only_until_the_turn_ends():
    match = new("parrot gold silver copper gold silver copper")
    flip(match, "A1")
    assert step(match) == "peek"
    flip(match, "A3", kind="peek")
    me = match.view(0)["state"]["me"]
    assert me["peeks"] == [{"cell": "A3", "index": 2,
                            "card": {"kind": "silver", "name": "Silver coin",
                                     "category": "coin", "value": 200}}]
    assert "A3: Silver coin" in match.display(0).screen_private
    for viewer in (PUBLIC, 1, 2):
        view = match.view(viewer)
        assert "silver" not in json.dumps(view["state"]["grid"])
        assert view["state"].get("me", {}).get("peeks", []) == []
        assert view["state"]["peeking"]["cells"] == ["A3"]   # where, not what
    assert cell(match, "A3", 0) == "down"
    end_turn(match)
    assert match.view(0)["state"]["me"]["peeks"] == [] and turn(match) == 1


def test_spyglass_peeks_at_three_cards():
    match = new("spyglass gold silver copper map gold")
    flip(match, "A1")
    for name in ("A2", "A4", "A5"):
        flip(match, name, kind="peek")
    assert step(match) == "look"
    kinds = [p["card"]["kind"] for p in match.view(0)["state"]["me"]["peeks"]]
    assert kinds == ["gold", "copper", "map"]
    end_turn(match)
    assert turn(match) == 1


def test_kraken_makes_everyone_discard_their_lowest_coin():
    deal = ("gold gold copper copper silver silver silver silver copper copper "
            "kraken ruby")
    match = new(deal)
    flips(match, "A1", "A2", "A3", "A4", "B5")   # seat 0: gold + copper pairs, Ruby
    flips(match, "A5", "A6", "A7", "B1", "B2", "B3", "B4")  # seat 1: 3 pairs, Kraken
    chests = pub(match)["chests"]
    assert chests[0] == {"gold": 2, "copper": 1, "ruby": 1}
    assert chests[1] == {"silver": 4, "copper": 1} and chests[2] == {}
    assert pub(match)["discard"] == {"copper": 2, "kraken": 1}


def test_plank_makes_the_revealer_discard_their_lowest_coin():
    match = new("gold gold copper copper plank pearl")
    flips(match, "A1", "A2", "A3", "A4", "A5")
    assert pub(match)["chests"][0] == {"gold": 2, "copper": 1}
    assert turn(match) == 1


def test_shore_leave_gives_another_turn():
    match = new("shore_leave gold gold silver copper silver copper")
    flip(match, "A1")
    assert turn(match) == 0 and step(match) == "flip"
    flips(match, "A2", "A3", "A4", "A5")
    assert step(match) == "look"
    end_turn(match)
    assert turn(match) == 1


def test_events_option_off_makes_event_cards_blank():
    match = new("shore_leave kraken gold gold", events=False)
    flip(match, "A1")
    assert turn(match) == 1 and pub(match)["discard"] == {"shore_leave": 1}


# -- the refill and the end ------------------------------------------------------------

def test_the_grid_is_refilled_from_the_stack_at_the_end_of_each_turn():
    match = new(full(["gold", "gold", "silver", "copper"], ["pearl", "ruby", "map"]))
    flips(match, "A1", "A2")
    assert pub(match)["stack"] == 71 and cell(match, "A1")["state"] == "taken"
    flips(match, "A3", "A4")
    end_turn(match)
    assert st(match)["grid"][:2] == "PR" and pub(match)["stack"] == 69
    assert cell(match, "A1") == "down" and pub(match)["face_down"] == 49


def test_the_game_ends_when_the_stack_is_empty_and_every_card_is_flipped():
    match = new("gold silver gold silver ruby map map map")
    flips(match, "A1", "A2")
    end_turn(match)
    flips(match, "A1", "A3", "A2", "A4", "A5")
    assert not match.is_over
    flips(match, "A6", "A7", "B1")
    assert match.is_over and match.acting() == []
    result = match.result()
    assert result.scores == [0, 600 + 400 + 500, 1000] and result.winners == [1]
    assert pub(match)["phase"] == "over"


def test_end_of_game_scoring_adds_map_sets_to_gold_and_shares_ties():
    match = new("gold gold map map map silver silver silver silver", seats=2)
    flips(match, "A1", "A2", "A3", "A4", "A5")      # seat 0: 600 + a map set
    flips(match, "A6", "A7", "B1", "B2")            # seat 1: 800
    result = match.result()
    assert result.scores == [1600, 800] and result.winners == [0]
    assert result.details == {"gold": [600, 800], "map_sets": [1, 0]}
    match = new("gold gold gold gold", seats=2)
    flips(match, "A1", "A2", "A3", "A4")
    assert match.result().winners == [0]
    match = new("gold gold silver silver copper copper pearl", seats=2)
    flips(match, "A1", "A2", "A3", "A4", "A5", "A6", "A7")
    assert match.result().scores == [1400, 0]


def test_cards_that_can_never_be_taken_end_a_short_game():
    match = new("gold silver map map")
    assert match.is_over and match.result().winners == [0, 1, 2]
    assert [c["state"] for c in pub(match)["grid"][0][:4]] == ["left"] * 4


def test_the_captain_follows_the_gold_throughout():
    match = new("copper copper gold gold pearl silver silver")
    flips(match, "A1", "A2", "A5")          # seat 0: 200 + Pearl 200
    assert pub(match)["captains"] == [0]
    flips(match, "A3", "A4", "A6", "A7")    # seat 1: 600 + 400
    assert pub(match)["captains"] == [1]


# -- cards mode: real cards entered ----------------------------------------------------

def test_cards_mode_counts_the_real_cards_and_keeps_the_chests():
    match = new(mode="cards")
    s = st(match)
    assert s["grid"] is None and s["grid_down"] == 49 and s["stack"] == 71
    assert pub(match)["grid"] is None
    enter(match, "gold", "gold", "ruby")
    assert pub(match)["chests"][0] == {"gold": 2, "ruby": 1}
    assert turn(match) == 1 and pub(match)["stack"] == 68
    assert pub(match)["face_down"] == 49 and "Refill 3" in " ".join(said(match))


def test_cards_mode_offers_only_cards_still_face_down_gems_and_events_one_menu_down():
    match = new("gold*2 silver*2 kraken", mode="cards")
    assert match.legal_actions(0) == [
        {"type": "reveal", "kind": "gold"}, {"type": "reveal", "kind": "silver"},
        {"type": "reveal", "kind": "kraken"},
        *({"type": "accident", "cards": n} for n in (2, 3, 4, 5))]
    choices = match.display(0).choices
    assert [item.label for item in menu(choices)] == [
        "Turned up: Gold coin (300)", "Turned up: Silver coin (200)", "Event", "Accident"]
    assert [item.label for item in menu(choices, ("Event",))] == ["Turned up: Kraken"]
    assert [choices[item.index].short for item in menu(choices, ("Accident",))] == [
        "2 by accident", "3 by accident", "4 by accident", "5 by accident"]


def test_cards_mode_a_miss_goes_back_into_the_face_down_count():
    match = new("gold*2 silver*2", mode="cards")
    enter(match, "gold", "silver")
    assert turn(match) == 1 and st(match)["hidden"] == {"gold": 2, "silver": 2}
    enter(match, "silver", "silver", "gold", "gold")
    assert match.is_over and match.result().scores == [0, 1000, 0]


def test_cards_mode_an_accident_is_replaced_from_the_stack_and_shuffled_in():
    match = new(mode="cards")
    match.apply(0, {"type": "accident", "cards": 3})
    assert pub(match)["stack"] == 71 and pub(match)["face_down"] == 49
    assert turn(match) == 0 and "accident" in said(match)[-1]
    assert not [a for a in match.legal_actions(0) if a["type"] == "accident"]
    # With the stack too small, the grid waits for the refill at the turn's end.
    match = new("gold*4 silver*2", mode="cards")
    assert pub(match)["stack"] == 0
    match.apply(0, {"type": "accident", "cards": 2})
    assert pub(match)["face_down"] == 4 and pub(match)["stack"] == 2


def test_cards_mode_a_rock_keeps_its_place_and_is_not_refilled():
    match = new(mode="cards")
    enter(match, "rock")
    view = pub(match)
    assert view["rocks_up"] == 1 and view["face_down"] == 48 and view["stack"] == 71
    enter(match, "dud")
    assert pub(match)["face_down"] == 48 and pub(match)["stack"] == 70


def test_cards_mode_peeks_and_storms_happen_at_the_table():
    match = new("storm parrot gold gold", mode="cards")
    enter(match, "storm")
    assert turn(match) == 1 and "Storm" in said(match)[-1]
    enter(match, "parrot")
    assert turn(match) == 2 and "peek" in said(match)[-1]


def test_cards_mode_mutiny_and_map_sets():
    match = new("gold*2 copper*2 mutiny map*3", seats=3, mode="cards")
    enter(match, "gold", "gold", "map", "map", "map")
    assert pub(match)["map_sets"][0] == 1 and turn(match) == 1
    enter(match, "copper", "copper", "mutiny")
    # Seat 0 (600) is the Captain: seat 1, then seat 2, each take a gold coin.
    assert pub(match)["chests"] == [{}, {"gold": 1, "copper": 2}, {"gold": 1}]
    assert match.is_over


# -- F6: a Captain's own Mutiny --------------------------------------------------------

TIED = "gold gold gold gold mutiny copper copper silver silver silver silver"


def two_tied_captains(**options) -> Match:
    """Seats 0 and 1 each hold a gold pair (600); seat 0 is about to flip the Mutiny."""
    match = new(TIED, **options)
    for _ in range(2):
        flips(match, "A1" if turn(match) == 0 else "A3", "A2" if turn(match) == 0 else "A4")
        flips(match, "B4", "A6")
        end_turn(match)
    flips(match, "B4", "A6")
    end_turn(match)
    assert turn(match) == 0 and pub(match)["captains"] == [0, 1]
    return match


def test_a_tied_captains_mutiny_is_ignored_by_default():
    match = two_tied_captains()
    flip(match, "A5")
    assert pub(match)["chests"] == [{"gold": 2}, {"gold": 2}, {}]
    assert "ignored" in said(match)[-1] and turn(match) == 1


def test_captain_mutiny_tied_pick_turns_it_on_the_other_captain():
    match = two_tied_captains(captain_mutiny="tied_pick")
    flip(match, "A5")
    # The revealer leads, then every player who is not a Captain, clockwise.
    assert pub(match)["chests"] == [{"gold": 3}, {}, {"gold": 1}]
    assert said(match)[-3] == "Seat 1 turns up a Mutiny at A5 and leads it on Seat 2"


def test_captain_mutiny_tied_pick_with_several_others_asks_which():
    match = new("mutiny gold gold", captain_mutiny="tied_pick")
    flip(match, "A1")
    assert match.step() == "target"
    assert match.legal_actions(0) == [{"type": "target", "seat": 1},
                                      {"type": "target", "seat": 2}]
    match.apply(0, {"type": "target", "seat": 2})
    assert said(match)[-1].endswith("the chest is empty, nothing to take")
    assert turn(match) == 1
