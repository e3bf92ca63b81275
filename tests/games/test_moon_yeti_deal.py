"""Moon Yeti's options and deal (four roles, the minutes split into four secret cards, the
aces mode) and declaring the time (Y1): the clock read once, or a typed minute.

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

import json

import pytest

from companion.engine import PUBLIC, ActionRejected, Journal, Match
from companion.errors import OptionError
from companion.games.moon_yeti import GAME, ROLES
from tests.games.moon_yeti_helpers import state, ten_32

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


def test_the_phone_reads_when_to_declare_as_one_sentence():
    match = Match.create(GAME, 4, {"time_source": "typed"}, seed=3, clock=ten_32)
    shown = match.display(1)
    # The phone had the OLED's three rows as three lines: "When the roles are", ...
    assert shown.lines[1:] == ("When the roles are announced, any seat types the minute",)
    assert shown.short_lines[1:] == ("When the roles are", "announced, any seat",
                                     "types the minute")
