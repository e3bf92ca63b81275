"""The match: validation, rejections, chance, undo, views."""
from __future__ import annotations

import pytest

from companion.engine import CHANCE, HOST, PUBLIC, ActionRejected, Match
from companion.engine.match import ENDED_HEADLINE
from companion.errors import OptionError
from tests.engine.contract import rejected
from tests.engine.toy import GAME, HighCard


def new(seats=3, **options):
    return Match.create(GAME, seats, options, seed="fixed")


def test_create_deals_by_chance_and_logs_it():
    match = new()
    assert match.version == 1 and match.step() == "vote"
    assert sorted(match.acting()) == [0, 1, 2]
    assert all(isinstance(c, int) for c in match.snapshot()["state"]["cards"])


def test_same_seed_same_deal_other_seed_other_deal():
    a, b, c = new(), new(), Match.create(GAME, 3, seed="other")
    assert a.snapshot()["state"] == b.snapshot()["state"]
    assert a.snapshot()["state"] != c.snapshot()["state"]


@pytest.mark.parametrize("actor,action,code", [
    (0, {"type": "fly"}, "unknown_action"),
    (0, {"kind": "vote"}, "bad_action"),
    (0, ["vote"], "bad_action"),
    (0, {"type": "vote", "seat": float("nan")}, "bad_action"),
    (0, {"type": "vote"}, "missing_field"),
    (0, {"type": "vote", "seat": 1, "also": 2}, "unknown_field"),
    (0, {"type": "vote", "seat": 0}, "bad_value"),
    (0, {"type": "vote", "seat": 9}, "bad_value"),
    (0, {"type": "vote", "seat": "1"}, "bad_value"),
    (0, {"type": "vote", "seat": True}, "bad_value"),
    (7, {"type": "vote", "seat": 1}, "unknown_seat"),
    ("somebody", {"type": "vote", "seat": 1}, "unknown_seat"),
    (0, {"type": "enter", "card": 3}, "not_now"),
    (CHANCE, {"type": "deal", "cards": [1, 2, 3]}, "unknown_seat"),
])
def test_bad_actions_are_rejected_with_a_code_and_change_nothing(actor, action, code):
    assert rejected(new(), actor, action) == code


def test_a_cast_vote_is_final_and_the_seat_is_no_longer_acting():
    match = new()
    match.apply(0, {"type": "vote", "seat": 1})
    assert 0 not in match.acting()
    assert rejected(match, 0, {"type": "vote", "seat": 2}) == "not_your_turn"


def test_nothing_is_accepted_after_the_end():
    match = new(seats=2, rounds=1)
    match.apply(0, {"type": "vote", "seat": 1})
    match.apply(1, {"type": "vote", "seat": 0})
    assert match.is_over and match.acting() == [] and match.step() == "over"
    assert rejected(match, 0, {"type": "vote", "seat": 1}) == "match_over"
    assert rejected(match, HOST, {"type": "undo"}) == "match_over"
    assert match.result().scores in ([1, 0], [0, 1], [0, 0], [1, 1])


def test_votes_stay_secret_until_the_reveal():
    match = new()
    match.apply(1, {"type": "vote", "seat": 2})
    for viewer in (PUBLIC, HOST, 0, 2):
        vote = match.view(viewer)["state"]["vote"]
        assert vote["ballots_in"] == 1 and "cast" not in vote
        assert "mine" not in vote or vote["mine"] == []
    assert match.view(1)["state"]["vote"]["mine"] == [2]
    assert match.view(0)["state"]["vote"]["eligible"] == [0, 1, 2]


def test_undo_goes_back_to_the_last_chance_outcome_and_no_further():
    match = new()
    start = match.snapshot()
    assert not match.can_undo
    assert rejected(match, HOST, {"type": "undo"}) == "not_now"
    match.apply(0, {"type": "bump"})
    match.apply(1, {"type": "bump"})
    assert match.can_undo
    match.apply(HOST, {"type": "undo"})
    match.apply(HOST, {"type": "undo"})
    assert match.snapshot()["state"] == start["state"]
    assert match.version == start["meta"]["version"] + 4  # undo is logged too
    assert not match.can_undo


def test_undo_stops_at_a_reveal():
    match = new()
    for seat, target in ((0, 1), (1, 2)):
        match.apply(seat, {"type": "vote", "seat": target})
    assert match.can_undo
    match.apply(2, {"type": "vote", "seat": 0})  # the reveal, then a new deal
    assert not match.can_undo


def test_a_cast_ballot_bars_undo_unless_the_game_opts_out():
    class FinalBallots(HighCard):
        ballots_undoable = False

    for game, undoable in ((HighCard(), True), (FinalBallots(), False)):
        match = Match.create(game, 3, seed="ballots")
        match.apply(0, {"type": "vote", "seat": 1})
        assert match.can_undo is undoable


def test_pause_blocks_seats_and_resume_lets_them_act():
    match = new()
    match.apply(HOST, {"type": "pause"})
    assert match.is_paused and match.legal_actions(0) == []
    assert rejected(match, 0, {"type": "vote", "seat": 1}) == "paused"
    assert {"type": "resume"} in match.legal_actions(HOST)
    match.apply(HOST, {"type": "resume"})
    match.apply(0, {"type": "vote", "seat": 1})


def test_the_host_can_end_a_match():
    match = new()
    match.apply(HOST, {"type": "end"})
    assert match.is_over and match.step() == "ended"
    assert match.result().reason == "ended by the host"


def test_a_match_the_host_ended_says_so_in_its_headlines():
    # The game knows nothing of the host's end: its own headline would still name the
    # step the match was at, above a board that says it has ended.
    match = new()
    before = match.summary()["headline"]
    match.apply(HOST, {"type": "end"})
    assert match.summary()["headline"] == ENDED_HEADLINE != before
    assert [p["text"] for p in match.board() if p["part"] == "headline"] == [ENDED_HEADLINE]


def test_views_are_per_viewer_and_unknown_viewers_are_refused():
    match = new()
    cards = match.snapshot()["state"]["cards"]
    assert match.view(0)["state"]["my_card"] == cards[0]
    assert "my_card" not in match.view(PUBLIC)["state"]
    assert "host" in match.view(HOST) and "you" not in match.view(HOST)
    assert match.view(2)["you"]["legal"] == match.legal_actions(2)
    with pytest.raises(ActionRejected):
        match.view(5)


def test_display_is_built_from_the_seat_view():
    display = new().display(1)
    assert display.choices and all(c.secret for c in display.choices)
    assert display.to_dict()["choices"][0]["action"]["type"] in ("vote", "bump")


def test_bad_setup_is_refused():
    with pytest.raises(OptionError):
        Match.create(GAME, 9)
    with pytest.raises(OptionError):
        Match.create(GAME, 3, {"rounds": 0})
    with pytest.raises(OptionError):
        Match.create(GAME, 3, {"speed": 1})
    with pytest.raises(OptionError):
        Match.create(GAME, 3, {"dealt": "yes"})
    with pytest.raises(ActionRejected):
        Match.create(GAME, 3, names=["a", "b"])


def test_entered_outcomes_replace_chance():
    match = Match.create(GAME, 2, {"dealt": False}, seed=1)
    assert match.version == 0 and match.acting() == [0] and match.step() == "deal"
    match.apply(0, {"type": "enter", "card": 4})
    match.apply(1, {"type": "enter", "card": 7})
    assert match.snapshot()["state"]["cards"] == [4, 7]
    assert match.snapshot()["meta"]["draws"] == 0


def test_the_result_is_the_callers_own_copy():
    match = Match.create(GAME, 2, {"rounds": 1}, seed="fixed")
    match.apply(0, {"type": "vote", "seat": 1})
    match.apply(1, {"type": "vote", "seat": 0})
    assert match.is_over and "ended by the host" not in match.result().reason
    result = match.result()
    result.winners.append(2)
    result.scores[0] = 99
    assert match.result() != result  # the match keeps its own


def test_a_views_result_is_the_callers_own_data():
    """Views carry the result without copying the whole Result for every viewer; what
    one viewer's view holds is still its own."""
    match = Match.create(GAME, 2, {"rounds": 1}, seed="fixed")
    match.apply(0, {"type": "vote", "seat": 1})
    match.apply(1, {"type": "vote", "seat": 0})
    kept = match.result()
    first = match.view(0)["result"]
    assert first == kept.to_dict()
    first["winners"].append(5)
    first["scores"][0] = 99
    first["details"]["added"] = True
    assert match.view(1)["result"] == kept.to_dict() == match.result().to_dict()
