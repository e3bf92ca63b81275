"""Moon Yeti: every rule of the rulebook and rulings Y1-Y6, checked on exact matches.

Most tests type the time (``time_source="typed"``) so they can make a chosen role the
Mutineer: they read that role's card and enter one of its minutes.
"""
from __future__ import annotations

import json
import random
from datetime import datetime

import pytest

from companion.engine import PUBLIC, ActionRejected, Journal, Match, RedealFailed
from companion.engine.display import menu
from companion.errors import OptionError
from companion.games.moon_yeti import (
    BOATSWAIN, CHAPLAIN, GAME, HELMSMAN, JUROR, NAVIGATOR, ROLES, WAIT,
)

AT_10_32 = datetime(2026, 1, 1, 10, 32)


def ten_32() -> datetime:
    return AT_10_32


def state(match: Match) -> dict:
    return match.snapshot()["state"]


def roles_of(match: Match) -> dict[str, int]:
    """Role name -> seat (B, C, H, N as the first letters), plus the jurors."""
    roles = state(match)["roles"]
    out = {role[0]: roles.index(role) for role in ROLES}
    out["J"] = [s for s, r in enumerate(roles) if r == JUROR]
    return out


def start(seats: int = 4, mutineer: str = HELMSMAN, seed: int = 3, **options):
    """A match in round-1 discussion whose Mutineer is the holder of ``mutineer``."""
    options.setdefault("time_source", "typed")
    # One match id, so twin matches played differently can be compared view for view.
    match = Match.create(GAME, seats, options, seed=seed, clock=ten_32, match_id="moon")
    minute = state(match)["cards"][ROLES.index(mutineer)][0]
    match.apply(0, {"type": "declare", "minute": minute})
    return match, roles_of(match)


def test_the_phone_reads_when_to_declare_as_one_sentence():
    match = Match.create(GAME, 4, {"time_source": "typed"}, seed=3, clock=ten_32)
    shown = match.display(1)
    # The phone had the OLED's three rows as three lines: "When the roles are", ...
    assert shown.lines[1:] == ("When the roles are announced, any seat types the minute",)
    assert shown.short_lines[1:] == ("When the roles are", "announced, any seat",
                                     "types the minute")


def ready_all(match: Match) -> None:
    step = match.step()
    for seat in range(match.seats):
        if match.step() == step and not state(match)["ready"][seat]:
            match.apply(seat, {"type": "ready"})


def cast(match: Match, ballots: dict[int, list]) -> None:
    """Cast every listed ballot: a seat, None ("No second vote") or WAIT."""
    for seat, picks in ballots.items():
        for pick in picks:
            if pick is None:
                match.apply(seat, {"type": "one_vote"})
            elif pick == WAIT:
                match.apply(seat, {"type": "bosun_wait"})
            else:
                match.apply(seat, {"type": "vote", "target": pick})


def decline_until(match: Match, step: str) -> None:
    """Let the optional after-reveal actions pass until ``step`` (or the end)."""
    while not match.is_over and match.step() != step:
        seat = match.acting()[0]
        assert {"type": "decline"} in match.legal_actions(seat)
        match.apply(seat, {"type": "decline"})


def round_one(match: Match, r: dict, ballots: dict[int, list]) -> None:
    """Discussion, then the innocence vote with no Dead Reckoning."""
    ready_all(match)
    cast(match, ballots)
    decline_until(match, "discuss2")


def to_guilt_vote(mutineer: str = HELMSMAN, innocent: str = "B", seats: int = 4,
                  condemn: str | None = None, **options):
    """A match at the guilt vote: ``innocent`` (a role letter) won round 1."""
    match, r = start(seats, mutineer, **options)
    target = r[innocent]
    ballots = {}
    for seat in range(match.seats):
        if state(match)["roles"][seat] == JUROR and not state(match)["options"]["jury"]:
            continue
        pick = target if seat != target else next(t for t in (r["B"], r["C"], r["N"])
                                                  if t != target)
        ballots[seat] = [pick, None] if seat == r["H"] else [pick]
    round_one(match, r, ballots)
    assert state(match)["innocent"] == target
    if condemn:
        match.apply(r["H"], {"type": "condemn", "target": r[condemn]})
    ready_all(match)
    return match, r


def game_views(match: Match) -> dict:
    """Every seat's and the public's game view, legal actions and display."""
    out = {}
    for viewer in [PUBLIC, *range(match.seats)]:
        view = match.view(viewer)
        out[viewer] = (view["state"], view.get("you", {}).get("legal"),
                       match.display(viewer).to_dict() if viewer != PUBLIC else None)
    return out


# -- options and the deal ---------------------------------------------------------------

def test_options_default_to_the_rulings_and_refuse_odd_values():
    match = Match.create(GAME, 4, seed=1, clock=ten_32)
    assert match.options == {"mode": "clock", "time_source": "clock",
                             "role_seats": "random", "confession": "truthful",
                             "change_course": "player_recasts", "course_as_cast": True,
                             "jury": True, "ready_warns": True, "discussion_seconds": 0}
    for bad in ({"mode": "dice"}, {"jury": 1}, {"confession": "lies"}, {"colour": "red"}):
        with pytest.raises(OptionError):
            Match.create(GAME, 4, bad, seed=1)
    for seats in (3, 9):
        with pytest.raises(OptionError):
            Match.create(GAME, seats, seed=1)


def test_the_deal_gives_four_roles_and_splits_the_minutes_into_four_secret_cards():
    match = Match.create(GAME, 4, seed=7, clock=ten_32)
    st = state(match)
    assert sorted(st["roles"]) == sorted(ROLES)
    assert sorted(m for card in st["cards"] for m in card) == list(range(60))
    assert all(len(card) == 15 and card == sorted(card) for card in st["cards"])
    assert match.step() == "declare" and match.acting() == [0, 1, 2, 3]
    public = match.view(PUBLIC)["state"]
    assert public["roles"] == st["roles"]  # roles are public
    assert "me" not in public and "reveal" not in public
    for seat in range(4):
        me = match.view(seat)["state"]["me"]
        assert me["card"] == st["cards"][ROLES.index(st["roles"][seat])]
        assert "is_mutineer" not in me  # not before the time is declared


def test_the_deal_is_chance_so_roles_differ_between_seeds():
    deals = {tuple(state(Match.create(GAME, 4, seed=s))["roles"]) for s in range(12)}
    assert len(deals) > 3


# -- Y1: declaring the time -----------------------------------------------------------

def test_declare_time_reads_the_clock_once_and_tells_each_role_holder_privately():
    match = Match.create(GAME, 4, seed=5, clock=ten_32)
    match.apply(2, {"type": "declare"})
    st = state(match)
    assert st["minute"] == 32 and match.step() == "discuss1"
    holder = next(s for s in range(4)
                  if 32 in st["cards"][ROLES.index(st["roles"][s])])
    assert st["mutineer"] == holder
    for seat in range(4):
        assert match.view(seat)["state"]["me"]["is_mutineer"] == (seat == holder)
    public = match.view(PUBLIC)["state"]
    assert public["minute"] == 32 and "mutineer" not in json.dumps(public)


def test_the_minute_is_journaled_and_a_replay_never_reads_the_clock_again():
    with Journal(":memory:") as journal:
        match = Match.create(GAME, 4, seed=5, clock=ten_32, journal=journal)
        match.apply(0, {"type": "declare"})
        last = journal.entries(match.id)[-1]
        assert last.actor == "chance" and last.action == {"type": "time", "minute": 32}

        def broken_clock():
            raise AssertionError("a replay read the clock")

        again = journal.load(match.id, lambda _id: GAME, clock=broken_clock)
        assert again.snapshot() == match.snapshot()


def test_a_typed_time_is_one_whole_minute_entered_by_any_seat():
    match = Match.create(GAME, 4, {"time_source": "typed"}, seed=5, clock=ten_32)
    assert match.legal_actions(1) == [{"type": "declare", "minute": m} for m in range(60)]
    with pytest.raises(ActionRejected) as info:
        match.apply(1, {"type": "declare", "minute": 60})
    assert info.value.code == "bad_value"
    choices = match.display(1).choices
    assert choices[47].group == ("Minute 40-49",)
    assert choices[47].label == "Declare the time :47"
    match.apply(1, {"type": "declare", "minute": 47})
    st = state(match)
    assert st["minute"] == 47
    assert 47 in st["cards"][ROLES.index(st["roles"][st["mutineer"]])]


def test_aces_mode_deals_one_ace_each_and_only_the_spades_holder_is_the_mutineer():
    match = Match.create(GAME, 4, {"mode": "aces"}, seed=9, clock=ten_32)
    st = state(match)
    assert match.step() == "discuss1"  # no time to declare
    assert st["cards"] is None and sorted(st["aces"]) == ["clubs", "diamonds", "hearts",
                                                          "spades"]
    spades = st["roles"].index(ROLES[st["aces"].index("spades")])
    assert st["mutineer"] == spades
    for seat in range(4):
        me = match.view(seat)["state"]["me"]
        assert me["ace"] == st["aces"][ROLES.index(st["roles"][seat])]
        assert me["is_mutineer"] == (seat == spades)
        assert "card" not in me
    public = json.dumps(match.view(PUBLIC)["state"])
    assert not any(suit in public for suit in ("spades", "hearts", "diamonds", "clubs"))


def test_the_aces_deal_varies_with_the_seed():
    mutineer_roles = set()
    for seed in range(20):
        st = state(Match.create(GAME, 4, {"mode": "aces"}, seed=seed))
        mutineer_roles.add(st["roles"][st["mutineer"]])
    assert mutineer_roles == set(ROLES)


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
    assert "IS the Mutineer!" in match.display(r["B"]).private
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
    assert "The Chaplain took" in match.display(r["H"]).private
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
    assert "Answer with a sign" in match.display(r["H"]).private
    assert "Watch for the sign" in match.display(r["C"]).private


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


# -- the end ----------------------------------------------------------------------------

def test_a_tied_guilt_vote_frees_the_mutineer():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B")
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["H"]]})
    decline_until(match, "over")
    assert state(match)["guilty"] is None
    assert match.result().winners == [r["H"]]
    assert match.result().reason == "The guilt vote tied: nobody is guilty"


def test_a_guilty_mutineer_loses_and_takes_the_allied_chaplain_with_him():
    match, r = start(mutineer=HELMSMAN)
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    round_one(match, r, {r["B"]: [r["N"]], r["C"]: [r["N"]], r["H"]: [r["N"], None],
                         r["N"]: [r["B"]]})
    ready_all(match)
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["B"]], r["N"]: [r["H"]]})
    decline_until(match, "over")
    assert state(match)["guilty"] == r["H"]
    assert match.result().winners == sorted([r["B"], r["N"]])
    assert match.result().scores[r["C"]] == 0


def test_the_allied_chaplain_wins_even_when_he_is_voted_guilty():
    match, r = start(mutineer=HELMSMAN)
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    round_one(match, r, {r["B"]: [r["N"]], r["C"]: [r["N"]], r["H"]: [r["N"], None],
                         r["N"]: [r["B"]]})
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["C"]]})
    decline_until(match, "over")
    assert state(match)["guilty"] == r["C"]
    assert match.result().winners == sorted([r["C"], r["H"]])


def test_the_whole_truth_is_revealed_at_the_end():
    match, r = start(mutineer=NAVIGATOR)
    match.apply(r["B"], {"type": "search", "target": r["C"]})
    match.apply(r["C"], {"type": "confess", "target": r["B"]})
    round_one(match, r, {r["B"]: [r["C"]], r["C"]: [r["B"]], r["H"]: [r["C"], None],
                         r["N"]: [r["C"]]})
    ready_all(match)
    cast(match, {r["B"]: [r["N"]], r["C"]: [r["N"]], r["H"]: [r["N"]], r["N"]: [r["B"]]})
    decline_until(match, "over")
    reveal = match.view(PUBLIC)["state"]["reveal"]
    assert reveal == {"mutineer": r["N"], "search": r["C"], "confession": r["B"],
                      "chaplain_allied": False,
                      "cards_or_aces": [state(match)["cards"][ROLES.index(role)]
                                        for role in state(match)["roles"]]}
    assert match.display(r["B"]).lines == ("You WIN!", f"Mutineer: {match.names[r['N']]}",
                                           "Found guilty")


# -- Y4: the jury ---------------------------------------------------------------------

@pytest.mark.parametrize("seats", [5, 6, 7, 8])
def test_with_five_to_eight_players_four_hold_roles_and_the_rest_are_a_jury(seats):
    match, r = start(seats, mutineer=CHAPLAIN, seed=seats)
    st = state(match)
    assert sorted(x for x in st["roles"] if x != JUROR) == sorted(ROLES)
    assert len(r["J"]) == seats - 4
    for juror in r["J"]:
        me = match.view(juror)["state"]["me"]
        assert me == {"seat": juror, "role": JUROR}  # no card, no Mutineer news
        assert match.legal_actions(juror) == [{"type": "ready"}]
    ready_all(match)
    holders = {r[k] for k in "BCHN"}
    for seat in range(seats):
        targets = {a["target"] for a in match.legal_actions(seat) if a["type"] == "vote"}
        assert targets == holders - {seat}  # jurors vote, and are never voted for
    assert state(match)["vote1"]["need"] == [2 if s == r["H"] else 1 for s in range(seats)]


def test_jurors_win_with_the_crew():
    match, r = to_guilt_vote(mutineer=HELMSMAN, innocent="B", seats=6)
    ballots = {s: [r["H"]] for s in range(6) if s != r["H"]}
    ballots[r["H"]] = [r["N"]]
    cast(match, ballots)
    decline_until(match, "over")
    winners = match.result().winners
    assert state(match)["guilty"] == r["H"]
    assert set(r["J"]) <= set(winners) and r["H"] not in winners


def test_condemn_never_gives_a_juror_a_second_vote():
    match, r = start(6, mutineer=HELMSMAN)
    round_one(match, r, {s: ([r["C"], None] if s == r["H"] else
                             [r["C"] if s != r["C"] else r["B"]]) for s in range(6)})
    targets = {a["target"] for a in match.legal_actions(r["H"]) if a["type"] == "condemn"}
    assert targets == {r["B"], r["C"], r["N"]}


def test_with_the_jury_off_jurors_only_talk():
    match, r = start(6, mutineer=HELMSMAN, jury=False)
    ready_all(match)
    assert set(match.acting()) == {r["B"], r["C"], r["H"], r["N"]}
    assert all(match.legal_actions(j) == [] for j in r["J"])


def test_first_four_seats_hold_the_roles_when_the_table_chooses():
    for seed in range(6):
        match = Match.create(GAME, 7, {"role_seats": "first_four"}, seed=seed)
        assert state(match)["roles"][4:] == [JUROR] * 3


def test_random_role_seats_are_drawn_by_chance():
    holders = set()
    for seed in range(10):
        roles = state(Match.create(GAME, 8, seed=seed))["roles"]
        holders |= {s for s, role in enumerate(roles) if role != JUROR}
    assert holders == set(range(8))


# -- secrets, the display, re-deal -----------------------------------------------------

def _values(tree, key):
    """Every value stored under ``key`` anywhere in a JSON tree."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k == key:
                yield v
            yield from _values(v, key)
    elif isinstance(tree, list):
        for item in tree:
            yield from _values(item, key)


def _check_no_leak(match: Match) -> None:
    st = state(match)
    over = match.is_over
    public = match.view(PUBLIC)["state"]
    if not over:
        assert "reveal" not in public and "me" not in public
        assert not list(_values(public, "card")) and not list(_values(public, "ace"))
    for seat in range(match.seats):
        view = match.view(seat)["state"]
        role = st["roles"][seat]
        allowed = []
        if role in ROLES:
            allowed.append(ROLES.index(role))
            if role == BOATSWAIN and st["search"] is not None:
                allowed.append(ROLES.index(st["roles"][st["search"]]))
        deck = st["cards"] or st["aces"]
        seen = list(_values(view, "card")) + list(_values(view, "ace"))
        if not over:
            assert "reveal" not in view
            assert all(card in [deck[k] for k in allowed] for card in seen), (seat, seen)
            assert len(seen) == len(allowed) or st["step"] == "deal"
            # Whether someone is the Mutineer: only for oneself, a searched cabin
            # or (truthful) a confession.
            mine = view["me"]
            flagged = len(list(_values(view, "is_mutineer")))
            expected = ("is_mutineer" in mine) + ("search" in mine) + (
                "is_mutineer" in mine.get("confession", {}))
            assert flagged == expected
            for key in ("vote1", "vote2"):
                vote = view[key]
                if vote and not vote["revealed"]:
                    assert "cast" not in vote


@pytest.mark.slow
def test_no_view_ever_holds_another_seats_card_or_the_mutineer_before_the_end():
    for seed in range(60):
        rng = random.Random(seed)
        seats = 4 + seed % 5
        options = {"mode": rng.choice(["clock", "aces"]),
                   "time_source": rng.choice(["clock", "typed"]),
                   "confession": rng.choice(["truthful", "at_table"]), "jury": seed % 3 > 0}
        match = Match.create(GAME, seats, options, seed=seed, clock=ten_32)
        while not match.is_over:
            _check_no_leak(match)
            actor = rng.choice(match.acting())
            match.apply(actor, rng.choice(match.legal_actions(actor)))
        _check_no_leak(match)


SECRET_MOVES = {"vote", "one_vote", "bosun_wait", "search", "confess"}


def test_screens_name_everyone_in_full_and_keep_secrets_off_the_resting_lines():
    for seed in range(30):
        rng = random.Random(seed)
        names = [f"Sailor {'ABCDEFGH'[i]}{'x' * rng.randrange(12)}" for i in range(8)]
        seats = 4 + seed % 5
        options = {"mode": rng.choice(["clock", "aces"]),
                   "time_source": rng.choice(["clock", "typed"]),
                   "change_course": rng.choice(["player_recasts", "navigator_moves"])}
        match = Match.create(GAME, seats, options, seed=seed, names=names[:seats],
                             clock=ten_32)
        while True:
            for seat in range(seats):
                screen = match.display(seat)
                assert screen.title and screen.lines
                assert not set(screen.lines) & set(screen.private)
                assert not any("Mutineer" in line for line in screen.lines) or match.is_over
                # Declaring the time: anyone may, nobody must (no "your move").
                assert screen.led == ("off" if not screen.choices
                                      or match.step() == "declare" else
                                      "blink" if match.step() in ("vote1", "vote2")
                                      else "on")
                for choice in screen.choices:
                    action = choice.action
                    hidden = choice.group in (("Your move",), ("Your second vote",))
                    assert choice.secret == (action["type"] in SECRET_MOVES or hidden)
                    if choice.secret and not hidden:  # nothing secret in a public group
                        assert choice.group == ()
                    if "target" in action:  # names in full: the screens fit them
                        assert names[action["target"]] in choice.label
            if match.is_over:
                break
            actor = rng.choice(match.acting())
            match.apply(actor, rng.choice(match.legal_actions(actor)))


def test_menus_take_no_more_presses_than_the_old_steps():
    # A typed minute: a group per tens digit, then the minute (as tens, then units).
    match = Match.create(GAME, 4, {"time_source": "typed"}, seed=5, clock=ten_32)
    choices = match.display(2).choices
    top = menu(choices)
    assert [item.label for item in top] == [f"Minute {d}0-{d}9" for d in range(6)]
    assert all(item.is_group and item.count == 10 for item in top)
    inner = menu(choices, ("Minute 30-39",))
    assert [choices[item.index].action["minute"] for item in inner] == list(range(30, 40))
    # Dead Reckoning: a group per cast vote (as the old pick), then its new target.
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"], r["C"]],
                 r["N"]: [r["C"]]})
    names = match.names
    choices = match.display(r["N"]).choices
    top = [item.label for item in menu(choices)]
    assert f"{names[r['H']]}'s first vote for {names[r['C']]}" in top
    assert f"{names[r['H']]}'s second vote for {names[r['C']]}" in top
    assert f"{names[r['B']]}'s vote for {names[r['C']]}" in top
    assert top[-1] == "Pass: move no vote"
    inner = menu(choices, (f"{names[r['B']]}'s vote for {names[r['C']]}",))
    assert [choices[item.index].label for item in inner] == [
        f"Move {names[r['B']]}'s vote for {names[r['C']]} to {names[r['H']]}"]


# -- Y6 and the secret actions: twin matches look the same to everyone else ----------

def seen_by_others(match: Match, actor: int) -> dict:
    """What the table and every seat but ``actor`` see: views, screens, the summary."""
    out = {"public": match.view(PUBLIC), "summary": match.summary()}
    for seat in range(match.seats):
        if seat != actor:
            out[seat] = (match.view(seat), match.display(seat).to_dict())
    return out


def at_rest(match: Match, seat: int) -> tuple:
    """What anyone glancing at a seat's screen sees: title, lines, LED, and the top
    level of its menu (a secret choice masked, a group of secrets without its count)."""
    screen = match.display(seat)
    top = []
    for item in menu(screen.choices):
        inside = [c for c in screen.choices if c.group[:1] == (item.label,)]
        if item.is_group:
            top.append((item.label, "?" if any(c.secret for c in inside) else item.count))
        else:
            top.append("?" if item.secret else item.label)
    return screen.title, screen.lines, screen.led, top


@pytest.mark.parametrize("condemned", [False, True])
def test_y6_nobody_can_tell_whether_the_boatswain_waits_until_the_reveal(condemned):
    twins = [to_guilt_vote(mutineer=HELMSMAN, innocent="C",
                           condemn="B" if condemned else None) for _ in range(2)]
    (waits, r), (votes_now, _) = twins
    assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
    presses = ([{"type": "bosun_wait"}] * 2 if condemned else [{"type": "bosun_wait"}],
               [{"type": "vote", "target": r["H"]}, {"type": "vote", "target": r["N"]}]
               [:2 if condemned else 1])
    for wait, vote in zip(*presses):
        waits.apply(r["B"], wait)
        votes_now.apply(r["B"], vote)
        assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
        assert at_rest(waits, r["B"]) == at_rest(votes_now, r["B"])
    public = waits.view(PUBLIC)["state"]["vote2"]
    assert public["ballots_in"] == (2 if condemned else 1)
    for seat in (r["C"], r["H"]):  # every ballot but the last one, which reveals
        for match in (waits, votes_now):
            match.apply(seat, {"type": "vote", "target": r["N"]})
        assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
    for match in (waits, votes_now):
        match.apply(r["N"], {"type": "vote", "target": r["H"]})
    assert waits.step() == "bosun" and votes_now.step() != "bosun"
    assert waits.view(PUBLIC)["state"]["bosun_waited"] is True


def test_nobody_else_can_tell_whether_the_boatswain_searched_a_cabin():
    (searched, r), (idle, _) = start(mutineer=NAVIGATOR), start(mutineer=NAVIGATOR)
    searched.apply(r["B"], {"type": "search", "target": r["N"]})
    assert seen_by_others(searched, r["B"]) == seen_by_others(idle, r["B"])
    # The Boatswain's own screen at rest: same title, lines, LED and top-level menu
    # (the searches he no longer has are missing only inside "Your move").
    assert at_rest(searched, r["B"]) == at_rest(idle, r["B"])
    for match in (searched, idle):
        ready_all(match)
        match.apply(r["C"], {"type": "vote", "target": r["N"]})
    assert seen_by_others(searched, r["B"]) == seen_by_others(idle, r["B"])
    assert at_rest(searched, r["B"]) == at_rest(idle, r["B"])


@pytest.mark.parametrize("rule", ["truthful", "at_table"])
def test_only_the_target_can_tell_that_the_chaplain_took_a_confession(rule):
    twins = [start(mutineer=HELMSMAN, confession=rule) for _ in range(2)]
    (confessed, r), (idle, _) = twins
    confessed.apply(r["C"], {"type": "confess", "target": r["H"]})
    assert at_rest(confessed, r["C"]) == at_rest(idle, r["C"])
    told = confessed.display(r["H"]).private[len(idle.display(r["H"]).private):]
    assert told == (("The Chaplain took", "your confession") if rule == "truthful" else
                    ("Chaplain asks: are", "you the Mutineer?", "Answer with a sign"))
    for _ in range(2):
        mine, theirs = seen_by_others(confessed, r["C"]), seen_by_others(idle, r["C"])
        # What the rules tell the target, and nothing else, sets the two apart.
        target_view, target_screen = mine.pop(r["H"])
        assert target_view["state"]["me"].pop("confessed_to") == r["C"]
        assert target_screen["private"][-len(told):] == list(told)
        target_screen["private"] = target_screen["private"][:-len(told)]
        assert (target_view, target_screen) == theirs.pop(r["H"])
        assert mine == theirs
        for match in (confessed, idle):
            ready_all(match)


def test_redeal_keeps_each_viewers_view_and_redraws_the_rest():
    match, r = start(mutineer=NAVIGATOR)
    match.apply(r["B"], {"type": "search", "target": r["C"]})
    st = state(match)
    changed = 0
    for viewer in [PUBLIC, *range(4)]:
        for k in range(5):
            twin = GAME.redeal(st, viewer, random.Random(k))
            assert GAME.view(twin, viewer) == GAME.view(st, viewer)
            changed += twin != st
            if viewer == r["B"]:
                assert twin["cards"][ROLES.index(BOATSWAIN)] == st["cards"][0]
                assert twin["cards"][ROLES.index(CHAPLAIN)] == st["cards"][1]
                assert twin["search"] == r["C"]
    assert changed > 10
    assert state(match) == st


def test_redeal_refuses_when_nothing_fits_what_the_viewer_knows():
    # An impossible position (the Mutineer declared innocent, yet the match goes on):
    # no re-deal can keep the Mutineer's view, so the re-deal says so.
    match, r = start(mutineer=NAVIGATOR)
    st = state(match)
    st["innocent"] = r["N"]
    with pytest.raises(RedealFailed):
        GAME.redeal(st, r["N"], random.Random(1))
