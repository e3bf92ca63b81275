"""How far a fair bot could get: the same search handed the whole state (docs/bots.md).

A fair bot sees its seat's view and re-deals the rest. This one (an all-seeing bot, for
this measurement only: nothing at the table can build it) searches the true state
itself, every hand and role face up. Against random players its win share is a ceiling
for any bot of that search budget: where even it stays under 1.5x the random seat's
share, no fair bot reaches 1.5x either, and the gap is what the secret costs. Figures
printed, nothing asserted.

    python -m bench.bot_ceiling --game moon-yeti --seats 4 --matches 400 --workers 2
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from typing import Any

import companion.games
from companion.bots import Bot, SeatKnowledge, knowledge_of, level
from companion.engine import HOST_ACTIONS, Game, Match
from companion.simulate import RANDOM, wilson


def all_seeing(game: Game) -> Game:
    """``game`` with a re-deal that changes nothing: a world is the true state."""
    class AllSeeing(type(game)):  # type: ignore[misc, valid-type]
        def redeal(self, state: Any, viewer: Any, rng: random.Random) -> Any:
            return state
    return AllSeeing()


def _knowledge(game: Game, match: Match, seat: int) -> SeatKnowledge:
    view = match.view(seat)
    return SeatKnowledge(game, seat, match.seats, view, tuple(view["you"]["legal"]),
                         match.snapshot()["state"], tuple(match.names))


def play(job: tuple[str, int, str, str]) -> bool:
    """One match with the bot (``kind``: ``fair`` or ``all-seeing``) in seat ``index
    mod seats`` and random players elsewhere; whether the bot's seat won."""
    game_id, seats, seed, kind = job
    game = companion.games.get(game_id)
    index = int(seed.rsplit("-", 1)[1])
    seat = index % seats
    seeing = all_seeing(game) if kind == "all-seeing" else game
    bot = Bot(seeing, seat, level("normal", seconds=None), seed=seed)
    rng = random.Random(f"policy/{seed}")
    match = Match.create(game, seats, seed=seed)
    while not match.is_over:
        actor = rng.choice(match.acting())
        if actor == seat:
            if kind == "all-seeing":
                action = bot.choose(_knowledge(seeing, match, seat))
            else:
                action = bot.choose(knowledge_of(match, seat))
        else:
            action = rng.choice([a for a in match.legal_actions(actor)
                                 if a["type"] not in HOST_ACTIONS])
        match.apply(actor, action)
        if bot.watches:
            bot.watch(match.view(seat))
    result = match.result()
    return result is not None and seat in result.winners


def run(game_id: str, seats: int, matches: int, workers: int) -> dict[str, Any]:
    """Win shares (with 95% intervals) of the fair and the all-seeing bot."""
    out: dict[str, Any] = {}
    for kind in ("fair", "all-seeing"):
        jobs = [(game_id, seats, f"ceiling-{i}", kind) for i in range(matches)]
        started = time.perf_counter()
        if workers > 1:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                won = pool.map(play, jobs, chunksize=4)
        else:
            won = [play(job) for job in jobs]
        out[kind] = {"share": wilson(sum(won), len(won)), "n": len(won),
                     "seconds": time.perf_counter() - started}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="moon-yeti")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    found = run(args.game, args.seats, args.matches, args.workers)
    print(f"{args.game}, {args.seats} seats, normal budget against {RANDOM} players:")
    for kind, row in found.items():
        share, low, high = row["share"]
        print(f"  {kind:<11} {share * 100:5.1f} % ({low * 100:.1f}-{high * 100:.1f}, n"
              f" {row['n']}) in {row['seconds']:.0f} s")


if __name__ == "__main__":
    main()
