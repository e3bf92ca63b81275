"""The table display read from the couch: at 1024x600, 1280x720 and 1920x1080, with 4
and 8 players (or each game's own bounds near them), mid-match and at the end, no text
in sight is smaller than 24 px at 1080 lines (the same angle at any height: 24 px x
height / 1080), nothing overflows its box and the page does not scroll; every seat tile
shows its marker whole and in its seat's colour, the winners' tiles at the end too.

One server per game and seat count, one page per size that follows its match from the
middle to the end (27 page loads), and the lobby after two games at each size (3). With MUTINY_SCREENSHOTS=1 the pictures of every
game at 4 players (and Captain's Orders at 8) go to docs/screenshots/tv-*.png (docs/boards.md
and each game's page show them).
"""
from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

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
#: Pictured with MUTINY_SCREENSHOTS=1: every game at 4 players (its page in docs/games/
#: shows them), and Captain's Orders' 8.
PICTURED = {*((game_id, 4) for game_id in companion.games.ids()), ("captains-orders", 8)}
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


#: Each seat tile on the row and its marker (the shape that tells seats apart besides
#: colour): the marker's box, whether it is inside its tile and the screen, whether it
#: is what the screen shows at its centre (nothing over it), its colour and the seat's.
SEAT_MARKERS = """() => [...document.querySelectorAll('#seats .tv-seat')].map((tile) => {
  const mark = tile.querySelector('.seat-mark');
  const box = mark && mark.getBoundingClientRect(), around = tile.getBoundingClientRect();
  const style = mark && getComputedStyle(mark);
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  const top = box && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const seatColour = getComputedStyle(tile).getPropertyValue('--seat-color').trim();
  const probe = document.createElement('span');  // the seat's colour as the page computes it
  probe.style.color = seatColour;
  document.body.append(probe);
  const want = getComputedStyle(probe).color;
  probe.remove();
  return {seat: Number(tile.dataset.seat), classes: tile.className, shape: mark ? mark.textContent : '',
          box: box ? [box.left, box.top, box.width, box.height] : null,
          shown: !!mark && box.width >= 4 && box.height >= 4 && style.visibility === 'visible'
            && style.display !== 'none' && Number(style.opacity) > 0,
          inTile: !!box && inside(box, around), onScreen: !!box && inside(box, screen),
          onTop: !!top && (top === mark || mark.contains(top)),
          colour: style ? style.color : '', seatColour: want,
          border: getComputedStyle(tile).borderTopColor};
})"""


def seat_colour_pixels(shot, box: list[float], colour: str) -> float:
    """The share of the marker's box drawn in the seat's colour (within a small
    distance: a glyph's inside is its colour, its edges are smoothed)."""
    want = [int(part) for part in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    left, top, width, height = (round(value) for value in box)
    crop = shot.crop((left, top, left + width, top + height)).convert("RGB")
    data = crop.tobytes()  # r, g, b, r, g, b, ...
    near = sum(1 for i in range(0, len(data), 3)
               if sum((data[i + k] - want[k]) ** 2 for k in range(3)) <= 30 ** 2)
    return near / max(1, width * height)


def markers_shown(page, what: str, winners: list[int]) -> None:
    """Every seat tile shows its marker whole, in sight, in its seat's colour, the
    winners' too (their tiles say so), and the screen shows that colour there."""
    tiles = page.evaluate(SEAT_MARKERS)
    assert tiles, f"{what}: no seat tiles"
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    for tile in tiles:
        where = f"{what}, seat {tile['seat'] + 1} ({tile['classes']})"
        assert tile["shape"].strip(), f"{where}: no marker"
        assert tile["shown"] and tile["inTile"] and tile["onScreen"] and tile["onTop"], \
            f"{where}: the marker is hidden or cut: {tile}"
        assert tile["colour"] == tile["seatColour"] == tile["border"], \
            f"{where}: not in the seat's colour: {tile}"
        if "sitting-out" not in tile["classes"]:
            share = seat_colour_pixels(shot, tile["box"], tile["seatColour"])
            assert share >= 0.08, f"{where}: {share:.0%} of the marker in the seat's colour"
    won = sorted(tile["seat"] for tile in tiles if "winner" in tile["classes"].split())
    assert won == sorted(winners), f"{what}: winner tiles {won}, winners {winners}"


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
            what = f"{game_id}, {players} players, {stage}, {width}x{height}"
            readable(page, what)
            result = payload["match"].get("result") or {}
            markers_shown(page, what, result.get("winners", []) if stage == "end" else [])
            if (game_id, players) in PICTURED and (width, height) in PICTURE_SIZES:
                page.screenshot(path=str(pictures / f"tv-{game_id}-{players}-{stage}-{width}x{height}.png"),
                                animations="disabled")  # (the same picture every run)
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


def test_at_a_matchs_end_the_join_codes_and_tonights_leader_fit_beside_the_board(
        browser, serve):
    """Seats nobody joined keep their join code in the side at a match's end, next to
    tonight's standings: the standings' last places give way, never the codes, and the
    leader stays in sight."""
    live = serve(seats=6)
    live.table.start("booty-dice", 6, {}, names=NAMES[:6], seed="tv-unjoined")
    live.table.claim(0)  # one phone; five seats still to join
    play_to_end(live.table, random.Random(6))
    for width, height in SIZES:
        page = live.page(browser, "/table", viewport={"width": width, "height": height})
        wait_synced(page, live, PUBLIC)
        page.locator("#night .night-standings").wait_for()
        page.locator("#join-codes img, #join-codes svg").first.wait_for()
        readable(page, f"a match's end with five seats to join, {width}x{height}")
        leader = page.locator("#night .night-standings tbody tr").first
        assert leader.is_visible() and page.locator(".join-letters").is_visible()
        assert not page_errors(page), page_errors(page)
        page.context.close()


@pytest.mark.parametrize("players", [5, 8])
def test_a_rounds_reveal_shows_every_hand_on_the_tv(browser, serve, players):
    """Captain's Orders, a round just over, seats still to join (their codes take the
    side): the reveal of every hand is the moment the table looks up, so the TV takes
    smaller cards before it leaves a hand out; at five players every hand is in sight.
    Hands that do not fit are named by their row ("Every hand"; once the whole row went
    and was named by its first hand: "Anne Bonny, 38 points")."""
    live = serve(seats=players)
    live.table.start("captains-orders", players, {}, names=NAMES[:players], seed="tv-reveal")
    rng = random.Random("reveal")
    for _ in range(300):
        if live.table.match.step() == "scored":
            break
        play(live.table, 1, rng)
    assert live.table.match.step() == "scored"
    for width, height in SIZES[:2]:
        page = live.page(browser, "/table", viewport={"width": width, "height": height})
        wait_synced(page, live, PUBLIC)
        what = f"the reveal at {width}x{height}, {players} players"
        readable(page, what)
        hands = page.locator("#board .part-group.row > .group-parts > .part-cards")
        assert hands.count() == players, what
        felt = page.locator(".tv-table").bounding_box()
        shown = [hands.nth(index).bounding_box() for index in range(players)
                 if hands.nth(index).is_visible()]
        assert all(felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
                   for box in shown), what
        more = page.locator("#more")
        footnote = "" if more.is_hidden() else more.inner_text()
        assert "points" not in footnote, (what, footnote)
        if players == 5:
            assert len(shown) == 5, what
        elif len(shown) < players:
            assert "Every hand" in footnote, (what, footnote)
        assert not page_errors(page), page_errors(page)
        page.context.close()
