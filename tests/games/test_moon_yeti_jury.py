"""Moon Yeti's jury (Y4): with five to eight players four hold the roles and the rest are
jurors, who win with the crew; who holds the roles.

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

import pytest

from companion.engine import Match
from companion.games.moon_yeti import CHAPLAIN, GAME, HELMSMAN, JUROR, ROLES
from tests.games.moon_yeti_helpers import (
    cast,
    decline_until,
    ready_all,
    round_one,
    start,
    state,
    to_guilt_vote,
)

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
