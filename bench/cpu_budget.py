"""cpu-budget: the server's CPU time per ballot (every thread, user + system), for
8 seats and 10 streams, and as seats (2, 4, 8) and streams (2, 10, 40) grow.

The server (``companion.serve.Server``: sim seats with their screens, the journal on
disk, cheroot, the live hub) runs in this process and does nothing else; one client
process opens the streams and casts the ballots of ``bench/vote_game.py`` back to back
over HTTP (each as soon as the last reached every stream), so ``getrusage`` of this
process over the ballots is the server's CPU and nothing more. Streams are the seats'
phones first (one per seat), then the public's (table displays): 2 streams on 8 seats
are two phones (every seat still votes, the others from buttons' worth of HTTP), 40
are 8 phones and 32 displays. The public pool and the per-address
connection limit are raised for the run (every client here is 127.0.0.1).

    python -m bench.cpu_budget [--ballots 200]     # the table
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from http.client import HTTPConnection
from pathlib import Path

#: (seats, streams) measured: 8 and 10 first, then seats grow (10 streams) and streams
#: grow (8 seats).
GRID = ((8, 10), (2, 10), (4, 10), (8, 2), (8, 40))


def _cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def measure(seats: int, streams: int, ballots: int = 200, warmup: int = 16) -> dict[str, float]:
    """CPU ms per ballot in this (the server's) process, and wall ms per ballot."""
    from bench.ours_vote import _join
    from bench.stats import frozen_start
    from bench.vote_game import GAME
    from companion.serve import ServeOptions, Server
    from companion.web.api import StreamSlots

    with tempfile.TemporaryDirectory(prefix="mutiny-bench-cpu-") as tmp:
        server = Server(ServeOptions(backend="sim", seats=seats, data_dir=tmp,
                                     host="127.0.0.1", port=0))
        slots = StreamSlots()
        slots.LIMITS = {**StreamSlots.LIMITS, "public": max(streams, 12)}
        server.app.extensions["mutiny"]["slots"] = slots
        server.http._server.clients.limit = streams + seats + 8
        with server.in_background():
            total = warmup + ballots
            server.table.start(GAME, seats, options={"rounds": total // seats + 2},
                               seed="bench-cpu")
            host, port = server.http.host, server.http.port
            cookies = [_join(host, port, server.table.access.token(s)) for s in range(seats)]
            config = {"host": host, "port": port, "seats": seats, "warmup": warmup,
                      "ballots": ballots, "cookies": cookies, "phones": min(streams, seats),
                      "public": max(0, streams - seats)}
            client = subprocess.Popen([sys.executable, "-m", "bench.cpu_budget", "--client"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      cwd=Path(__file__).resolve().parent.parent)
            client.stdin.write(json.dumps(config) + "\n")
            client.stdin.flush()
            with frozen_start():
                assert client.stdout.readline().strip() == "warm"
                cpu, wall = _cpu_s(), time.monotonic()
                done = client.stdout.readline().strip()
                cpu, wall = _cpu_s() - cpu, time.monotonic() - wall
            client.stdin.close()
            client.wait(30)
            if done != "done":
                raise RuntimeError(f"the client process stopped: {done!r}")
    return {"seats": seats, "streams": streams, "ballots": ballots,
            "cpu_ms": cpu * 1000 / ballots, "wall_ms": wall * 1000 / ballots}


def run(ballots: int = 200) -> list[dict[str, float]]:
    return [measure(seats, streams, ballots) for seats, streams in GRID]


# -- the client process ----------------------------------------------------------------
def _client() -> int:
    import selectors

    from bench.ours_vote import _Counted
    from bench.vote_game import ballot_for
    config = json.loads(sys.stdin.readline())
    host, port, seats = config["host"], config["port"], config["seats"]
    streams = [_Counted(host, port, "/api/seat/stream", cookie, seats)
               for cookie in config["cookies"][:config["phones"]]]
    streams += [_Counted(host, port, "/api/public/stream", None, seats)
                for _ in range(config["public"])]
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    conns = [HTTPConnection(host, port, timeout=10) for _ in range(seats)]

    def reached(target: int) -> None:
        while min(s.count for s in streams) < target:
            for key, _ in selector.select(10):
                data = key.fileobj.recv(1 << 16)
                if not data:
                    raise RuntimeError("the server closed a stream")
                key.data.feed(data)

    reached(0)
    for k in range(config["warmup"] + config["ballots"]):
        if k == config["warmup"]:
            print("warm", flush=True)
        seat, round_ = k % seats, 1 + k // seats
        body = json.dumps({"action": {"type": "vote", "seat": ballot_for(seat, round_, seats)}})
        conns[seat].request("POST", "/api/seat/act", body.encode(),
                            {"Content-Type": "application/json",
                             "Cookie": f"mutiny_seat={config['cookies'][seat]}"})
        answer = conns[seat].getresponse()
        if answer.status != 200:
            raise RuntimeError(f"ballot {k} (seat {seat}) refused: {answer.status}"
                               f" {answer.read()[:200]!r}")
        answer.read()
        reached(k + 1)
    print("done", flush=True)
    sys.stdin.read()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu_budget", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ballots", type=int, default=200)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:
        return _client()
    print("seats  streams  CPU ms per ballot  wall ms per ballot")
    for row in run(args.ballots):
        print(f"{row['seats']:>5}  {row['streams']:>7}  {row['cpu_ms']:>17.2f}"
              f"  {row['wall_ms']:>18.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
