"""engine: per game, the time to apply one action and random matches per second.

Random playouts through the same ``Match`` the table uses (``companion.simulate``), with
no journal, so the figure is the engine and the game alone: ``Match.apply`` checks the
action against the legal ones, applies it to a copy of the state, runs the chance steps
that follow and swaps the copy in. Matches per second include the random player's own
work (listing every legal action of everyone who may act, then picking one).
"""
from __future__ import annotations

import time
from typing import Any

import companion.games
from companion.simulate import SimulationReport, play_random


def run(seconds_per_game: float = 3.0, min_matches: int = 3) -> dict[str, dict[str, Any]]:
    """For every registered game at its most seats: play random matches for about
    ``seconds_per_game`` (at least ``min_matches``); return apply times in
    microseconds and matches per second."""
    found: dict[str, dict[str, Any]] = {}
    for game_id, game in companion.games.GAMES.items():
        seats = game.spec.max_seats
        report = SimulationReport(game_id, seats, wins=[0] * seats)
        started = time.perf_counter()
        matches = 0
        while matches < min_matches or time.perf_counter() - started < seconds_per_game:
            play_random(game, seats, f"bench-{matches}", {}, report)
            matches += 1
        elapsed = time.perf_counter() - started
        applies = [t * 1e6 for times in report.step_times.values() for t in times]
        found[game_id] = {"seats": seats, "apply_us": applies, "matches": matches,
                          "matches_per_s": matches / elapsed,
                          "actions_per_match": len(applies) / matches}
    return found


if __name__ == "__main__":
    import statistics
    for name, row in run(1.0).items():
        print(f"{name:16} {row['seats']} seats  apply p50 "
              f"{statistics.median(row['apply_us']):7.1f} us  "
              f"{row['matches_per_s']:8.1f} matches/s  "
              f"{row['actions_per_match']:6.0f} actions/match")
