"""How long a bot takes to decide, per level, over the five games (docs/bots.md).

Decision points come from seeded random matches of each game at its smallest seat
count, spread over the match (a point where the seat has more than one choice). Each
level searches them with its own clock cap, as `mutiny simulate --bots` with the clock
and the table's worker do; the figures are its wall time per decision. Nothing is
asserted: the normal level's targets (p95 at most 1.5 s natively, 8 s in the emulated
arm64 run) are judged by ``python -m bench`` and ``./dev arm-bench``.

    python -m bench.bot_decisions [--points 20]
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

import companion.games
from bench.stats import machine, percentile
from companion.bots import Bot, SeatKnowledge, knowledge_of
from companion.engine import Match

#: Actions between two decision points taken from one match (a spread over the match).
EVERY = 7


def decision_points(game_id: str, count: int, seed: str = "bench-decisions") -> list[SeatKnowledge]:
    """``count`` decision points of ``game_id`` at its smallest seat count."""
    game = companion.games.get(game_id)
    found: list[SeatKnowledge] = []
    for n in range(1000):
        rng = random.Random(f"{seed}/{game_id}/{n}")
        match = Match.create(game, game.spec.min_seats, seed=f"{seed}-{n}")
        steps = 0
        while match.result() is None and len(found) < count:
            acting = [s for s in match.acting() if isinstance(s, int)]
            if not acting:
                break
            seat = rng.choice(acting)
            legal = match.legal_actions(seat)
            steps += 1
            if len(legal) > 1 and steps % EVERY == 0:
                found.append(knowledge_of(match, seat))
            match.apply(seat, rng.choice(legal))
        if len(found) >= count:
            return found
    return found


def run(points: int = 20, hard_points: int = 6) -> dict[str, list[float]]:
    """Each level's decision times in ms, over every game's points."""
    times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    for game_id in companion.games.ids():
        spots = decision_points(game_id, points)
        for name, many in (("easy", points), ("normal", points), ("hard", hard_points)):
            for i, knowledge in enumerate(spots[:many]):
                bot = Bot(knowledge.game, knowledge.seat, name, seed=i)
                started = time.perf_counter()
                bot.choose(knowledge)
                times[name].append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=20, help="per game, easy and normal")
    parser.add_argument("--hard-points", type=int, default=6, help="per game, hard")
    args = parser.parse_args()
    found: dict[str, Any] = run(args.points, args.hard_points)
    print(f"machine: {machine()}")
    print(f"{'level':<8} {'n':>4} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}")
    for name, samples in found.items():
        print(f"{name:<8} {len(samples):>4} {percentile(samples, 0.5):>9.0f}"
              f" {percentile(samples, 0.95):>9.0f} {max(samples):>9.0f}")


if __name__ == "__main__":
    main()
