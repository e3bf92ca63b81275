"""MIT Mutiny's rally, the First Mate's peek and the decisions (M6, the secret ballot),
and how a round's role and stats read on the phone and the OLED.

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

import json

from companion.engine import PUBLIC, Match
from companion.games.mit_mutiny import GAME
from tests.engine.contract import rejected
from tests.games.mit_mutiny_helpers import (
    D,
    M,
    assign,
    decide,
    enter,
    island,
    new,
    st,
    to_decisions,
)

# -- rally, peek, decisions -------------------------------------------------------------------

def test_each_pirate_sees_only_their_own_roll_and_the_quarter_master_adds_the_d8():
    match = new()
    assign(match, 1, 2)
    island(match)
    assert st(match)["roll"]["need"] == [[6, 6], [6, 6], [6, 6, 8], [6, 6]]
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 7)]
    enter(match, {2: [3, 4]})
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 9)]
    others = {v: match.view(v) for v in (PUBLIC, 0, 1, 3)}
    enter(match, {2: [7]})
    for viewer, before in others.items():
        after = match.view(viewer)
        assert after["state"]["rolling"]["done"][2] is True
        after["state"]["rolling"]["done"][2] = False
        assert after == before  # nothing else changed for anyone else
    enter(match, {0: [1, 2], 1: [5, 5], 3: [6, 6]})
    assert match.step() == "peek"
    for seat, dice in enumerate([[[6, 1], [6, 2]], [[6, 5], [6, 5]],
                                 [[6, 3], [6, 4], [8, 7]], [[6, 6], [6, 6]]]):
        assert match.view(seat)["state"]["me"]["dice"] == dice
    public = match.view(PUBLIC)["state"]
    assert public["dice"] is None and public["dice_count"] == [2, 2, 3, 2]
    assert "[8, 7]" not in json.dumps(match.view(0)["state"])


def test_the_first_mate_may_peek_at_one_roll_and_nobody_can_tell_whether_he_did():
    match = new()
    assign(match, 1, 2)
    island(match)
    enter(match, {0: [1, 2], 1: [5, 5], 2: [3, 4, 7], 3: [6, 6]})
    assert match.acting() == [1]
    assert match.legal_actions(1) == [{"type": "peek", "seat": s} for s in (0, 2, 3)] + [
        {"type": "no_peek"}]
    peeked, passed = match.fork(), match.fork()
    peeked.apply(1, {"type": "peek", "seat": 3})
    passed.apply(1, {"type": "no_peek"})
    assert peeked.view(1)["state"]["me"]["peek"] == {"seat": 3, "dice": [[6, 6], [6, 6]]}
    assert "peek" not in passed.view(1)["state"]["me"]
    for viewer in (PUBLIC, 0, 2, 3):
        assert peeked.view(viewer) == passed.view(viewer)
        assert viewer == PUBLIC or peeked.display(viewer) == passed.display(viewer)
    assert not peeked.can_undo  # undo would betray it too


def test_decisions_are_public_in_order_scout_qm_first_mate_then_the_scout_may_change():
    match = new()
    to_decisions(match)
    assert match.step() == "decide" and match.acting() == [3]
    assert rejected(match, 2, {"type": "decide", "choice": M}) == "not_your_turn"
    assert rejected(match, 0, {"type": "decide", "choice": D}) == "not_your_turn"
    match.apply(3, {"type": "decide", "choice": M})
    assert match.view(PUBLIC)["state"]["decisions"] == [D, None, None, M]
    assert match.acting() == [2]
    match.apply(2, {"type": "decide", "choice": D})
    match.apply(1, {"type": "decide", "choice": D})
    assert match.step() == "final" and match.acting() == [3]
    labels = [c.label for c in match.display(3).choices]
    assert labels == ["Keep: Mutiny", "Change: Defend"]
    match.apply(3, {"type": "final", "choice": D})
    state = st(match)
    assert state["decisions"] == [D, D, D, D] and state["changed"] is True
    assert state["battle"] == {"fought": False, "round": 1}


def test_all_defend_means_no_battle_no_reveal_and_everyone_takes_their_share():
    match = new()
    to_decisions(match, loot=(2, 1, 1, 1), take="sugar",
                 shares={0: [1, 0, 0, 0], 1: [0, 1, 0, 0], 2: [0, 0, 1, 1]},
                 dice={0: [1, 2], 1: [5, 5], 2: [3, 4, 7], 3: [6, 6]})
    decide(match)
    state = st(match)
    assert state["loot"] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    assert state["won"][0] == ["Island 1"] and state["captain"] == 0
    assert state["battle"] == {"fought": False, "round": 1}
    assert match.view(PUBLIC)["state"]["dice"] is None  # never shown
    assert state["dice"][1] == [[6, 5], [6, 5]]  # still under the cup, unseen
    assert match.view(1)["state"]["me"]["dice"] is None  # and no longer news
    # Nobody can afford anything, trade (3 cubes) or play a card: no buying turns.
    assert match.step() == "roles" and state["round"] == 2


def test_secret_ballot_hides_the_decisions_until_the_scout_has_had_the_last_word():
    match = new(ballot="secret")
    to_decisions(match)
    assert match.step() == "ballot" and sorted(match.acting()) == [1, 2, 3]
    match.apply(2, {"type": "ballot", "choice": M})
    views = {v: match.view(v) for v in (PUBLIC, 0, 1, 3)}
    assert views[PUBLIC]["state"]["ballot"]["ballots_in"] == 1
    assert views[PUBLIC]["state"]["decisions"] == [D, None, None, None]
    assert match.view(2)["state"]["ballot"]["mine"] == [M]
    match.apply(1, {"type": "ballot", "choice": D})
    match.apply(3, {"type": "ballot", "choice": D})
    assert match.step() == "final" and match.acting() == [3]
    assert match.view(3)["state"]["me"]["ballots"] == [None, D, M, D]
    assert "ballots" not in match.view(2)["state"]["me"]
    assert match.view(PUBLIC)["state"]["decisions"] == [D, None, None, None]
    match.apply(3, {"type": "final", "choice": M})
    state = st(match)
    assert state["decisions"] == [D, D, M, M] and state["revealed"]
    assert state["changed"] is None  # a secret change stays secret


def test_the_public_decision_is_a_move_in_the_open_and_only_a_secret_ballot_blinks():
    # The phone calls a blinking seat's turn a secret vote: the public, in-order decision
    # is lit as any move is.
    match = new()
    to_decisions(match)
    assert match.display(3).led == "on" and match.display(0).led == "off"
    match.apply(3, {"type": "decide", "choice": M})
    assert match.display(2).lines[1] == \
        "Scout: mutiny, Quarter Master: not yet, First Mate: not yet"
    assert match.display(2).short_lines[1] == "Scout mutiny, QM ?, FM ?"
    match.apply(2, {"type": "decide", "choice": D})
    match.apply(1, {"type": "decide", "choice": D})
    assert match.display(3).led == "on"  # the Scout's last word, in the open too
    secret = new(ballot="secret")
    to_decisions(secret)
    assert [secret.display(s).led for s in range(4)] == ["off", "blink", "blink", "blink"]
    assert secret.display(0).lines[1] == "0 of 3 ballots in"
    for seat in (1, 2, 3):
        secret.apply(seat, {"type": "ballot", "choice": D})
    assert secret.display(3).led == "blink"
    assert secret.display(0).lines[1] == ("Scout: secret, Quarter Master: secret, "
                                          "First Mate: secret; the Scout has the last word")


def test_the_phone_reads_the_round_role_and_stats_in_words_the_oled_in_short():
    match = new()
    to_decisions(match)
    shown = match.display(3)  # the Scout, in round 1
    captain = match.names[0]
    assert shown.title == "Mutiny or defend"  # it was "R1 Mutiny or defend"
    assert shown.lines[0] == f"Round 1: you are the Scout; {captain} is Captain"
    assert shown.short_lines[0] == "R1 You: Scout"
    assert match.display(0).lines[0] == "Round 1: you are the Captain"
    assert match.display(2).short_lines[0] == "R1 Quarter Master"  # 21 columns
    pirate = match.view(PUBLIC)["state"]["pirates"][3]
    crew = f"{pirate['crew']} crew {'die' if pirate['crew'] == 1 else 'dice'}"
    assert shown.lines[2].startswith(f"You have {pirate['rum']} Rum and {crew}; loot: ")
    # The OLED's stats fit its 21 columns (they were 24: "Rum # Crew # S# O# G# P#").
    assert shown.short_lines[2] == f"Rum{pirate['rum']} Crew{pirate['crew']} " + "".join(
        f"{code}{n}" for code, n in zip("SOGP", pirate["loot"], strict=True))
    assert all(len(line) <= 21 for line in shown.short_lines)


def test_the_scouts_pick_names_the_islands_loot_in_words():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)
    match.apply(3, {"type": "look", "space": 4})
    match.apply(3, {"type": "look", "space": 9})
    pick = match.display(3).choices[0]
    seen = match.view(3)["state"]["me"]["islands_seen"][0]
    cubes = [f"{n} {kind}" for kind, n in
             zip(("Sugar", "Orange", "Gold", "Plantain"), seen["loot"], strict=True) if n]
    words = cubes[0] if len(cubes) == 1 else ", ".join(cubes[:-1]) + " and " + cubes[-1]
    # (It read "Pick Cayman Cove (S1 O1 G2 P3)", the OLED's codes.)
    assert pick.label == f"Pick {seen['name']} ({words}) on space 5"
    assert pick.short == "Space 5 " + "".join(
        f"{code}{n}" for code, n in zip("SOGP", seen["loot"], strict=True))
