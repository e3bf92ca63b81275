"""Moon Yeti's end: a tied or guilty verdict, who wins with whom, and the whole truth
revealed.

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

from companion.engine import PUBLIC
from companion.games.moon_yeti import HELMSMAN, NAVIGATOR, ROLES
from tests.games.moon_yeti_helpers import (
    cast,
    decline_until,
    ready_all,
    round_one,
    start,
    state,
    to_guilt_vote,
)

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
