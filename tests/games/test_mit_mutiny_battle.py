"""MIT Mutiny's battle (a mutiny won, lost or tied, the roll-offs, companion dice) and the
cup draws that share out the loot (M7).

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

import json

import pytest

from companion.engine import CHANCE, PUBLIC, Journal, Match
from companion.games.mit_mutiny import GAME
from tests.games.mit_mutiny_helpers import (
    CAPTAIN,
    D,
    M,
    assign,
    decide,
    enter,
    island,
    new,
    st,
    to_decisions,
    total_cubes,
)

# -- the battle -------------------------------------------------------------------------------

def test_a_mutiny_won_makes_the_top_mutineer_captain_and_cup_draws_share_all_the_loot():
    match = new()
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar", shares={0: [1, 2, 1, 1]},
                 dice={0: [1, 1], 1: [3, 3], 2: [2, 2, 8], 3: [6, 5]})
    decide(match, scout=M, qm=M, fm=D)
    state = st(match)
    # Mutineers 11 + 12 = 23 beat 2 + 6 = 8; the QM's 12 beats the Scout's 11.
    assert state["battle"]["sums"] == {M: 23, D: 8}
    assert state["battle"]["winner"] == M and state["captain"] == 2
    assert state["roles"][2] == CAPTAIN and state["roles"][0] is None
    assert state["won"] == [[], [], ["Island 1"], []]
    # The five cubes of the mat went into the cup: the new Captain drew first.
    cup = state["cup"]
    assert cup["takers"] == [2, 3] and cup["start"] == [1, 2, 1, 1]
    assert sum(cup["got"][2]) == 3 and sum(cup["got"][3]) == 2
    assert [sum(loot) for loot in state["loot"]] == [0, 0, 3, 3]
    assert [a + b for a, b in zip(cup["got"][2], cup["got"][3], strict=True)] == [1, 2, 1, 1]
    assert total_cubes(state) == [25] * 4
    assert match.step() == "buy" and state["buy_order"] == [2, 3, 0, 1]
    public = match.view(PUBLIC)["state"]
    assert public["dice"][2] == [[6, 2], [6, 2], [8, 8]] and public["sums"] == {M: 23, D: 8}


def test_a_mutiny_lost_keeps_the_captain_and_the_mutineers_shares_go_to_the_defenders():
    match = new()
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar",
                 shares={0: [1, 0, 0, 0], 1: [0, 1, 0, 0], 2: [0, 1, 1, 0], 3: [0, 0, 0, 1]},
                 dice={0: [6, 6], 1: [6, 6], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M, qm=M, fm=D)
    state = st(match)
    assert state["battle"]["sums"] == {M: 5, D: 24}
    assert state["battle"]["winner"] == D and state["captain"] == 0
    assert state["won"][0] == ["Island 1"]
    cup = state["cup"]
    assert cup["takers"] == [0, 1] and cup["start"] == [0, 1, 1, 1]
    assert sum(cup["got"][0]) == 2 and sum(cup["got"][1]) == 1
    assert state["loot"][2] == [0, 0, 0, 0] and state["loot"][3] == [1, 0, 0, 0]
    assert [sum(loot) for loot in state["loot"]] == [3, 2, 0, 1]
    assert total_cubes(state) == [25] * 4


def test_a_tie_rerolls_every_die_until_one_side_is_higher():
    match = new()
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [4, 3]})
    decide(match, scout=M)  # 7 v 2 + 2 + 3
    assert match.step() == "tie" and st(match)["battle"]["ties"] == 1
    assert sorted(match.acting()) == [0, 1, 2, 3]
    assert match.view(PUBLIC)["state"]["rolling"]["need"] == [[6, 6], [6, 6], [6, 6, 8],
                                                              [6, 6]]
    enter(match, {0: [2, 2], 1: [2, 2], 2: [1, 1, 2], 3: [6, 6]})  # 12 v 12 again
    assert match.step() == "tie" and st(match)["battle"]["ties"] == 2
    enter(match, {0: [6, 6], 1: [6, 6], 2: [6, 6, 8], 3: [1, 1]})
    state = st(match)
    assert state["battle"]["winner"] == D and state["battle"]["sums"] == {M: 2, D: 44}
    assert state["dice"][2] == [[6, 6], [6, 6], [8, 8]]


def test_tied_top_mutineers_roll_off_with_a_d6_again_and_again():
    match = new()
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [2, 2, 2], 3: [3, 3]})
    decide(match, scout=M, qm=M)
    assert match.step() == "rolloff" and sorted(match.acting()) == [2, 3]
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 7)]
    enter(match, {2: [4], 3: [4]})
    assert match.step() == "rolloff"
    enter(match, {2: [2], 3: [5]})
    state = st(match)
    assert state["rolloffs"] == [[None, None, 4, 4], [None, None, 2, 5]]
    assert state["captain"] == 3 and state["won"][3] == ["Island 1"]


def test_companion_dice_roll_everything_by_chance_and_journal_it():
    with Journal(":memory:") as journal:
        match = Match.create(GAME, 4, {"islands": "physical"}, seed=11, journal=journal)
        captain = st(match)["captain"]
        fm, qm = [s for s in range(4) if s != captain][:2]
        assign(match, fm, qm)
        island(match)
        entries = journal.entries(match.id)
        assert entries[-1].actor == CHANCE and entries[-1].action["type"] == "roll"
        assert match.step() == "peek"
        faces = entries[-1].action["faces"]
        assert [len(f) for f in faces] == [3 if s == qm else 2 for s in range(4)]
        assert all(1 <= f <= 6 for s in range(4) for f in faces[s][:2])
        assert 1 <= faces[qm][2] <= 8
        again = journal.load(match.id, lambda _id: GAME)
        assert again.snapshot() == match.snapshot()


# -- cup draws (M7) ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_companion_cup_draws_share_out_exactly_the_loot_that_was_there(seed):
    match = new(seed=seed, cup_draws="companion")
    to_decisions(match, loot=(3, 4, 2, 5), take="orange",
                 shares={0: [1, 1, 0, 2], 1: [1, 1, 1, 1], 2: [0, 1, 0, 1], 3: [1, 0, 1, 1]},
                 dice={0: [1, 1], 1: [6, 6], 2: [6, 6, 8], 3: [6, 6]})
    decide(match, scout=M, qm=M, fm=M)
    state = st(match)
    cup = state["cup"]
    assert cup["start"] == [3, 3, 2, 5] and cup["done"]
    got = cup["got"]
    assert [sum(got[s][k] for s in range(4)) for k in range(4)] == [3, 3, 2, 5]
    # 13 cubes drawn in turn by the new Captain (seat 2: 12 + 8 = 20), then 3, then 1.
    assert state["captain"] == 2 and cup["takers"] == [2, 3, 1]
    assert [sum(g) for g in got] == [0, 4, 5, 4]
    assert total_cubes(state) == [25] * 4


def test_cup_draws_differ_between_seeds():
    draws = set()
    for seed in range(6):
        match = new(seed=seed)
        to_decisions(match, loot=(3, 4, 2, 5), take="orange", shares={0: [3, 3, 2, 5]},
                     dice={0: [1, 1], 1: [6, 6], 2: [6, 6, 8], 3: [6, 6]})
        decide(match, scout=M, qm=M, fm=M)
        draws.add(json.dumps(st(match)["cup"]["got"]))
    assert len(draws) > 1


def test_table_cup_draws_are_entered_by_each_taker_in_turn():
    match = new(cup_draws="table")
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar",
                 shares={2: [1, 2, 0, 0], 3: [0, 0, 1, 1]},
                 dice={0: [6, 6], 1: [6, 6], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M, qm=M)
    assert match.step() == "cup" and match.acting() == [0]
    assert match.legal_actions(0) == [{"type": "drew", "kind": k}
                                      for k in ("sugar", "orange", "gold", "plantain")]
    for seat, kind in ((0, "orange"), (1, "orange"), (0, "sugar")):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "drew", "kind": kind})
    assert match.legal_actions(1) == [{"type": "drew", "kind": "gold"},
                                      {"type": "drew", "kind": "plantain"}]
    match.apply(1, {"type": "drew", "kind": "gold"})
    # Only a plantain is left: it is seat 0's turn, and nothing else can come out.
    state = st(match)
    assert state["loot"][0] == [1, 1, 0, 1] and state["loot"][1] == [0, 1, 1, 0]
    assert state["cup"]["done"] and total_cubes(state) == [25] * 4
