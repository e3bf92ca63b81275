"""Moon Yeti's round 1: the discussion, the Cabin Search, the Confession, the innocence vote
(the Helmsman's two ballots, an innocent Mutineer's win) and Dead Reckoning (Y3).

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

import pytest

from companion.engine import PUBLIC, ActionRejected, Match
from companion.games.moon_yeti import BOATSWAIN, GAME, HELMSMAN, NAVIGATOR, ROLES
from tests.games.moon_yeti_helpers import cast, game_views, ready_all, start, state, ten_32

# -- round 1: discussion, Cabin Search, Confession -----------------------------------

def test_discussion_ends_when_every_seat_is_ready_and_ready_is_final():
    match, r = start()
    match.apply(r["N"], {"type": "ready"})
    assert match.legal_actions(r["N"]) == [] and r["N"] not in match.acting()
    assert match.view(PUBLIC)["state"]["ready"][r["N"]] is True
    ready_all(match)
    assert match.step() == "vote1"


def test_cabin_search_shows_the_boatswain_a_card_and_changes_no_other_view():
    match, r = start(mutineer=NAVIGATOR)
    search = [a for a in match.legal_actions(r["B"]) if a["type"] == "search"]
    assert sorted(a["target"] for a in search) == sorted([r["C"], r["H"], r["N"]])
    before = game_views(match)
    match.apply(r["B"], {"type": "search", "target": r["N"]})
    after = game_views(match)
    for viewer in [PUBLIC, r["C"], r["H"], r["N"]]:
        assert after[viewer] == before[viewer], viewer
    seen = match.view(r["B"])["state"]["me"]["search"]
    assert seen == {"target": r["N"], "is_mutineer": True,
                    "card": state(match)["cards"][ROLES.index(NAVIGATOR)]}
    assert "IS the Mutineer!" in match.display(r["B"]).screen_private
    assert any(line.startswith("You searched ") and line.endswith(" IS the Mutineer!")
               for line in match.display(r["B"]).private)  # the phone's sentence
    assert not [a for a in match.legal_actions(r["B"]) if a["type"] == "search"]


def test_cabin_search_of_an_innocent_in_aces_mode_shows_the_ace():
    match = Match.create(GAME, 4, {"mode": "aces"}, seed=9, clock=ten_32)
    st = state(match)
    boatswain = st["roles"].index(BOATSWAIN)
    innocent = next(s for s in range(4) if s not in (boatswain, st["mutineer"]))
    match.apply(boatswain, {"type": "search", "target": innocent})
    seen = match.view(boatswain)["state"]["me"]["search"]
    assert seen["is_mutineer"] is False
    assert seen["ace"] == st["aces"][ROLES.index(st["roles"][innocent])] != "spades"


def test_a_truthful_confession_tells_the_chaplain_and_only_tells_the_target_it_was_taken():
    match, r = start(mutineer=HELMSMAN)
    before = game_views(match)
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    after = game_views(match)
    for viewer in [PUBLIC, r["B"], r["N"]]:
        assert after[viewer] == before[viewer], viewer
    assert match.view(r["C"])["state"]["me"]["confession"] == {
        "target": r["H"], "is_mutineer": True, "allied": True}
    target = match.view(r["H"])["state"]["me"]
    assert target["confessed_to"] == r["C"]
    assert "The Chaplain took" in match.display(r["H"]).screen_private
    assert any(line.startswith("The Chaplain took your confession")
               for line in match.display(r["H"]).private)
    assert not [a for a in match.legal_actions(r["C"]) if a["type"] == "confess"]


def test_a_confession_from_an_innocent_keeps_the_chaplain_with_the_crew():
    match, r = start(mutineer=HELMSMAN)
    match.apply(r["C"], {"type": "confess", "target": r["N"]})
    assert match.view(r["C"])["state"]["me"]["confession"] == {
        "target": r["N"], "is_mutineer": False, "allied": False}


def test_an_at_table_confession_asks_the_target_and_tells_the_chaplain_nothing():
    match, r = start(mutineer=HELMSMAN, confession="at_table")
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    assert match.view(r["C"])["state"]["me"]["confession"] == {"target": r["H"]}
    assert "Answer with a sign" in match.display(r["H"]).screen_private
    assert "Watch for the sign" in match.display(r["C"]).screen_private
    assert any("sign at the table" in line for line in match.display(r["C"]).private)


def test_role_actions_are_limited_to_their_roles_and_to_round_one():
    match, r = start()
    for seat in (r["H"], r["N"]):
        assert match.legal_actions(seat) == [{"type": "ready"}]
    with pytest.raises(ActionRejected) as info:
        match.apply(r["H"], {"type": "search", "target": r["B"]})
    assert info.value.code == "not_now"
    with pytest.raises(ActionRejected) as info:
        match.apply(r["B"], {"type": "search", "target": r["B"]})
    assert info.value.code == "bad_value"


# -- the innocence vote -----------------------------------------------------------------

def test_innocence_ballots_are_secret_until_all_are_in():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    before = game_views(match)
    match.apply(r["N"], {"type": "vote", "target": r["C"]})
    after = game_views(match)
    for viewer in [PUBLIC, r["B"], r["C"], r["H"]]:
        view_before, view_after = before[viewer][0], after[viewer][0]
        assert view_after["vote1"]["ballots_in"] == 1
        view_after["vote1"]["ballots_in"] = 0
        assert view_after == view_before
        assert "cast" not in view_after["vote1"]
    assert match.view(r["N"])["state"]["vote1"]["mine"] == [r["C"]]


def test_nobody_votes_for_himself_and_the_helmsman_may_vote_twice():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    for seat in range(4):
        targets = [a["target"] for a in match.legal_actions(seat) if a["type"] == "vote"]
        assert sorted(targets) == sorted(s for s in range(4) if s != seat)
        assert {"type": "one_vote"} not in match.legal_actions(seat)
    match.apply(r["H"], {"type": "vote", "target": r["B"]})
    assert {"type": "one_vote"} in match.legal_actions(r["H"])
    assert match.view(PUBLIC)["state"]["vote1"]["ballots_total"] == 5


def test_the_helmsmans_trust_counts_two_ballots():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["N"]], r["H"]: [r["N"], r["N"]],
                 r["N"]: [r["C"]]})
    assert match.step() == "reckon"
    assert state(match)["ballots1"][r["H"]] == [r["N"], r["N"]]
    match.apply(r["N"], {"type": "decline"})
    assert state(match)["innocent"] == r["N"]


def test_the_helmsman_may_cast_only_one_ballot():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["N"]], r["H"]: [r["N"], None],
                 r["N"]: [r["C"]]})
    match.apply(r["N"], {"type": "decline"})
    assert state(match)["ballots1"][r["H"]] == [r["N"], None]
    assert state(match)["innocent"] is None  # 2 - 2: a tie


def test_a_tied_innocence_vote_declares_nobody_innocent():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["B"]], r["H"]: [r["B"], r["C"]],
                 r["N"]: [r["H"]]})
    match.apply(r["N"], {"type": "decline"})
    assert state(match)["innocent"] is None and match.step() == "discuss2"
    assert match.view(PUBLIC)["state"]["ready"] == [False] * 4


def test_the_mutineer_declared_innocent_wins_at_once():
    match, r = start(mutineer=NAVIGATOR)
    ready_all(match)
    cast(match, {r["B"]: [r["N"]], r["C"]: [r["N"]], r["H"]: [r["N"], None],
                 r["N"]: [r["B"]]})
    match.apply(r["N"], {"type": "decline"})
    result = match.result()
    assert match.is_over and result.winners == [r["N"]]
    assert result.scores == [1 if s == r["N"] else 0 for s in range(4)]
    assert result.reason == "The Mutineer was declared innocent"
    reveal = match.view(PUBLIC)["state"]["reveal"]
    assert reveal["mutineer"] == r["N"]
    assert reveal["cards_or_aces"][r["B"]] == state(match)["cards"][0]


def test_the_chaplain_who_confessed_the_mutineer_wins_with_him_when_he_is_innocent():
    match, r = start(mutineer=NAVIGATOR)
    match.apply(r["C"], {"type": "confess", "target": r["N"]})
    ready_all(match)
    cast(match, {r["B"]: [r["N"]], r["C"]: [r["N"]], r["H"]: [r["N"], None],
                 r["N"]: [r["B"]]})
    match.apply(r["N"], {"type": "decline"})
    assert match.result().winners == sorted([r["C"], r["N"]])
    assert match.result().details["chaplain_allied"] is True


# -- Dead Reckoning (Y3) -----------------------------------------------------------------

def test_dead_reckoning_moves_one_cast_vote_to_another_non_navigator_target():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"], None],
                 r["N"]: [r["C"]]})
    picks = {(a["seat"], a["index"]) for a in match.legal_actions(r["N"])
             if a["type"] == "reckon"}
    # Every cast vote, the Navigator's own included; never the unused second ballot.
    assert picks == {(r["B"], 0), (r["C"], 0), (r["H"], 0), (r["N"], 0)}
    # Not onto the Navigator, not back onto the same player, not onto its caster.
    assert [a["target"] for a in match.legal_actions(r["N"])
            if a.get("seat") == r["B"]] == [r["H"]]
    match.apply(r["N"], {"type": "reckon", "seat": r["B"], "index": 0, "target": r["H"]})
    st = state(match)
    assert st["ballots1"][r["B"]] == [r["H"]]
    assert st["reckoning"] == {"seat": r["B"], "index": 0, "from": r["C"], "to": r["H"]}
    assert st["innocent"] is None  # C 2, H 2


def test_dead_reckoning_can_move_the_navigators_own_vote_and_swing_the_result():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"], None],
                 r["N"]: [r["H"]]})  # C 2, H 2
    targets = {a["target"] for a in match.legal_actions(r["N"]) if a.get("seat") == r["N"]}
    assert targets == {r["B"], r["C"]}
    match.apply(r["N"], {"type": "reckon", "seat": r["N"], "index": 0, "target": r["C"]})
    assert state(match)["innocent"] == r["C"]


def test_dead_reckoning_is_optional():
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"], None],
                 r["N"]: [r["C"]]})
    match.apply(r["N"], {"type": "decline"})
    assert state(match)["reckoning"] == {"declined": True}
    assert state(match)["innocent"] == r["C"]
