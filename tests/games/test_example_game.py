"""The example game of docs/writing-a-game.md: the engine's contract, its rules, the
suites that take every registered game (with the example registered the way a package
in companion/games/ is), and the guide's code, which is the example's, word for word."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import companion.games
import tests.engine.test_board as board_suite
import tests.games.test_howto as howto_suite
import tests.table.test_night as night_suite
from companion.engine import CHANCE, HOST, PUBLIC, Entry, Journal, Match
from companion.engine.display import menu
from tests.engine.contract import Tally, play_and_check, rejected
from tests.games.example_game import GAME
from tests.games.test_layout import strays
from tests.test_preview import check_first_screens

EXAMPLE = Path(__file__).parent / "example_game"
GUIDE = Path(__file__).parents[2] / "docs" / "writing-a-game.md"


@pytest.fixture
def registered(monkeypatch):
    """The example in the registry for one test, as ``companion.games`` registers a
    package of companion/games/ that exposes ``GAME``: players never see it."""
    monkeypatch.setitem(companion.games.GAMES, GAME.spec.id, GAME)
    return GAME.spec.id


def dealt(chests: list[int], rounds: int = 1, at_once: bool = False) -> Match:
    """A match whose first deal was ``chests``: replayed from that one journal entry (the
    public way to fix what chance dealt)."""
    names = [f"Seat {seat + 1}" for seat in range(len(chests))]
    deal = Entry(1, CHANCE, {"type": "deal", "chests": chests})
    options = {"rounds": rounds, "at_once": at_once}
    return Match.replay(GAME, len(chests), options, "fixed", names, "m1", [deal])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_playouts_keep_the_contract(seats):
    tally = Tally()
    with Journal(":memory:") as journal:
        for seed in range(20):
            play_and_check(GAME, seats, seed, tally, journal)
    assert tally.ended == 20 and "unknown_action" in tally.codes
    assert tally.redeals_changed > 0  # the chests were dealt again: the test bit


def test_a_raid_on_a_smaller_chest_takes_it_and_a_failed_raid_loses_your_own():
    match = dealt([5, 3, 3])
    match.apply(0, {"type": "raid", "target": 1})   # 5 > 3: takes 3, keeps 5
    match.apply(1, {"type": "bank"})                # raided: loses the 3
    match.apply(2, {"type": "raid", "target": 1})   # 3 = 3: loses own 3
    assert match.result().scores == [8, 0, 0] and match.result().winners == [0]


def test_only_the_pirate_whose_turn_it_is_chooses_and_never_themselves():
    match = dealt([1, 2])
    assert match.acting() == [0]
    assert rejected(match, 1, {"type": "bank"}) == "not_your_turn"
    assert rejected(match, 0, {"type": "raid", "target": 0}) == "bad_value"
    assert rejected(match, 0, {"type": "deal", "chests": [6, 6]}) == "unknown_action"


def test_chests_are_secret_until_opened_and_raids_are_grouped():
    names = ["Anne", "Jack", "Mary"]
    match = Match.create(GAME, 3, {"rounds": 2}, seed=4, names=names)
    assert "my_chest" not in match.view(PUBLIC)["state"]
    screen = match.display(0)
    assert screen.private[0].startswith("Your chest: ") and screen.led == "on"
    top = menu(screen.choices)
    assert [(item.label, item.is_group, item.count) for item in top] == [
        ("Bank your chest", False, 0), ("Raid a pirate", True, 2)]
    assert [item.label for item in menu(screen.choices, ("Raid a pirate",))] == [
        "Raid Jack", "Raid Mary"]
    assert [c.screen_label for c in screen.choices] == ["Bank your chest", "Jack", "Mary"]
    for seat in range(3):
        match.apply(seat, {"type": "bank"})
    said = match.summary()["lines"]
    assert len(said) == 3 and said[0].startswith("Anne keeps a chest of ")
    assert match.display(0).lines[-1].startswith("You kept your ")


def test_at_once_the_choices_are_a_secret_vote_revealed_together():
    match = dealt([5, 3, 2], at_once=True)
    assert sorted(match.acting()) == [0, 1, 2]
    screen = match.display(1)
    assert screen.led == "blink" and screen.confirm["raid"] == "lock it in"
    assert all(choice.secret for choice in screen.choices)
    match.apply(1, {"type": "raid", "target": 2})   # 3 > 2: takes 2
    assert sorted(match.acting()) == [0, 2]
    # Nobody, not the table nor another pirate, learns the ballot before the reveal.
    for viewer in (PUBLIC, 0, 2):
        vote = match.view(viewer)["state"]["vote"]
        assert vote["ballots_in"] == 1 and "cast" not in vote and not vote.get("mine")
    assert match.view(1)["state"]["vote"]["mine"] == [2]
    assert match.display(0).lines[1] == "1 of 3 have chosen"
    match.apply(0, {"type": "bank"})
    match.apply(2, {"type": "bank"})
    assert match.result().scores == [5, 5, 0]


def test_a_cast_ballot_is_final_but_a_public_choice_may_be_undone():
    secret = dealt([5, 3, 2], at_once=True)
    secret.apply(1, {"type": "bank"})
    assert {"type": "undo"} not in secret.legal_actions(HOST)
    public = dealt([5, 3, 2])
    public.apply(0, {"type": "bank"})
    assert {"type": "undo"} in public.legal_actions(HOST)


def test_the_example_has_the_shape_of_every_game():
    assert strays(EXAMPLE) == []
    assert GAME.parts is not None and "raid-or-bank" not in companion.games.GAMES


def test_the_suites_that_take_every_game_take_the_example(registered, tmp_path):
    """What a package in companion/games/ gets without asking (the guide lists them):
    run here for the example, registered for the test."""
    assert companion.games.get(registered) is GAME
    howto_suite.test_every_game_says_its_goal_a_turn_in_three_lines_and_what_the_devices_do(GAME)
    assert "_" not in repr(GAME.how_to_play()).replace("__", "")
    board_suite.test_every_game_has_a_board_that_is_json(registered)
    night_suite.test_phones_alone_play_every_game_to_its_end(tmp_path, registered)
    check_first_screens(GAME)


# -- the guide's code is the example's -------------------------------------------------

def guide_blocks() -> list[str]:
    """The Python blocks of the guide's steps (before the cost section's sketches)."""
    steps = GUIDE.read_text().split("\n## What it cost")[0]
    return re.findall(r"```python\n(.*?)```", steps, flags=re.S)


def test_every_code_block_of_the_guide_is_in_the_example_word_for_word():
    files = {p.name: p.read_text() for p in [*EXAMPLE.glob("*.py"), Path(__file__)]}
    blocks = guide_blocks()
    assert len(blocks) > 10
    for block in blocks:
        assert any(block in text for text in files.values()), f"not in the example:\n{block}"


def test_the_guide_shows_every_line_of_the_example():
    """Nothing in the package that the guide does not show (blank lines aside)."""
    blocks = guide_blocks()
    for path in sorted(EXAMPLE.glob("*.py")):
        text = path.read_text()
        shown = [False] * len(text)
        for block in blocks:
            for found in re.finditer(re.escape(block), text):
                shown[found.start():found.end()] = [True] * len(block)
        start = 0
        for line in text.splitlines(keepends=True):
            if line.strip():
                assert all(shown[start:start + len(line) - 1]), \
                    f"{path.name}: the guide does not show {line!r}"
            start += len(line)
