"""The table display read from the couch: at 1024x600, 1280x720 and 1920x1080, with 4
and 8 players (or each game's own bounds near them), mid-match and at the end, no text
in sight is smaller than 24 px at 1080 lines (the same angle at any height: 24 px x
height / 1080), nothing overflows its box and the page does not scroll.

One server per game and seat count, one page per size that follows its match from the
middle to the end (27 page loads), and the lobby after two games at each size (3). With MUTINY_SCREENSHOTS=1 the pictures of two games
go to docs/screenshots/tv-*.png (docs/boards.md shows them).
"""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

import companion.games
from companion.engine import PUBLIC
from tests.browser.helpers import failed_requests, page_errors, wait_synced, wait_until
from tests.browser.test_boards import BROKEN_WORDS, play

SIZES = [(1024, 600), (1280, 720), (1920, 1080)]
#: Moves to the middle of a match (Moon Yeti's first vote may end it: stop before).
MIDDLE = {"moon-yeti": 6}
NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Grace O'Malley",
         "Henry Morgan", "Ching Shih", "Black Bart"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: The games whose pictures go in the docs, and the sizes drawn.
PICTURED = {("mit-mutiny", 4), ("captains-orders", 8)}
PICTURE_SIZES = {(1920, 1080), (1280, 720)}


def smallest_text(height: int) -> float:
    """The smallest type readable from the couch: 24 px on 1080 lines (a 55-inch TV
    at 2 m), the same viewing angle at other heights."""
    return 24 * height / 1080


def seat_counts(game_id: str) -> list[int]:
    """4 and 8 players, each within the game's own bounds (both, where they differ)."""
    spec = companion.games.get(game_id).spec
    return sorted({min(max(n, spec.min_seats), spec.max_seats) for n in (4, 8)})


CASES = [(game_id, players) for game_id in companion.games.ids()
         for players in seat_counts(game_id)]


#: What a glance finds wrong on the page: every visible text smaller than ``least`` px
#: (an SVG's text as drawn, its font size times the picture's scale), every element
#: whose content is wider or taller than its box, and a page that scrolls.
MEASURE = """(least) => {
  const small = [], over = [];
  const hiddenBy = (node) => node.closest(".sr-only, script, style, title, [hidden]");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.data.trim() || !parent || hiddenBy(parent)) continue;
    if (!parent.getClientRects().length) continue;  // not drawn (display: none)
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || Number(style.opacity) === 0) continue;
    let size = parseFloat(style.fontSize);
    const picture = parent.closest("svg");
    if (picture) {
      const view = picture.viewBox.baseVal;
      if (view && view.width) size *= picture.getBoundingClientRect().width / view.width;
    }
    if (size < least - 0.05) small.push(`${size.toFixed(1)}px ${node.data.trim().slice(0, 40)}`);
  }
  for (const box of document.querySelectorAll("body *")) {
    if (hiddenBy(box) || box.closest("svg") || !box.getClientRects().length) continue;
    const wide = box.scrollWidth - box.clientWidth, tall = box.scrollHeight - box.clientHeight;
    if ((box.clientWidth || box.clientHeight) && (wide > 1 || tall > 1)) {
      const name = box.id ? `#${box.id}` : `${box.tagName.toLowerCase()}.${box.className}`;
      over.push(`${name} +${wide}x${tall}: ${(box.innerText || "").trim().slice(0, 40)}`);
    }
  }
  const page = document.scrollingElement;
  const scrolls = page.scrollWidth > innerWidth || page.scrollHeight > innerHeight;
  return {small: [...new Set(small)], over, scrolls,
          page: [page.scrollWidth, page.scrollHeight, innerWidth, innerHeight]};
}"""


def measure(page) -> dict[str, Any]:
    """What is wrong on ``page`` now (see MEASURE)."""
    height = page.viewport_size["height"]
    return page.evaluate(MEASURE, smallest_text(height))


def readable(page, what: str) -> None:
    """Nothing too small, nothing overflowing, no scrolling: waits for the page to fit
    its board (table.js fits it as it draws), then says what is still wrong."""
    found: dict[str, Any] = {}

    def clean() -> bool:
        found.update(measure(page), broken=page.evaluate(BROKEN_WORDS))
        return not (found["small"] or found["over"] or found["scrolls"] or found["broken"])
    try:
        wait_until(clean, what, seconds=4)
    except AssertionError:
        raise AssertionError(f"{what}: too small {found['small'][:12]}, overflowing "
                             f"{found['over'][:12]}, words broken {found['broken'][:12]}, "
                             f"scrolls {found['scrolls']} {found['page']}") from None


def play_to_end(table, rng: random.Random) -> None:
    """Random legal moves until the match is over."""
    for _ in range(100):
        if table.match.is_over:
            return
        play(table, 50, rng)
    raise AssertionError("the match never ended")


@pytest.fixture
def pictures(tmp_path) -> Path:
    """Where the pictures go: docs/screenshots/ with MUTINY_SCREENSHOTS=1."""
    folder = DOCS if os.environ.get("MUTINY_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("game_id,players", CASES)
def test_the_table_reads_from_the_couch(browser, serve, pictures, game_id, players):
    live = serve(seats=max(4, players))
    live.table.start(game_id, players, {}, names=NAMES[:players], seed=f"tv-{players}")
    for seat in range(players):
        live.table.claim(seat)
    rng = random.Random(f"{game_id}-{players}")
    pages = {size: live.page(browser, "/table", viewport={"width": size[0], "height": size[1]})
             for size in SIZES}
    for stage in ("mid-match", "end"):
        if stage == "mid-match":
            play(live.table, MIDDLE.get(game_id, 12), rng)
            assert not live.table.match.is_over, "the match ended before its middle"
        else:
            play_to_end(live.table, rng)
        for (width, height), page in pages.items():
            payload = wait_synced(page, live, PUBLIC, 30)
            assert payload["match"]["over"] == (stage == "end")
            page.wait_for_function("() => !document.body.classList.contains('revealing')", timeout=15000)
            readable(page, f"{game_id}, {players} players, {stage}, {width}x{height}")
            if (game_id, players) in PICTURED and (width, height) in PICTURE_SIZES:
                page.screenshot(path=str(pictures / f"tv-{game_id}-{players}-{stage}-{width}x{height}.png"))
    for page in pages.values():
        assert not page_errors(page), page_errors(page)
        assert not failed_requests(page), failed_requests(page)


def test_between_matches_the_lobby_reads_from_the_couch(browser, serve):
    """The lobby after two games: the join codes, the games, and tonight's standings
    with a column per game (too many for the side: the last ones are left out)."""
    live = serve(seats=8)
    rng = random.Random(8)
    for game_id, players in (("booty-dice", 6), ("moon-yeti", 8)):
        live.table.start(game_id, players, names=NAMES[:players])
        play_to_end(live.table, rng)
        live.table.back_to_lobby()
    for width, height in SIZES:
        page = live.page(browser, "/table", viewport={"width": width, "height": height})
        wait_synced(page, live, PUBLIC)
        page.locator("#night .night-standings").wait_for()
        readable(page, f"the lobby at {width}x{height}")
        assert page.locator("#night .night-wins").first.is_visible()
        assert not page_errors(page), page_errors(page)
        page.context.close()  # one page at a time: the join codes are asked per page
