"""Phones played on the board: a tap on a grid's card, a die or a card of the hand sends
exactly a choice of the seat's own list, and the match moves as that choice from the
menu would have moved it (a fork of the match, given the same action, is the judge).
The menu is kept, one line down; axe finds nothing wrong with the tappable board."""
from __future__ import annotations

import json
import random
from typing import Any

from companion.engine import PUBLIC
from tests.browser.helpers import (
    Live,
    axe_violations,
    failed_requests,
    page_errors,
    wait_synced,
    wait_until,
)

NAMES = ["Anne", "Bonny", "Calico Jack", "Drake"]
LIST = "Or choose from a list"


def tap_button(where: str, label: str) -> str:
    """The selector of the button of ``where`` (#board, #panel, #game-panel) whose name
    (what a screen reader says) is ``label``."""
    return f"{where} >> role=button[name={json.dumps(label)}]"


def state(live: Live) -> dict[str, Any]:
    return live.table.match.snapshot()["state"]


def as_the_menu_would(live: Live, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The match's state after ``action``, applied to a fork of the match now."""
    twin = live.table.match.fork()
    twin.apply(seat, action)
    return twin.snapshot()["state"]


def moved(live: Live, before: dict[str, Any], what: str) -> None:
    wait_until(lambda: state(live) != before, what)


def no_axe_findings(page, live: Live, what: str) -> None:
    found = axe_violations(page, live.url)
    assert found == [], what + ":\n" + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"]) for v in found)


def labels(page, selector: str) -> list[str]:
    """The names of the buttons ``selector`` finds, as a screen reader says them."""
    return page.locator(selector).evaluate_all(
        "nodes => nodes.map((n) => n.querySelector('.sr-only').textContent)")


def fits_the_phone(page, what: str) -> None:
    """The buttons on the board push nothing sideways."""
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{what}: {width}px wide in a {inner}px window"


def top_menu(page) -> list[str]:
    return page.locator("#choices > .choice .choice-label").all_inner_texts()


def hold_eye_and_tap(page, selectors: list[str]) -> None:
    """One finger holds the eye while another taps each of ``selectors`` in turn (each
    waited for: a tap may bring the next one); then the eye is let go."""
    cdp = page.context.new_cdp_session(page)

    def centre(selector: str, finger: int) -> dict[str, float]:
        box = page.locator(selector).bounding_box()
        assert box, selector
        return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2, "id": finger}

    hold = centre("#reveal-pad", 1)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [hold]})
        for selector in selectors:
            page.locator(selector).wait_for()
            page.locator(selector).scroll_into_view_if_needed()
            tap = centre(selector, 2)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [hold, tap]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [tap]})
    finally:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()


def test_a_card_mutiny_turn_is_played_by_tapping_the_grid(browser, serve):
    live = serve(seats=4)
    live.table.start("card-mutiny", 3, names=NAMES[:3], seed="taps")
    seat = live.table.match.view(PUBLIC)["state"]["turn"]
    phone = live.phone(browser, seat)
    payload = wait_synced(phone, live, seat)
    flips = [c for c in payload["display"]["choices"] if c["action"]["type"] == "flip"]
    assert len(flips) == 49
    # Every face-down card of the grid is a button named by its choice's own words; the
    # menu keeps the same choices one line down, the board in sight below it.
    wait_until(lambda: phone.locator("#board button.tap").count() == 49, "49 cards to tap")
    assert sorted(labels(phone, "#board .part-grid button.tap")) == sorted(c["label"] for c in flips)
    assert top_menu(phone)[-1] == LIST
    assert phone.locator("#board .part-grid").bounding_box()["y"] < 740 * 1.5
    no_axe_findings(phone, live, "card-mutiny's grid to tap")
    fits_the_phone(phone, "card-mutiny")

    # The turn, card by card on the grid (any other decision from the menu).
    flipped = 0
    for _ in range(12):
        payload = wait_synced(phone, live, seat)
        choices = payload["display"]["choices"]
        if live.table.match.view(PUBLIC)["state"]["turn"] != seat or not choices:
            break
        before = state(live)
        flip = next((c for c in choices if c["action"]["type"] == "flip"), None)
        if flip is None:
            choice = choices[0]
            button = phone.locator("#choices .choice", has_text=choice["label"])
            if button.count() == 0:  # filed in a group of the menu: the list line first
                phone.locator(f'#choices .choice-group[data-group={json.dumps(LIST)}]').tap()
                for name in choice.get("group", []):
                    phone.locator(f"#choices .choice-group[data-group={json.dumps(name)}]").tap()
            want = as_the_menu_would(live, seat, choice["action"])
            phone.locator("#choices .choice", has_text=choice["label"]).first.tap()
        else:
            want = as_the_menu_would(live, seat, flip["action"])
            phone.locator(tap_button("#board", flip["label"])).tap()
            flipped += 1
        moved(live, before, "the match to move")
        assert state(live) == want
    assert flipped >= 1
    assert live.table.match.view(PUBLIC)["state"]["turn"] != seat, "the turn never passed"
    assert not page_errors(phone) and not failed_requests(phone)


def test_a_booty_dice_die_is_held_by_tapping_it_with_no_eye_pad(browser, serve):
    live = serve(seats=4)
    live.table.start("booty-dice", 2, names=NAMES[:2], seed="taps")
    roller = live.table.match.view(PUBLIC)["state"]["roller"]
    phone = live.phone(browser, roller)
    watcher = live.phone(browser, 1 - roller)
    payload = wait_synced(phone, live, roller)
    wait_synced(watcher, live, 1 - roller)
    assert payload["match"]["secrets"] is False
    # Nothing in Booty Dice is secret: no eye pad, and Roll and Stop lead the menu.
    for page in (phone, watcher):
        assert not page.locator("#reveal-pad").is_visible()
    assert top_menu(phone)[:2] == ["Roll 6 dice", "Stop and resolve"]
    holds = [c for c in payload["display"]["choices"] if c["action"]["type"] == "hold"]
    wait_until(lambda: phone.locator("#game-panel button.tap").count() == 6, "six dice to tap")
    assert labels(phone, "#game-panel button.tap") == [c["label"] for c in holds]
    assert watcher.locator("#game-panel .bd-die").count() == 6
    assert watcher.locator("#game-panel button.tap").count() == 0  # not the watcher's roll
    no_axe_findings(phone, live, "booty-dice's dice to tap")
    fits_the_phone(phone, "booty-dice")

    hold = holds[2]
    before = state(live)
    want = as_the_menu_would(live, roller, hold["action"])
    phone.locator(tap_button("#game-panel", hold["label"])).tap()
    moved(live, before, "die 3 to be held")
    assert state(live) == want and state(live)["held"][2] is True
    # Tapped again, the same die is freed: its choice is now "Free die 3".
    payload = wait_synced(phone, live, roller)
    free = next(c for c in payload["display"]["choices"] if c["action"] == {"type": "hold", "die": 3})
    assert free["label"].startswith("Free die 3")
    before = state(live)
    want = as_the_menu_would(live, roller, free["action"])
    phone.locator(tap_button("#game-panel", free["label"])).tap()
    moved(live, before, "die 3 to be freed")
    assert state(live) == want and state(live)["held"][2] is False
    for page in (phone, watcher):
        assert not page_errors(page) and not failed_requests(page)


def test_a_captains_orders_card_is_passed_by_tapping_it_then_a_pirate(browser, serve):
    live = serve(seats=4)
    live.table.start("captains-orders", 4, names=NAMES, seed="taps")
    seat = live.table.match.view(PUBLIC)["state"]["turn"]
    phone = live.phone(browser, seat)
    payload = wait_synced(phone, live, seat)
    hand = live.table.match.view(seat)["state"]["me"]["hand"]
    rank, to = hand[0], (seat + 2) % 4
    passing = next(c for c in payload["display"]["choices"]
                   if c["action"] == {"type": "pass", "rank": rank, "to": to})
    # At rest the hand is not in the page, so no card is there to tap.
    assert phone.locator("#panel button.tap").count() == 0
    assert phone.locator("#reveal-pad").is_visible()

    # The eye held: a card of the hand is tapped (picked, nothing sent), then the
    # pirate's line on the board's ledger.
    before = state(live)
    want = as_the_menu_would(live, seat, passing["action"])
    seen: dict[str, Any] = {}

    def look_at_the_pick() -> None:
        seen["bar"] = phone.locator("#pick-words").inner_text()
        seen["sent"] = state(live) != before
        seen["axe"] = axe_violations(phone, live.url)

    cdp_taps = [tap_button("#panel", f"Pick your {rank}")]
    hold_eye_and_tap(phone, cdp_taps)  # picked, then the eye let go: the pick stays
    wait_until(lambda: phone.locator("#pick-bar").is_visible(), "the pick to show")
    look_at_the_pick()
    assert not seen["sent"], "picking a card sent something"
    assert str(rank) not in seen["bar"], "the picked card shown at rest"
    assert seen["axe"] == [], seen["axe"]
    # At rest the pirates' lines name no card either.
    target = f"Pass the card you picked to {NAMES[to]}"
    assert phone.locator(tap_button("#board", target)).count() == 1
    fits_the_phone(phone, "captains-orders")

    hold_eye_and_tap(phone, [tap_button("#board", passing["label"])])
    moved(live, before, "the pass")
    assert state(live) == want
    wait_synced(phone, live, seat)
    assert not phone.locator("#pick-bar").is_visible()
    assert not page_errors(phone) and not failed_requests(phone)


def test_the_mit_mutiny_scout_looks_and_picks_on_the_map(browser, serve):
    live = serve(seats=4)
    live.table.start("mit-mutiny", 4, names=NAMES, seed="taps")
    rng = random.Random(29)
    for _ in range(60):  # the Captain's roll and the roles, at random, up to the Scout
        if live.table.match.step() == "look":
            break
        seat = rng.choice([a for a in live.table.match.acting() if isinstance(a, int)])
        live.table.submit(seat, rng.choice(live.table.match.legal_actions(seat)))
    assert live.table.match.step() == "look"
    scout = next(a for a in live.table.match.acting() if isinstance(a, int))
    phone = live.phone(browser, scout)
    for _ in range(2):  # two face-down islands looked at, each by its place on the map
        payload = wait_synced(phone, live, scout)
        look = next(c for c in payload["display"]["choices"] if c["action"]["type"] == "look")
        before, want = state(live), as_the_menu_would(live, scout, look["action"])
        phone.locator(tap_button("#board", look["label"])).tap()
        moved(live, before, "the Scout's look")
        assert state(live) == want
    # The pick is a secret (the island's name and loot): at rest the place says only its
    # space, a first tap asks for a second, the second picks.
    payload = wait_synced(phone, live, scout)
    pick = next(c for c in payload["display"]["choices"] if c["action"]["type"] == "choose")
    space = pick["action"]["space"] + 1
    place = phone.locator(tap_button("#board", f"Pick the island on space {space}"))
    assert place.count() == 1
    assert pick["label"] not in phone.locator("body").inner_text()
    before, want = state(live), as_the_menu_would(live, scout, pick["action"])
    place.tap()
    armed = phone.locator(tap_button("#board", f"Pick the island on space {space}: tap again to choose"))
    armed.wait_for()
    assert state(live) == before
    no_axe_findings(phone, live, "mit-mutiny's map, a pick asking for a second tap")
    armed.tap()
    moved(live, before, "the Scout's pick")
    assert state(live) == want
    assert not page_errors(phone) and not failed_requests(phone)
