"""Bots play every game to the end at every level (small budgets: the same search,
fewer worlds), only ever legal moves, and the same moves for the same seed."""
from __future__ import annotations

import random

import pytest

import companion.games
from companion.bots import Bot, knowledge_of, level
from companion.engine import Match
from companion.simulate import play_seats

#: Each level as it is, but a few worlds a decision and no clock: the test's speed.
SMALL = {name: level(name, iterations=4, seconds=None, depth=4)
         for name in ("easy", "normal", "hard")}


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
def test_bots_play_every_game_to_the_end(game_id, name):
    game = companion.games.get(game_id)
    seats = game.spec.min_seats
    match, times = play_seats(game, seats, f"end-{name}", {}, [SMALL[name]] * seats)
    # Match.apply refuses anything not listed: an illegal move would have raised.
    assert match.is_over and match.result().winners
    assert times[name] and all(t >= 0 for t in times[name])


def test_a_bot_choice_is_always_one_of_the_legal_actions():
    game = companion.games.get("mit-mutiny")
    match = Match.create(game, 4, seed="legal")
    bots = [Bot(game, s, SMALL["normal"], seed=s) for s in range(4)]
    rng, checked = random.Random(2), 0
    while not match.is_over and checked < 150:
        actor = rng.choice(match.acting())
        knowledge = knowledge_of(match, actor)
        action = bots[actor].choose(knowledge)
        assert action in knowledge.legal and action in match.legal_actions(actor)
        match.apply(actor, action)
        checked += 1
    assert checked > 50


def test_the_same_seed_plays_the_same_match():
    game = companion.games.get("booty-dice")
    one, _ = play_seats(game, 3, "again", {}, [SMALL["normal"]] * 3)
    two, _ = play_seats(game, 3, "again", {}, [SMALL["normal"]] * 3)
    assert one.snapshot() == two.snapshot()


def test_random_seats_and_bot_seats_play_together():
    game = companion.games.get("moon-yeti")
    match, times = play_seats(game, 5, "mixed", {}, ["random", SMALL["hard"], "random",
                                                     "random", "random"])
    assert match.is_over and list(times) == ["hard"]


def test_a_level_that_is_not_there_is_refused():
    with pytest.raises(ValueError, match="no bot level"):
        level("grandmaster")
