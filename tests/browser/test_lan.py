"""A laptop table (`mutiny serve --lan`): four phones join through the network address the
server prints, and play a Booty Dice turn with no seat hardware touched (nothing is ever
pressed on /sim: the phones alone play).

The address is this machine's own non-loopback one (``companion.serve.lan_address``); on
a machine with none, the test gives ``--host 127.0.0.2`` instead (a loopback address
other than 127.0.0.1, so a link that still said 127.0.0.1 would be caught) and says so
in its output.
"""
from __future__ import annotations

import http.cookiejar
import io
import json
import queue
import re
import sqlite3
import subprocess
import threading
import time
import urllib.request

import pytest
import segno

from companion.errors import MutinyError
from companion.serve import lan_address
from tests.browser.helpers import (
    PHONE,
    SYNC_SECONDS,
    HostClient,
    page_errors,
    wait_synced,
    wait_until,
    watch_errors,
)
from tests.browser.test_phones import act_on_phone
from tests.test_serve import MUTINY, free_port


class LanServer:
    """`mutiny serve --lan` as a process, and what it printed."""

    def __init__(self, data_dir, extra: list[str]):
        self.data_dir = data_dir
        self.port = free_port()
        self.proc = subprocess.Popen(
            [str(MUTINY), "serve", "--backend", "sim", "--seats", "4", "--lan",
             "--data-dir", str(data_dir), "--port", str(self.port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.pin = self.wait_for(r"PIN (\d{6})").group(1)  # (printed first)
        printed = self.wait_for(r"phones on this network join at (http://\S+)/join")
        self.base = printed.group(1)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: str, seconds: float = 60.0) -> re.Match:
        deadline = time.monotonic() + seconds
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"serve never printed {pattern!r}: {''.join(seen)}")

    def tokens(self) -> list[str]:
        """Each seat's join token now, read from the table's access file."""
        db = sqlite3.connect(self.data_dir / "access.sqlite3", timeout=30)
        try:
            return [token for _seat, token in
                    db.execute("SELECT seat, token FROM seats ORDER BY seat")]
        finally:
            db.close()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


def get_json(opener, url: str):
    with opener.open(url, timeout=10) as reply:
        return json.loads(reply.read())


def qr_svg(url: str) -> bytes:
    """The join code the server draws for ``url`` (the same drawing as the route's)."""
    out = io.BytesIO()
    segno.make(url, error="l").save(out, kind="svg", scale=8, border=2, dark="#000",
                                    light="#fff")
    return out.getvalue()


@pytest.fixture
def lan_server(tmp_path):
    try:
        extra, address = [], lan_address()
    except MutinyError:
        extra, address = ["--host", "127.0.0.2"], "127.0.0.2"
        print("this machine has no network address but loopback: serving on 127.0.0.2")
    server = LanServer(tmp_path / "data", extra)
    assert server.base == f"http://{address}:{server.port}"
    yield server
    server.stop()


def test_four_phones_join_by_the_lan_address_and_play_a_booty_dice_turn(browser, lan_server):
    base = lan_server.base
    host = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def host_post(path: str, body: dict) -> dict:
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with host.open(request, timeout=10) as reply:
            return json.loads(reply.read())

    host_post("/api/host/login", {"pin": lan_server.pin})
    # Each seat's join link, as its code carries it: with the LAN address.
    links = [f"{base}/J/{token}".upper() for token in lan_server.tokens()]

    # The table display (no seat screens on a laptop) shows those very codes.
    # Every browser here comes from this one address, and the server bounds the
    # connections of each address (companion/web/gate.py); Chromium keeps at most six
    # to a server per context, so the display shares its context (not its cookie: it
    # has none) with the first phone, and five contexts never need more than the four
    # phones' 24 (real phones each have an address of their own).
    table = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    table.set_default_timeout(SYNC_SECONDS * 1000)
    display = table.new_page()
    watch_errors(display)
    display.goto(base + "/table")
    codes = display.locator("#join-codes img")
    wait_until(lambda: codes.count() == 4, "four join codes on the table display")
    for seat, link in enumerate(links):
        shown = display.evaluate("(src) => fetch(src).then((r) => r.text())",
                                 codes.nth(seat).get_attribute("src"))
        assert shown.encode() == qr_svg(link)

    phones = []
    for seat, link in enumerate(links):
        if seat == 0:
            context = table
        else:
            context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            context.set_default_timeout(SYNC_SECONDS * 1000)
        phone = context.new_page()
        watch_errors(phone)
        phone.goto(link)
        assert phone.url == base + "/seat/", phone.url
        wait_until(lambda p=phone: p.locator("#conn").inner_text() == "Live", "the stream")
        phones.append(phone)
    # Every seat has its phone now: the table display has no code left to show.
    wait_until(lambda: codes.count() == 0, "the codes to go from the table display")
    for seat in range(1, 5):
        status = phones[0].evaluate(
            "(n) => fetch(`/api/public/seats/${n}/qr.svg`).then((r) => r.status)", seat)
        assert status == 404

    def synced(phone) -> dict:
        """The phone's latest payload, once it is what the server has for its seat."""
        def same():
            now = phone.evaluate("() => fetch('/api/seat/view').then((r) => r.json())")
            last = phone.evaluate("() => window.__mutinyPayloads.at(-1) || null")
            return last if last == now else None
        return wait_until(same, "the phone to catch up")

    # Seat 1's phone picks the game from the lobby menu: Booty Dice, 4 players.
    lobby = synced(phones[0])["display"]["choices"]
    start = next(i for i, c in enumerate(lobby) if c["action"] == {
        "type": "lobby_start", "game": "booty-dice", "players": 4})
    act_on_phone(phones[0], start, lobby[start], 0)

    def public() -> dict:
        """The public summary, as seat 4's phone (sitting by) was sent it last."""
        return phones[3].evaluate("() => window.__mutinyPayloads.at(-1) || {}")

    wait_until(lambda: (public().get("match") or {}).get("game") == "booty-dice",
               "the match to start")
    roller = public()["summary"]["turn"]
    acted = 0
    while public()["summary"]["turn"] == roller:
        for phone in phones:
            payload = synced(phone)
            choices = payload["display"]["choices"]
            if choices:  # the roller (or a seat it asks) chooses on its phone
                act_on_phone(phone, len(choices) - 1, choices[-1], acted)
                acted += 1
                wait_until(lambda p=phone, v=payload["version"]:
                           synced(p)["version"] != v, "the action to land")
                break
        assert acted < 40, "the turn never ended"
    assert acted >= 1 and public()["summary"]["turn"] != roller
    assert public()["match"]["game"] == "booty-dice"
    for page in (display, *phones):
        assert not page_errors(page), page_errors(page)


def test_a_rematch_from_seat_ones_phone_keeps_every_phone_joined(browser, serve):
    """A laptop night goes on: the table display shows the night's standings once a
    match ends; seat 1's phone taps Rematch, and every phone plays the new match
    without joining again."""
    live = serve(seats=4)
    host = HostClient(live)
    host.start("booty-dice", 4, options={"first_seat": 2}, names=["Ann", "Bo", "Cy", "Di"])
    first = live.table.match.id
    status, _ = host.post("/api/host/act", {"action": {"type": "end"}})
    assert status == 200
    phones = [live.phone(browser, seat) for seat in range(4)]
    # (In the first phone's context: see the LAN test on the connections of one address.)
    display = phones[0].context.new_page()
    watch_errors(display)
    display.goto(live.url + "/table")
    wait_until(lambda: display.locator("#night .night-standings").count() == 1,
               "the night's standings on the table display")
    assert "tonight: 1 match" in display.locator("#night").inner_text().lower()
    choices = wait_synced(phones[0], live, 0)["display"]["choices"]
    rematch = next(i for i, c in enumerate(choices) if c["action"]["type"] == "lobby_rematch")
    act_on_phone(phones[0], rematch, choices[rematch], 0)
    wait_until(lambda: live.table.match.id != first, "the rematch to start")
    assert live.table.match.options["first_seat"] == 2
    for seat, phone in enumerate(phones):
        payload = wait_synced(phone, live, seat)
        assert payload["match"]["match"] == live.table.match.id
        assert payload["seat"]["name"] == ["Ann", "Bo", "Cy", "Di"][seat]
    roller = live.table.match.acting()[0]
    choices = wait_synced(phones[roller], live, roller)["display"]["choices"]
    version = live.payload(roller)["version"]
    # (Roll and Stop lead a Booty Dice phone's menu; holding a die is a tap on the die.)
    first = next(i for i, c in enumerate(choices) if c["action"]["type"] in ("roll", "stop"))
    act_on_phone(phones[roller], first, choices[first], 0)
    wait_until(lambda: live.payload(roller)["version"] != version, "the roller's phone to act")
    for page in (display, *phones):
        assert not page_errors(page), page_errors(page)
