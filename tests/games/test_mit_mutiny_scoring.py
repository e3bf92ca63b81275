"""MIT Mutiny's scoring: the Infamy awards, a full game scored by hand, shared victories.

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

from companion.games.mit_mutiny.data import award, infamy
from tests.games.mit_mutiny_helpers import (
    D,
    M,
    decide,
    done_buying,
    enter,
    new,
    quiet_round,
    st,
    to_decisions,
)

# -- scoring ----------------------------------------------------------------------------------

def test_award_gives_the_full_prize_to_one_leader_and_one_each_to_tied_leaders():
    assert award([0, 3, 1, 2], 3) == [0, 3, 0, 0]
    assert award([2, 2, 1, 0], 3) == [1, 1, 0, 0]
    assert award([0, 0, 0, 0], 3) == [0, 0, 0, 0]  # nobody played a Cannon
    assert award([2, 2, 2, 2], 2) == [1, 1, 1, 1]


def test_a_full_game_scores_infamy_as_computed_by_hand():
    """Twelve islands, Captain 0 at first; roles FM 1, QM 2, Scout 3 under Captain 0.

    R1  1 buys two Cannons, 3 buys one.        R2  1 and 2 buy two Rum each.
    R3  0 buys the Peg-Leg and lays it.        R4  quiet.
    R5  3 and 1 mutiny; three Cannons tie it at 32; after the re-roll the mutineers
        win and 1 (24) beats 3 (17): Captain 1 takes island 5.
    R6-R10 quiet under 1.   R11 Scout 0 mutinies alone and wins: Captain 0.   R12 quiet.

    Infamy by hand:
      islands     0: R1-R4, R11, R12 = 6    1: R5-R10 = 6    2: 0    3: 0
      Fierceness  Cannons played 1: 2, 3: 1              -> 1 gets 3
      Drunk       Rum 0: 2, 1: 4, 2: 4, 3: 2             -> 1 and 2 tie: 1 each
      Peg-Leg     laid by 0, Captain at the end          -> 2
      total       0: 8    1: 10    2: 1    3: 0          -> 1 wins
    """
    match = new(stack="cannon,cannon,cannon,peg_leg")
    # R1: S+G+P twice to 1, once to 3 (with the Scout's sugar), and S G P to 0.
    to_decisions(match, loot=(5, 0, 4, 4), take="sugar",
                 shares={0: [1, 0, 1, 1], 1: [2, 0, 2, 2], 3: [1, 0, 1, 1]})
    decide(match)
    match.apply(0, {"type": "done"})
    match.apply(1, {"type": "buy", "item": "card"})
    match.apply(1, {"type": "buy", "item": "card"})
    match.apply(1, {"type": "done"})
    match.apply(3, {"type": "buy", "item": "card"})  # 2 had nothing: no turn
    match.apply(3, {"type": "done"})
    state = st(match)
    assert state["hands"][1] == ["cannon", "cannon"] and state["hands"][3] == ["cannon"]
    # R2: Rum for 1 and 2.
    quiet_round(match, loot=(5, 5, 0, 0), take="orange",
                shares={1: [2, 2, 0, 0], 2: [2, 2, 0, 0], 3: [1, 0, 0, 0]})
    match.apply(0, {"type": "done"})
    for seat in (1, 2):
        match.apply(seat, {"type": "buy", "item": "rum"})
        match.apply(seat, {"type": "buy", "item": "rum"})
        match.apply(seat, {"type": "done"})
    match.apply(3, {"type": "done"})
    # R3: 0 buys the Peg-Leg and lays it face up.
    quiet_round(match, loot=(0, 0, 1, 1), take="gold", shares={0: [0, 0, 0, 1]})
    match.apply(0, {"type": "buy", "item": "card"})
    match.apply(0, {"type": "play", "card": "peg_leg"})
    done_buying(match)
    # R4: quiet.
    quiet_round(match)
    done_buying(match)
    # R5: the battle.
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [6, 6, 8], 3: [6, 6]})
    decide(match, scout=M, fm=M)  # 2 + 12 = 14 v 12 + 20 = 32
    for seat in (1, 3, 1):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "play", "card": "cannon"})
        enter(match, {seat: [6]})
    assert match.step() == "tie" and st(match)["battle"]["sums"] == {M: 32, D: 32}
    enter(match, {0: [1, 1], 1: [6, 6, 6, 6], 2: [1, 1, 1], 3: [6, 6, 5]})
    state = st(match)
    assert state["battle"]["sums"] == {M: 41, D: 5} and state["captain"] == 1
    assert state["buy_order"] == [1, 2, 3, 0] and match.acting() == [3]  # 1, 2: nothing
    done_buying(match)
    # R6-R10: quiet under Captain 1 (FM 2, QM 3, Scout 0).
    for _ in range(5):
        quiet_round(match, fm=2, qm=3)
        done_buying(match)
    # R11: Scout 0 mutinies alone and wins: 12 v 2 + 2 + 3.
    to_decisions(match, fm=2, qm=3, dice={0: [6, 6], 1: [1, 1], 2: [1, 1], 3: [1, 1, 1]})
    decide(match, scout=M)
    assert st(match)["captain"] == 0
    done_buying(match)
    # R12: quiet under Captain 0.
    quiet_round(match)
    done_buying(match)
    assert match.is_over
    final = st(match)["final"]
    assert final["islands"] == [6, 6, 0, 0]
    assert final["cannons"] == [0, 2, 0, 1] and final["fierceness"] == [0, 3, 0, 0]
    assert final["rum"] == [2, 4, 4, 2] and final["drunk"] == [0, 1, 1, 0]
    assert final["cards"] == [2, 0, 0, 0]
    assert final["total"] == [8, 10, 1, 0]
    result = match.result()
    assert result.scores == [8, 10, 1, 0] and result.winners == [1]
    assert result.reason == "Most Infamy"
    for seat in range(4):
        display = match.display(seat)
        assert display.title == "Game over" and not display.choices


def test_tied_infamy_is_a_shared_victory():
    match = new()
    for _ in range(12):
        quiet_round(match)
        done_buying(match)
    result = match.result()
    # Captain 0: 12 islands; Rum all 2: everyone ties for Notorious Drunk (1 each).
    assert result.scores == [13, 1, 1, 1] and result.winners == [0]
    state = st(match)
    state["won"] = [["a"] * 6, ["b"] * 6, [], []]
    assert infamy(state)["winners"] == [0, 1]
