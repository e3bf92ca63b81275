"""sd-card: the journal and press-to-phones with every fsync taking 20 ms longer, as on
an SD card (5-50 ms a flush), the delay injected below SQLite.

``fsync_delay.c`` wraps ``fsync`` and ``fdatasync``: it is compiled here with the
system's C compiler (``cc``; ``apt-get install gcc`` where there is none) into a
temporary folder and preloaded (``LD_PRELOAD``) into a child process that runs the two
benchmarks, so neither the companion nor this process knows of it. The child also
checks that no phone heard of an action before its commit returned, and that the
journal read back holds the match as it was played (``press_to_phones.Audit``).

    python -m bench.sd_card [--delay-ms 20] [--presses 300] [--commits 200]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SHIM = Path(__file__).resolve().parent / "fsync_delay.c"
DELAY_MS = 20.0


def build_shim(folder: Path) -> Path:
    """Compile the fsync shim into ``folder``; return the shared library's path."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("the sd-card benchmark needs a C compiler: apt-get install -y gcc")
    library = folder / "fsync_delay.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(library), str(SHIM), "-ldl"],
                   check=True)
    return library


def run(presses: int = 300, commits: int = 200, delay_ms: float = DELAY_MS) -> dict[str, Any]:
    """The child's figures, plus ``delayed_fsyncs``: how many calls the shim slowed."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        library = build_shim(folder)
        count = folder / "fsyncs"
        env = {**os.environ, "LD_PRELOAD": str(library),
               "MUTINY_FSYNC_DELAY_MS": str(delay_ms), "MUTINY_FSYNC_COUNT_FILE": str(count)}
        child = subprocess.run([sys.executable, "-m", "bench.sd_card", "--child",
                                "--presses", str(presses), "--commits", str(commits)],
                               env=env, check=True, stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parent.parent)
        found = json.loads(child.stdout.strip().splitlines()[-1])
        found["delayed_fsyncs"] = int(count.read_text()) if count.exists() else 0
        found["delay_ms"] = delay_ms
        return found


def _child(presses: int, commits: int) -> dict[str, Any]:
    from bench import journal_bench, press_to_phones
    journal = journal_bench.run(commits=commits, long_match=commits)
    audit = press_to_phones.Audit()
    phones = press_to_phones.run(presses=presses, audit=audit)
    return {"commit_ms": journal["commit_ms"], "resume_s": journal["resume_s"],
            "actions": journal["actions"], "phones_ms": phones,
            "sent_before_commit": audit.early, "audited_presses": len(audit.presses),
            "journal_holds_the_match": audit.reloaded_equal}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sd_card", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay-ms", type=float, default=DELAY_MS)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.presses, args.commits)))
        return 0
    from bench.stats import summary
    found = run(args.presses, args.commits, args.delay_ms)
    print(f"fsync + {found['delay_ms']} ms ({found['delayed_fsyncs']} calls delayed)")
    for name in ("commit_ms", "phones_ms"):
        print(name, {k: round(v, 2) for k, v in summary(found[name]).items()})
    print("sent before commit:", found["sent_before_commit"], "of",
          found["audited_presses"], "; journal holds the match:",
          found["journal_holds_the_match"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
