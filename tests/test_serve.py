"""`mutiny serve` as a real process: it answers, plays, dies hard and resumes."""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.engine import Journal

MUTINY = Path(sys.executable).with_name("mutiny")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A `mutiny serve` process on the simulated table."""

    def __init__(self, data_dir: Path, port: int, *extra: str):
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [str(MUTINY), "serve", "--backend", "sim", "--seats", "4", "--data-dir",
             str(data_dir), "--port", str(port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.wait_ready()

    def wait_ready(self, limit: float = 60.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.proc.stdout.read()}")
            try:
                with urllib.request.urlopen(self.base + "/sim/", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("serve never answered /sim")

    def click(self, seat: int, button: str = "select") -> None:
        for down in (True, False):
            body = json.dumps({"seat": seat, "button": button, "down": down}).encode()
            request = urllib.request.Request(self.base + "/sim/press", data=body,
                                             headers={"Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=5).read()
            time.sleep(0.06)  # past the 30 ms debounce window, as a finger would be

    def match_line(self) -> str:
        with urllib.request.urlopen(self.base + "/sim/stream", timeout=5) as stream:
            for raw in stream:
                line = raw.decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])["match"]
        raise AssertionError("no event")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=20)
        return out


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.mark.slow
def test_serve_plays_by_buttons_and_resumes_after_a_hard_kill(data_dir):
    port = free_port()
    served = Served(data_dir, port)
    try:
        for seat in range(4):
            served.click(seat)            # claim every seat
        served.click(0)                   # seat 1: the first game (Booty Dice)
        served.click(0)                   # ... for the fewest players
        served.click(0)                   # the roller's first choice: hold die 1
        line = served.match_line()
        assert line.startswith("Booty Dice: ")  # (/sim's line: the table's headline)
    finally:
        served.kill()
    with Journal(data_dir / "journal.sqlite3") as journal:
        (match_id,) = journal.unfinished_ids()
        entries = journal.entries(match_id)
        assert entries[-1].action == {"type": "hold", "die": 1}
    served = Served(data_dir, port)
    try:
        assert served.match_line() == line  # the same headline, the hold in the journal
    finally:
        out = served.stop()
    assert served.proc.returncode == 0
    assert "resumed booty-dice match" in out


@pytest.mark.slow
def test_serve_starts_the_game_it_is_asked_for(data_dir):
    served = Served(data_dir, free_port(), "--game", "moon-yeti")
    try:
        assert served.match_line().startswith("Moon Yeti: ")
    finally:
        served.stop()


def test_startup_objects_are_kept_out_of_full_collections():
    import gc

    from companion.serve import freeze_startup_objects
    try:
        freeze_startup_objects()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process goes on collecting as before


# -- a laptop table: `mutiny serve --lan` -------------------------------------------------
def test_the_lan_address_is_one_a_phone_on_the_network_can_reach():
    from companion.serve import pick_lan_address
    assert pick_lan_address(["127.0.1.1", "169.254.3.4", "192.168.1.23"]) == "192.168.1.23"
    assert pick_lan_address(["0.0.0.0", "8.8.4.4", "10.0.0.7"]) == "10.0.0.7"
    assert pick_lan_address(["127.0.0.1", "8.8.4.4"]) == "8.8.4.4"  # no private one
    assert pick_lan_address(["127.0.0.1", "not an address"]) is None


def test_serve_lan_puts_the_machines_address_in_every_join_link(tmp_path):
    from companion.serve import ServeOptions, Server, lan_address
    address = lan_address()  # this machine's, whatever network it is on
    server = Server(ServeOptions(backend="sim", seats=4, data_dir=str(tmp_path), port=0,
                                 lan=True))
    try:
        assert server.http.host == address
        assert server.public_url == f"http://{address}:{server.http.port}"
        for seat in range(4):
            assert server.table.join_url(seat).startswith(server.public_url.upper() + "/J/")
        assert address in server.app.config["MUTINY_HOSTS"]
    finally:
        server.close()


def test_serve_lan_takes_the_address_it_is_given(tmp_path):
    from companion.serve import ServeOptions, Server
    server = Server(ServeOptions(backend="sim", seats=4, data_dir=str(tmp_path), port=0,
                                 lan=True, host="127.0.0.2"))
    try:
        assert server.table.join_url(0).startswith(f"HTTP://127.0.0.2:{server.http.port}/J/")
    finally:
        server.close()


@pytest.mark.slow
def test_serve_lan_says_where_phones_join(data_dir):
    port = free_port()
    proc = subprocess.Popen(
        [str(MUTINY), "serve", "--backend", "sim", "--lan", "--host", "127.0.0.2",
         "--data-dir", str(data_dir), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.2:{port}/join", timeout=2):
                    break
            except OSError:
                time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert f"phones on this network join at http://127.0.0.2:{port}/join" in out


def test_a_closed_server_stops_its_tables_timers(tmp_path):
    """Closing the server closes its table: a step timer still running makes no move
    afterwards on the closed journal (a test that served a timed match once left its
    clock running into the tests after it)."""
    from companion.serve import ServeOptions, Server
    server = Server(ServeOptions(backend="sim", seats=4, data_dir=str(tmp_path),
                                 host="127.0.0.1", port=0))
    server.table.start("moon-yeti", 4, {"time_source": "typed", "discussion_seconds": 30})
    server.table.submit(0, {"type": "declare", "minute": 7})
    assert server.table.timekeeper.shown()["running"]
    server.close()
    assert server.table.timekeeper.shown() is None
    leftover = server.table.timekeeper.clock.call_later(0, lambda: None)
    assert leftover.cancelled  # the table's own clock is closed: it schedules nothing
    server.close()  # idempotent
