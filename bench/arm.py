"""The emulated arm64 run's own parts (`./dev arm-bench`, hardware/arm-bench.sh).

The benchmarks themselves are `python -m bench`'s; this module adds what a run under
qemu-user needs around them:

    python -m bench.arm wheels           # inside the root: which dependencies are compiled
    python -m bench.arm profile phones|screen [N]
                                         # inside the root: cProfile (CPU time, all
                                         # threads) of N presses, summed by area
    python -m bench.arm timeline [N]     # inside the root: the moments from a pin edge
                                         # to the acting seat's new frame
    python -m bench.arm report RAW.json --results DIR --host "..." --qemu "..."
                                         # on the host: label every row emulated, judge
                                         # each target met / not met, print the table

Every figure it writes says "emulated": qemu-user translates each arm64 instruction on
the host's cores, so the figures are a proxy for a slow arm64 board, never a Pi's.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bench.stats import fmt, verdict

LABEL = "emulated arm64"

#: The dependencies an arm64 install could get as a compiled wheel or not at all, and
#: what the table does without the compiled part (docs/performance.md, "Emulated arm64").
WATCHED = {
    "orjson": "payload JSON; companion.jsontext falls back to the standard json",
    "PIL": "Pillow: every seat frame is drawn and compared with it",
    "markupsafe": "Jinja's escaping; pure Python when its _speedups is missing",
    "smbus2": "I2C transfers (pure Python over ioctl)",
    "cheroot": "the HTTP server (pure Python)",
    "flask": "the web app (pure Python)",
    "luma.oled": "the SSD1306 driver (pure Python on Pillow)",
    "gpiozero": "buttons and LEDs (pure Python)",
    "lgpio": "gpiozero's pin factory on a Pi (C library and its wheel)",
    "serial": "pyserial, the seat pods (pure Python)",
    "segno": "join-code QR codes (pure Python)",
}

def emulated(raw: dict[str, Any], host: str, qemu: str, when: datetime) -> dict[str, Any]:
    """The bench's JSON with every row labelled emulated and judged against its target,
    and the host that did the emulating beside the machine the root reports."""
    rows = []
    for row in raw.get("rows", []):
        # A row may bound a slow board apart (a bot's decision: 8 s emulated, 1.5 s here).
        if "emulated_target" in row:
            row = {**row, "target": row["emulated_target"]}
        rows.append({**row, "name": f"{row['name']} [{LABEL}]", "emulated": True,
                     "verdict": verdict(row)})
    return {"emulated": {"arch": "aarch64", "by": qemu, "host": host,
                         "taken": when.strftime("%Y-%m-%dT%H:%MZ")},
            "machine": raw.get("machine", {}), "rows": rows}


def result_name(when: datetime) -> str:
    """Where a run's JSON goes under bench/results/: the name says it is emulated."""
    return f"emulated-arm64-{when.strftime('%Y%m%dT%H%MZ')}.json"


def table_lines(report: dict[str, Any]) -> list[str]:
    """The run as text: what emulated it, then one line per row with its verdict."""
    em, where = report["emulated"], report["machine"]
    lines = [f"EMULATED: Debian arm64 under {em['by']} on {em['host']}"
             f" ({where.get('cores', '?')} cores), Python {where.get('python', '?')}"
             f" inside the root, {em['taken']}. Not a Pi: a proxy for a slow arm64 board.", ""]
    header = ("benchmark", "unit", "n", "p50", "p99", "max", "target", "verdict")
    keys = ("name", "unit", "n", "p50", "p99", "max", "target")
    cells = [header] + [tuple(fmt(r.get(k)) for k in keys) + (r.get("verdict", ""),)
                        for r in report["rows"]]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return lines


# -- inside the root ------------------------------------------------------------------

def wheel_report() -> list[dict[str, str]]:
    """Each watched module: its version, and whether it came with compiled code (an
    extension module in its distribution) or runs as pure Python, or is missing."""
    import importlib
    import importlib.metadata as metadata
    dists = metadata.packages_distributions()
    found = []
    for module, why in WATCHED.items():
        top = module.split(".")[0]
        try:
            importlib.import_module(module)
        except ImportError as error:
            found.append({"module": module, "kind": "missing", "version": "",
                          "detail": str(error), "why": why})
            continue
        # luma.oled and luma.core share the top name "luma": take the one named for it.
        names = dists.get(top, [])
        named = [n for n in names if _normal(n) == _normal(module)]
        version, compiled, tag = "", [], ""
        for name in named or names[:1]:
            dist = metadata.distribution(name)
            version = dist.version
            compiled = [str(f) for f in dist.files or () if str(f).endswith(".so")]
            tags = [line.split(":", 1)[1].strip() for line in
                    (dist.read_text("WHEEL") or "").splitlines() if line.startswith("Tag:")]
            tag = tags[0] if tags else ""
        kind = "compiled" if compiled else "pure Python"
        detail = ", ".join(sorted(Path(f).name.split(".")[0] for f in compiled)[:4])
        found.append({"module": module, "kind": kind, "version": version,
                      "detail": f"{tag} {detail}".strip(), "why": why})
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _markupsafe_speedups() -> str:
    try:
        import markupsafe._speedups  # noqa: F401
        return "markupsafe._speedups: compiled, in use"
    except ImportError:
        return "markupsafe._speedups: MISSING, pure-Python escaping in use"


def _jsontext_backend() -> str:
    try:
        import companion.jsontext as jsontext
    except ImportError as error:
        return f"companion.jsontext: cannot import ({error})"
    if getattr(jsontext, "orjson", None) is not None:
        return "companion.jsontext: orjson in use"
    return "companion.jsontext: orjson MISSING, the standard json in use"


#: Where a function's own CPU time is counted, by the file it is in (first match wins).
AREAS = (
    ("journal (SQLite)", ("sqlite3", "companion/engine/journal")),
    ("engine and games", ("companion/engine/", "companion/games/", "companion/simulate")),
    ("seat screens (drawing, frames, QR)", ("companion/seats/", "companion/table/painter",
                                            "PIL", "ImagingCore", "ImagingDraw", "luma/",
                                            "segno/", "_imaging")),
    ("views and payloads (table)", ("companion/table/", "orjson", "json/")),
    ("HTTP and streams", ("companion/web/", "companion/serve", "cheroot/", "flask/",
                          "werkzeug/", "jinja2/", "markupsafe", "socket", "select")),
    ("benchmark clients and timing", ("bench/",)),
    ("Python and threads", ("",)),
)


def area(where: str) -> str:
    """The part of the table a profiled function belongs to (see AREAS)."""
    for name, marks in AREAS:
        if any(mark in where for mark in marks):
            return name
    return AREAS[-1][0]


def by_area(own: dict[str, tuple[int, float]]) -> list[tuple[str, float]]:
    """Own CPU time per area, largest first, from {function: (calls, own seconds)}."""
    totals: dict[str, float] = {}
    for where, (_calls, seconds) in own.items():
        name = area(where)
        totals[name] = totals.get(name, 0.0) + seconds
    return sorted(totals.items(), key=lambda item: -item[1])


def _where(code) -> str:
    if isinstance(code, str):  # a built-in: "<method 'execute' of 'sqlite3...' objects>"
        return code
    return f"{code.co_filename}:{code.co_firstlineno}({code.co_name})"


def own_times(profiles) -> dict[str, tuple[int, float]]:
    """Calls and own time of every function so far, summed over ``profiles`` (read
    while they run: ``getstats`` does not stop a profiler). A built-in (a sleep, a lock,
    a socket's send, a C library) is counted once per caller, "builtin <- caller", so
    its time lands in the area of the code that called it."""
    totals: dict[str, tuple[int, float]] = {}

    def add(key: str, calls: int, seconds: float) -> None:
        before = totals.get(key, (0, 0.0))
        totals[key] = (before[0] + calls, before[1] + seconds)

    for profile in list(profiles):
        for entry in profile.getstats():
            if isinstance(entry.code, str):
                continue  # counted below, under each of its callers
            add(_where(entry.code), entry.callcount, entry.inlinetime)
            for call in entry.calls or ():
                if isinstance(call.code, str):
                    add(f"{call.code} <- {_where(entry.code)}", call.callcount,
                        call.inlinetime)
    return totals


def since(after: dict[str, tuple[int, float]],
          before: dict[str, tuple[int, float]]) -> dict[str, tuple[int, float]]:
    """What each function did between two :func:`own_times` readings."""
    return {key: (calls - before.get(key, (0, 0.0))[0],
                  seconds - before.get(key, (0, 0.0))[1])
            for key, (calls, seconds) in after.items()
            if calls > before.get(key, (0, 0.0))[0]}


def profile_run(what: str, presses: int, top: int = 30) -> str:
    """cProfile of the timed presses of press-to-phones or press-to-screen (not the
    server's start), on every thread (seats, cheroot's workers, the hub, the painter)
    with each thread's own CPU clock, so waiting for a lock, a socket or the GIL is not
    counted: CPU per press summed by area, then the heaviest functions."""
    import contextlib
    import cProfile
    import threading
    import time

    from bench import press_to_phones, press_to_screen
    from bench.stats import summary

    profiles: list[cProfile.Profile] = []
    run_thread = threading.Thread.run

    def profiled_run(self):
        profile = cProfile.Profile(time.thread_time)
        profiles.append(profile)
        profile.enable()
        try:
            run_thread(self)
        finally:
            profile.disable()

    window: dict[str, dict] = {}
    module = press_to_phones if what == "phones" else press_to_screen
    timed_part = getattr(module, "frozen_start", None)

    @contextlib.contextmanager
    def measured():
        window["before"] = own_times(profiles)
        with timed_part():
            yield
        window["after"] = own_times(profiles)

    threading.Thread.run = profiled_run
    if timed_part is not None:
        module.frozen_start = measured
    main = cProfile.Profile(time.thread_time)
    profiles.append(main)
    try:
        main.enable()
        if what == "phones":
            found = summary(press_to_phones.run(presses=presses))
        else:
            found = summary(press_to_screen.run(presses=presses)["act"])
        main.disable()
    finally:
        threading.Thread.run = run_thread
        if timed_part is not None:
            module.frozen_start = timed_part
    if "after" in window:
        own, part = since(window["after"], window["before"]), "the timed presses only"
    else:
        own, part = own_times(profiles), "the whole run, start included"
    own = {where: found for where, found in own.items() if "bench/arm.py" not in where}
    lines = [f"press-to-{what} under cProfile ({part}), CPU time of every thread,"
             f" waits not counted; latency under the profiler: p50 {found['p50']:.1f} ms,"
             f" p99 {found['p99']:.1f} ms over {found['n']} presses"]
    areas = by_area(own)
    total = sum(seconds for _name, seconds in areas) or 1.0
    for name, seconds in areas:
        lines.append(f"  {name:<36} {seconds * 1000 / presses:8.2f} ms CPU per press"
                     f"  {100 * seconds / total:5.1f} %")
    lines += [f"  {'in all':<36} {total * 1000 / presses:8.2f} ms CPU per press", "",
              f"  {'own ms/press':>12} {'calls/press':>11}  function"]
    for where, (calls, seconds) in sorted(own.items(), key=lambda kv: -kv[1][1])[:top]:
        lines.append(f"  {seconds * 1000 / presses:12.3f} {calls / presses:11.1f}  {where}")
    return "\n".join(lines)


def timeline(presses: int) -> list[tuple[str, float]]:
    """Moments between a select's pin edge and the acting seat's new frame in
    press-to-screen, each the median over the timed presses, in ms after the edge: the
    seat's own highlight, ``Table.press``, ``Match.apply``, the journal's commit,
    ``Table.refresh``, the frame."""
    import functools
    import statistics
    import time

    import companion.engine.journal as journal
    import companion.engine.match as match
    import companion.seats.seat as seat
    import companion.table.table as table
    from bench import press_to_screen

    marks: dict[str, float] = {}
    rows: list[dict[str, float]] = []
    saved: list[tuple[Any, str, Any]] = []

    def stamp(owner, name: str, label: str, on_return: bool = False) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def stamped(*args, **kwargs):
            if not on_return:
                marks.setdefault(label, time.perf_counter())
            try:
                return original(*args, **kwargs)
            finally:
                if on_return:
                    marks.setdefault(label, time.perf_counter())
        saved.append((owner, name, original))
        setattr(owner, name, stamped)

    timer = press_to_screen.FrameTimer
    mark, first = timer.mark, timer.first

    def marked(self):
        marks.clear()
        marks["pin edge"] = mark(self)
        return marks["pin edge"]

    def found(self, index, after=0.0):
        at = first(self, index, after)
        if after and at is not None and "pin edge" in marks:
            edge = marks["pin edge"]
            rows.append({**{k: (v - edge) * 1000 for k, v in marks.items()},
                         "the acting seat's new frame": (at - edge) * 1000})
        return at

    stamp(seat.Seat, "_redraw", "the seat's own highlight redrawn")
    stamp(table.Table, "press", "Table.press entered")
    stamp(match.Match, "apply", "Match.apply entered")
    stamp(journal.Journal, "append", "the journal's commit returned", on_return=True)
    stamp(table.Table, "refresh", "Table.refresh entered")
    saved += [(timer, "mark", mark), (timer, "first", first)]
    timer.mark, timer.first = marked, found
    try:
        press_to_screen.run(presses=presses)
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)
    names = {k for row in rows for k in row}
    medians = [(k, statistics.median([row[k] for row in rows if k in row])) for k in names]
    return sorted(medians, key=lambda item: item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.arm", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("wheels", help="which dependencies are compiled (inside the root)")
    prof = sub.add_parser("profile", help="cProfile of presses (inside the root)")
    prof.add_argument("what", choices=("phones", "screen"))
    prof.add_argument("presses", type=int, nargs="?", default=30)
    line = sub.add_parser("timeline", help="pin edge to the acting seat's frame, step by step")
    line.add_argument("presses", type=int, nargs="?", default=100)
    rep = sub.add_parser("report", help="label a bench JSON as emulated (on the host)")
    rep.add_argument("raw", type=Path)
    rep.add_argument("--results", type=Path, required=True,
                     help="folder for the labelled JSON (named by result_name)")
    rep.add_argument("--host", default="the host")
    rep.add_argument("--qemu", default="qemu-user")
    args = parser.parse_args(argv)
    if args.command == "wheels":
        import platform
        print(f"Python {platform.python_version()} on {platform.machine()}")
        for row in wheel_report():
            print(f"  {row['module']:<10} {row['version']:<12} {row['kind']:<12}"
                  f" {row['detail'][:72]:<52} ({row['why']})")
        print("  " + _markupsafe_speedups())
        print("  " + _jsontext_backend())
        return 0
    if args.command == "timeline":
        print(f"press-to-screen, {args.presses} presses: medians after the pin edge")
        for name, ms in timeline(args.presses):
            print(f"  {name:<36} {ms:7.2f} ms")
        return 0
    if args.command == "profile":
        print(profile_run(args.what, args.presses))
        return 0
    when = datetime.now(timezone.utc)
    report = emulated(json.loads(args.raw.read_text()), args.host, args.qemu, when)
    out = args.results / result_name(when)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print("\n".join(table_lines(report)))
    print(f"\nJSON: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
