"""Every game's board on the table display and the phones: drawn part by part, nothing
requested that is not there, nothing wider than the screen, at every target size.

    MUTINY_SCREENSHOTS=1 ./dev test tests/browser/test_boards.py

also keeps the pictures in docs/boards/ (otherwise they go to a temporary folder).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import companion.games
from companion.engine import PUBLIC
from tests.browser.helpers import (
    HostClient,
    failed_requests,
    page_errors,
    wait_synced,
    wait_until,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "boards"
PIRATES = ["Anne", "Bonny", "Calico Jack", "Drake", "Mary Read", "Flint"]
TABLES = [(1024, 600), (1280, 720), (1920, 1080)]
PHONES = [(360, 640), (430, 932), (640, 360), (932, 430)]
SIMS = [(1024, 700), (1440, 900)]
#: Parts drawn in the bar (the headline) rather than on the felt.
IN_THE_BAR = {"headline"}


@pytest.fixture
def shots(tmp_path) -> Path:
    if os.environ.get("MUTINY_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        return DOCS
    return tmp_path


def players_for(game_id: str) -> int:
    spec = companion.games.get(game_id).spec
    return min(max(spec.min_seats, 4), spec.max_seats)


def play(table, moves: int, rng: random.Random) -> None:
    """``moves`` random legal moves (fewer if the match ends first)."""
    for _ in range(moves):
        match = table.match
        acting = [a for a in match.acting() if isinstance(a, int)]
        if match.is_over or not acting:
            return
        seat = rng.choice(acting)
        table.submit(seat, rng.choice(match.legal_actions(seat)))


def fits(page, what: str) -> None:
    """Nothing pushes the page sideways, and no box on it is wider than the screen."""
    width, inner = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{what}: {width}px wide in a {inner}px window"
    wide = page.evaluate("""() => [...document.querySelectorAll('.tv-table, .tv-side, .board')]
        .filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.id || box.className)""")
    assert not wide, f"{what}: {wide} scroll sideways"


#: Every word in sight that the browser drew over two lines or more (a word broken in
#: the middle: "Coppe / r coin"): a Range over the word has client rects on 2+ lines.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("svg, .sr-only, [hidden], script, style")) continue;
    for (const found of node.data.matchAll(/[^\\s\\-\\/\u2013\u2014]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const tops = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0)
        .map((r) => r.top);
      if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2) broken.push(found[0]);
    }
  }
  return broken;
}"""


def no_word_broken(page, what: str) -> None:
    """No word on the page is split across two lines."""
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"{what}: words broken across lines: {broken}"


BELOW_THE_FELT = """() => [...document.querySelectorAll('.tv-table')]
    .filter((box) => getComputedStyle(box).overflowY !== 'visible'
                     && !((box.querySelector('.howto') || {}).offsetHeight > 100)
                     && box.scrollHeight > box.clientHeight + 1)
    .map((box) => `${box.className}: ${box.scrollHeight - box.clientHeight}px below`)"""


def all_in_sight(page, what: str) -> None:
    """On a TV-shaped window the felt holds the whole board: nothing scrolls inside it
    (a TV cannot scroll). While the how-to teaches the game (before the first move) it
    may push the board down. The page fits its board as it draws it (table.js): the
    check waits for that, then says what is still below."""
    try:
        wait_until(lambda: not page.evaluate(BELOW_THE_FELT), f"{what}: the felt to hold the board")
    except AssertionError:
        raise AssertionError(f"{what}: {page.evaluate(BELOW_THE_FELT)}") from None


def drawn_parts(page, holder: str) -> list[str]:
    return page.locator(f"{holder} > [data-part]").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.part)")


def check_table(page, payload: dict, what: str) -> None:
    """The table display drew each part of the public board (the headline in the bar)."""
    board = payload["board"]
    want = [p["part"] for p in board if p["part"] not in IN_THE_BAR]
    got = drawn_parts(page, "#board") + drawn_parts(page, "#side-board")
    assert sorted(got) == sorted(want), f"{what}: drew {got}, the board has {want}"
    headline = next((p["text"] for p in board if p["part"] == "headline"),
                    payload["summary"]["headline"])
    assert page.locator("#headline").inner_text() == headline
    # Every word of the board is on the page whole (nothing cut to an OLED's width); what
    # the table display left out for room (table.js, .tv-left-out) is whole in the page.
    shown = page.locator("body").inner_text() + "\n".join(
        page.locator(".tv-left-out").all_text_contents())
    for part in board:
        for line in part.get("lines", [])[-8:]:  # the table shows the story's last lines
            assert line in shown, f"{what}: {line!r} is not shown"
    assert not page_errors(page), page_errors(page)
    assert not failed_requests(page), failed_requests(page)


@pytest.mark.parametrize("game_id", companion.games.ids())
def test_every_game_draws_its_board_and_asks_for_nothing_missing(browser, serve, game_id,
                                                                 shots):
    players = players_for(game_id)
    live = serve(seats=max(4, players))
    HostClient(live).start(game_id, players, {}, PIRATES[:players])
    # The phone joins first: a seat joined while the TV loads its join code's picture
    # makes that picture a 404 (the code is no longer shown), which this test counts.
    phone = live.phone(browser, 0)
    table = live.page(browser, "/table", viewport={"width": 1280, "height": 720})
    sim = live.page(browser, "/sim/", viewport={"width": 1024, "height": 700})
    rng = random.Random(game_id)
    for stage, moves in (("start", 0), ("mid-match", 12), ("later", 40)):
        play(live.table, moves, rng)
        payload = wait_synced(table, live, PUBLIC)
        check_table(table, payload, f"{game_id} {stage}")
        fits(table, f"{game_id} table {stage}")
        no_word_broken(table, f"{game_id} table {stage}")
        all_in_sight(table, f"{game_id} table {stage}")
        mine = wait_synced(phone, live, 0)
        assert "panel" in mine and "panel" not in payload
        phone_parts = drawn_parts(phone, "#board")
        assert len(phone_parts) == len(mine["board"]), (phone_parts, mine["board"])
        fits(phone, f"{game_id} phone {stage}")
        no_word_broken(phone, f"{game_id} phone {stage}")
        table.screenshot(path=str(shots / f"{game_id}-table-{stage}.png"))
    phone.screenshot(path=str(shots / f"{game_id}-phone.png"), full_page=True)
    for page in (table, sim, phone):
        assert not failed_requests(page), failed_requests(page)
        assert not page_errors(page), page_errors(page)


def test_every_page_fits_at_its_target_sizes(browser, serve, shots):
    live = serve(seats=6)
    HostClient(live).start("captains-orders", 6, {}, PIRATES)
    play(live.table, 20, random.Random(6))
    for width, height in TABLES:
        page = live.page(browser, "/table", viewport={"width": width, "height": height})
        wait_synced(page, live, PUBLIC)
        fits(page, f"/table at {width}x{height}")
        all_in_sight(page, f"/table at {width}x{height}")
        no_word_broken(page, f"/table at {width}x{height}")
        page.screenshot(path=str(shots / f"table-{width}x{height}.png"))
        # The board, the seats and the side all inside the window (a TV cannot scroll).
        bottom = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '.tv-seats, .tv-table, .tv-side')].map((box) => box.getBoundingClientRect().bottom))""")
        assert bottom <= height + 1, f"/table at {width}x{height} runs to {bottom}px"
        page.context.close()  # one page at a time: the server limits connections per phone
    for width, height in PHONES:
        phone = live.phone(browser, 1, viewport={"width": width, "height": height})
        payload = wait_synced(phone, live, 1)
        fits(phone, f"phone at {width}x{height}")
        no_word_broken(phone, f"phone at {width}x{height}")
        # Whatever the seat must decide is in sight, above the eye's dock.
        if payload["display"]["choices"]:
            top = phone.locator("#choices button").first.bounding_box()["y"]
            dock = phone.locator(".reveal-dock").bounding_box()["y"]
            assert top < dock, f"phone at {width}x{height}: the first choice is under the eye"
        phone.screenshot(path=str(shots / f"phone-{width}x{height}.png"))
        phone.context.close()
    for width, height in SIMS:
        sim = live.page(browser, "/sim/", viewport={"width": width, "height": height})
        wait_until(lambda: sim.locator("#match-line").inner_text() != "Connecting...",
                   "/sim to connect")
        fits(sim, f"/sim at {width}x{height}")
        boxes = sim.locator(".seat").evaluate_all(
            "nodes => nodes.map((n) => { const b = n.getBoundingClientRect();"
            " return [b.left, b.top, b.right, b.bottom]; })")
        for i, a in enumerate(boxes):
            assert a[0] >= 0 and a[2] <= width, f"/sim at {width}x{height}: seat {i + 1} cut off"
            for j, b in enumerate(boxes[i + 1:], i + 1):
                overlap = a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                assert not overlap, f"/sim at {width}x{height}: seats {i + 1} and {j + 1} overlap"
        sim.screenshot(path=str(shots / f"sim-{width}x{height}.png"))
        assert not failed_requests(sim) and not page_errors(sim)


def test_the_side_holds_tonights_standings_and_the_join_codes_whole(browser, serve):
    """Between matches the side of the table display shows the join codes and tonight's
    standings as well as the help: a TV cannot scroll, so all of it shrinks to fit."""
    live = serve(seats=8)
    rng = random.Random(8)
    for game_id in ("booty-dice", "moon-yeti"):
        live.table.start(game_id, 8 if game_id == "moon-yeti" else 6, names=None)
        while not live.table.match.is_over:
            play(live.table, 50, rng)
        live.table.back_to_lobby()
    for width, height in TABLES:
        page = live.page(browser, "/table", viewport={"width": width, "height": height})
        wait_until(lambda: page.locator("#night .night-standings").count() == 1
                   and page.locator("#join-codes img").count() > 0,
                   "tonight's standings and the join codes")

        def side_fits():
            scroll, client = page.evaluate(
                "() => { const s = document.querySelector('.tv-side');"
                " return [s.scrollHeight, s.clientHeight]; }")
            return scroll <= client + 1
        wait_until(side_fits, f"the side to fit at {width}x{height}")
        fits(page, f"/table at {width}x{height} between matches")
        page.close()
