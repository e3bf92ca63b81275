"""The command line's progress line (companion/cli.py): how far a run is, how fast its
matches go and about how long is left, on a fake clock."""
from __future__ import annotations

import io

from companion.cli import ProgressBar


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_run_says_its_pace_and_what_is_left_counting_only_matches_it_played():
    clock, out = Clock(), Terminal()
    bar = ProgressBar(4000, "booty-dice x4 (A and B)", width=10, out=out, now=clock)
    bar.update(600, played=0)  # read back from a record: no pace yet
    assert out.getvalue().endswith("] 600/4000")
    clock.now += 600  # ten minutes, 100 matches played
    bar.update(700, played=100)
    assert out.getvalue().endswith(
        "] 700/4000, 10.0 a minute, about 5 h 30 min left")
    clock.now += 1  # quick matches: so many a second, minutes left
    bar.update(3980, played=3380)
    assert out.getvalue().endswith("] 3980/4000, 5.6 a second, under a minute left")
    bar.update(4000, played=3400)
    assert out.getvalue().endswith("] 4000/4000")  # done: no time left to guess


def test_a_run_written_to_a_file_says_where_it_is_every_tenth_and_every_five_minutes():
    clock, out = Clock(), io.StringIO()
    bar = ProgressBar(1000, "run", width=10, out=out, now=clock)
    for done in range(1, 101):
        clock.now += 3
        bar.update(done)
    lines = out.getvalue().splitlines()
    assert lines == ["run [..........] 1/1000",
                     "run [#.........] 100/1000, 20.0 a minute, about 45 min left"]
    clock.now += ProgressBar.QUIET_LINES_EVERY  # a slow stretch: a line all the same
    bar.update(101)
    assert out.getvalue().splitlines()[-1].startswith("run [#.........] 101/1000, ")
    assert len(out.getvalue().splitlines()) == 3
