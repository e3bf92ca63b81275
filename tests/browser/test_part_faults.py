"""A seat whose screen does not answer, end to end through the pages: the table starts
with `--sim-fault screen-missing:3`, the host page, /table and seat 3's phone say which
part failed and what to check, a whole match is played with seat 3 on its phone (taps on
its page), the fault is lifted with the control on /sim, and every page sees seat 3's
screen back, redrawn from scratch (docs/seats.md, "When a part fails")."""
from __future__ import annotations

import logging

from companion.engine import PUBLIC
from companion.seats import render
from companion.seats.screen import ScreenState
from companion.serve import ServeOptions, Server
from tests.browser.helpers import (
    HostClient,
    Live,
    axe_violations,
    page_errors,
    wait_synced,
    wait_until,
)
from tests.browser.test_phones import act_on_phone

TV = {"width": 1280, "height": 720}
WORDS = ("Seat 3's screen does not answer: check its cable and the mux channel 2; "
         "play seat 3 on its phone")


def no_axe_findings(page, live) -> None:
    found = axe_violations(page, live.url)
    assert found == [], "\n".join(f"{v['id']}: {v['help']} {v['nodes']}" for v in found)


def test_seat_3_plays_by_phone_while_its_screen_is_out_and_gets_it_back(browser, tmp_path):
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = Server(ServeOptions(backend="sim", seats=4, data_dir=str(tmp_path / "data"),
                                 port=0, host="127.0.0.1", sim_faults=["screen-missing:3"]))
    server.http.connections_per_client = 200  # every page comes from 127.0.0.1
    server.start_table()
    live = Live(server)
    try:
        table = live.page(browser, "/table", viewport=TV)
        host = live.page(browser, "/host", viewport={"width": 1024, "height": 768})
        host.fill("#pin", live.pin)
        host.click("#login-button")
        phones = {seat: live.phone(browser, seat) for seat in (0, 2)}

        # Every page says which part failed and what to check; seat 1's phone does not.
        table.locator("#faults").wait_for()
        assert table.locator("#faults").inner_text() == WORDS
        host.locator("#faults-card").wait_for()
        assert host.locator("#fault-rows").inner_text() == WORDS
        phones[2].locator("#faults").wait_for()
        assert phones[2].locator("#faults").inner_text() == WORDS
        wait_synced(phones[0], live, 0)
        assert phones[0].locator("#faults").is_hidden()
        for page in (table, phones[2]):  # (the logged-in host page has no h1 of its own)
            no_axe_findings(page, live)

        # A whole match: seat 3 taps its phone, the others act through theirs (the API).
        HostClient(live).start("moon-yeti", 4)
        clients = {seat: live.seat_client(seat) for seat in (0, 1, 3)}
        by_phone = 0
        for turn in range(200):
            if live.table.match.is_over:
                break
            acting = [s for s in range(4) if live.payload(s)["display"]["choices"]]
            assert acting, "nobody can act but the match is not over"
            seat = acting[turn % len(acting)]
            before = live.payload(seat)
            choice = before["display"]["choices"][0]
            if seat == 2:
                wait_synced(phones[2], live, 2)
                act_on_phone(phones[2], 0, choice, way=1)  # a hidden one: two blind taps
                by_phone += 1
            else:
                status, _ = clients[seat].act(choice["action"], before["version"])
                assert status == 200
            wait_until(lambda: live.payload(seat) != before, f"seat {seat + 1}'s move")
        assert live.table.match.is_over and by_phone > 0
        assert server.hardware[2].screen_error is not None  # out all match long

        # Lifted on /sim: the seat watch takes the screen back and every page is told.
        sim = live.page(browser, "/sim/", viewport={"width": 1280, "height": 800})
        lift = sim.get_by_role("button", name="Lift screen-missing on seat 3")
        lift.click()
        wait_until(lambda: sim.locator("#fault-list li").count() == 0, "/sim's list empty")
        wait_until(lambda: server.hardware[2].screen_error is None, "seat 3's screen back")
        wait_until(lambda: table.locator("#faults").is_hidden(), "/table told")
        wait_until(lambda: host.locator("#faults-card").is_hidden(), "the host page told")
        wait_until(lambda: phones[2].locator("#faults").is_hidden(), "seat 3's phone told")
        wait_synced(table, live, PUBLIC)
        seat = server.hardware[2]
        drawn = render(ScreenState("rest", seat.display, 0, 3)).tobytes()
        wait_until(lambda: server.hardware.frame(2).tobytes() == drawn,
                   "seat 3's panel redrawn from scratch")
        for page in (table, host, phones[2], sim):
            assert not page_errors(page), page_errors(page)
    finally:
        live.close()
