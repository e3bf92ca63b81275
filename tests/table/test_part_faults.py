"""A seat whose screen does not answer is played from its phone, and comes back: `mutiny
serve --backend sim --sim-fault screen-missing:3` starts and answers /table, a whole
match is played with seat 3 on its phone, and seat 3's screen is taken back, redrawn
from scratch, once the fault is lifted (docs/seats.md, "When a part fails")."""
from __future__ import annotations

import http.cookiejar
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from companion.engine.rules import HOST, PUBLIC
from companion.seats import render
from companion.seats.screen import ScreenState
from companion.serve import ServeOptions, Server
from companion.web.auth import SEAT_COOKIE
from tests.test_serve import Served, free_port

#: How long anything here may take to happen at all (a loaded machine included).
ANSWERED_AT_ALL = 30.0
SEAT_3_WORDS = ("Seat 3's screen does not answer: check its cable and the mux channel 2;"
                " play seat 3 on its phone")


def wait_for(check, what: str) -> Any:
    deadline = time.monotonic() + ANSWERED_AT_ALL
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def get_json(url: str, opener=None) -> dict[str, Any]:
    with (opener or urllib.request.build_opener()).open(url, timeout=10) as reply:
        return json.loads(reply.read())


def post_json(url: str, body: dict[str, Any], opener=None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def test_mutiny_serve_with_a_missing_screen_starts_and_answers_table(tmp_path):
    served = Served(tmp_path / "data", free_port(), "--sim-fault", "screen-missing:3")
    try:
        with urllib.request.urlopen(served.base + "/table", timeout=10) as reply:
            assert reply.status == 200
        public = get_json(served.base + "/api/public/view")
        assert [f["words"] for f in public["faults"]] == [SEAT_3_WORDS]
    finally:
        out = served.stop()
    assert "seat 3: its screen does not answer" in out


def test_a_wrongly_named_fault_is_refused_in_words(tmp_path):
    with pytest.raises(Exception, match="unknown fault 'screen-gone:3'"):
        Server(ServeOptions(backend="sim", data_dir=str(tmp_path), port=0,
                            sim_faults=["screen-gone:3"]))


class Phone:
    """A seat's phone: the join link's cookie, then the seat's JSON API."""

    def __init__(self, server: Server, seat: int):
        self.base, self.seat = server.url, seat
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with self.opener.open(server.table.join_url(seat), timeout=10) as reply:
            assert reply.status == 200
        assert any(cookie.name == SEAT_COOKIE for cookie in jar)

    def view(self) -> dict[str, Any]:
        return get_json(self.base + "/api/seat/view", self.opener)

    def act(self, action: dict[str, Any]) -> int:
        status, _ = post_json(self.base + "/api/seat/act",
                              {"action": action, "version": self.view()["version"]},
                              self.opener)
        return status


def test_a_whole_match_with_seat_3_on_its_phone_then_its_screen_comes_back(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=4, data_dir=str(tmp_path), port=0,
                                 host="127.0.0.1", sim_faults=["screen-missing:3"]))
    server.start_table()
    sim, table = server.hardware, server.table
    with server.in_background():
        # Every page says which part failed and what to check; only seat 3's phone of
        # the phones, since it is the seat that plays by phone.
        assert [f["words"] for f in table.payload(PUBLIC)[1]["faults"]] == [SEAT_3_WORDS]
        assert [f["words"] for f in table.payload(HOST)[1]["faults"]] == [SEAT_3_WORDS]
        assert [f["seat"] for f in table.payload(2)[1]["faults"]] == [3]
        assert table.payload(0)[1]["faults"] == []
        assert sim.frame(2).getbbox() is None  # a panel without power lights nothing
        phone = Phone(server, 2)  # joining claims the seat, as a scanned code does
        for seat in (0, 1, 3):
            table.claim(seat)
        table.start("moon-yeti", 4, seed="seat-3-by-phone")
        rng = random.Random(27)
        by_phone = 0
        while not table.match.is_over:
            actor = next(s for s in table.match.acting() + [0, 1, 2, 3]
                         if table.match.legal_actions(s))
            action = rng.choice(table.match.legal_actions(actor))
            if actor == 2:
                assert phone.act(action) == 200
                by_phone += 1
            else:  # as a seat's buttons hand a confirmed choice on
                table.submit(actor, action, screen_first=True)
        assert by_phone > 0 and sim[2].screen_error is not None  # still down all along
        status, state = post_json(server.url + "/sim/fault",
                                  {"kind": "screen-missing", "seat": 3, "on": False})
        assert status == 200 and state["faults"] == []
        wait_for(lambda: sim[2].screen_error is None, "seat 3's screen taken back")
        wait_for(lambda: table.payload(PUBLIC)[1]["faults"] == [], "the pages told")
        assert phone.view()["faults"] == []
        seat = sim[2]
        drawn = render(ScreenState("rest", seat.display, 0, 3)).tobytes()
        wait_for(lambda: sim.frame(2).tobytes() == drawn, "seat 3 redrawn from scratch")
        assert sim.panels[2].is_on and sim.panels[2].charge_pump


def test_a_fault_put_in_mid_match_on_sim_is_said_then_lifted(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=2, data_dir=str(tmp_path), port=0,
                                 host="127.0.0.1"))
    server.start_table()
    with server.in_background():
        status, state = post_json(server.url + "/sim/fault",
                                  {"kind": "button-stuck", "seat": 2, "role": "next",
                                   "on": True})
        assert status == 200 and state["faults"] == [{
            "kind": "button-stuck", "seat": 2, "role": "next",
            "what": state["kinds"]["button-stuck"]}]
        assert post_json(server.url + "/sim/fault", {"kind": "screen-gone", "seat": 2,
                                                     "on": True})[0] == 400
        assert post_json(server.url + "/sim/fault", {"kind": "mux-missing", "seat": 9,
                                                     "on": True})[0] == 400
        # A stuck button is said once it has been down for the stuck time: the test
        # shortens nothing, so it only checks the fault is in and lifts it.
        assert get_json(server.url + "/sim/faults")["faults"][0]["seat"] == 2
        status, state = post_json(server.url + "/sim/fault",
                                  {"kind": "button-stuck", "seat": 2, "role": "next",
                                   "on": False})
        assert status == 200 and state["faults"] == []
