"""bots: how strong and how quick each level is, per game (figures printed, nothing
asserted; docs/bots.md keeps the latest).

For each game at its smallest and a middle seat count:
- the normal bot in one seat (each seat in turn) against random players: its win share
  with a 95% Wilson interval, beside the share a random player takes in that seat;
- the hard bot in one seat against normal bots;
- decision times (p50, p95) at each level, as the matches above and a few easy
  ones met them; the levels keep their clock caps, as at the table.

    python -m bench.bots --matches 40 --hard-matches 10 --workers 2
    python -m bench.bots --games moon-yeti,captains-orders --seats smallest
    python -m bench.bots --games card-mutiny --seats smallest --matches 0 --hard-matches 40
    python -m bench.bots --games captains-orders --seats middle --matches 0 --hard-matches 40

--matches 0 (or --hard-matches 0, --easy-matches 0) leaves that part out.

Bot matches are slow by design (a normal decision searches 200 worlds): a 95%
interval of +-5 points takes about 400 matches per cell, hours of a core for the long
games; --matches sets what a run can afford and the table shows the interval it got.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import companion.games
from companion.simulate import simulate


def seat_counts(game_id: str, which: str) -> list[int]:
    """The smallest seat count and a middle one (``which``: both, smallest or middle)."""
    spec = companion.games.get(game_id).spec
    middle = (spec.min_seats + spec.max_seats + 1) // 2
    return {"smallest": [spec.min_seats], "middle": [middle]}.get(
        which, sorted({spec.min_seats, middle}))


def _percentiles(times: list[float]) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{statistics.median(ordered) * 1000:.0f}/{p95 * 1000:.0f}"


def run(games: list[str], matches: int, hard_matches: int, easy_matches: int,
        which: str, workers: int, random_matches: int = 400) -> list[dict[str, Any]]:
    """One row per game and seat count (see the module docstring)."""
    rows = []
    for game_id in games:
        game = companion.games.get(game_id)
        for seats in seat_counts(game_id, which):
            started = time.perf_counter()
            # Random players in the same seats, through the same loop as the bots (the
            # host's engine moves left out: a random "end" would end matches unwon).
            rand = simulate(game, random_matches, seats, "bench-random", players="random",
                            against="random", workers=workers)
            random_share = rand.lead_share()[0]
            normal = simulate(game, matches, seats, "bench-normal", players="normal",
                              against="random", workers=workers, clock=True) if matches else None
            hard = simulate(game, hard_matches, seats, "bench-hard", players="hard",
                            against="normal", workers=workers, clock=True) if hard_matches else None
            easy = simulate(game, easy_matches, seats, "bench-easy", players="easy",
                            against="random", workers=workers, clock=True) if easy_matches else None
            times: dict[str, list[float]] = {}
            for report in (normal, hard, easy):
                for name, found in (report.decisions.items() if report else ()):
                    times.setdefault(name, []).extend(found)
            rows.append({"game": game_id, "seats": seats, "random_share": random_share,
                         "normal": normal.lead_share() if normal else None,
                         "normal_n": normal.matches if normal else 0,
                         "hard": hard.lead_share() if hard else None,
                         "hard_n": hard.matches if hard else 0,
                         "easy": easy.lead_share() if easy else None,
                         "times": {k: _percentiles(v) for k, v in times.items()},
                         "seconds": time.perf_counter() - started})
            print(_line(rows[-1]), flush=True)
    return rows


def _share(found: tuple[float, float, float] | None, n: int) -> str:
    if found is None:
        return "-"
    p, low, high = found
    return f"{100 * p:.0f}% ({100 * low:.0f}-{100 * high:.0f}, n={n})"


def _ratio(row: dict[str, Any], level: str) -> str:
    """The level's share over a random seat's (the even share, in a symmetric game:
    hard against normal reads as how much more than its seat's share hard takes)."""
    if row[level] is None or not row["random_share"]:
        return ""
    return f" = {row[level][0] / row['random_share']:.1f}x"


def _line(row: dict[str, Any]) -> str:
    times = row["times"]
    return (f"{row['game']:16} {row['seats']} seats  random seat {100 * row['random_share']:.0f}%"
            f"  normal vs random {_share(row['normal'], row['normal_n'])}{_ratio(row, 'normal')}"
            f"  hard vs normal {_share(row['hard'], row['hard_n'])}{_ratio(row, 'hard')}"
            f"  decision ms p50/p95: easy {times.get('easy', '-')}, normal"
            f" {times.get('normal', '-')}, hard {times.get('hard', '-')}"
            f"  ({row['seconds']:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots")
    parser.add_argument("--games", default=",".join(companion.games.GAMES))
    parser.add_argument("--matches", type=int, default=40, help="normal vs random, per cell")
    parser.add_argument("--hard-matches", type=int, default=10, help="hard vs normal, per cell")
    parser.add_argument("--easy-matches", type=int, default=4, help="easy vs random, per cell")
    parser.add_argument("--seats", choices=("both", "smallest", "middle"), default="both")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    run(args.games.split(","), args.matches, args.hard_matches, args.easy_matches,
        args.seats, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
