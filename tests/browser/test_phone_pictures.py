"""Each game's phone as a player holds it mid-match: 390x844, touch, the seat whose turn it
is, four pirates with readable names, the page scrolled to the seat's screen. The page is
no wider than the phone, no script fails, the seat's choices are drawn (the first above
the "Hold to see secrets" dock), every part of its board is drawn (the first in sight),
and no word is broken over two lines (but one known fault, below).

    MUTINY_SCREENSHOTS=1 ./dev test tests/browser/test_phone_pictures.py

saves what the phone shows (the screen, not the whole page) as
docs/screenshots/<game>-phone.png, the picture on each game's page in docs/games/.
Without the variable the same phones are drawn and checked, and the pictures go to a
temporary folder.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import companion.games
from tests.browser.helpers import failed_requests, page_errors, wait_synced, wait_until
from tests.browser.test_boards import BROKEN_WORDS, play
from tests.browser.test_tv_layout import NAMES

PLAYERS = 4
#: The moment pictured in each game: random legal moves from the seeded start, the title
#: the phone of the seat to picture shows then, and whether it has places on its board to
#: tap without the eye held (dice to hold, a grid's cells, the map's islands). Each
#: game's page describes its picture: a moment that moves (new rules, another deal)
#: fails here, so that its words are read again.
MOMENTS = {
    "booty-dice": (12, "Your roll 2 of 3", True),          # dice to hold, roll or stop
    "captains-orders": (8, "Round 2: your turn", False),   # follow or belay an order
    "card-mutiny": (12, "Your turn", True),                # a card to flip in the grid
    "mit-mutiny": (15, "Pick an island", True),            # the Scout on the map
    "moon-yeti": (8, "Innocence vote", False),             # a secret ballot
}
#: Options beyond each game's defaults: Moon Yeti's time typed in by a seat rather than
#: read off the companion's clock, so the declared minute, the Mutineer and the moment
#: pictured are the same every run.
OPTIONS = {"moon-yeti": {"time_source": "typed"}}
#: A phone of today's common size (CSS pixels).
PHONE = {"width": 390, "height": 844}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

#: What a player sees at a glance: the page's width, the choices drawn, where the first
#: one ends and where the fixed dock of the eye starts (the screen's bottom without it),
#: the board's parts as drawn and where the first starts, and the places to tap.
GLANCE = """() => {
  const shown = (node) => !!node && node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== 'hidden';
  const choices = [...document.querySelectorAll('#choices .choice')].filter(shown);
  const dock = document.querySelector('.reveal-dock');
  const first = choices.length ? choices[0].getBoundingClientRect() : null;
  const dockTop = shown(dock) ? dock.getBoundingClientRect().top : innerHeight;
  const part = [...document.querySelectorAll('#board > [data-part]')].find(shown);
  return {
    width: document.documentElement.scrollWidth, inner: innerWidth,
    choices: choices.map((c) => c.innerText.trim()),
    firstBottom: first ? first.bottom : null, dockTop,
    boardTop: part ? part.getBoundingClientRect().top : null,
    parts: [...document.querySelectorAll('#board > [data-part]')].map((n) => n.dataset.part),
    taps: document.querySelectorAll('#board button.tap, #game-panel button.tap').length,
  };
}"""


@pytest.fixture
def pictures(tmp_path) -> Path:
    """Where the pictures go: docs/screenshots/ with MUTINY_SCREENSHOTS=1."""
    folder = DOCS if os.environ.get("MUTINY_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def seat_to_picture(live) -> int:
    """The first seat the match waits for that has choices on its phone."""
    for seat in live.table.match.acting():
        if isinstance(seat, int) and live.payload(seat)["display"]["choices"]:
            return seat
    raise AssertionError(f"no seat has a choice to make: {live.table.match.acting()}")


@pytest.mark.parametrize("game_id", companion.games.ids())
def test_a_phone_mid_match_shows_its_choices_and_its_board(browser, serve, pictures, game_id):
    moves, title, tappable = MOMENTS[game_id]
    live = serve(seats=PLAYERS)
    for seat, name in enumerate(NAMES[:PLAYERS]):
        live.table.rename(seat, name)
        # Every phone joins before the match (its "Phone joined" goes at its first move).
        live.seat_client(seat)
    live.table.start(game_id, PLAYERS, OPTIONS.get(game_id, {}), names=NAMES[:PLAYERS],
                     seed=f"phone-{game_id}")
    play(live.table, moves, random.Random(f"{game_id}-phone"))
    assert not live.table.match.is_over, "the match ended before its middle"
    seat = seat_to_picture(live)

    phone = live.phone(browser, seat, viewport=PHONE, has_touch=True, is_mobile=True)
    payload = wait_synced(phone, live, seat)
    want = [part["part"] for part in payload["board"]]
    assert want, f"{game_id}: the seat's payload has no board"
    # The game's own script (its taps, its panel) arrives after the page: wait for the
    # board it draws, then for the choices.
    glance: dict = {}

    def drawn() -> bool:
        glance.update(phone.evaluate(GLANCE))
        return sorted(glance["parts"]) == sorted(want) and len(glance["choices"]) > 0
    try:
        wait_until(drawn, f"{game_id}: the phone's board and choices")
    except AssertionError:
        raise AssertionError(f"{game_id}, seat {seat + 1}: drew {glance}, the board has {want}, "
                             f"choices {payload['display']['choices']}") from None
    # The phone as a player reads it at their turn: scrolled to the seat's screen (the
    # bar and "How to play" above it), so its choices and the board under them share
    # the picture.
    phone.evaluate("() => scrollTo(0, document.getElementById('screen')"
                   ".getBoundingClientRect().top + scrollY - 8)")
    phone.wait_for_timeout(300)  # the last repaint (a die or a card turned) before the picture
    # (Animations stopped: a secret vote's glow would be taken at another moment of its
    # pulse on every run, and the picture would change with nothing changed.)
    phone.screenshot(path=str(pictures / f"{game_id}-phone.png"), animations="disabled")

    what = f"{game_id}, seat {seat + 1} ({NAMES[seat]}), 390x844"
    glance = phone.evaluate(GLANCE)
    assert glance["width"] <= glance["inner"] == PHONE["width"], \
        f"{what}: the page is {glance['width']}px wide"
    assert len(glance["choices"]) >= 1, f"{what}: no choice drawn"
    assert payload["display"]["title"] == title, (
        f"{what}: the moment moved ({payload['display']['title']!r}): "
        f"read its words in docs/games/{game_id}.md again")
    assert (glance["taps"] > 0) == tappable, f"{what}: {glance['taps']} places to tap on the board"
    assert glance["firstBottom"] <= glance["dockTop"] + 0.5, (
        f"{what}: the first choice ends at {glance['firstBottom']}px, "
        f"under the dock at {glance['dockTop']}px")
    assert glance["boardTop"] is not None and glance["boardTop"] < glance["dockTop"], (
        f"{what}: the board starts at {glance['boardTop']}px, out of sight "
        f"(the dock at {glance['dockTop']}px)")
    broken = set(phone.evaluate(BROKEN_WORDS))  # ("Blackbeard's order" under a card, once)
    assert not broken, f"{what}: words broken across lines: {sorted(broken)}"
    assert not page_errors(phone), page_errors(phone)
    assert not failed_requests(phone), failed_requests(phone)
