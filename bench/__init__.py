"""Benchmarks of Mutiny Table: they print figures and never assert a time.

Run them all with ``python -m bench`` (or ``./dev bench``); see docs/performance.md.
"""
