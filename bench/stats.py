"""Figures from samples, and the machine they were taken on."""
from __future__ import annotations

import contextlib
import gc
import math
import os
import platform
import re
import statistics
from typing import Any, Iterator, Sequence


def percentile(samples: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p99 of 1,000 samples is the 990th smallest)."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summary(samples: Sequence[float]) -> dict[str, float]:
    """Median, p99 and max, plus the count."""
    return {"n": len(samples), "p50": statistics.median(samples),
            "p99": percentile(samples, 0.99), "max": max(samples)}


def machine() -> dict[str, str | int]:
    """What the figures were measured on."""
    model = ""
    for path in ("/proc/device-tree/model",):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                model = f.read().strip("\x00\n ")
        except OSError:
            pass
    if not model:
        try:
            with open("/proc/cpuinfo", encoding="utf-8") as f:
                names = [l.split(":", 1)[1].strip() for l in f if l.startswith("model name")]
            model = names[0] if names else platform.processor()
        except OSError:
            model = platform.processor()
    return {"model": model, "cores": os.cpu_count() or 0, "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}"}


@contextlib.contextmanager
def frozen_start() -> Iterator[None]:
    """What is alive now stays out of full garbage collections while the block runs, as
    ``mutiny serve`` keeps its start-up objects (``freeze_startup_objects``); after it,
    this benchmark process collects as before."""
    from companion.serve import freeze_startup_objects
    freeze_startup_objects()
    try:
        yield
    finally:
        gc.unfreeze()


_TARGET = re.compile(r"^(?:(p50|p95|p99|max)\s+)?(<=|<)\s*([0-9.]+)\s*(ms|us|s|MB)?")


def verdict(row: dict[str, Any]) -> str:
    """"met" or "not met" for a row whose target is a bound ("p99 <= 10 ms",
    "<= 60 MB", "< 1 at p50 and p99"); "" for a row that only reports."""
    target = str(row.get("target") or "").strip()
    if target.startswith("< 1 at p50 and p99"):
        values = [row.get("p50"), row.get("p99")]
        if None in values:
            return ""
        return "met" if all(v < 1 for v in values) else "not met"
    found = _TARGET.match(target)
    if not found:
        return ""
    which, op, bound, _unit = found.groups()
    value = row.get(which or "max")
    if value is None and which is None:
        value = row.get("p50")
    if value is None:
        return ""
    ok = value <= float(bound) if op == "<=" else value < float(bound)
    return "met" if ok else "not met"


def fmt(value: Any) -> str:
    """A figure as the tables print it."""
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return f"{value:.3f}" if value < 10 else f"{value:.1f}"
    return str(value)
