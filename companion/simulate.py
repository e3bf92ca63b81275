"""Random-playout simulation: many matches of random legal moves, with figures.

Used by ``mutiny simulate``; plays through the same ``Match`` the table uses.
"""
from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.engine import Match
from companion.engine.rules import Game


@dataclass
class SimulationReport:
    """What a batch of random matches did."""

    game: str
    seats: int
    matches: int = 0
    wins: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    step_times: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0

    def slowest_step(self) -> tuple[str, float, float] | None:
        """(step, worst seconds, mean seconds) of the step whose worst action took longest."""
        if not self.step_times:
            return None
        name = max(self.step_times, key=lambda k: max(self.step_times[k]))
        times = self.step_times[name]
        return name, max(times), statistics.fmean(times)


def play_random(game: Game, seats: int, seed: str, options: dict[str, Any],
                report: SimulationReport) -> Match:
    """One match of uniformly random legal moves (over every actor who may act)."""
    rng = random.Random(f"policy/{seed}")
    match = Match.create(game, seats, options, seed=seed)
    while not match.is_over:
        choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)]
        if not choices:
            raise RuntimeError(f"seed {seed}: nobody can act at step {match.step()!r}")
        actor, action = rng.choice(choices)
        step = match.step()
        started = time.perf_counter()
        match.apply(actor, action)
        report.step_times.setdefault(step, []).append(time.perf_counter() - started)
    return match


def simulate(game: Game, count: int, seats: int, seed: str = "0",
             options: dict[str, Any] | None = None,
             progress: Callable[[int], None] | None = None) -> SimulationReport:
    """Play ``count`` random matches; raise on the first error (with its seed)."""
    report = SimulationReport(game.spec.id, seats, wins=[0] * seats)
    started = time.perf_counter()
    for i in range(count):
        match_seed = f"{seed}-{i}"
        try:
            match = play_random(game, seats, match_seed, options or {}, report)
        except Exception as exc:
            raise RuntimeError(f"match {i} (seed {match_seed!r}) failed: {exc!r}") from exc
        for winner in match.result().winners:
            report.wins[winner] += 1
        report.lengths.append(match.version)
        report.matches += 1
        if progress:
            progress(i + 1)
    report.seconds = time.perf_counter() - started
    return report
