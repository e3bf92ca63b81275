"""The table display, the join page, the game panels, and one press reaching ten screens."""
from __future__ import annotations

import time

from companion.engine import PUBLIC
from tests.browser.helpers import (
    HostClient,
    page_errors,
    payloads,
    wait_synced,
    wait_until,
)

TV = {"width": 1280, "height": 800}


def test_d_one_button_press_reaches_eight_phones_and_two_tables(browser, serve):
    live = serve(seats=8)
    HostClient(live).start("moon-yeti", 8, {}, [f"P{n}" for n in range(1, 9)])
    phones = [live.phone(browser, seat) for seat in range(8)]
    tables = [live.page(browser, "/table", viewport=TV) for _ in range(2)]
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
    for table in tables:
        wait_synced(table, live, PUBLIC)
    before = [len(payloads(page)) for page in phones + tables]
    assert live.server.hub.streams >= 10

    # Seat 5's own select button (its only choice: "Declare time"); it acts on release.
    # Its screen is drawn after the phones' updates (by the painter): a press before
    # the choice is on it would rightly do nothing, so wait until the player sees it.
    seat = live.server.hardware[4]
    wait_until(lambda: seat.mode == "rest" and seat.display.choices, "seat 5's choice")
    live.post("/sim/press", {"seat": 4, "button": "select", "down": True})
    time.sleep(0.06)  # past the 30 ms debounce, as a finger would be
    pressed = time.monotonic()
    live.post("/sim/press", {"seat": 4, "button": "select", "down": False})
    wait_until(lambda: live.table.match.step() == "discuss1", "the declared time")
    for seat, phone in enumerate(phones):
        payload = wait_synced(phone, live, seat)
        assert payload["summary"]["headline"] == "Round 1: looking for evidence"
        assert phone.locator("#screen-title").inner_text() == payload["display"]["title"]
    for table in tables:
        wait_synced(table, live, PUBLIC)
        assert table.locator("#headline").inner_text() == "Round 1: looking for evidence"
    reached = time.monotonic() - pressed
    # Each screen got the change once (plus nothing else), not a flood of events.
    after = [len(payloads(page)) for page in phones + tables]
    assert all(1 <= a - b <= 2 for a, b in zip(after, before, strict=True)), (before, after)
    print(f"one press reached 10 live screens within {reached * 1000:.0f} ms of its release")
    for page in phones + tables:
        assert not page_errors(page)


def test_the_table_shows_seats_turn_scores_chart_and_the_booty_dice_panel(browser, serve):
    live = serve(seats=6)
    names = ["Anne", "Bonny", "Calico", "<i>Drake</i>"]
    HostClient(live).start("booty-dice", 5, {"dice": "companion"}, names + ["Eve"])
    live.phone(browser, 0)
    table = live.page(browser, "/table", viewport=TV)
    # A few turns, straight into the table (no phone joins): every roller stops at once.
    for _ in range(14):
        match = live.table.match
        if match.is_over:
            break
        (seat,) = match.acting()
        actions = match.legal_actions(seat)
        live.table.submit(seat, next((a for a in actions if a["type"] == "stop"), actions[0]))
    payload = wait_synced(table, live, PUBLIC)
    state = payload["match"]["state"]
    summary = payload["summary"]

    assert table.locator("#game-title").inner_text() == "Booty Dice"
    # The bar says what the board's headline says (the summary's, for a board without).
    headline = next((p["text"] for p in payload["board"] if p["part"] == "headline"),
                    summary["headline"])
    assert table.locator("#headline").inner_text() == headline
    # Six seats round the table, five playing; seat 1 joined by phone, the rest not.
    seats = table.locator("#seats .tv-seat")
    assert seats.count() == 6
    assert "joined" in seats.nth(0).inner_text()
    assert "scan to join" in seats.nth(1).inner_text()
    assert "unclaimed" in (seats.nth(1).get_attribute("class") or "")
    assert "not playing" in seats.nth(5).inner_text()
    # Names are text: no markup from a name reaches the page.
    assert "<i>Drake</i>" in seats.nth(3).inner_text()
    assert table.locator("#seats i").count() == 0
    if not payload["match"]["over"]:
        assert "turn" in (seats.nth(state["roller"]).get_attribute("class") or "")
        roller_name = payload["match"]["names"][state["roller"]]
        assert roller_name in table.locator("#turn").inner_text()
    # Scores, the chart (one line per pirate) and the booty-dice panel.
    assert table.locator("#score-label").inner_text().lower() == "doubloons"
    scores = table.locator("#scores li b").all_inner_texts()
    assert scores == [str(v) for v in summary["scores"]]
    assert table.locator("#chart svg path.line").count() == 5
    assert len(payload["history"]) >= 2
    dice = table.locator("#game-panel .bd-die")
    assert dice.count() == 6
    faces = [d or None for d in dice.evaluate_all("ds => ds.map(d => d.dataset.face)")]
    assert faces == state["dice"]
    pirates = table.locator("#game-panel .bd-pirate[data-seat]")
    assert pirates.count() == 5
    for seat in range(5):
        text = pirates.nth(seat).inner_text()
        if state["alive"][seat]:
            assert str(state["lives"][seat]) in text and str(state["doubloons"][seat]) in text
    # The same panel on the phone, under its screen.
    phone = live.phone(browser, 2)
    wait_synced(phone, live, 2)
    phone.locator("#game-panel .bd-die").first.wait_for()
    assert phone.locator("#game-panel .bd-die").count() == 6
    mine = phone.locator('#game-panel .bd-pirate[data-seat="2"]')
    assert "me" in (mine.get_attribute("class") or "").split()
    assert not page_errors(table) and not page_errors(phone)


def test_the_lobby_table_and_the_join_page(browser, serve):
    live = serve(seats=4)
    table = live.page(browser, "/table", viewport=TV)
    payload = wait_synced(table, live, PUBLIC)
    assert table.locator("#lobby").is_visible()
    titles = table.locator("#lobby-games li b").all_inner_texts()
    assert titles == [game["title"] for game in payload["lobby"]["games"]]
    assert table.locator("#seats .tv-seat").count() == 4

    join = live.page(browser, "/join", viewport={"width": 360, "height": 740})
    assert "Scan the code on your seat's screen" in join.locator("h1").inner_text()
    join.click("a.join-table")
    join.wait_for_url("**/table")
    # An old join code says so; a phone without a seat cookie is sent from /seat/ to /join.
    old = live.page(browser, "/J/" + "0" * 32, viewport={"width": 360, "height": 740})
    assert "no longer opens a seat" in old.locator(".message").inner_text()
    lost = live.page(browser, "/seat/", viewport={"width": 360, "height": 740})
    assert lost.url.endswith("/join")


def test_every_page_loads_only_from_the_table(browser, serve):
    """No CDN, no web font, nothing from outside: every request stays on the Pi."""
    live = serve(seats=4)
    HostClient(live).start("booty-dice", 3)
    context = live.context(browser)
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    page.goto(live.join_url(0))
    page.locator("#game-panel .bd-die").first.wait_for()
    for path in ("/table", "/host", "/join", "/sim/"):
        page.goto(live.url + path)
        page.wait_for_load_state("load")
    page.goto(live.url + "/table")
    page.locator("#game-panel .bd-die").first.wait_for()
    assert requested
    outside = [url for url in requested if not url.startswith(live.url)
               and not url.upper().startswith(live.url.upper())]
    assert not outside, outside


def test_the_chart_keeps_every_name_inside_when_all_lines_end_at_the_bottom(browser, serve):
    # Eight pirates all still at 0 (a match's start, or a vote nobody has won yet): the
    # names at the lines' end stack upwards from the bottom edge, none falls off it.
    live = serve(seats=8)
    table = live.page(browser, "/table", viewport=TV)
    wait_synced(table, live, PUBLIC)
    inside = table.evaluate("""() => {
        const names = ["Anne", "Bonny", "Calico", "Drake", "Eve", "Flint", "Grace", "Hook"];
        const chart = window.Mutiny.scoreChart([[0, 0, 0, 0, 0, 0, 0, 0, 0],
                                                [1, 3, 0, 0, 0, 0, 0, 0, 0]], names, "Wins");
        document.body.append(chart);
        const view = chart.viewBox.baseVal;
        return [...chart.querySelectorAll("text.end-name")].map(t => {
            const box = t.getBBox();
            return box.y >= view.y && box.y + box.height <= view.y + view.height; });
    }""")
    assert inside == [True] * 8

