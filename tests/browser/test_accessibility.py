"""Every page passes axe-core (vendored from npm, tests/browser/vendor/), at rest,
mid-match, with a secret held and at the end, in every game; motion stops for those who
ask; the phone leaves room at 200% text; live regions say what changed, once; the
keyboard stays where the player acted from."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import companion.games
from companion.engine import PUBLIC
from tests.browser.helpers import (
    PHONE,
    HostClient,
    axe_violations,
    failed_requests,
    page_errors,
    wait_synced,
    wait_until,
)
from tests.browser.test_boards import play, players_for

NAMES = ["Anne", "Bonny", "Calico Jack", "Drake"]
TV = {"width": 1280, "height": 720}
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("MUTINY_SCREENSHOTS") == "1" else tmp_path


def clean(page, live) -> None:
    found = axe_violations(page, live.url)
    assert found == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n  "
                                  + "\n  ".join(v["nodes"]) for v in found)
    # The host page asks who is logged in: before the PIN, the API rightly says 401.
    failed = [line for line in failed_requests(page) if not line.startswith("401 ")]
    assert not page_errors(page) and not failed, (page_errors(page), failed)


def test_axe_finds_nothing_on_join_host_sim_and_an_empty_table(browser, serve):
    live = serve(seats=4)
    for path, viewport in (("/join", PHONE), ("/host", {"width": 1024, "height": 768}),
                           ("/sim/", {"width": 1024, "height": 700}), ("/table", TV)):
        page = live.page(browser, path, viewport=viewport)
        page.wait_for_load_state("networkidle") if path == "/join" else page.wait_for_timeout(400)
        clean(page, live)


def test_axe_finds_nothing_on_a_match_at_the_table_and_on_a_phone(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    live.seat_client(0).act({"type": "declare"})
    phone = live.phone(browser, 1)  # before the TV: its join code would go mid-load (404)
    table = live.page(browser, "/table", viewport=TV)
    wait_synced(table, live, PUBLIC)
    wait_synced(phone, live, 1)
    clean(table, live)
    clean(phone, live)
    # While the eye is held the secrets show: still nothing wrong.
    pad = phone.locator("#reveal-pad").bounding_box()
    phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
    phone.mouse.down()
    wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
    clean(phone, live)
    phone.mouse.up()


def test_reduced_motion_stops_the_glow(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    live.seat_client(0).act({"type": "declare"})
    for seat in range(4):
        live.seat_client(seat).act({"type": "ready"})
    still = live.phone(browser, 1, reduced_motion="reduce")
    moving = live.phone(browser, 1)
    for page in (still, moving):
        wait_synced(page, live, 1)
        page.locator('#screen[data-led="blink"]').wait_for()
    name = "() => getComputedStyle(document.getElementById('screen')).animationName"
    assert moving.evaluate(name) == "glow"
    assert still.evaluate(name) == "none"


def test_at_200_percent_text_the_bar_and_the_eye_leave_three_quarters(browser, serve, shots):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    for size in ({"width": 360, "height": 640}, {"width": 430, "height": 932}):
        phone = live.phone(browser, 0, viewport=size)
        wait_synced(phone, live, 0)
        # Text zoom: every size on the page is in rem, so a root twice as large is it.
        phone.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
        phone.wait_for_timeout(100)
        fixed = phone.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((node) => ['fixed', 'sticky'].includes(getComputedStyle(node).position))
            .reduce((sum, node) => sum + node.getBoundingClientRect().height, 0)""")
        assert fixed < size["height"] / 4, f"{fixed}px fixed of {size['height']}"
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{width}px wide at 200% text"
        phone.screenshot(path=str(shots / f"phone-200-{size['width']}.png"))
        # A held secret shows whole: its box is as tall as what it holds (nothing
        # clipped or scrolled inside it), and every line of it is on the page.
        pad = phone.locator("#reveal-pad").bounding_box()
        phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
        phone.mouse.down()
        wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
        clipped = phone.evaluate("""() => { const box = document.getElementById('private');
            return box.scrollHeight - box.clientHeight; }""")
        assert clipped <= 1, f"the held secret is cut by {clipped}px at 200% text"
        secret = phone.locator("#private").inner_text()
        for line in wait_synced(phone, live, 0)["display"]["private"]:
            assert line in secret or line in phone.locator("body").inner_text()
        phone.mouse.up()


def test_the_table_and_the_phone_announce_turns_and_results(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("booty-dice", 2, {"dice": "companion"}, NAMES[:2])
    table = live.page(browser, "/table", viewport=TV)
    phone = live.phone(browser, 0)
    wait_synced(phone, live, 0)
    assert phone.locator("#announce").inner_text().startswith("Your turn")
    assert phone.locator("#announce").get_attribute("aria-live") == "assertive"
    status, _ = HostClient(live).post("/api/host/act", {"action": {"type": "end"}})
    assert status == 200
    wait_synced(table, live, PUBLIC)
    wait_synced(phone, live, 0)
    assert table.locator("#announce").inner_text() == "The match has ended."
    assert "ended" in phone.locator("#announce").inner_text()


def host_page(browser, live):
    """The host page, logged in with the PIN as a host would."""
    host = live.page(browser, "/host", viewport={"width": 1024, "height": 768})
    host.locator("#login").wait_for()
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    return host


def hold_the_eye(phone):
    pad = phone.locator("#reveal-pad").bounding_box()
    phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
    phone.mouse.down()
    wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")


def play_to_the_end(live, rng: random.Random) -> None:
    """Random legal moves until the match ends (the host ends a match that is long)."""
    play(live.table, 3000, rng)
    if not live.table.match.is_over:
        status, _ = HostClient(live).post("/api/host/act", {"action": {"type": "end"}})
        assert status == 200


@pytest.mark.parametrize("game_id", companion.games.ids())
def test_axe_finds_nothing_in_every_game_at_rest_mid_match_holding_a_secret_and_at_the_end(
        browser, serve, game_id):
    players = players_for(game_id)
    live = serve(seats=max(4, players))
    HostClient(live).start(game_id, players, {}, (NAMES * 2)[:players])
    table = live.page(browser, "/table", viewport=TV)
    phone = live.phone(browser, 0)
    host = host_page(browser, live)
    sim = live.page(browser, "/sim/", viewport={"width": 1024, "height": 700})
    rng = random.Random(game_id)
    for stage in ("at rest", "mid-match", "the end"):
        if stage == "mid-match":
            play(live.table, 12, rng)
        elif stage == "the end":
            play_to_the_end(live, rng)
        wait_synced(table, live, PUBLIC, seconds=30)
        mine = wait_synced(phone, live, 0)
        for page, what in ((table, "/table"), (phone, "the phone"), (host, "/host"), (sim, "/sim")):
            page.wait_for_timeout(150)  # a drawing's last frame (the board's fitting)
            found = axe_violations(page, live.url)
            assert found == [], f"{game_id} {stage}, {what}:\n" + "\n".join(
                f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"])
                for v in found)
        if mine["match"].get("secrets") is not False and stage != "the end":
            hold_the_eye(phone)
            found = axe_violations(phone, live.url)
            assert found == [], f"{game_id} {stage}, a secret held: {found}"
            phone.mouse.up()
    for page in (table, phone, host, sim):
        assert not page_errors(page), page_errors(page)
        # Before the PIN the host page rightly hears 401; the table display may ask for
        # a seat's code just as its phone took it (a 404: the code is no longer public).
        failed = [line for line in failed_requests(page) if not line.startswith("401 ")
                  and not ("404 " in line and "/qr.svg" in line)]
        assert not failed, failed


# Two deals (seeded: a flip's card decides): the first card flipped keeps the turn, and
# one flipped that ends it, when the seat has nothing left to choose.
@pytest.mark.parametrize("seed, turn_goes_on", [("keyboard", True), ("keys-0", False)])
def test_the_phone_says_what_changed_once_and_keeps_the_keyboard_where_it_acted(
        browser, serve, seed, turn_goes_on):
    live = serve(seats=4)
    live.table.start("card-mutiny", 2, {"first_seat": 1}, names=NAMES[:2], seed=seed)
    phone = live.phone(browser, 0)
    wait_synced(phone, live, 0)
    # The screen is no live region: a move elsewhere is said in #changes, its new lines only.
    assert phone.locator("#screen").get_attribute("aria-live") is None
    assert phone.locator("#changes").get_attribute("aria-live") == "polite"
    # "Live" is written once, not at every payload (a status region says each write).
    phone.evaluate("""() => { window.__connWrites = 0; new MutationObserver((m) => {
        window.__connWrites += m.length; }).observe(document.getElementById('conn'),
        {childList: true, characterData: true, subtree: true}); }""")
    before = live.payload(0)
    # Seat 1 acts from the keyboard, on a place of the grid: the keyboard stays there.
    tap = phone.locator("#board button.tap").first
    tap.focus()
    spot = tap.get_attribute("data-spot")
    phone.keyboard.press("Enter")
    wait_until(lambda: live.payload(0)["version"] != before["version"], "the flip")
    mine = wait_synced(phone, live, 0)
    phone.wait_for_timeout(100)
    focused = phone.evaluate("""() => { const node = document.activeElement;
        return node === document.body ? 'BODY' : node.dataset.spot || node.id || node.tagName; }""")
    if turn_goes_on:
        assert mine["display"]["choices"]
        assert focused == spot or phone.evaluate(
            "() => !!document.activeElement.closest('#board, #choices')"), focused
    else:
        # Nothing left to act on: the keyboard goes to the title that says whose turn it is.
        assert not mine["display"]["choices"] and mine["display"]["title"] == "Bonny's turn"
        assert focused == "screen-title", focused
    said = phone.locator("#changes").inner_text()
    new_lines = [line for line in mine["display"]["lines"]
                 if line not in before["display"]["lines"]]
    assert new_lines and all(line in said for line in new_lines), (said, new_lines)
    assert phone.evaluate("() => window.__connWrites") == 0
    # At 200% text the screen's title is never broken inside a word.
    phone.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    phone.wait_for_timeout(200)
    broken = phone.evaluate(BROKEN_TITLE)
    assert broken == [], broken


#: The words of the screen's title drawn on more than one line (broken inside), and
#: whether the title is wider than its box.
BROKEN_TITLE = """() => { const h = document.getElementById('screen-title');
  const text = h.firstChild, range = document.createRange(), words = [];
  let at = 0;
  for (const word of h.textContent.split(' ')) {
    range.setStart(text, at); range.setEnd(text, at + word.length);
    if (range.getClientRects().length > 1) words.push(word);
    at += word.length + 1;
  }
  if (h.scrollWidth > h.clientWidth + 1) words.push('(wider than the screen)');
  return words; }"""


def last(page):
    return page.evaluate("() => window.__mutinyPayloads.at(-1) || null")


def test_a_held_secret_is_said_and_in_sight_at_200_percent_text(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    phone = live.phone(browser, 0, viewport={"width": 360, "height": 640})
    mine = wait_synced(phone, live, 0)
    phone.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    phone.locator("#choices button").last.scroll_into_view_if_needed()
    hold_the_eye(phone)
    box = phone.locator("#private").bounding_box()
    # Its top is on the screen, not scrolled past (the page scrolls by whole pixels).
    assert -1 < box["y"] < 640 / 4, box
    said = phone.locator("#secret-say").inner_text()
    assert said.startswith("Only for you")
    assert all(line in said for line in mine["display"]["private"]), said
    assert phone.locator("#secret-say").get_attribute("aria-live") == "assertive"
    phone.mouse.up()
    wait_until(lambda: phone.locator("#secret-say").inner_text() == "", "the secret unsaid")


def test_enter_on_a_sim_button_presses_that_button(browser, serve):
    live = serve(seats=4)
    sim = live.page(browser, "/sim/", viewport={"width": 1024, "height": 700})
    sim.wait_for_timeout(300)
    presses = []
    sim.on("request", lambda request: presses.append(request.post_data_json)
           if request.url.endswith("/sim/press") else None)
    sim.locator('button[aria-label="Seat 3 next"]').focus()
    sim.keyboard.press("Enter")
    # (Playwright hands the page's events over only while the test calls it.)
    wait_until(lambda: sim.wait_for_timeout(20) or len(presses) >= 2, "the press and release")
    assert presses[:2] == [{"seat": 2, "button": "next", "down": True},
                           {"seat": 2, "button": "next", "down": False}], presses
