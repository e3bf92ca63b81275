"""Each game's ``bot_score``: a number from 0 to 1 for every seat at every point of a
match, and (in a game with one winner to share) the seats' scores add up to 1."""
from __future__ import annotations

import random

import pytest

import companion.games
from companion.engine import HOST_ACTIONS, Game, Match

#: Games whose winners are one seat or a tie (not a team): their scores are shares.
SHARED = {"booty-dice", "captains-orders", "card-mutiny", "mit-mutiny"}


@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
def test_every_game_declares_a_score_from_0_to_1(game_id):
    game = companion.games.get(game_id)
    assert type(game).bot_score is not Game.bot_score, "the game declares no bot_score"
    seats = game.spec.min_seats
    rng = random.Random(game_id)
    match = Match.create(game, seats, seed=f"score-{game_id}")
    scored = 0
    while not match.is_over and scored < 300:
        state = match.snapshot()["state"]
        scores = [game.bot_score(state, s) for s in range(seats)]
        assert all(0.0 <= v <= 1.0 for v in scores), scores
        if game_id in SHARED:
            assert sum(scores) == pytest.approx(1.0)
        choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)
                   if act["type"] not in HOST_ACTIONS]
        match.apply(*rng.choice(choices))
        scored += 1
    assert scored > 10
