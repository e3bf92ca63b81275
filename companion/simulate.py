"""Simulation: many matches of random players or bots, with figures.

Used by ``mutiny simulate``; plays through the same ``Match`` the table uses. Random
players pick any legal move of anyone who may act. Bots (``companion.bots``) get only
their seat's knowledge, as at the table. ``workers`` spreads matches over processes
(standard-library multiprocessing, one machine); match ``i`` is seeded ``SEED-i``
whichever process plays it, so a run gives the same figures on any number of workers.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
import multiprocessing
import random
import signal
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Sequence

import companion.games
from companion.bots import Bot, Level, knowledge_of, level
from companion.engine import HOST_ACTIONS, Match
from companion.engine.rules import Game

#: What plays a seat: ``"random"`` or a bot level (``"easy"``, ``"normal"``, ``"hard"``).
RANDOM = "random"


@dataclass
class SimulationReport:
    """What a batch of matches did."""

    game: str
    seats: int
    matches: int = 0
    wins: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    step_times: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0
    #: Who played: every seat ``players[0]``, or (with ``against``) one seat at a time
    #: ``players[0]``, turn about, and the others ``against``.
    players: str = RANDOM
    against: str | None = None
    #: Matches the rotating seat (``players`` when ``against`` is set) won.
    lead_wins: int = 0
    #: Seconds per bot decision, by level.
    decisions: dict[str, list[float]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    #: Each match's winners, in match order (match ``i`` was seeded ``SEED-i``).
    outcomes: list[list[int]] = field(default_factory=list)

    def slowest_step(self) -> tuple[str, float, float] | None:
        """(step, worst seconds, mean seconds) of the step whose worst action took longest."""
        if not self.step_times:
            return None
        name = max(self.step_times, key=lambda k: max(self.step_times[k]))
        times = self.step_times[name]
        return name, max(times), statistics.fmean(times)

    def share(self, seat: int) -> tuple[float, float, float]:
        """Seat ``seat``'s win share with its 95% Wilson interval."""
        return wilson(self.wins[seat], self.matches)

    def lead_share(self) -> tuple[float, float, float]:
        """The rotating seat's win share (with ``against``), with its 95% interval."""
        return wilson(self.lead_wins, self.matches)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """The share ``wins / n`` and its Wilson score interval (95% for z = 1.96): unlike
    the normal approximation it stays inside [0, 1] and behaves at 0 and n wins."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def table_clock(seed: str) -> Callable[[], datetime]:
    """A simulated match's wall clock: a time of day drawn from its seed. A game that
    reads the clock (Moon Yeti's declared minute, by default) then plays the same match
    on every run and every worker, whatever the time the simulation runs at."""
    moment = datetime(2026, 1, 1) + timedelta(
        seconds=random.Random(f"clock/{seed}").randrange(24 * 3600))
    return lambda: moment


def play_random(game: Game, seats: int, seed: str, options: dict[str, Any],
                report: SimulationReport) -> Match:
    """One match of uniformly random legal moves (over every actor who may act)."""
    rng = random.Random(f"policy/{seed}")
    match = Match.create(game, seats, options, seed=seed, clock=table_clock(seed))
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


def play_seats(game: Game, seats: int, seed: str, options: dict[str, Any],
               players: Sequence[str | Level]) -> tuple[Match, dict[str, list[float]]]:
    """One match in which seat ``s`` is played by ``players[s]`` (``"random"``, a bot
    level's name or a :class:`~companion.bots.Level`), each bot seeing only its seat's
    knowledge. Returns the match and each level's decision times (seconds). A seat that
    is not a bot, and the host where a game lets the host move on, pick at random among
    the game's own moves."""
    rng = random.Random(f"policy/{seed}")
    match = Match.create(game, seats, options, seed=seed, clock=table_clock(seed))
    bots = {s: Bot(game, s, who, seed=seed) for s, who in enumerate(players) if who != RANDOM}
    watching = [bot for bot in bots.values() if bot.watches]
    times: dict[str, list[float]] = {}
    while not match.is_over:
        acting = match.acting()
        if not acting:
            raise RuntimeError(f"seed {seed}: nobody can act at step {match.step()!r}")
        actor = rng.choice(acting)
        if actor in bots:
            started = time.perf_counter()
            action = bots[actor].choose(knowledge_of(match, actor))
            times.setdefault(bots[actor].level.name, []).append(time.perf_counter() - started)
        else:
            action = rng.choice([a for a in match.legal_actions(actor)
                                 if a["type"] not in HOST_ACTIONS])
        match.apply(actor, action)
        for bot in watching:
            bot.watch(match.view(bot.seat))
    return match, times


def lineup(seats: int, players: str, against: str | None, index: int,
           clock: bool = False) -> list[str | Level]:
    """Who plays each seat in match ``index``: ``players`` everywhere, or ``players`` in
    seat ``index mod seats`` (so every seat takes its turn) and ``against`` elsewhere.
    Without ``clock`` a bot level searches its full number of worlds whatever the
    machine's load (its clock cap off), so a run's figures are the same on any machine
    and any number of workers."""
    def player(who: str) -> str | Level:
        return who if who == RANDOM or clock else level(who, seconds=None)
    if against is None:
        return [player(players)] * seats
    return [player(players) if s == index % seats else player(against) for s in range(seats)]


def _one_match(job: tuple[str, int, str, dict[str, Any], list[str]]) -> dict[str, Any]:
    """A worker's match (by game id: a process looks the game up itself)."""
    game_id, seats, seed, options, players = job
    started = time.perf_counter()
    match, times = play_seats(companion.games.get(game_id), seats, seed, options, players)
    return {"winners": _winners(match), "length": match.version, "times": times,
            "seconds": time.perf_counter() - started}


def simulate(game: Game, count: int, seats: int, seed: str = "0",
             options: dict[str, Any] | None = None,
             progress: Callable[[int, int], None] | None = None,
             players: str = RANDOM, against: str | None = None,
             workers: int = 1, clock: bool = False) -> SimulationReport:
    """Play ``count`` matches; raise on the first error (with its seed).

    ``players`` plays every seat (random, or a bot level); with ``against``, it plays
    one seat per match, turn about, and ``against`` the others. Only all-random play
    times each step. ``workers`` > 1 plays bot matches in that many processes.
    ``clock``: bots keep their level's clock cap, as at the table (their decisions then
    depend on the machine's speed and load)."""
    options = options or {}
    if players != RANDOM or against is not None:
        return simulate_bots(game, count, seats, seed, [options], progress, players,
                             against, workers, clock)[0]
    report = SimulationReport(game.spec.id, seats, wins=[0] * seats, players=players,
                              against=against, options=dict(options))
    started = time.perf_counter()
    for i in range(count):
        match_seed = f"{seed}-{i}"
        try:
            match = play_random(game, seats, match_seed, options, report)
        except Exception as exc:
            raise RuntimeError(f"match {i} (seed {match_seed!r}) failed: {exc!r}") from exc
        _count(report, i, {"winners": _winners(match), "length": match.version})
        if progress:
            progress(i + 1, i + 1)
    report.seconds = time.perf_counter() - started
    return report


def simulate_bots(game: Game, count: int, seats: int, seed: str,
                  option_sets: list[dict[str, Any]],
                  progress: Callable[[int, int], None] | None = None,
                  players: str = "normal", against: str | None = None,
                  workers: int = 1, clock: bool = False,
                  record: MatchRecord | None = None) -> list[SimulationReport]:
    """Bot matches: the same ``count`` seeds under each set of options, one report per
    set. The sets take turns (match ``i`` of every set, then ``i + 1``), so a run stopped
    early still compares like with like. With ``record``, a match already in it is read
    back, not played, and every match played is written to it as it ends: a run of days
    survives a stop. ``progress`` hears the matches done across every set, and how many
    of them this run played (the rest were read back)."""
    reports = [SimulationReport(game.spec.id, seats, wins=[0] * seats, players=players,
                                against=against, options=dict(options))
               for options in option_sets]
    jobs = [(n, i, (game.spec.id, seats, f"{seed}-{i}", options,
                    lineup(seats, players, against, i, clock)))
            for i in range(count) for n, options in enumerate(option_sets)]
    kept = record.matches() if record else {}
    to_play = [job for job in jobs if _record_key(job) not in kept]
    played = iter(_run([job for _, _, job in to_play], workers))
    fresh = 0
    for done, job in enumerate(jobs, start=1):
        n, i, (_, _, _, options, _) = job
        found = kept.get(_record_key(job))
        if found is None:
            found = next(played)
            fresh += 1
            if record:
                record.add(options, i, found)
        _count(reports[n], i, found)
        reports[n].seconds += found.get("seconds", 0.0)
        if progress:
            progress(done, fresh)
    return reports


def _record_key(job: tuple) -> tuple[str, int]:
    n, i, (_, _, _, options, _) = job
    return MatchRecord.options_key(options), i


class MatchRecord:
    """Finished bot matches in a file of JSON lines, so that ``mutiny simulate --record``
    can stop (a power cut, Ctrl-C, the end of a day) and carry on later. Its first line
    names the run (game, seats, seed, who plays) and the code that played it: a hash of
    the engine's, the bots' and the game's sources, since a record of other rules or
    other bots must not be added to this one. Each further line is one match: its
    options, its index, its winners, length, decision times and seconds."""

    def __init__(self, path: Path, game_id: str, seats: int, seed: str, players: str,
                 against: str | None, clock: bool) -> None:
        self.path = Path(path)
        self.head = {"record": "mutiny simulate", "game": game_id, "seats": seats,
                     "seed": seed, "players": players, "against": against, "clock": clock,
                     "code": code_fingerprint(game_id)}
        self._found: dict[tuple[str, int], dict[str, Any]] = {}
        if self.path.exists() and self.path.stat().st_size:
            self._read()
        else:
            self.path.write_text(json.dumps(self.head) + "\n")

    @staticmethod
    def options_key(options: dict[str, Any]) -> str:
        return json.dumps(options, sort_keys=True)

    def _read(self) -> None:
        lines = self.path.read_text().splitlines()
        head = json.loads(lines[0])
        differs = sorted(k for k in self.head if head.get(k) != self.head[k])
        if differs:
            raise ValueError(f"{self.path} records another run ({', '.join(differs)} "
                             "differ): give another file")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by a stop: that match is played again
            key = (self.options_key(entry.pop("options")), entry.pop("index"))
            self._found[key] = entry

    def matches(self) -> dict[tuple[str, int], dict[str, Any]]:
        """The matches recorded, by (options as JSON, index)."""
        return dict(self._found)

    def add(self, options: dict[str, Any], index: int, found: dict[str, Any]) -> None:
        """Write one finished match (flushed at once: a stop loses at most this line)."""
        # (Decision times to the microsecond: a long run's file stays a few megabytes.)
        line = {"options": options, "index": index, **found,
                "times": {name: [round(t, 6) for t in times]
                          for name, times in found.get("times", {}).items()}}
        with self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")
        self._found[(self.options_key(options), index)] = found


#: A game's modules that only put it into words and pictures (screens, board, how-to):
#: a match plays the same without them, so a record stays good when they change.
PRESENTATION = frozenset({"board.py", "howto.py", "show.py", "words.py"})


def code_fingerprint(game_id: str, root: Path | None = None) -> str:
    """A hash of the sources that decide a bot match of ``game_id``: the engine, the
    bots, the games' shared kit, the game's own package but its :data:`PRESENTATION`,
    and this module's functions that play a match (not those that report). ``root``:
    another copy of the ``companion`` package (tests)."""
    root = root or Path(__file__).parent
    package = root / "games" / game_id.replace("-", "_")
    files = sorted([*(root / "engine").glob("*.py"), *(root / "bots").glob("*.py"),
                    root / "games" / "__init__.py", root / "games" / "kit.py",
                    *(path for path in package.glob("*.py") if path.name not in PRESENTATION)])
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for player in (table_clock, play_seats, lineup, _one_match):
        digest.update(inspect.getsource(player).encode())
    return digest.hexdigest()[:16]


def _winners(match: Match) -> list[int]:
    result = match.result()
    if result is None:
        raise RuntimeError(f"match {match.id} is not over")
    return result.winners


def _run(jobs: list[tuple], workers: int):
    """Each job's outcome, in the jobs' order, from this process or a pool."""
    if workers <= 1:
        for job in jobs:
            yield _guarded(job)
        return
    with multiprocessing.Pool(workers, initializer=_deaf_to_ctrl_c) as pool:
        yield from pool.imap(_guarded, jobs, chunksize=1)


def _deaf_to_ctrl_c() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone stops the
    # run (the pool ends its workers), instead of each worker printing a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _guarded(job: tuple) -> dict[str, Any]:
    try:
        return _one_match(job)
    except Exception as exc:
        raise RuntimeError(f"match with seed {job[2]!r} failed: {exc!r}") from exc


def _count(report: SimulationReport, index: int, found: dict[str, Any]) -> None:
    for winner in found["winners"]:
        report.wins[winner] += 1
    if report.against is not None and index % report.seats in found["winners"]:
        report.lead_wins += 1
    for name, times in found.get("times", {}).items():
        report.decisions.setdefault(name, []).extend(times)
    report.lengths.append(found["length"])
    report.outcomes.append(list(found["winners"]))
    report.matches += 1


def paired_difference(a: SimulationReport, b: SimulationReport,
                      won: Callable[[int, list[int]], bool], z: float = 1.96
                      ) -> tuple[float, float, float]:
    """How much more often ``b`` than ``a`` a seat wins (``won(i, winners)``), with its
    95% interval (normal, over the matches' differences), match by match: both runs
    played the same seeds, so what the seeds decide alike cancels out (where the
    option changes little, the interval is narrower than the two shares' own)."""
    pairs = list(zip(a.outcomes, b.outcomes, strict=True))
    diffs = [won(i, on_b) - won(i, on_a) for i, (on_a, on_b) in enumerate(pairs)]
    n = len(diffs)
    if n < 2:
        return (statistics.fmean(diffs) if diffs else 0.0), -1.0, 1.0
    mean, spread = statistics.fmean(diffs), statistics.stdev(diffs)
    half = z * spread / math.sqrt(n)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


# -- the figures in words --------------------------------------------------------------

def _percent(share: tuple[float, float, float]) -> str:
    p, low, high = share
    return f"{100 * p:.1f} ({100 * low:.1f}-{100 * high:.1f})"


def _who(report: SimulationReport) -> str:
    if report.against is None:
        return f"{report.players} in every seat"
    return f"{report.players} in one seat (each seat in turn) against {report.against}"


def describe(reports: list[SimulationReport], labels: list[str]) -> list[str]:
    """Side-by-side tables of one or more runs (same game and seats, other options):
    win share per seat with its 95% Wilson interval, the rotating seat's share against
    the rest, match lengths and each level's decision times."""
    first = reports[0]
    lines = [f"{first.game}: {first.matches} matches, {first.seats} seats, {_who(first)}"]
    for label, report in zip(labels, reports, strict=True):
        lines.append(f"  {label}: options {_options(report.options)}")
    header = ["seat"] + [f"{label} win % (95% CI)" for label in labels]
    rows = [[str(s + 1)] + [_percent(r.share(s)) for r in reports] for s in range(first.seats)]
    if first.against is not None:
        rows.append([f"{first.players} seat"] + [_percent(r.lead_share()) for r in reports])
    if len(reports) == 2 and len(reports[0].outcomes) == len(reports[1].outcomes):
        # (The same seeds under both options: each match compared with its twin.)
        header.append(f"{labels[1]} - {labels[0]} points (95% CI, same seeds)")
        seats = first.seats
        wins: list[Callable[[int, list[int]], bool]] = [_seat_won(s) for s in range(seats)]
        if first.against is not None:
            wins.append(lambda i, winners: i % seats in winners)
        for row, won in zip(rows, wins, strict=True):
            row.append(_points(paired_difference(reports[0], reports[1], won)))
    lines += _table(header, rows)
    for label, report in zip(labels, reports, strict=True):
        lengths = report.lengths
        lines.append(f"{label} length: mean {statistics.fmean(lengths):.1f} actions"
                     f" (shortest {min(lengths)}, longest {max(lengths)})")
        for name, times in sorted(report.decisions.items()):
            ordered = sorted(times)
            p50, p95 = ordered[len(ordered) // 2], ordered[int(0.95 * (len(ordered) - 1))]
            lines.append(f"{label} {name} bot decisions: {len(times)}, p50 {p50 * 1000:.0f} ms,"
                         f" p95 {p95 * 1000:.0f} ms")
        # (Bot matches: the seconds each match took, added up over every worker.)
        lines.append(f"{label} time: {report.seconds:.1f} s of play")
    return lines


def _seat_won(seat: int) -> Callable[[int, list[int]], bool]:
    return lambda index, winners: seat in winners


def _points(difference: tuple[float, float, float]) -> str:
    mean, low, high = (100 * x for x in difference)
    return f"{mean:+.1f} ({low:+.1f} to {high:+.1f})"


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items()))


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in [header, *rows]]
