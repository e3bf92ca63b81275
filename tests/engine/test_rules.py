"""Declared steps: the engine derives who acts, the legal actions and chance from them."""
from __future__ import annotations

import pytest

from companion.engine import CHANCE, ActionRejected, Choice, Game, GameSpec, Match, Step, always
from companion.engine.display import menu
from tests.engine.toy import GAME


def test_who_acts_and_what_they_may_do_come_from_the_declared_step():
    match = Match.create(GAME, 3, seed=1)
    assert match.step() == "vote" and match.acting() == [0, 1, 2]
    assert match.legal_actions(0) == [{"type": "vote", "seat": 1}, {"type": "vote", "seat": 2},
                                      {"type": "bump"}]
    assert GAME.action_types == frozenset({"enter", "vote", "bump"})


def test_chance_acts_when_its_step_says_so_and_entering_replaces_it():
    dealt = Match.create(GAME, 2, {"dealt": True}, seed=1)
    assert dealt.version == 1  # the deal, drawn by chance
    typed = Match.create(GAME, 2, {"dealt": False}, seed=1)
    assert typed.version == 0 and typed.acting() == [0]
    assert typed.legal_actions(0)[0] == {"type": "enter", "card": 1}


def test_a_seat_cannot_make_a_chance_move():
    match = Match.create(GAME, 2, {"dealt": False}, seed=1)
    with pytest.raises(ActionRejected) as err:
        match.apply(0, {"type": "deal", "cards": [1, 2]})
    assert err.value.code == "unknown_action"


def test_a_declared_move_without_its_method_is_refused_at_class_creation():
    with pytest.raises(TypeError, match="no move_ method: \\['fly'\\]"):
        class Broken(Game):  # noqa: F841 - the class statement is the test
            spec = GameSpec("broken", "Broken", 1, 1)
            steps = {"go": Step(who=lambda state: [0], moves={"fly": always})}


def test_nobody_acts_in_an_undeclared_step_or_once_the_match_is_over():
    state = GAME.setup(2, {"rounds": 1, "dealt": True})
    state["step"] = "over"
    assert GAME.acting(state) == [] and GAME.legal_actions(state, 0) == []


def test_chance_is_never_listed_as_acting():
    state = GAME.setup(2, {"rounds": 1, "dealt": True})
    assert GAME.steps["deal"].who(state) == [CHANCE]
    assert GAME.acting(state) == []


# -- menus: whole decisions filed in groups, browsed by the seat ------------------------
def _choices():
    return (
        Choice("Play your 7", {"type": "play", "rank": 7}, secret=True, group=("Play an order",)),
        Choice("Pass your 7 to Anne", {"type": "pass", "rank": 7, "to": 0}, secret=True,
               group=("Pass a card", "7")),
        Choice("Pass your 7 to Bonny", {"type": "pass", "rank": 7, "to": 1}, secret=True,
               group=("Pass a card", "7")),
        Choice("Pass your 9 to Anne", {"type": "pass", "rank": 9, "to": 0}, secret=True,
               group=("Pass a card", "9")),
        Choice("Discover the Captain", {"type": "discover"}),
    )


def test_the_top_level_shows_groups_in_first_seen_order_and_loose_choices():
    top = menu(_choices())
    assert [(i.label, i.is_group, i.count) for i in top] == [
        ("Play an order", True, 1), ("Pass a card", True, 3),
        ("Discover the Captain", False, 0)]
    assert not any(i.secret for i in top)  # the kinds of move are public


def test_a_deeper_level_of_secret_choices_is_secret():
    level = menu(_choices(), ("Pass a card",))
    assert [(i.label, i.count, i.secret) for i in level] == [("7", 2, True), ("9", 1, True)]
    leaves = menu(_choices(), ("Pass a card", "7"))
    assert [(i.label, i.index) for i in leaves] == [("Pass your 7 to Anne", 1),
                                                    ("Pass your 7 to Bonny", 2)]


def test_a_choice_carries_its_full_label_and_the_screen_form():
    choice = Choice("Attack Calico Jack", {"type": "attack", "seat": 2}, short="Hit Jack")
    assert choice.screen_label == "Hit Jack"
    assert choice.to_dict() == {"label": "Attack Calico Jack", "short": "Hit Jack",
                                "action": {"type": "attack", "seat": 2}, "secret": False}
    assert Choice("Roll", {"type": "roll"}).screen_label == "Roll"


def test_a_game_that_names_no_parts_and_writes_no_view_says_so():
    class Bare(Game):
        spec = GAME.spec

    with pytest.raises(TypeError, match="sets no `parts"):
        Bare().view({}, 0)
