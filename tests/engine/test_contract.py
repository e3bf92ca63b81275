"""Every registered game, at every seat count, held to the engine's contract."""
from __future__ import annotations

import pytest

import companion.games
from companion.engine import Journal
from tests.engine.contract import Tally, play_and_check
from tests.engine.toy import GAME as TOY

GAMES = {**companion.games.GAMES, TOY.spec.id: TOY}
CASES = [(gid, n) for gid, game in GAMES.items()
         for n in range(game.spec.min_seats, game.spec.max_seats + 1)]
#: Playouts per game in CI (split over its seat counts); --full plays 1,000 per game.
PER_GAME = 200
PER_GAME_FULL = 1000
#: Long games (hundreds of actions a match) play fewer in CI, to keep CI within its time;
#: `--full` plays 1,000 of every game.
PER_GAME_CI = {"card-mutiny": 25, "mit-mutiny": 40, "captains-orders": 100}
#: Playouts at each seat count in every run at least.
PER_SEATS_MIN = 5
#: `--fast` (a developer's loop) plays this many at each seat count: the fewest whose seeds
#: still run a timer out and change a re-deal in every game (card-mutiny's matches are
#: hundreds of actions long, and its second seed already re-deals).
PER_SEATS_FAST = 3
PER_SEATS_FAST_BY_GAME = {"card-mutiny": 2}


@pytest.fixture(scope="module")
def journal():
    with Journal(":memory:") as j:
        yield j


@pytest.mark.parametrize("game_id,seats", CASES)
def test_random_playouts_keep_the_contract(request, journal, game_id, seats):
    game = GAMES[game_id]
    counts = game.spec.max_seats - game.spec.min_seats + 1
    per_game = PER_GAME_FULL if request.config.full_run else PER_GAME_CI.get(game_id, PER_GAME)
    playouts = max(PER_SEATS_MIN, -(-per_game // counts))
    if request.config.fast_run:
        playouts = PER_SEATS_FAST_BY_GAME.get(game_id, PER_SEATS_FAST)
    tally = Tally()
    for seed in range(playouts):
        # Deep checks on every step of the first playouts, then on every 4th step.
        play_and_check(game, seats, seed, tally, journal, deep_every=1 if seed < 5 else 4)
    assert tally.ended == playouts
    assert tally.rejections > 0 and "unknown_action" in tally.codes
    if any(step.timed and step.timed.ends for step in game.steps.values()):
        # A timer's ending move was made, and replayed from the journal, in some playout.
        assert tally.timers_ran_out > 0, f"{game_id}: no timer ever ran out"
    if game.has_secrets:
        # The re-deal test must have re-drawn something, or it proved nothing.
        assert tally.redeals_changed > 0, f"{game_id}: redeal never changed anything"
