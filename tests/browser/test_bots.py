"""Bots at the table in real browsers (docs/bots.md, "At the table"): seat 1's phone seats
an easy bot from the lobby menu, three phones and the bot play a whole MIT Mutiny match
while the table display and the host page name the bot and say when it thinks; and a
phone takes a bot's seat over mid-match by its code. The bots' pace is short through
the table's own setting (``MUTINY_BOT_PACE``), not a patch of the code."""
from __future__ import annotations

import pytest

from companion.table import lobby
from tests.browser.helpers import HostClient, page_errors, wait_synced, wait_until

BOT = 3  # seat 4
HOST_VIEW = {"width": 1000, "height": 900}


@pytest.fixture(autouse=True)
def short_pace(monkeypatch):
    monkeypatch.setenv("MUTINY_BOT_PACE", "0.4")


def seat_bot_from_seat_one(phone, live) -> None:
    """Seat 1's phone: Bots, Seat 4, Easy bot (the lobby menu, as its buttons have it)."""
    lines = phone.locator("#choices .choice-group")
    wait_until(lambda: lines.filter(has_text="Bots").count() == 1, "the Bots group")
    lines.filter(has_text="Bots").tap()
    phone.locator('#choices .choice-group[data-group="Seat 4"]').tap()
    phone.locator("#choices .choice", has_text="Seat 4: a bot, easy").first.tap()
    wait_until(lambda: live.table.bots.sits(BOT), "the bot to sit down")


def play_people(live, phones, until, limit: int = 400) -> int:
    """The phones make their first choice whenever one is due; the bot plays itself.
    Returns how many times the bot acted."""
    bots = live.table.bots

    def bot_at_rest() -> bool:
        return BOT not in bots.seats or bots.seats[BOT].thinking is None

    for turn in range(limit):
        if until():
            return len(bots.acted)
        # A phone chooses while the bot is not thinking, so that no move of the bot's
        # changes that phone's choices under the finger.
        wait_until(bot_at_rest, "the bot to finish thinking")
        # Asked again: the bot's last move may have ended the match meanwhile, and seat
        # 1's first choice would then be the lobby's "Rematch" (CI once played two).
        # A bot at rest cannot move before a phone does, so the answer holds.
        if until():
            return len(bots.acted)
        acting = [s for s in phones if live.payload(s)["display"]["choices"]]
        if not acting:
            wait_until(lambda: until() or any(
                live.payload(s)["display"]["choices"] for s in phones), "the bot to act")
            continue
        seat = acting[turn % len(acting)]
        before = live.payload(seat)
        wait_synced(phones[seat], live, seat)
        choice = before["display"]["choices"][0]
        assert not lobby.is_lobby_action(choice["action"]), choice
        # Sent from the phone's own page, as its taps send it (a map pick, a held
        # secret: tests/browser/test_phones.py taps those).
        status = phones[seat].evaluate("""async ([action, version]) => (await fetch(
            '/api/seat/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({action, version})})).status""",
            [choice["action"], before["version"]])
        assert status == 200, status
        wait_until(lambda: live.payload(seat) != before, f"seat {seat + 1}'s choice")
    raise AssertionError("the match did not get there")


def test_three_phones_and_a_bot_play_a_whole_mit_mutiny_match(browser, serve):
    live = serve(seats=4)
    phones = {seat: live.phone(browser, seat) for seat in range(3)}
    wait_synced(phones[0], live, 0)
    seat_bot_from_seat_one(phones[0], live)
    tv = live.page(browser, "/table", viewport={"width": 1280, "height": 720})
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    bot_row = host.locator(f'#seat-rows li[data-seat="{BOT}"]')
    wait_until(lambda: bot_row.locator(".seat-state").inner_text().startswith("Bot (easy)"),
               "the host page to name the bot")
    assert bot_row.locator('[data-do="stand"]').is_visible()
    tv_seat = tv.locator(f'#seats li[data-seat="{BOT}"]')
    wait_until(lambda: "Bot (easy)" in tv_seat.inner_text(), "the TV to name the bot")

    HostClient(live).start("mit-mutiny", 4)
    thinking_seen = {"tv": False, "host": False}

    def over() -> bool:
        # Whenever the bot thinks for long enough, both pages say so.
        if "thinking" in tv_seat.inner_text():
            thinking_seen["tv"] = True
        if "thinking" in bot_row.locator(".seat-state").inner_text():
            thinking_seen["host"] = True
        return live.table.match.is_over

    acted = play_people(live, phones, over)
    assert live.table.match.is_over and acted >= 5
    assert all(turn["seat"] == BOT for turn in live.table.bots.acted)
    entries = live.table.journal.entries(live.table.match.id)
    assert sum(entry.actor == BOT for entry in entries) == acted
    assert thinking_seen == {"tv": True, "host": True}
    for seat, phone in phones.items():
        assert wait_synced(phone, live, seat)["match"]["over"]
    # A rematch keeps the bot in its seat.
    HostClient(live).post("/api/host/rematch", {})
    wait_until(lambda: not live.table.match.is_over, "the rematch")
    assert live.table.bots.sits(BOT) and live.table.match.names[BOT] == "Bot (easy)"
    for page in (tv, host, *phones.values()):
        assert not page_errors(page), page_errors(page)


def test_a_phone_takes_a_bots_seat_over_mid_match(browser, serve):
    live = serve(seats=4)
    host = HostClient(live)
    phones = {seat: live.phone(browser, seat) for seat in range(3)}
    assert host.post(f"/api/host/seats/{BOT + 1}/bot", {"level": "easy"})[0] == 200
    host.start("mit-mutiny", 4)
    play_people(live, phones, lambda: len(live.table.bots.acted) >= 3)
    acted = len(live.table.bots.acted)

    # The host shows the seat's code; a new phone scans it: the bot stands up.
    taker = live.phone(browser, BOT)
    wait_until(lambda: not live.table.bots.sits(BOT), "the bot to stand up")
    payload = wait_synced(taker, live, BOT)
    assert payload["display"]["lines"][0] == "! Took over from bot"
    assert live.payload("public")["table"]["bots"][BOT] is None
    phones[BOT] = taker
    play_people(live, phones, lambda: live.table.match.is_over)
    assert len(live.table.bots.acted) == acted  # the bot never acted for the phone
    entries = live.table.journal.entries(live.table.match.id)
    assert sum(entry.actor == BOT for entry in entries) > acted  # the phone played on
    assert not page_errors(taker), page_errors(taker)
