"""The built-in secret vote."""
from __future__ import annotations

import random

import pytest

from companion.engine import PUBLIC, ActionRejected, Context, votes


def three_way():
    return votes.open_vote("v", [[1, 2], [0, 2], [0, 1]], ballots=[1, 2, 1])


def test_every_eligible_seat_must_cast_all_its_ballots():
    vote = three_way()
    votes.cast(vote, 0, 1, Context([]))
    votes.cast(vote, 1, 0, Context([]))
    assert votes.waiting(vote) == [1, 2]
    votes.cast(vote, 1, 2, Context([]))
    votes.cast(vote, 2, 1, Context([]))
    assert votes.is_complete(vote)


def test_ballots_are_final_and_checked():
    vote = three_way()
    votes.cast(vote, 0, 1, Context([]))
    for seat, choice, code in ((0, 2, "already_voted"), (2, 2, "illegal_choice")):
        with pytest.raises(ActionRejected) as info:
            votes.cast(vote, seat, choice, Context([]))
        assert info.value.code == code
    with pytest.raises(ActionRejected, match="vote_open"):
        votes.reveal(vote, Context([]))


def test_a_cast_ballot_is_an_undo_barrier_unless_the_game_opts_out():
    for undoable, barrier in ((False, True), (True, False)):
        ctx = Context([], ballots_undoable=undoable)
        votes.cast(three_way(), 0, 1, ctx)
        assert ctx.revealed is barrier


def test_ineligible_seats_have_no_vote():
    vote = votes.open_vote("v", [[1], None])
    assert votes.waiting(vote) == [0] and votes.choices_for(vote, 1) == []
    with pytest.raises(ActionRejected, match="not_eligible"):
        votes.cast(vote, 1, 0, Context([]))


def test_before_the_reveal_views_hold_counts_only_and_the_order_is_lost():
    first, second = three_way(), three_way()
    votes.cast(first, 0, 1, Context([]))
    votes.cast(first, 2, 0, Context([]))
    votes.cast(second, 2, 0, Context([]))
    votes.cast(second, 0, 1, Context([]))
    for viewer in (PUBLIC, 1):
        assert votes.vote_view(first, viewer) == votes.vote_view(second, viewer)
        assert votes.vote_view(first, viewer)["ballots_in"] == 2
        assert "cast" not in votes.vote_view(first, viewer)
    assert votes.vote_view(first, 0)["mine"] == [1]


def test_the_reveal_shows_every_ballot_and_marks_a_barrier():
    vote = three_way()
    for seat, choice in ((0, 2), (1, 2), (1, 0), (2, 0)):
        votes.cast(vote, seat, choice, Context([]))
    ctx = Context([])
    assert votes.reveal(vote, ctx) == [[2], [2, 0], [0]]
    assert ctx.revealed and votes.vote_view(vote, PUBLIC)["tally"] == [[2, 2], [0, 2]]
    assert votes.top_choice(vote["cast"]) is None  # a tie
    assert votes.top_choice([[1], [1], [0]]) == 1
    assert votes.top_choice([[None], [None]]) is None


def test_redeal_keeps_the_viewers_own_ballots():
    vote = three_way()
    votes.cast(vote, 0, 1, Context([]))
    votes.cast(vote, 2, 1, Context([]))
    for seed in range(20):
        twin = {**vote, "cast": [list(b) for b in vote["cast"]]}
        votes.redeal_vote(twin, 0, random.Random(seed))
        assert twin["cast"][0] == [1] and votes.vote_view(twin, 0) == votes.vote_view(vote, 0)
