"""The CPU budget runs the ballots through the whole server and reports its CPU; no
time is checked (speed is measured in bench/, never asserted in a test)."""
from __future__ import annotations

from bench import cpu_budget


def test_the_budget_counts_the_servers_cpu_over_every_ballot():
    found = cpu_budget.measure(seats=2, streams=3, ballots=6, warmup=2)
    assert (found["seats"], found["streams"], found["ballots"]) == (2, 3, 6)
    assert found["cpu_ms"] > 0 and found["wall_ms"] > 0
