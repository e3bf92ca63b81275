"""The emulated arm64 run's own parts (`./dev arm-bench`, hardware/arm-bench.sh).

The benchmarks themselves are `python -m bench`'s; this module adds what a run under
qemu-user needs around them:

    python -m bench.arm wheels           # inside the root: which dependencies are compiled
    python -m bench.arm profile [N]      # inside the root: cProfile of N press-to-phones
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

_TARGET = re.compile(r"^(?:(p50|p99|max)\s+)?(<=|<)\s*([0-9.]+)\s*(ms|us|s|MB)?")


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


def emulated(raw: dict[str, Any], host: str, qemu: str, when: datetime) -> dict[str, Any]:
    """The bench's JSON with every row labelled emulated and judged against its target,
    and the host that did the emulating beside the machine the root reports."""
    rows = []
    for row in raw.get("rows", []):
        rows.append({**row, "name": f"{row['name']} [{LABEL}]", "emulated": True,
                     "verdict": verdict(row)})
    return {"emulated": {"arch": "aarch64", "by": qemu, "host": host,
                         "taken": when.strftime("%Y-%m-%dT%H:%MZ")},
            "machine": raw.get("machine", {}), "rows": rows}


def result_name(when: datetime) -> str:
    """Where a run's JSON goes under bench/results/: the name says it is emulated."""
    return f"emulated-arm64-{when.strftime('%Y%m%dT%H%MZ')}.json"


def _fmt(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return f"{value:.3f}" if value < 10 else f"{value:.1f}"
    return str(value)


def table_lines(report: dict[str, Any]) -> list[str]:
    """The run as text: what emulated it, then one line per row with its verdict."""
    em, where = report["emulated"], report["machine"]
    lines = [f"EMULATED: Debian arm64 under {em['by']} on {em['host']}"
             f" ({where.get('cores', '?')} cores), Python {where.get('python', '?')}"
             f" inside the root, {em['taken']}. Not a Pi: a proxy for a slow arm64 board.", ""]
    header = ("benchmark", "unit", "n", "p50", "p99", "max", "target", "verdict")
    keys = ("name", "unit", "n", "p50", "p99", "max", "target")
    cells = [header] + [tuple(_fmt(r.get(k)) for k in keys) + (r.get("verdict", ""),)
                        for r in report["rows"]]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
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
        names = dists.get(top, [])
        version, compiled = "", []
        for name in names:
            dist = metadata.distribution(name)
            version = dist.version
            compiled += [str(f) for f in dist.files or ()
                         if str(f).endswith(".so") and str(f).startswith(top)]
        kind = "compiled" if compiled else "pure Python"
        detail = ", ".join(sorted(Path(f).name for f in compiled)[:3])
        found.append({"module": module, "kind": kind, "version": version,
                      "detail": detail, "why": why})
    return found


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


def profile_press_to_phones(presses: int, top: int = 40) -> str:
    """cProfile of ``presses`` press-to-phones presses on every thread of the server
    (seats, cheroot's workers, the hub), merged; the text of the heaviest functions by
    their own time and by cumulative time."""
    import cProfile
    import io
    import pstats
    import threading

    profiles: list[cProfile.Profile] = []
    run_thread = threading.Thread.run

    def profiled_run(self):
        profile = cProfile.Profile()
        profiles.append(profile)
        profile.enable()
        try:
            run_thread(self)
        finally:
            profile.disable()

    threading.Thread.run = profiled_run
    main = cProfile.Profile()
    from bench import press_to_phones
    try:
        main.enable()
        latencies = press_to_phones.run(presses=presses)
        main.disable()
    finally:
        threading.Thread.run = run_thread
    out = io.StringIO()
    stats = pstats.Stats(main, stream=out)
    for profile in profiles:
        try:
            stats.add(profile)
        except TypeError:  # a thread still running when the run ended: no stats yet
            pass
    from bench.stats import summary
    out.write(f"press-to-phones under cProfile (all threads merged): {summary(latencies)}\n")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.arm", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("wheels", help="which dependencies are compiled (inside the root)")
    prof = sub.add_parser("profile", help="cProfile of press-to-phones (inside the root)")
    prof.add_argument("presses", type=int, nargs="?", default=30)
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
            print(f"  {row['module']:<11} {row['version']:<10} {row['kind']:<12}"
                  f" {row['detail'][:60]:<40}  ({row['why']})")
        print("  " + _markupsafe_speedups())
        print("  " + _jsontext_backend())
        return 0
    if args.command == "profile":
        print(profile_press_to_phones(args.presses))
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
