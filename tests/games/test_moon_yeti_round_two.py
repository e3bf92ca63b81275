"""Moon Yeti's round 2: Condemn, the guilt vote, Bosun Knows Best, Forgiveness and Change
Course (Y3, Y5).

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

import pytest

from companion.engine import PUBLIC, ActionRejected
from companion.games.moon_yeti import HELMSMAN, WAIT
from tests.games.moon_yeti_helpers import (
    cast,
    decline_until,
    game_views,
    ready_all,
    round_one,
    start,
    state,
    to_guilt_vote,
)

# -- round 2: Condemn, the guilt vote, Bosun Knows Best ------------------------------

def test_condemn_gives_another_player_two_ballots():
    match, r = start(mutineer=HELMSMAN)
    round_one(match, r, {r["B"]: [r["C"]], r["C"]: [r["B"]], r["H"]: [r["C"], None],
                         r["N"]: [r["C"]]})
    condemn = [a["target"] for a in match.legal_actions(r["H"]) if a["type"] == "condemn"]
    assert sorted(condemn) == sorted([r["B"], r["C"], r["N"]])
    assert match.legal_actions(r["N"]) == [{"type": "ready"}]
    match.apply(r["H"], {"type": "condemn", "target": r["N"]})
    assert match.view(PUBLIC)["state"]["condemned"] == r["N"]
    assert match.legal_actions(r["H"]) == [{"type": "ready"}]
    ready_all(match)
    vote = state(match)["vote2"]
    assert vote["need"][r["N"]] == 2 and vote["need"][r["H"]] == 1
    cast(match, {r["N"]: [r["H"], r["H"]]})
    assert state(match)["vote2"]["cast"][r["N"]] == [r["H"], r["H"]]


def test_guilt_votes_never_target_oneself_or_the_round_one_innocent():
    match, r = to_guilt_vote(innocent="C")
    for seat in range(4):
        targets = {a["target"] for a in match.legal_actions(seat) if a["type"] == "vote"}
        assert targets == {s for s in range(4) if s not in (seat, r["C"])}
    with pytest.raises(ActionRejected) as info:
        match.apply(r["B"], {"type": "vote", "target": r["C"]})
    assert info.value.code == "bad_value"


def test_the_condemned_may_leave_his_extra_vote_unused():
    match, r = to_guilt_vote(innocent="C", condemn="N")
    cast(match, {r["N"]: [r["H"]]})
    assert {"type": "one_vote"} in match.legal_actions(r["N"])
    match.apply(r["N"], {"type": "one_vote"})
    assert r["N"] not in match.acting()


def test_bosun_knows_best_is_secret_until_the_reveal_then_he_votes_last():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="C")
    before = game_views(match)
    match.apply(r["B"], {"type": "bosun_wait"})
    after = game_views(match)
    for viewer in [PUBLIC, r["C"], r["H"], r["N"]]:
        assert after[viewer][0]["vote2"]["ballots_in"] == 1
        after[viewer][0]["vote2"]["ballots_in"] = 0
        assert after[viewer][:2] == before[viewer][:2], viewer
    assert "Your vote: wait" in match.display(r["B"]).private
    cast(match, {r["C"]: [r["H"]], r["H"]: [r["N"]], r["N"]: [r["B"]]})
    assert match.step() == "bosun" and match.acting() == [r["B"]]
    public = match.view(PUBLIC)["state"]
    assert public["bosun_waited"] is True
    assert public["ballots2"] == [[] if s == r["B"] else state(match)["ballots2"][s]
                                  for s in range(4)]
    targets = {a["target"] for a in match.legal_actions(r["B"]) if a["type"] == "vote"}
    assert targets == {r["H"], r["N"]}
    match.apply(r["B"], {"type": "vote", "target": r["H"]})
    assert state(match)["ballots2"][r["B"]] == [r["H"]]
    assert match.step() in ("forgive", "course")


def test_a_condemned_boatswain_who_waits_casts_both_votes_last():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="C", condemn="B")
    match.apply(r["B"], {"type": "bosun_wait"})
    # His second ballot waits too, by a second press (Y6): only waiting is offered.
    assert match.legal_actions(r["B"]) == [{"type": "bosun_wait"}]
    match.apply(r["B"], {"type": "bosun_wait"})
    assert state(match)["vote2"]["cast"][r["B"]] == [WAIT, WAIT]
    cast(match, {r["C"]: [r["H"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    match.apply(r["B"], {"type": "vote", "target": r["N"]})
    assert match.step() == "bosun"
    match.apply(r["B"], {"type": "one_vote"})
    assert state(match)["ballots2"][r["B"]] == [r["N"], None]


def test_bosun_waiting_is_offered_only_as_a_first_ballot_in_round_two():
    match, r = to_guilt_vote(innocent="C", condemn="B")
    assert {"type": "bosun_wait"} in match.legal_actions(r["B"])
    match.apply(r["B"], {"type": "vote", "target": r["H"]})
    assert {"type": "bosun_wait"} not in match.legal_actions(r["B"])
    assert {"type": "one_vote"} in match.legal_actions(r["B"])


# -- Forgiveness and Change Course (Y3) --------------------------------------------

def test_forgiveness_moves_a_vote_for_another_player_onto_the_chaplain():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    assert match.step() == "forgive" and match.acting() == [r["C"]]
    picks = {(a["seat"], a["index"]) for a in match.legal_actions(r["C"])
             if a["type"] == "forgive"}
    assert picks == {(r["B"], 0), (r["H"], 0), (r["N"], 0)}  # never his own vote
    match.apply(r["C"], {"type": "forgive", "seat": r["H"], "index": 0})
    st = state(match)
    assert st["ballots2"][r["H"]] == [r["C"]]
    assert st["forgiveness"] == {"seat": r["H"], "index": 0, "from": r["N"], "to": r["C"]}
    decline_until(match, "over")
    assert state(match)["guilty"] == r["H"]  # H 2, N 1, C 1
    assert match.result().winners == sorted([r["B"], r["C"], r["N"]])


def test_forgiveness_never_takes_a_vote_already_on_the_chaplain():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B")
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["N"]], r["H"]: [r["C"]], r["N"]: [r["H"]]})
    picks = {(a["seat"], a["index"]) for a in match.legal_actions(r["C"])
             if a["type"] == "forgive"}
    assert picks == {(r["N"], 0)}


def test_no_forgiveness_when_the_chaplain_is_the_round_one_innocent():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="C")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["B"]], r["N"]: [r["H"]]})
    assert match.step() == "course"
    match.apply(r["N"], {"type": "decline"})
    assert state(match)["guilty"] == r["H"]
    assert match.result().winners == sorted([r["B"], r["C"], r["N"]])


def test_change_course_picks_a_player_who_did_not_vote_for_the_navigator():
    # Y5 off: judged on the ballots as Forgiveness left them (see the Y5 tests below).
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", course_as_cast=False)
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    match.apply(r["C"], {"type": "forgive", "seat": r["H"], "index": 0})
    assert match.step() == "course"
    players = {a["seat"] for a in match.legal_actions(r["N"]) if a["type"] == "course"}
    assert players == {r["B"], r["H"]}  # C voted for the Navigator; never himself
    match.apply(r["N"], {"type": "course", "seat": r["B"]})
    assert match.acting() == [r["B"]]
    assert {(a["index"], a["target"]) for a in match.legal_actions(r["B"])} == {
        (0, r["C"]), (0, r["N"])}  # another legal target: not H again, not himself
    match.apply(r["B"], {"type": "recast", "index": 0, "target": r["N"]})
    st = state(match)
    assert st["course"] == {"seat": r["B"], "index": 0, "from": r["H"], "to": r["N"]}
    assert st["guilty"] == r["N"]  # N 2, H 1, C 1: an innocent is guilty
    assert match.result().winners == [r["H"]]
    assert match.result().reason == "An innocent sailor was found guilty"


def test_y5_change_course_judges_the_ballots_as_first_cast_before_forgiveness():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    match.apply(r["C"], {"type": "forgive", "seat": r["H"], "index": 0})
    assert state(match)["ballots2"][r["H"]] == [r["C"]]
    assert match.view(PUBLIC)["state"]["ballots2_cast"][r["H"]] == [r["N"]]
    # H voted for the Navigator as first cast: Forgiveness moving it does not free him.
    players = {a["seat"] for a in match.legal_actions(r["N"]) if a["type"] == "course"}
    assert players == {r["B"]}
    with pytest.raises(ActionRejected) as info:
        match.apply(r["N"], {"type": "course", "seat": r["H"]})
    assert info.value.code == "bad_value"


@pytest.mark.parametrize("as_cast,players", [(True, "B"), (False, "BH")])
def test_y5_switches_who_change_course_may_pick(as_cast, players):
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", course_as_cast=as_cast)
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    match.apply(r["C"], {"type": "forgive", "seat": r["H"], "index": 0})
    picked = {a["seat"] for a in match.legal_actions(r["N"]) if a["type"] == "course"}
    assert picked == {r[letter] for letter in players}


def test_y5_without_forgiveness_both_settings_pick_the_same_players():
    picks = []
    for as_cast in (True, False):
        match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", course_as_cast=as_cast)
        cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]],
                     r["N"]: [r["H"]]})
        match.apply(r["C"], {"type": "decline"})
        picks.append({a["seat"] for a in match.legal_actions(r["N"]) if a["type"] == "course"})
    assert picks[0] == picks[1] == {r["B"]}


def test_change_course_with_the_navigator_choosing_the_new_target():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B",
                             change_course="navigator_moves")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["H"]]})
    match.apply(r["C"], {"type": "decline"})
    match.apply(r["N"], {"type": "course", "seat": r["C"], "index": 0, "target": r["N"]})
    assert state(match)["ballots2"][r["C"]] == [r["N"]]
    assert state(match)["guilty"] == r["H"]  # H 2, N 1, C 1


def test_a_player_with_two_votes_recasts_one_of_them():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", condemn="C")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"], r["H"]], r["H"]: [r["C"]],
                 r["N"]: [r["C"]]})
    match.apply(r["C"], {"type": "decline"})
    match.apply(r["N"], {"type": "course", "seat": r["C"]})
    assert {(a["index"], a["target"]) for a in match.legal_actions(r["C"])} == {
        (0, r["N"]), (1, r["N"])}
    match.apply(r["C"], {"type": "recast", "index": 1, "target": r["N"]})
    assert state(match)["ballots2"][r["C"]] == [r["H"], r["N"]]
    assert state(match)["guilty"] is None  # H 2, C 2, N 1: a tie
    assert match.result().winners == [r["H"]]


def test_a_seats_own_screen_says_you_where_the_others_read_its_name():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", condemn="C")
    name = match.view(PUBLIC)["names"][r["C"]]
    assert "Condemned: you cast two votes" in match.display(r["C"]).lines
    assert f"Condemned: {name} casts two votes" in match.display(r["N"]).lines
    assert "Innocent: you" in match.display(r["B"]).lines
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"], r["H"]], r["H"]: [r["C"]],
                 r["N"]: [r["C"]]})
    match.apply(r["C"], {"type": "decline"})
    match.apply(r["N"], {"type": "course", "seat": r["C"]})
    assert "You must change a vote" in match.display(r["C"]).lines
    assert f"{name} must change a vote" in match.display(r["B"]).lines
