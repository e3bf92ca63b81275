"""Moon Yeti's secret-bearing steps, at the seat level: the Cabin Search, the
Confession, every ballot of both votes and Bosun Knows Best (Y6) look the same from
outside, whatever the seat chose or whether it acted (docs/seats.md, "The secrecy
rule"; docs/games/moon-yeti.md)."""
from __future__ import annotations

import pytest

from companion.games.moon_yeti.data import BOATSWAIN, CHAPLAIN, HELMSMAN, NAVIGATOR
from tests.secrecy.harness import action_is


def roles(pair) -> dict[str, int]:
    """Role -> seat, the same on both tables (one seed)."""
    found = pair.one.match.snapshot()["state"]["roles"]
    assert found == pair.two.match.snapshot()["state"]["roles"]
    return {role: found.index(role) for role in (BOATSWAIN, CHAPLAIN, HELMSMAN, NAVIGATOR)}


def declared(twins, **options):
    """A 4-seat match in round-1 discussion, the time typed by seat 1."""
    pair = twins("moon-yeti", 4, {"time_source": "typed", **options})
    pair.both(0, action_is(type="declare", minute=7))
    return pair, roles(pair)


def everyone_ready(pair, but=()):
    for seat in range(4):
        if seat not in but:
            pair.both(seat, action_is(type="ready"))


def targets(side, seat, kind="vote") -> list[int]:
    return [c.action["target"] for c in side.hardware[seat].display.choices
            if c.action["type"] == kind]


def test_nobody_can_tell_whether_the_boatswain_searched_a_cabin(twins):
    pair, r = declared(twins)
    pair.assert_same()
    boatswain = r[BOATSWAIN]
    pair.one.choose(boatswain, action_is(type="search", target=r[NAVIGATOR]))
    pair.assert_same(private=[boatswain])
    everyone_ready(pair)
    pair.assert_same(private=[boatswain])


def test_a_different_cabin_searched_looks_the_same(twins):
    pair, r = declared(twins)
    boatswain = r[BOATSWAIN]
    pair.one.choose(boatswain, action_is(type="search", target=r[NAVIGATOR]))
    pair.two.choose(boatswain, action_is(type="search", target=r[HELMSMAN]))
    pair.assert_same(private=[boatswain])


def test_only_the_target_can_tell_that_the_chaplain_took_a_confession(twins):
    pair, r = declared(twins)
    chaplain, target = r[CHAPLAIN], r[HELMSMAN]
    pair.one.choose(chaplain, action_is(type="confess", target=target))
    # The target's phone is told by the rules (Y2); its OLED at rest is not.
    pair.assert_same(private=[chaplain, target])
    everyone_ready(pair)
    pair.assert_same(private=[chaplain, target])


def vote_apart(pair, told: list[int]) -> None:
    """Every ballot of the open vote but the last is cast differently on the two tables
    (the first offered target on one, the last on the other); after each, nobody else
    can tell. ``told``: seats whose own phones already differ."""
    while True:
        voters = pair.one.match.acting()
        assert voters == pair.two.match.acting()
        key = "vote1" if pair.one.match.step() == "vote1" else "vote2"
        vote = pair.one.match.view("public")["state"][key]
        if vote["ballots_total"] - vote["ballots_in"] == 1:
            return  # the last ballot reveals them all
        voter = voters[0]
        options = targets(pair.one, voter)
        pair.one.choose(voter, action_is(type="vote", target=options[0]))
        pair.two.choose(voter, action_is(type="vote", target=options[-1]))
        if voter not in told:
            told.append(voter)
        pair.assert_same(private=told)


def test_every_innocence_ballot_looks_the_same_whatever_it_names(twins):
    pair, r = declared(twins)
    everyone_ready(pair)
    vote_apart(pair, [])


def test_the_helmsmans_unused_second_ballot_looks_like_a_cast_one(twins):
    pair, r = declared(twins)
    everyone_ready(pair)
    helmsman = r[HELMSMAN]
    pair.both(helmsman, action_is(type="vote", target=r[NAVIGATOR]))
    pair.one.choose(helmsman, action_is(type="one_vote"))
    pair.two.choose(helmsman, action_is(type="vote", target=r[BOATSWAIN]))
    pair.assert_same(private=[helmsman])


def to_guilt_vote(twins, condemn: str | None = None):
    """Both tables at the guilt vote, the Chaplain declared innocent in round 1."""
    pair, r = declared(twins)
    everyone_ready(pair)
    innocent = r[CHAPLAIN]
    while pair.one.match.step() == "vote1":
        voter = pair.one.match.acting()[0]
        pick = innocent if voter != innocent else r[NAVIGATOR]
        if voter == r[HELMSMAN] and pair.one.match.view(voter)["state"]["vote1"]["mine"]:
            pair.both(voter, action_is(type="one_vote"))
        else:
            pair.both(voter, action_is(type="vote", target=pick))
    while pair.one.match.step() == "reckon":
        pair.both(r[NAVIGATOR], action_is(type="decline"))
    assert pair.one.match.step() == "discuss2"
    if condemn:
        pair.both(r[HELMSMAN], action_is(type="condemn", target=r[condemn]))
    everyone_ready(pair)
    assert pair.one.match.step() == "vote2"
    pair.assert_same()
    return pair, r


def test_every_guilt_ballot_looks_the_same_whatever_it_names(twins):
    pair, r = to_guilt_vote(twins)
    vote_apart(pair, [])


@pytest.mark.parametrize("condemned", [None, BOATSWAIN])
def test_nobody_can_tell_whether_the_boatswain_waits(twins, condemned):
    """Bosun Knows Best (Y6): one press per ballot, waiting or voting, so the count of
    ballots in moves alike; a condemned Boatswain presses twice either way."""
    pair, r = to_guilt_vote(twins, condemn=condemned)
    boatswain = r[BOATSWAIN]
    for _ballot in range(2 if condemned else 1):
        pair.one.choose(boatswain, action_is(type="bosun_wait"))
        pair.two.choose(boatswain, lambda a: a["type"] == "vote")
        pair.assert_same(private=[boatswain])
    for seat in range(4):  # every other ballot but the last, which reveals
        if seat in (boatswain, r[NAVIGATOR]):
            continue
        pair.both(seat, lambda a: a["type"] == "vote")
        pair.assert_same(private=[boatswain])


@pytest.mark.parametrize("warns", [True, False])
def test_ready_tells_an_unused_search_or_confession_and_the_rest_stays_alike(twins, warns):
    """Safer finality: 'Ready, and give up my search' while the search is unused
    (``ready_warns``); inside the secret "Your move" group, so nobody else can tell."""
    pair, r = declared(twins, ready_warns=warns)
    boatswain, chaplain = r[BOATSWAIN], r[CHAPLAIN]

    def ready_label(side, seat):
        return next(c.label for c in side.hardware[seat].display.choices
                    if c.action["type"] == "ready")
    assert ready_label(pair.one, boatswain) == (
        "Ready, and give up my search" if warns else "Ready to vote")
    assert ready_label(pair.one, chaplain) == (
        "Ready, and give up my confession" if warns else "Ready to vote")
    pair.one.choose(boatswain, action_is(type="search", target=r[NAVIGATOR]))
    assert ready_label(pair.one, boatswain) == "Ready to vote"
    pair.assert_same(private=[boatswain])
    pair.both(boatswain, action_is(type="ready"))
    pair.assert_same(private=[boatswain])


def test_the_discussion_timer_and_the_nudges_tell_nothing_of_a_cabin_search(twins):
    pair, r = declared(twins, discussion_seconds=60)
    boatswain = r[BOATSWAIN]
    pair.only_one(boatswain, action_is(type="search", target=r[NAVIGATOR]))
    pair.assert_same(private=[boatswain])
    pair.both(r[NAVIGATOR], action_is(type="ready"))
    pair.advance(45)  # the last seconds: the lights of the seats still talking blink
    assert pair.one.hardware[r[HELMSMAN]].led_state == "blink"
    pair.assert_same(private=[boatswain])
    pair.advance(20)  # the time is up: the vote opens, every voter is nudged alike
    assert pair.one.match.step() == pair.two.match.step() == "vote1"
    pair.assert_same(private=[boatswain])

