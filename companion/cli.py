"""The ``mutiny`` command."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import companion.games
from companion import __version__
from companion.bots.search import LEVELS
from companion.engine.rules import Game
from companion.errors import MutinyError
from companion.simulate import MatchRecord, SimulationReport, describe, simulate, simulate_bots

LEVEL_NAMES = tuple(LEVELS)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mutiny`` console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except MutinyError as exc:
        print(f"mutiny: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mutiny", description="Mutiny Table companion")
    parser.add_argument("--version", action="version", version=f"mutiny {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    games = sub.add_parser("games", help="list the games")
    games.set_defaults(run=cmd_games)

    sim = sub.add_parser("simulate", help="play matches (random players or bots) and "
                         "report figures")
    sim.add_argument("game", help="game id (see `mutiny games`)")
    sim.add_argument("-n", "--matches", type=int, default=100, help="matches to play")
    sim.add_argument("--seats", type=int, help="seats (default: 4 where the game allows)")
    sim.add_argument("--seed", default="0", help="base seed; match i uses SEED-i")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a game option (repeatable); VALUE is JSON or a plain word")
    sim.add_argument("--bots", choices=LEVEL_NAMES, metavar="LEVEL",
                     help="bots play (easy, normal or hard; default: random players)")
    sim.add_argument("--against", choices=("random", *LEVEL_NAMES), metavar="WHO",
                     help="with --bots: one bot seat per match (each seat in turn), the "
                     "others played by WHO (random or a level)")
    sim.add_argument("--workers", type=int, default=1, metavar="N",
                     help="bot matches in N processes (e.g. the machine's cores)")
    sim.add_argument("--compare-option", action="append", default=[], metavar="NAME=VALUE",
                     help="also play the same matches with this option changed "
                     "(repeatable) and show both side by side")
    sim.add_argument("--record", metavar="FILE", type=Path,
                     help="with --bots: write every match to FILE as it ends; the same "
                     "command again carries on from it (and -n below what it holds "
                     "prints the figures of what it holds)")
    sim.set_defaults(run=cmd_simulate)
    pre = sub.add_parser("preview", help="play a match to a point and print a seat's "
                         "screen; --board saves the table display as PNG")
    pre.add_argument("game", help="game id, or a module with GAME (tests.games.example_game)")
    pre.add_argument("--seat", type=int, default=1, metavar="N", help="the seat shown (1-based)")
    pre.add_argument("--players", type=int, help="players (default: 4 where the game allows)")
    pre.add_argument("--moves", type=int, default=0, metavar="K", help="random legal moves first")
    pre.add_argument("--seed", default="preview", help="the match's seed and the moves'")
    pre.add_argument("--board", metavar="OUT.png", help="save /table as drawn by Chromium")
    pre.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a game option (repeatable), as for simulate")
    pre.set_defaults(run=cmd_preview)
    doc = sub.add_parser("doctor", help="check the table part by part: buses, muxes, "
                         "screens, buttons, LEDs, the service, Wi-Fi")
    doc.add_argument("--backend", choices=("sim", "pi"), help="default: pi on a Raspberry Pi")
    doc.add_argument("--config", help="table config (default /etc/mutiny/table.toml on pi)")
    doc.add_argument("--seats", type=int, default=4, help="seats of the simulated table")
    doc.add_argument("--data-dir", help="where the journal lives (default: the installed "
                     "service's, on pi; else as `mutiny serve`)")
    doc.add_argument("--host", default="0.0.0.0", help="address the companion listens on")
    doc.add_argument("--port", type=int, help="port the companion listens on "
                     "(default: 80 on pi, 8000 on sim)")
    doc.add_argument("--button-timeout", type=float, default=20.0,
                     help="seconds to wait for each button")
    doc.add_argument("--no-buttons", action="store_true", help="do not ask for presses")
    doc.add_argument("--stress", type=float, nargs="?", const=60.0, metavar="SECONDS",
                     help="draw full frames to every screen for SECONDS (default 60) and "
                          "count errors per seat")
    doc.add_argument("--sim-fault", action="append", default=[], metavar="KIND[:SEAT[:ROLE]]",
                     help="sim backend: put a fault into the simulated table to see what "
                          "the doctor says (repeatable; --sim-fault help lists them)")
    doc.add_argument("--seat", type=int, metavar="N", help="check seat N only, with the "
                     "bus and mux it needs (a bring-up one seat at a time)")
    doc.add_argument("--boot-config", metavar="PATH", help="the Pi's config.txt to look "
                     "for kernel drivers in (default /boot/firmware/config.txt on pi)")
    doc.set_defaults(run=cmd_doctor)

    overlays = sub.add_parser("overlays", help="print the /boot/firmware/config.txt lines "
                              "a table config's I2C buses need")
    overlays.add_argument("config", help="table config (TOML), e.g. hardware/table-8.toml")
    overlays.set_defaults(run=cmd_overlays)

    wiring = sub.add_parser("wiring", help="draw a table config's wiring diagram as SVG")
    wiring.add_argument("config", help="table config (TOML), e.g. hardware/table-6.toml")
    wiring.add_argument("-o", "--output", help="SVG file to write (default: stdout)")
    wiring.set_defaults(run=cmd_wiring)

    srv = sub.add_parser("serve", help="run the table: seats, phones and pages")
    srv.add_argument("--game", help="start this game if no match is unfinished")
    srv.add_argument("--seats", type=int, help="seats of the simulated table / players")
    srv.add_argument("--backend", choices=("sim", "pi"), help="default: pi on a Raspberry Pi")
    srv.add_argument("--config", help="table config (TOML); see hardware/")
    srv.add_argument("--data-dir", help="where the journal lives")
    srv.add_argument("--host", help="address to listen on (sim: 127.0.0.1, pi: all)")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--lan", action="store_true",
                     help="play on a laptop: serve on this machine's network address, "
                          "which every join link and QR code then carries (--host "
                          "gives another)")
    srv.add_argument("--sim-page", action="store_true",
                     help="with --lan: serve the simulated table's page /sim too, to the "
                          "logged-in host only (without --lan the sim backend always "
                          "serves it, to this machine)")
    srv.add_argument("--sim-fault", action="append", default=[], metavar="KIND[:SEAT[:ROLE]]",
                     help="sim only: put a fault into the simulated table from the start, "
                          "as `mutiny doctor --sim-fault` names them: screen-missing, "
                          "mux-missing, button-stuck (repeatable; lifted on /sim)")
    srv.set_defaults(run=cmd_serve)
    hostpin = sub.add_parser("host-pin", help="print the host PIN of the table running "
                             "on this machine")
    hostpin.add_argument("--data-dir", help="the running table's data directory "
                         "(default: as `mutiny serve`)")
    hostpin.set_defaults(run=cmd_host_pin)
    _add_pod_commands(sub)
    return parser


def _add_pod_commands(sub: Any) -> None:
    pod = sub.add_parser("pod", help="seat pods: put the firmware on a Pico")
    pod.set_defaults(run=lambda args: pod.print_help() or 2)
    actions = pod.add_subparsers(metavar="ACTION")
    inst = actions.add_parser("install", help="copy the firmware onto a Pico (mpremote) "
                              "and set its seat; prints the id for the table config")
    inst.add_argument("port", help="the Pico's serial port, e.g. /dev/ttyACM0")
    inst.add_argument("--seat", type=int, help="the seat number it serves (shown while waiting)")
    inst.add_argument("--pin", action="append", default=[], metavar="NAME=GPIO",
                      help="a pin other than the default (repeatable): previous, select, "
                           "next, led (or led=none), sda, scl")
    inst.add_argument("--flip", action="store_true", help="the panel is mounted upside down")
    inst.add_argument("--firmware", help="the firmware folder (default: firmware/ of this "
                                         "checkout)")
    inst.add_argument("--dry-run", action="store_true", help="print what it would do")
    inst.set_defaults(run=cmd_pod_install)


def cmd_pod_install(args: argparse.Namespace) -> int:
    from companion.seats import podinstall
    plan = podinstall.plan(args.port, args.seat, args.pin, args.flip, args.firmware)
    if args.dry_run:
        print("\n".join(plan.describe()))
        return 0
    podinstall.require_mpremote()
    podinstall.install(plan, sys.stdout)
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import (
        DEFAULT_BOOT_CONFIG,
        Doctor,
        SimFaults,
        doctor_data_dir,
        read_unit,
        sim_doctor,
    )
    from companion.seats import default_backend, load_table_config, sim_table_config
    if "help" in args.sim_fault:
        _print_table(("fault", "what"), list(SimFaults.KINDS.items()))
        return 0
    backend = args.backend or default_backend()
    if args.sim_fault and backend != "sim":
        raise SystemExit("mutiny: --sim-fault needs --backend sim")
    # Parsed without the bus check: a missing bus is one of the doctor's own lines.
    if args.config:
        config = load_table_config(args.config, backend="sim")
    elif backend == "sim":
        config = sim_table_config(args.seats)
    else:
        config = load_table_config("/etc/mutiny/table.toml", backend="sim")
    data_dir, source = doctor_data_dir(args.data_dir, backend, read_unit())
    port = args.port if args.port is not None else (80 if backend == "pi" else 8000)
    boot = args.boot_config or (DEFAULT_BOOT_CONFIG if backend == "pi" else None)
    options = dict(button_timeout=args.button_timeout, buttons=not args.no_buttons,
                   data_source=source, only_seat=args.seat,
                   boot_config=Path(boot) if boot else None)
    try:
        if backend == "sim":
            doctor = sim_doctor(config, data_dir, args.host, port,
                                SimFaults.parse(args.sim_fault), **options)
        else:
            # lgpio makes a notification FIFO in the working directory: give it the data
            # folder, so the doctor runs from any folder (the service runs there).
            os.environ.setdefault("LG_WD", str(data_dir))
            doctor = Doctor(config, "pi", data_dir, args.host, port, smbus=_smbus2,
                            i2c=_luma_i2c, pin_factory=None, pods=_pod_report(config),
                            **options)
    except ValueError as exc:
        raise SystemExit(f"mutiny: {exc}") from exc
    if args.stress is not None:
        return 0 if doctor.stress(args.stress) else 1
    return 0 if doctor.run() else 1


def _smbus2(bus: int) -> Any:
    import smbus2
    return smbus2.SMBus(bus)


def _luma_i2c(bus: int, address: int) -> Any:
    from luma.core.interface.serial import i2c
    return i2c(port=bus, address=address)


def _pod_report(config: Any) -> Any:
    """The pods of ``config``'s pod seats, found on USB and given a few seconds to say
    hello (None without pod seats)."""
    pods = tuple(seat for seat in config.seats if seat.pod is not None)
    if not pods:
        return None

    def report() -> list[dict[str, Any]]:
        import time

        from companion.seats import open_seats, pod_report
        pod_table = type(config)(seats=pods, source=config.source)
        with open_seats(pod_table, "pi") as hardware:
            time.sleep(3)
            return pod_report(hardware)
    return report


def cmd_overlays(args: argparse.Namespace) -> int:
    from companion.seats.overlays import config_lines
    lines, warnings = config_lines(args.config)
    for warning in warnings:
        print(f"mutiny: warning: {warning}", file=sys.stderr)
    print("\n".join(lines))
    return 0


def cmd_wiring(args: argparse.Namespace) -> int:
    from companion.seats import load_table_config
    from companion.seats.wiring import wiring_svg
    svg = wiring_svg(load_table_config(args.config, backend="sim"))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(svg)
    else:
        sys.stdout.write(svg)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from companion.serve import ServeOptions, serve
    return serve(ServeOptions(game=args.game, seats=args.seats, backend=args.backend,
                              config=args.config, data_dir=args.data_dir, host=args.host,
                              port=args.port, lan=args.lan, sim_page=args.sim_page,
                              sim_faults=list(args.sim_fault)))


def cmd_host_pin(args: argparse.Namespace) -> int:
    """The PIN, read from the running table's data directory: a way in for the host at
    the Pi itself (its console, or ssh), never over the table's Wi-Fi."""
    from companion.serve import default_data_dir, read_host_pin
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    print(read_host_pin(data_dir))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    rows = [(g.spec.id, g.spec.title, _seat_range(g.spec.min_seats, g.spec.max_seats))
            for g in companion.games.GAMES.values()]
    _print_table(("id", "title", "seats"), rows)
    return 0


def _seat_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def cmd_simulate(args: argparse.Namespace) -> int:
    game = companion.games.get(args.game)
    spec = game.spec
    seats = args.seats or min(spec.max_seats, max(spec.min_seats, 4))
    spec.check_seats(seats)
    options = spec.resolve_options(_parse_options(args.option))
    if args.matches < 1:
        raise SystemExit("mutiny: -n must be at least 1")
    if args.against and not args.bots:
        raise SystemExit("mutiny: --against needs --bots LEVEL")
    if args.record and not args.bots:
        raise SystemExit("mutiny: --record needs --bots LEVEL (random matches take seconds)")
    runs = [options]
    if args.compare_option:
        runs.append(spec.resolve_options({**options, **_parse_options(args.compare_option)}))
    if not args.bots:
        return _simulate_random(game, seats, runs, args)
    try:
        record = args.record and MatchRecord(args.record, spec.id, seats, args.seed,
                                             args.bots, args.against, False)
    except ValueError as exc:
        raise SystemExit(f"mutiny: {exc}") from None
    bar = ProgressBar(args.matches * len(runs),
                      f"{spec.id} x{seats}" + (" (A and B)" if len(runs) > 1 else ""))
    try:
        reports = simulate_bots(game, args.matches, seats, args.seed, runs, bar.update,
                                players=args.bots, against=args.against,
                                workers=args.workers, record=record or None)
    except RuntimeError as exc:
        print(f"mutiny: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if not record:
            raise
        print(f"\nmutiny: stopped; {len(record.matches())} matches are in {record.path}, "
              "and the same command carries on from them", file=sys.stderr)
        return 130
    finally:
        bar.close()
    print("\n".join(describe(reports, ["A", "B"][:len(reports)])))
    return 0


def _simulate_random(game: Game, seats: int, runs: list[dict[str, Any]],
                     args: argparse.Namespace) -> int:
    """Random players: one run (the report as it always was) or two side by side."""
    reports = []
    for n, run_options in enumerate(runs):
        bar = ProgressBar(args.matches, f"{game.spec.id} x{seats}" + (f" ({'AB'[n]})" if n else ""))
        try:
            reports.append(simulate(game, args.matches, seats, args.seed, run_options,
                                    bar.update))
        except RuntimeError as exc:
            print(f"mutiny: {exc}", file=sys.stderr)
            return 1
        finally:
            bar.close()
    if len(reports) == 1:
        _print_report(reports[0], runs[0])
    else:
        print("\n".join(describe(reports, ["A", "B"])))
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from companion.preview import preview
    print(preview(args.game, args.seat, args.players, args.moves, args.seed,
                  Path(args.board) if args.board else None, _parse_options(args.option)))
    return 0


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"mutiny: --option takes NAME=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def _print_report(report: SimulationReport, options: dict[str, Any]) -> None:
    print(f"{report.game}: {report.matches} matches, {report.seats} seats,"
          f" options {json.dumps(options)}")
    rows = [(str(s + 1), str(w), f"{100 * w / report.matches:.1f}")
            for s, w in enumerate(report.wins)]
    _print_table(("seat", "wins", "win %"), rows)
    lengths = report.lengths
    print(f"average length: {sum(lengths) / len(lengths):.1f} actions"
          f" (shortest {min(lengths)}, longest {max(lengths)})")
    slowest = report.slowest_step()
    if slowest:
        name, worst, mean = slowest
        print(f"slowest step: {name!r}, worst {worst * 1000:.2f} ms,"
              f" mean {mean * 1000:.3f} ms")
    print(f"time: {report.seconds:.1f} s")


def _print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = (str(cell).ljust(w) for cell, w in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip())


class ProgressBar:
    """A one-line progress bar on stderr: redrawn in place on a terminal, else a line at
    every tenth of the run and at least every five minutes (a run left to ``nohup``).
    Once matches have been played it says how fast they go and about how long is left:
    a bot run of thousands of matches takes hours."""

    #: Seconds between two lines when stderr is a file.
    QUIET_LINES_EVERY = 300.0

    def __init__(self, total: int, label: str, width: int = 30, *,
                 out: Any = None, now: Callable[[], float] = time.monotonic):
        self.total, self.label, self.width = total, label, width
        self.out = out or sys.stderr
        self.live = self.out.isatty()
        self._now = now
        self._began = now()
        self._shown = -1
        self._last_line = self._began

    def update(self, done: int, played: int | None = None) -> None:
        """``done`` matches of the total, ``played`` of them by this run (the rest read
        back from a record, in no time: the pace counts only those played)."""
        percent = 100 * done // self.total
        now = self._now()
        quiet_due = not self.live and now - self._last_line >= self.QUIET_LINES_EVERY
        if percent == self._shown and not quiet_due:
            return
        self._shown = percent
        filled = self.width * done // self.total
        line = f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total}"
        line += self._pace(done, done if played is None else played, now - self._began)
        if self.live:
            self.out.write("\r" + line)
        elif percent % 10 == 0 or quiet_due:
            self.out.write(line + "\n")
            self._last_line = now
        self.out.flush()

    def _pace(self, done: int, played: int, seconds: float) -> str:
        if played < 2 or seconds < 1 or done >= self.total:
            return ""
        per_second = played / seconds
        rate = (f"{per_second:.1f} a second" if per_second >= 1
                else f"{per_second * 60:.1f} a minute")
        return f", {rate}, {_time_left((self.total - done) / per_second)}"

    def close(self) -> None:
        if self.live:
            self.out.write("\n")
            self.out.flush()


def _time_left(seconds: float) -> str:
    """``about 5 h 40 min left``, ``about 12 min left``, ``under a minute left``."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute left"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min left" if hours else f"about {minutes} min left"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
