"""The table display's how-to and its big moments: how to play sits beside the board,
never on it, and does not come back when the table restarts mid-match; a verdict, a
battle and a match's end get a beat on the TV (reveal.js), ordinary changes do not, and
with the host's sound switch off no sound starts."""
from __future__ import annotations

import contextlib
import random
from typing import Any, Iterator

from companion.engine import PUBLIC
from tests.browser.helpers import (
    Cable,
    HostClient,
    page_errors,
    wait_synced,
    wait_until,
    watch_errors,
)
from tests.browser.test_tv_layout import NAMES, readable

TV = {"width": 1280, "height": 720}


def beats(page) -> list[dict]:
    """Every beat the page played (reveal.js keeps them in window.__mutinyReveals)."""
    return page.evaluate("() => window.__mutinyReveals")


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def moments_on(page, board: list) -> list[str]:
    """The kinds of moment the page finds in ``board`` (the server's public board)."""
    return page.evaluate("(board) => window.MutinyReveal.moments(board).map((m) => m.kind)",
                         board)


def step(live, page, rng: random.Random) -> dict:
    """One random legal move by a seat that may act; the page catches up with it."""
    match = live.table.match
    seat = rng.choice([a for a in match.acting() if isinstance(a, int)])
    live.table.submit(seat, rng.choice(match.legal_actions(seat)))
    return wait_synced(page, live, PUBLIC, 20)


def table_at(live, browser, game_id: str, seed: str, **options):
    """A match of ``game_id`` for four claimed seats, and the table display at 1280x720."""
    live.table.start(game_id, 4, {}, names=NAMES[:4], seed=seed)
    for seat in range(4):
        live.table.claim(seat)
    page = live.page(browser, "/table", viewport=TV)
    wait_synced(page, live, PUBLIC)
    return page


def first_moment(live, page, kind: str, rng: random.Random, moves: int) -> dict:
    """Random moves until the board shows a moment of ``kind``; no beat before it."""
    for _ in range(moves):
        payload = step(live, page, rng)
        if kind in moments_on(page, payload["board"]):
            wait_until(lambda: beats(page), f"the {kind}'s beat")
            return beats(page)[0]
        assert beats(page) == [], f"a beat for an ordinary change: {payload['board'][0]}"
    raise AssertionError(f"no {kind} within {moves} moves")


@contextlib.contextmanager
def table_through_a_cable(browser, live) -> Iterator[tuple[Any, Cable]]:
    """The table display at 1280x720, reaching ``live`` through a :class:`Cable`: after a
    restart (a new port; point ``cable.target`` at it) it is the same page, at the same
    address, that reconnects, as a TV's browser would."""
    cable = Cable(int(live.url.rsplit(":", 1)[1]))
    context = browser.new_context(viewport=TV)
    try:
        page = context.new_page()
        watch_errors(page)
        page.goto(cable.url + "/table")
        wait_synced(page, live, PUBLIC)
        yield page, cable
    finally:
        context.close()
        cable.close()


def test_how_to_play_sits_beside_the_board_and_not_again_after_a_restart(browser, serve):
    live = serve(seats=4)
    live.table.start("card-mutiny", 4, {}, names=NAMES[:4], seed="howto")
    for seat in range(4):
        live.table.claim(seat)
    with table_through_a_cable(browser, live) as (page, cable):
        panel = page.locator("#howto-panel")
        panel.wait_for()
        assert panel.locator("h2").inner_text() == "How to play Card Mutiny"
        # table.js widens the side for the panel on the next frame after howto.js draws
        # it: both are measured once that frame has come (CI once measured between).
        wait_until(lambda: page.evaluate("document.body.classList.contains('teaching')"),
                   "the side to make room for the how-to")
        # Beside the board: not over the felt, and the board's grid is in sight on it.
        felt = page.locator(".tv-table").bounding_box()
        assert not overlap(panel.bounding_box(), felt)
        grid = page.locator('#board [data-part="grid"]').bounding_box()
        assert grid and grid["y"] + grid["height"] <= felt["y"] + felt["height"] + 1
        readable(page, "the how-to at 1280x720")
        page.set_viewport_size({"width": 1024, "height": 600})
        readable(page, "the how-to at 1024x600")  # whole: nothing cut mid-sentence
        assert not overlap(panel.bounding_box(), page.locator(".tv-table").bounding_box())

        step(live, page, random.Random(1))  # the first flip: the match has begun
        wait_until(lambda: not panel.is_visible(), "the how-to to close")
        live.close()  # the table stops mid-match ...
        again = serve(seats=4, data="data0")  # ... and starts again on the same journal
        assert again.table.match is not None and not again.table.match.is_over
        cable.target = ("127.0.0.1", int(again.url.rsplit(":", 1)[1]))
        wait_synced(page, again, PUBLIC, 30)
        page.wait_for_timeout(300)  # howto.js fetches the texts after the payload
        assert not panel.is_visible(), "the how-to came back after the restart"
        assert page.locator("#board [data-part]").count() > 0
        assert not page_errors(page), page_errors(page)


def test_a_verdict_gets_a_beat_ordinary_changes_none_and_no_sound_when_switched_off(
        browser, serve):
    live = serve(seats=4)
    status, _ = HostClient(live).post("/api/host/nudges", {"sound": False})
    assert status == 200
    page = table_at(live, browser, "moon-yeti", "verdict")
    assert page.locator("#sound").is_hidden()  # the display offers no sound to switch on
    rng = random.Random(4)
    beat = first_moment(live, page, "verdict", rng, 200)
    assert len(beats(page)) == 1
    assert beat["kind"] == "verdict" and beat["waited"]
    reveal = page.locator("#reveal")
    assert reveal.is_visible()
    assert reveal.get_attribute("data-phase") == "wait"
    assert reveal.inner_text() == "The verdict..."
    wait_until(lambda: reveal.get_attribute("data-phase") == "show", "the verdict itself")
    assert beat["title"] in reveal.inner_text()
    wait_until(lambda: not reveal.is_visible(), "the board back", seconds=8)
    assert beat["sound"] is False  # the host switched the sound off
    # The verdict stays on the board: no second beat for it. The end gets its own.
    while not live.table.match.is_over:
        step(live, page, rng)
    wait_until(lambda: beats(page)[-1]["kind"] == "end", "the end's beat")
    assert [b["kind"] for b in beats(page)].count("verdict") <= 2  # one per vote counted
    assert not any(b["sound"] for b in beats(page))
    assert not page_errors(page)


def test_a_battle_gets_a_beat_with_its_sound_and_reduced_motion_shows_it_at_once(
        browser, serve):
    live = serve(seats=4)
    page = table_at(live, browser, "mit-mutiny", "battle")
    still = live.page(browser, "/table", viewport=TV, reduced_motion="reduce")
    page.click("#sound")  # a tap wakes the page's sound (the host's switch is on)
    beat = first_moment(live, page, "battle", random.Random(7), 600)
    assert beat["kind"] == "battle" and beat["title"].startswith("The battle of round")
    # A sound starts exactly when both switches are on and the page may play (a headless
    # browser may have no audio to wake: its Sound button then says so, and nothing starts).
    assert beat["sound"] is (page.get_attribute("#sound", "aria-pressed") == "true")
    assert page.locator("#reveal").inner_text() == "The battle..."
    # Reduced motion: the result at once, no beat.
    wait_synced(still, live, PUBLIC)
    wait_until(lambda: beats(still), "the still page's reveal")
    assert beats(still)[0]["waited"] is False
    assert still.locator("#reveal").get_attribute("data-phase") == "show"
    assert beat["title"] in still.locator("#reveal").inner_text()
    assert not page_errors(page) and not page_errors(still)
