"""The peer side of the peer benchmark: the same 8-seat secret vote on boardgame.io.

``bench/peer/`` holds a boardgame.io game (``vote.js``, the twin of
``bench/vote_game.py``), its server (``server.js``) and 8 seat clients plus 2 spectators
(``client.js``). :func:`install_peer` installs boardgame.io from the npm registry into
``bench/peer/node_modules`` (ignored by git); :func:`run_peer` runs the server on a free
loopback port, runs the clients against it and returns one latency per vote: from the
move call until all 10 clients hold the new state. :func:`compare` runs both sides
(ours is ``bench/ours_vote.py``) and divides our latency by theirs.

    python -m bench.peer [VOTES]              # the peer's p50 / p99 / max
    python -m bench.peer --compare [VOTES]    # both sides and the ratios
    python -m bench.peer --compare --paced    # ballots 20 ms apart on both sides
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The peer's folder: package.json, package-lock.json and the three scripts.
PEER_DIR = Path(__file__).resolve().parent / "peer"
#: Written into node_modules after a good install: what package.json and the lock were.
STAMP = ".mutiny-bench-stamp"
#: Ballots cast before the timed ones (connections settle; JIT warms), on both sides.
WARMUP = 16
#: The paced run's gap between ballot starts, in ms: far quicker than a table votes.
PACE_MS = 20.0
READY_TIMEOUT = 30.0


class PeerError(RuntimeError):
    """The peer could not be installed or run (the message says what to do)."""


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise PeerError(
            f"the peer benchmark needs {tool!r} (Node.js 18 or newer, with npm) on PATH "
            "to install and run boardgame.io; install Node.js and npm "
            "(e.g. `apt-get install nodejs npm`) or skip the peer benchmark")
    return path


def _fingerprint(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        path = folder / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"-")
    return digest.hexdigest()


def install_peer(folder: Path | str = PEER_DIR) -> None:
    """``npm install`` boardgame.io into ``folder``/node_modules when it is missing or
    ``package.json`` (or the lock file) changed since the last install; else nothing."""
    folder = Path(folder)
    if not (folder / "package.json").is_file():
        raise PeerError(f"no package.json in {folder}")
    modules = folder / "node_modules"
    stamp = modules / STAMP
    want = _fingerprint(folder)
    if stamp.is_file() and stamp.read_text().strip() == want:
        return
    reason = ("not installed yet" if not modules.is_dir() else
              "no record of the last install" if not stamp.is_file() else
              "package.json or package-lock.json changed")
    npm = _need("npm")
    _need("node")
    print(f"peer: npm install --no-audit --no-fund in {folder} ({reason})", flush=True)
    started = time.monotonic()
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=folder,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise PeerError(f"npm install failed in {folder} (exit {done.returncode}):\n"
                        f"{done.stdout.strip()[-3000:]}")
    for line in done.stdout.splitlines():
        if line.strip() and "Unknown user config" not in line:
            print(f"peer: npm: {line.strip()}", flush=True)
    # npm may rewrite the lock file: stamp what is there now.
    stamp.write_text(_fingerprint(folder) + "\n")
    print(f"peer: installed in {time.monotonic() - started:.1f} s", flush=True)


def free_port() -> int:
    """A loopback TCP port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _node_env() -> dict[str, str]:
    # The peer runs as it would be deployed: production mode.
    return {**os.environ, "NODE_ENV": "production"}


def _wait_ready(server: subprocess.Popen, log: Path, port: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if f"ready {port}" in text.splitlines():
            return
        if server.poll() is not None:
            raise PeerError(f"the peer server exited ({server.returncode}):\n{text[-3000:]}")
        time.sleep(0.01)
    raise PeerError(f"the peer server was not ready within {READY_TIMEOUT:.0f} s:\n"
                    f"{log.read_text(errors='replace')[-3000:]}")


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def run_peer(votes: int = 500, warmup: int = WARMUP, folder: Path | str = PEER_DIR,
             pace_ms: float = 0.0) -> list[float]:
    """Install the peer if needed, start its server on a free loopback port, cast
    ``votes`` timed ballots (after ``warmup`` untimed ones) from 8 seat clients with 2
    spectators watching, and return each ballot's latency in ms. The server is always
    stopped."""
    folder = Path(folder)
    install_peer(folder)
    node = _need("node")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="mutiny-peer-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("w") as out:
            server = subprocess.Popen([node, "server.js", str(port)], cwd=folder,
                                      stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=subprocess.STDOUT, env=_node_env())
        try:
            _wait_ready(server, log, port)
            client = subprocess.run(
                [node, "client.js", str(port), str(votes), str(warmup), str(pace_ms)], cwd=folder,
                stdin=subprocess.DEVNULL, capture_output=True, text=True, env=_node_env(),
                timeout=60 + votes * 0.5)
        finally:
            _stop(server)
        if client.returncode != 0:
            raise PeerError(f"the peer clients failed (exit {client.returncode}):\n"
                            f"{client.stderr.strip()[-3000:]}\nserver log:\n"
                            f"{log.read_text(errors='replace')[-2000:]}")
    latencies = [float(line) for line in client.stdout.split()
                 if line and not line.startswith("{")]
    if len(latencies) != votes:
        raise PeerError(f"the peer clients reported {len(latencies)} of {votes} votes:\n"
                        f"{client.stdout[-2000:]}")
    return latencies


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (``q`` from 0 to 100), as client.js computes it."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


def figures(latencies: list[float]) -> dict[str, float]:
    """p50, p99 and max in ms."""
    return {"p50_ms": round(percentile(latencies, 50), 3),
            "p99_ms": round(percentile(latencies, 99), 3),
            "max_ms": round(max(latencies), 3)}


def compare(votes: int = 500, pace_ms: float = 0.0) -> dict[str, object]:
    """The whole peer benchmark: ``votes`` ballots on each side, run as two halves in
    the order peer, ours, ours, peer (so a machine that gets busier or quieter during
    the run weighs on both alike), ballots starting at least ``pace_ms`` apart on both
    sides. Returns both sides' figures and ours divided by theirs (the target: below 1
    at p50 and p99)."""
    from bench.ours_vote import run_ours

    first = votes // 2
    peer = run_peer(first, pace_ms=pace_ms)
    ours = run_ours(first, pace_ms=pace_ms)
    ours += run_ours(votes - first, pace_ms=pace_ms)
    peer += run_peer(votes - first, pace_ms=pace_ms)
    mine, theirs = figures(ours), figures(peer)
    return {"votes": votes, "ours": mine, "peer": theirs,
            "ratio_p50": round(mine["p50_ms"] / theirs["p50_ms"], 2),
            "ratio_p99": round(mine["p99_ms"] / theirs["p99_ms"], 2),
            "ours_ms": ours, "peer_ms": peer}


def main(argv: list[str]) -> int:
    both = "--compare" in argv
    pace = PACE_MS if "--paced" in argv else 0.0
    argv = [a for a in argv if a not in ("--compare", "--paced")]
    votes = int(argv[0]) if argv else 500
    try:
        if both:
            result = compare(votes, pace_ms=pace)
            print(json.dumps({k: v for k, v in result.items() if not k.endswith("_ms")}))
        else:
            print(json.dumps({"benchmark": "peer (boardgame.io 0.50.2)", "votes": votes,
                              **figures(run_peer(votes))}))
    except PeerError as exc:
        print(f"peer: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
