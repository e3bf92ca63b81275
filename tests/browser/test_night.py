"""The night's scoreboard in the browser: three matches of two games, then the server
restarts, and the table display still shows them all (docs/table.md, "Game night")."""
from __future__ import annotations

import random

from tests.browser.helpers import page_errors, wait_until
from tests.browser.test_boards import play


def test_the_night_shows_three_matches_of_two_games_after_a_restart(browser, serve):
    live = serve(seats=4, data="night")
    rng = random.Random(3)
    for game_id in ("booty-dice", "moon-yeti", "booty-dice"):
        live.table.start(game_id, 4)
        while not live.table.match.is_over:
            play(live.table, 50, rng)
        live.table.back_to_lobby()
    winners = [m["winners"] for m in live.table.night.matches()]
    live.close()  # the table is switched off and on again

    again = serve(seats=4, data="night")
    page = again.page(browser, "/table", viewport={"width": 1280, "height": 720})
    wait_until(lambda: page.locator("#night .night-standings").count() == 1,
               "the night's standings on the table display")
    text = page.locator("#night").inner_text()
    assert "tonight: 3 matches" in text.lower(), text
    # Each game's own column (Booty Dice's doubloons, Moon Yeti's wins), and every
    # player played all three.
    assert "Booty Dice" in text and "Moon Yeti" in text, text
    rows = [line.split("\t") for line in text.splitlines() if line[:1].isdigit()]
    assert len(rows) == 4 and all(row[2] == "3" for row in rows), rows
    assert [m["winners"] for m in again.table.night.matches()] == winners
    assert not page_errors(page), page_errors(page)
