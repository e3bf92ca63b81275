"""MIT Mutiny's options, data file and deal; the setup roll, the roles and the islands
(the Scout's look and pick, the Captain's division).

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

import json

import pytest

from companion.engine import CHANCE, PUBLIC, Journal, Match
from companion.errors import ConfigError, OptionError
from companion.games.mit_mutiny import GAME
from companion.games.mit_mutiny import cards as data_module
from companion.games.mit_mutiny.cards import check_data, dealt, load_data
from tests.engine.contract import rejected
from tests.games.mit_mutiny_helpers import (
    CAPTAIN,
    FM,
    QM,
    SCOUT,
    TABLE,
    assign,
    enter,
    finish_quiet_round,
    island,
    new,
    st,
    total_cubes,
)

# -- options, data and the deal ----------------------------------------------------------

def test_options_default_to_the_rulings_and_refuse_odd_values():
    match = Match.create(GAME, 4, seed=1)
    assert match.options == {"dice": "companion", "islands": "deck", "ballot": "public",
                             "cup_draws": "companion", "card_window": "until_all_pass",
                             "crew_needs_rum": True, "stack": "", "buying_seconds": 0}
    for bad in ({"ballot": "shouted"}, {"crew_needs_rum": 1}, {"stack": "Cannon!"},
                {"colour": "red"}):
        with pytest.raises(OptionError):
            Match.create(GAME, 4, bad, seed=1)
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"stack": "kraken"}, seed=1)  # no such card in the data
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"stack": ",".join(["peg_leg"] * 2)}, seed=1)  # only one
    for seats in (3, 5):
        with pytest.raises(OptionError):
            Match.create(GAME, seats, seed=1)


def test_the_default_data_is_the_rulebooks_materials():
    data = load_data()
    assert len(data["islands"]) == 12
    counts = {c["id"]: c["count"] for c in data["cards"]}
    assert counts == {"cannon": 13, "buried_treasure": 3, "drunken_madness": 3,
                      "quick_reload": 2, "stow_away": 2, "peg_leg": 1, "press_gang": 1,
                      "perfect_storm": 1}
    assert sum(counts.values()) == 26


def test_the_deal_lays_twelve_islands_and_shuffles_26_cards_then_everyone_starts_equal():
    match = Match.create(GAME, 4, seed=3)
    state = st(match)
    assert sorted(s for s in state["spaces"] if s is not None) == list(range(12))
    assert len(state["deck"]) == 26 and state["islands_total"] == 12
    assert state["rum"] == [2] * 4 and state["red"] == [2] * 4 and state["green"] == [0] * 4
    assert state["rum_supply"] == 33 - 8 and state["green_supply"] == 10
    assert state["bank"] == [25] * 4
    # The setup roll (companion dice) has already made someone Captain.
    assert match.step() == "roles" and state["captain"] is not None
    roll = state["setup_rolls"][-1]
    assert sum(roll[state["captain"]]) == max(sum(r) for r in roll if r)
    decks = {tuple(st(Match.create(GAME, 4, seed=s))["deck"]) for s in range(5)}
    assert len(decks) == 5


def test_the_stack_option_puts_cards_on_top_of_the_deck():
    match = Match.create(GAME, 4, {"stack": "peg_leg, perfect_storm"}, seed=3)
    deck = st(match)["deck"]
    assert deck[:2] == ["peg_leg", "perfect_storm"] and len(deck) == 26
    assert deck.count("peg_leg") == 1


@pytest.mark.parametrize("text,message", [
    ('[[island]]\nname = "A"\ngold = -1\n', "'gold' must be a whole number from 0 to 6"),
    ('[[island]]\nname = "A"\ngold = true\n', "'gold' must be a whole number"),
    ('[[island]]\nname = "A"\n', "at least one loot cube"),
    ('[[island]]\nname = "A"\ngold = 1\nrum = 2\n', "unknown field 'rum'"),
    ('[[island]]\nname = "A"\ngold = 1\n[[island]]\nname = "A"\nsugar = 1\n',
     "'A' is used twice"),
    ('[[island]]\nname = "A"\ngold = 1\n[[card]]\nid = "x"\nname = "X"\ncount = 1\n'
     'effect = "teleport"\n', "'effect' must be one of"),
    ('[[island]]\nname = "A"\ngold = 1\n[[card]]\nid = "x"\nname = "X"\ncount = 1\n'
     'effect = "cannon"\nloot = 2\n', "unknown field 'loot'"),
    ('[[island]]\nname = "A"\ngold = 1\n', "needs at least one card"),
    ('[treasure]\n', "unknown section 'treasure'"),
    ('[[island]\n', "not valid TOML"),
])
def test_a_broken_data_file_is_refused_with_a_clear_message(tmp_path, text, message):
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_data(path)
    assert message in str(info.value)


def test_too_many_islands_are_refused():
    raw = {"island": [{"name": f"I{n}", "gold": 1} for n in range(13)],
           "card": [{"id": "c", "name": "C", "count": 1, "effect": "storm"}]}
    with pytest.raises(ConfigError, match="1 to 12"):
        check_data(raw)


def test_the_journal_alone_replays_a_match_even_after_the_data_file_changes(
        tmp_path, monkeypatch):
    with Journal(":memory:") as journal:
        match = Match.create(GAME, 4, seed=9, journal=journal)
        deal = journal.entries(match.id)[0]
        assert deal.actor == CHANCE and deal.action["type"] == "deal"
        assert len(deal.action["islands"]) == 12 and len(deal.action["deck"]) == 26
        assert all("loot" in i and "name" in i for i in deal.action["islands"])
        broken = tmp_path / "broken.toml"
        broken.write_text("[[island]]\n")
        monkeypatch.setattr(data_module, "DATA_FILE", broken)
        with pytest.raises(ConfigError):
            Match.create(GAME, 4, seed=9)  # a new deal reads the file ...
        again = journal.load(match.id, lambda _id: GAME)  # ... a replay does not
        assert again.snapshot() == match.snapshot()


# -- setup, roles, islands ----------------------------------------------------------------

def test_the_highest_setup_roll_is_the_first_captain_and_ties_roll_again():
    match = Match.create(GAME, 4, TABLE, seed=1)
    assert match.acting() == [0, 1, 2, 3]
    enter(match, {0: [6, 5], 1: [5, 6], 2: [1, 1], 3: [2, 2]})
    assert match.step() == "setup" and match.acting() == [0, 1]  # only the tied
    enter(match, {0: [2, 2], 1: [3, 1]})
    assert match.step() == "setup"
    enter(match, {0: [1, 1], 1: [4, 1]})
    state = st(match)
    assert state["captain"] == 1 and state["roles"][1] == CAPTAIN
    assert state["setup_rolls"] == [[[6, 5], [5, 6], [1, 1], [2, 2]],
                                    [[2, 2], [3, 1], None, None],
                                    [[1, 1], [4, 1], None, None]]


def test_the_captain_assigns_first_mate_then_quarter_master_and_the_scout_is_left():
    match = new(captain=2)
    assert match.acting() == [2]
    assert match.legal_actions(2) == [{"type": "assign", "role": FM, "seat": s}
                                      for s in (0, 1, 3)]
    assert rejected(match, 2, {"type": "assign", "role": CAPTAIN, "seat": 0}) == "bad_value"
    match.apply(2, {"type": "assign", "role": FM, "seat": 3})
    assert match.legal_actions(2) == [{"type": "assign", "role": QM, "seat": s}
                                      for s in (0, 1)]
    match.apply(2, {"type": "assign", "role": QM, "seat": 0})
    assert st(match)["roles"] == [QM, SCOUT, CAPTAIN, FM]
    assert match.view(PUBLIC)["state"]["roles"] == [QM, SCOUT, CAPTAIN, FM]


def test_the_scout_looks_at_two_face_down_islands_privately_and_picks_one():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)
    assert match.step() == "look" and match.acting() == [3]
    assert len(match.legal_actions(3)) == 12
    match.apply(3, {"type": "look", "space": 4})
    match.apply(3, {"type": "look", "space": 9})
    state = st(match)
    islands = dealt(state)["islands"]
    seen = match.view(3)["state"]["me"]["islands_seen"]
    assert [(s["space"], s["name"]) for s in seen] == [
        (4, islands[state["spaces"][4]]["name"]), (9, islands[state["spaces"][9]]["name"])]
    public = match.view(PUBLIC)["state"]
    assert public["map"]["looked"] == [4, 9] and public["map"]["seen"][3] == [4, 9]
    for viewer in (PUBLIC, 0, 1, 2):  # nobody else learns what is on them
        text = json.dumps(match.view(viewer)["state"])
        assert islands[state["spaces"][4]]["name"] not in text
        assert islands[state["spaces"][9]]["name"] not in text
    assert match.legal_actions(3) == [{"type": "choose", "space": 4},
                                      {"type": "choose", "space": 9}]
    chosen = islands[state["spaces"][9]]
    match.apply(3, {"type": "choose", "space": 9})
    state = st(match)
    assert state["island"]["name"] == chosen["name"]
    assert state["bank"] == [25 - n for n in chosen["loot"]]
    assert state["spaces"][9] is None and state["seen"][3] == [4]
    # The Scout still remembers island 4 (it stays face down).
    assert [s["space"] for s in match.view(3)["state"]["me"]["islands_seen"]] == [4]


def test_the_scout_takes_one_cube_and_the_captain_divides_the_rest_any_way():
    match = new()
    assign(match, 1, 2)
    island(match, (2, 1, 0, 3))
    assert match.legal_actions(3) == [{"type": "take", "kind": k}
                                      for k in ("sugar", "orange", "plantain")]
    match.apply(3, {"type": "take", "kind": "plantain"})
    state = st(match)
    assert state["loot"][3] == [0, 0, 0, 1] and state["on_island"] == [2, 1, 0, 2]
    assert match.step() == "divide" and match.acting() == [0]
    legal = match.legal_actions(0)
    assert {"type": "give", "kind": "sugar", "seat": 2} in legal
    assert {"type": "give_rest", "seat": 1} in legal and len(legal) == 8
    match.apply(0, {"type": "give", "kind": "sugar", "seat": 2})
    match.apply(0, {"type": "give", "kind": "sugar", "seat": 0})
    match.apply(0, {"type": "give_rest", "seat": 1})
    assert st(match)["shares"] == [[1, 0, 0, 0], [0, 1, 0, 2], [1, 0, 0, 0], [0, 0, 0, 0]]
    assert match.view(PUBLIC)["state"]["shares"][1] == [0, 1, 0, 2]
    assert match.step() == "rally"
    assert total_cubes(st(match)) == [25] * 4


def test_a_one_kind_island_gives_the_scout_his_cube_without_asking():
    match = new()
    assign(match, 1, 2)
    island(match, (0, 0, 3, 0))
    assert st(match)["loot"][3] == [0, 0, 1, 0] and match.step() == "divide"


def test_when_two_islands_are_left_the_scout_sees_both_and_the_last_is_forced():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    for _ in range(10):
        assign(match, 1, 2)
        first, second = match.legal_actions(3)[:2]
        match.apply(3, first)
        match.apply(3, second)
        match.apply(3, {"type": "choose", "space": first["space"]})
        finish_quiet_round(match)
    assign(match, 1, 2)
    assert match.step() == "choose" and len(st(match)["looked"]) == 2
    assert len(match.view(3)["state"]["me"]["islands_seen"]) == 2
    match.apply(3, match.legal_actions(3)[0])
    finish_quiet_round(match)
    assign(match, 1, 2)  # the last island turns up by itself
    assert st(match)["island"] is not None and match.step() not in ("look", "choose")
    finish_quiet_round(match)
    assert match.is_over and st(match)["islands_done"] == 12
    names = st(match)["won"][0]
    assert sorted(names) == sorted(i["name"] for i in dealt(st(match))["islands"])


def test_physical_islands_take_the_scouts_entry_capped_by_the_bank():
    match = new()
    assign(match, 1, 2)
    assert match.legal_actions(3) == [{"type": "count", "kind": "sugar", "n": n}
                                      for n in range(7)]
    island(match, (0, 0, 6, 0))
    assert st(match)["island"] == {"name": "Island 1", "loot": [0, 0, 6, 0]}
    assert st(match)["bank"] == [25, 25, 19, 25]
