"""The host page says what damage an earlier start moved aside (docs/security.md,
"Damage"): a card lists each kept folder until it is deleted."""
from __future__ import annotations

from companion.damage import keep_aside
from companion.engine import HOST
from tests.browser.helpers import page_errors, wait_synced

HOST_VIEW = {"width": 1000, "height": 900}


def test_the_host_page_lists_damaged_files_kept_aside(browser, serve, tmp_path):
    data = tmp_path / "data0"
    data.mkdir()
    night = data / "night.sqlite3"
    night.write_bytes(b"cut")
    folder = keep_aside(night, f"the night's standings {night}: the file is cut")
    live = serve(data="data0")  # the start after the one that moved it aside
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.locator("#login").wait_for()
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    wait_synced(host, live, HOST)
    card = host.locator("#damage-card")
    assert card.is_visible()
    (line,) = host.locator("#damage-rows li").all_inner_texts()
    assert line.startswith(f"night.sqlite3: kept in {folder}.") and "the file is cut" in line
    assert page_errors(host) == []


def test_the_damage_card_is_hidden_with_nothing_kept(browser, serve):
    live = serve()
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.locator("#login").wait_for()
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    wait_synced(host, live, HOST)
    assert not host.locator("#damage-card").is_visible()
    assert page_errors(host) == []
