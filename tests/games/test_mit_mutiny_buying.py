"""MIT Mutiny's buying: the mats' prices, trades, crew and its rum, and what runs out
(green crew, rum, the bank's cubes, the mystery deck, the islands).

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

from companion.engine import PUBLIC, Match
from companion.games.mit_mutiny import GAME
from companion.games.mit_mutiny import cards as data_module
from companion.games.mit_mutiny.cards import KINDS
from tests.games.mit_mutiny_helpers import (
    M,
    assign,
    decide,
    divide,
    done_buying,
    enter,
    finish_quiet_round,
    new,
    no_peek,
    ones,
    quiet_round,
    st,
    to_decisions,
    total_cubes,
)

# -- buying and its limits --------------------------------------------------------------------

def test_prices_are_the_mats_and_each_purchase_pays_the_bank():
    match = new()
    quiet_round(match, loot=(3, 3, 3, 3), take="sugar", shares={0: [2, 3, 3, 3]})
    legal = match.legal_actions(0)
    assert [a for a in legal if a["type"] != "trade"] == [
        {"type": "buy", "item": "rum"}, {"type": "buy", "item": "card"}, {"type": "done"}]
    assert {"type": "trade", "pay": ["sugar", "orange", "gold"], "get": "plantain"} in legal
    match.apply(0, {"type": "buy", "item": "rum"})  # 1 Sugar + 1 Orange
    assert st(match)["loot"][0] == [1, 2, 3, 3] and st(match)["rum"][0] == 3
    match.apply(0, {"type": "buy", "item": "crew"})  # 1 Orange + 2 Gold + 1 Plantain
    assert st(match)["loot"][0] == [1, 1, 1, 2] and st(match)["green"][0] == 1
    match.apply(0, {"type": "buy", "item": "card"})  # 1 Sugar + 1 Gold + 1 Plantain
    state = st(match)
    assert state["loot"][0] == [0, 1, 0, 1] and len(state["hands"][0]) == 1
    assert all(a["type"] != "trade" for a in match.legal_actions(0))  # two cubes left
    assert state["bank"] == [24, 24, 25, 24] and total_cubes(state) == [25] * 4
    assert state["rum_supply"] == 24 and state["green_supply"] == 9
    assert match.view(PUBLIC)["state"]["supply"] == {"rum": 24, "green": 9, "deck": 25,
                                                     "bank": [24, 24, 25, 24]}


def test_a_trade_pays_any_three_cubes_then_takes_one_from_the_bank():
    match = new()
    quiet_round(match, loot=(3, 0, 2, 0), take="sugar", shares={0: [2, 0, 2, 0]})
    trades = [a for a in match.legal_actions(0) if a["type"] == "trade"]
    # Any three of S2 G2, for any kind the bank holds once they are paid.
    assert [t["pay"] for t in trades[::4]] == [["sugar", "sugar", "gold"],
                                              ["sugar", "gold", "gold"]]
    assert len(trades) == 8
    match.apply(0, {"type": "trade", "pay": ["sugar", "gold", "gold"], "get": "orange"})
    state = st(match)
    assert state["loot"][0] == [1, 1, 0, 0] and match.step() == "buy"
    assert total_cubes(state) == [25] * 4


def test_a_trade_with_one_kind_of_cube_can_pay_only_that_kind():
    match = new()
    quiet_round(match, loot=(0, 0, 5, 0), shares={0: [0, 0, 4, 0]})  # the Scout: a gold
    trades = [a for a in match.legal_actions(0) if a["type"] == "trade"]
    assert {tuple(t["pay"]) for t in trades} == {("gold", "gold", "gold")}
    match.apply(0, {"type": "trade", "pay": ["gold"] * 3, "get": "sugar"})
    assert match.step() == "buy" and st(match)["loot"][0] == [1, 0, 1, 0]


def test_hiring_crew_needs_more_rum_than_crew_dice():
    match = new()
    quiet_round(match, loot=(3, 4, 5, 3), take="plantain", shares={0: [3, 4, 5, 2]})
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)  # 2 Rum, 2 crew
    match.apply(0, {"type": "buy", "item": "rum"})
    assert {"type": "buy", "item": "crew"} in match.legal_actions(0)  # 3 Rum > 2 crew
    match.apply(0, {"type": "buy", "item": "crew"})
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)  # 3 = 3
    match.apply(0, {"type": "buy", "item": "rum"})
    match.apply(0, {"type": "buy", "item": "crew"})
    assert st(match)["green"][0] == 2 and st(match)["rum"][0] == 4


def test_without_the_rum_rule_crew_needs_only_the_price():
    match = new(crew_needs_rum=False)
    quiet_round(match, loot=(0, 1, 2, 2), take="plantain", shares={0: [0, 1, 2, 1]})
    assert {"type": "buy", "item": "crew"} in match.legal_actions(0)


def _rich_round(match: Match, loot: tuple, take: str) -> None:
    """A round where the Captain (0, Scout 3) keeps all the island but the Scout's cube."""
    keep = [n - (kind == take) for kind, n in zip(KINDS, loot, strict=True)]
    quiet_round(match, loot=loot, take=take, shares={0: keep})


def test_green_crew_runs_out_after_ten():
    match = new(crew_needs_rum=False)
    hired = []
    while st(match)["green_supply"]:
        _rich_round(match, (6, 6, 6, 6), take="sugar")
        count = 0
        while {"type": "buy", "item": "crew"} in match.legal_actions(0):
            match.apply(0, {"type": "buy", "item": "crew"})
            count += 1
        hired.append(count)
        if st(match)["green_supply"]:
            done_buying(match)
    state = st(match)
    assert hired == [3, 3, 3, 1] and state["green"][0] == 10
    assert state["loot"][0][1:] == [14, 4, 14]  # the price is there, the dice are not
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)


def test_rum_runs_out_at_33_pieces_in_all():
    match = new()
    bought = []
    while st(match)["rum_supply"]:
        _rich_round(match, (6, 6, 1, 0), take="gold")  # the rest of the bank stays full
        count = 0
        while {"type": "buy", "item": "rum"} in match.legal_actions(0):
            match.apply(0, {"type": "buy", "item": "rum"})
            count += 1
        bought.append(count)
        if st(match)["rum_supply"]:
            done_buying(match)
    state = st(match)
    assert bought == [6, 6, 6, 6, 1] and sum(state["rum"]) == 33
    assert state["rum"] == [27, 2, 2, 2] and state["loot"][0][:2] == [5, 5]
    assert {"type": "buy", "item": "rum"} not in match.legal_actions(0)


def test_the_bank_stock_limits_islands_trades_and_buried_treasure():
    match = new(stack="buried_treasure")
    # Round 1: the Captain keeps S5 G6 P1 and buys the (stacked) Buried Treasure.
    quiet_round(match, loot=(6, 0, 6, 1), take="sugar", shares={0: [5, 0, 6, 1]})
    match.apply(0, {"type": "buy", "item": "card"})
    done_buying(match)
    # Rounds 2-4: six gold each from the bank (the Scout takes one).
    for _ in range(3):
        quiet_round(match, loot=(0, 0, 6, 0), shares={0: [0, 0, 5, 0]})
        done_buying(match)
    assert st(match)["bank"][2] == 25 - 6 + 1 - 18
    # Round 5: the Scout cannot enter more gold than the bank holds.
    assign(match, 1, 2)
    match.apply(3, {"type": "count", "kind": "sugar", "n": 0})
    match.apply(3, {"type": "count", "kind": "orange", "n": 0})
    assert match.legal_actions(3) == [{"type": "count", "kind": "gold", "n": n}
                                      for n in range(3)]
    match.apply(3, {"type": "count", "kind": "gold", "n": 2})
    match.apply(3, {"type": "count", "kind": "plantain", "n": 0})
    divide(match, {0: [0, 0, 1, 0]})
    enter(match, ones(match))
    no_peek(match)
    decide(match)
    assert st(match)["bank"][2] == 0
    gets = [a["get"] for a in match.legal_actions(0)
            if a["type"] == "trade" and a["pay"] == ["sugar"] * 3]
    assert gets == ["sugar", "orange", "plantain"]  # no gold left in the bank
    match.apply(0, {"type": "trade", "pay": ["sugar"] * 3, "get": "orange"})
    match.apply(0, {"type": "play", "card": "buried_treasure"})
    assert match.legal_actions(0) == [{"type": "loot", "kind": k}
                                      for k in ("sugar", "orange", "plantain")]
    assert total_cubes(st(match)) == [25] * 4


def test_the_mystery_deck_can_run_out(tmp_path, monkeypatch):
    small = tmp_path / "small.toml"
    small.write_text('[[island]]\nname = "A"\ngold = 1\n'
                     '[[card]]\nid = "cannon"\nname = "Cannon"\ncount = 2\n'
                     'effect = "cannon"\n')
    monkeypatch.setattr(data_module, "DATA_FILE", small)
    match = new()
    quiet_round(match, loot=(4, 0, 3, 3), take="sugar", shares={0: [3, 0, 3, 3]})
    match.apply(0, {"type": "buy", "item": "card"})
    match.apply(0, {"type": "buy", "item": "card"})
    assert st(match)["deck"] == [] and match.view(PUBLIC)["state"]["supply"]["deck"] == 0
    assert {"type": "buy", "item": "card"} not in match.legal_actions(0)


def test_a_deck_of_the_data_file_with_fewer_islands_ends_sooner(tmp_path, monkeypatch):
    small = tmp_path / "small.toml"
    small.write_text('[[island]]\nname = "Rich"\ngold = 6\n'
                     '[[card]]\nid = "cannon"\nname = "Cannon"\ncount = 2\n'
                     'effect = "cannon"\n')
    monkeypatch.setattr(data_module, "DATA_FILE", small)
    match = Match.create(GAME, 4, {"dice": "table"}, seed=2)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)  # one island: it turns up at once; one kind: the Scout's gold
    state = st(match)
    assert state["island"]["name"] == "Rich" and state["loot"][3] == [0, 0, 1, 0]
    finish_quiet_round(match)
    # Captain 0: the island; everyone has 2 Rum: all tie for Notorious Drunk.
    assert match.is_over and match.result().scores == [1 + 1, 1, 1, 1]


def test_buying_goes_clockwise_from_the_new_captain_after_a_mutiny():
    match = new()
    quiet_round(match, loot=(6, 6, 1, 0), take="gold",
                shares={0: [2, 1, 0, 0], 1: [1, 2, 0, 0], 2: [2, 1, 0, 0], 3: [1, 2, 0, 0]})
    done_buying(match)
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [6, 6]})
    decide(match, scout=M)
    assert st(match)["captain"] == 3 and st(match)["buy_order"] == [3, 0, 1, 2]
    for seat in (3, 0, 1, 2):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "done"})
    assert match.step() == "roles" and match.acting() == [3] and st(match)["round"] == 3
