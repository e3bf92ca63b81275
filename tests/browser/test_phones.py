"""Phones: a whole Moon Yeti match on four phones that never learn each other's secrets,
hold-to-reveal, and a phone that drops off the network and comes back."""
from __future__ import annotations

import json
import re
from typing import Any

from companion.engine import PUBLIC, Choice, Display
from companion.games.moon_yeti import ROLES
from tests.browser.helpers import (
    Cable,
    HostClient,
    Live,
    last_payload,
    page_errors,
    payloads,
    touch_hold_and_tap,
    visible_text,
    wait_synced,
    wait_until,
)
from tests.engine.toy import HighCard

NAMES = ["Anne", "<b>Bonny</b>", "Calico", "Drake"]


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def words(value: Any) -> list[str]:
    """Every string in a payload's part of it (the public board's words)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [w for v in value.values() for w in words(v)]
    if isinstance(value, list):
        return [w for v in value for w in words(v)]
    return []


def card_lines(card: list[int]) -> list[str]:
    return [" ".join(f"{m:02d}" for m in card[i:i + 5]) for i in range(0, len(card), 5)]


class SecretKeeper:
    """Checks every payload a phone received against the match's whole secret state."""

    def __init__(self, live: Live, seats: int):
        self.live = live
        self.seen = [0] * seats
        self.checked = 0

    def secrets(self) -> dict[str, Any]:
        return self.live.table.match.snapshot()["state"]

    def check(self, seat: int, page) -> None:
        new = payloads(page, self.seen[seat])
        self.seen[seat] += len(new)
        state = self.secrets()
        for payload in new:
            self.check_one(seat, payload, state)
            self.checked += 1

    def check_one(self, seat: int, payload: dict[str, Any], full: dict[str, Any]) -> None:
        assert payload["viewer"] == seat and payload["seat"]["index"] == seat
        match = payload["match"]
        if match is None or match["over"]:
            return  # the end reveals everything to everyone
        text = compact(payload)
        view = match["state"]
        roles = full["roles"]
        assert "reveal" not in view and '"mutineer":' not in text
        assert view["me"]["seat"] == seat
        searched = full["search"] if roles[seat] == "Boatswain" else None
        for other, role in enumerate(roles):
            if other == seat or role not in ROLES or full["cards"] is None:
                continue
            card = full["cards"][ROLES.index(role)]
            if other == searched:
                continue  # the Boatswain's own search showed him this card
            assert compact(card) not in text, f"seat {seat} got seat {other}'s card"
            for line in card_lines(card):
                assert line not in text, f"seat {seat} got a line of seat {other}'s card"
        if full["mutineer"] is not None and full["mutineer"] != seat:
            assert "YOU ARE THE MUTINEER" not in text
            assert view["me"].get("is_mutineer") in (None, False)
        if roles[seat] != "Boatswain":
            # (The display's confirm words name the "search" move: that is no secret.)
            asked = compact({**payload, "display": {k: v for k, v in payload["display"].items()
                                                    if k != "extra"}})
            assert '"search":' not in asked
        if roles[seat] != "Chaplain":
            assert '"confession":' not in text
        if full["confession"] != seat:
            assert '"confessed_to"' not in text
        for key, ballots in (("vote1", "ballots1"), ("vote2", "ballots2")):
            vote = view[key]
            if vote is not None and not vote["revealed"]:
                assert view[ballots] is None, "ballots shown before the reveal"
                assert "cast" not in vote

    def check_screen(self, seat: int, page) -> None:
        """At rest, the screen shows no private line and no secret choice label."""
        payload = last_payload(page)
        display = payload["display"]
        public = set(display["lines"]) | set(payload["summary"]["lines"]) | set(
            words(payload.get("board", [])))
        shown = visible_text(page)
        for line in display["private"]:
            if line not in public and line.strip():
                assert line not in shown, f"seat {seat} shows {line!r} at rest"
        for choice in display["choices"]:
            if choice["secret"] and choice["label"] not in public:
                assert choice["label"] not in shown, f"seat {seat} shows {choice['label']!r}"


def act_on_phone(page, choice_index: int, choice: dict[str, Any], way: int) -> None:
    """Choose the phone's choice ``choice_index`` (``choice``: that choice as the payload
    has it), the way a player would: open each group on its menu path, then tap it."""
    for name in choice.get("group", []):
        page.locator(f"#choices .choice-group[data-group={json.dumps(name)}]").tap()
        page.locator("#choices .choice-back").wait_for()
    button = f'#choices .choice[data-index="{choice_index}"]'
    if not choice["secret"]:
        page.locator(button).tap()
    elif way % 2 == 0:
        # Hold the eye with one finger, read the label, tap the choice with another.
        def read_it():
            wait_until(lambda: page.locator("#private").is_visible(), "the secrets to show")
            label = page.locator(button).inner_text()
            assert "Hidden choice" not in label
        touch_hold_and_tap(page, "#reveal-pad", button, read_it)
    else:
        # Blind: the first tap only arms a hidden choice, the second one chooses it.
        page.locator(button).tap()
        wait_until(lambda: "armed" in (page.locator(button).get_attribute("class") or ""),
                   "the hidden choice to ask for a second tap")
        page.locator(button).tap()


def test_a_whole_moon_yeti_match_on_four_phones_keeps_every_secret(browser, serve):
    live = serve(seats=4)
    host = HostClient(live)
    sim = live.page(browser, "/sim/", viewport={"width": 1280, "height": 800})
    host.start("moon-yeti", 4, {}, NAMES)
    phones = [live.phone(browser, seat) for seat in range(4)]
    keeper = SecretKeeper(live, 4)
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
        # A player-typed name is text, never markup.
        assert phone.locator("b", has_text=re.compile(r"^Bonny$")).count() == 0
        assert "<b>Bonny</b>" in visible_text(phone)

    first = True
    secret_moves = 0
    for turn in range(120):
        if live.table.match.is_over:
            break
        acting = [s for s in range(4) if live.payload(s)["display"]["choices"]]
        assert acting, "nobody can act but the match is not over"
        seat = acting[turn % len(acting)]
        before = live.payload(seat)
        choice = before["display"]["choices"][0]
        if first:
            # The first move comes from the seat's own buttons, on the /sim page, once
            # the seat's screen shows the match (drawn after the phones have theirs; a
            # press on the join code would only claim the seat).
            wait_until(lambda: live.server.hardware[seat].mode not in ("qr", "blank"),
                       f"seat {seat}'s screen to show the match")
            sim.locator(f'.seat[data-seat="{seat}"] .hw-select').click(delay=90)
            first = False
        else:
            # Secret choices alternate: read while holding the eye, or tap twice blind.
            act_on_phone(phones[seat], 0, choice, secret_moves)
            secret_moves += choice["secret"]
        wait_until(lambda: live.payload(seat) != before,
                   f"seat {seat}'s {choice['label']!r} (turn {turn}): phone says "
                   f"{phones[seat].locator('#message').inner_text()!r}, "
                   f"errors {page_errors(phones[seat])}")
        for other, phone in enumerate(phones):
            wait_synced(phone, live, other)
            keeper.check(other, phone)
            if not live.table.match.is_over:
                keeper.check_screen(other, phone)
    assert live.table.match.is_over, "the match did not end"
    assert secret_moves >= 4  # both ways of choosing a secret were used
    assert keeper.checked > 40

    # Every phone shows the end: who won, and the Mutineer revealed.
    result = live.table.match.result()
    winners = [NAMES[s] for s in result.winners]
    for seat, phone in enumerate(phones):
        payload = wait_synced(phone, live, seat)
        assert payload["match"]["over"]
        banner = phone.locator("#banner").inner_text()
        assert all(name in banner for name in winners), banner
        assert ("You win!" in banner) == (seat in result.winners)
    wait_until(lambda: "over" in sim.locator("#match-line").inner_text(), "/sim to see the end")
    assert not page_errors(sim)


def test_hold_to_reveal_shows_secrets_only_while_held(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {"mode": "aces"}, NAMES)
    phone = live.phone(browser, 0)
    live.seat_client(1).act({"type": "declare"})
    payload = wait_synced(phone, live, 0)
    private = payload["display"]["private"]
    assert any(line.startswith("Your ace") for line in private)
    assert "Your ace" not in visible_text(phone)
    assert phone.locator("#private-lines li").count() == 0  # not even hidden in the page

    pad = phone.locator("#reveal-pad").bounding_box()
    phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
    phone.mouse.down()
    wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
    for line in private:
        assert line in visible_text(phone)
    phone.mouse.up()
    wait_until(lambda: not phone.locator("#private").is_visible(), "the secrets to hide")
    assert "Your ace" not in visible_text(phone)

    # The keyboard holds it too (space down, space up).
    phone.locator("#reveal-pad").focus()
    phone.keyboard.down(" ")
    wait_until(lambda: "Your ace" in visible_text(phone), "the secrets (keyboard)")
    phone.keyboard.up(" ")
    wait_until(lambda: "Your ace" not in visible_text(phone), "the secrets to hide (keyboard)")
    assert not page_errors(phone)


def test_a_refused_action_is_explained_and_a_stale_one_asks_to_look_again(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    cable = Cable(live.server.http.port)
    try:
        phone = live.phone(browser, 2, via=cable.url)
        wait_synced(phone, live, 2)
        # (The page's first payload comes with its HTML: the stream may open later, and
        # a cut before it opens drops nothing, so no retry would come. CI once did that.)
        wait_until(lambda: phone.locator("#conn").inner_text() == "Live", "the stream")
        # The phone's live stream drops, and its next try is held up: the phone still
        # shows "Declare time" when another seat declares it.
        held = []
        phone.route("**/api/seat/stream", lambda route: held.append(route))
        cable.cut()
        cable.restore()
        # (Playwright hands over routes while it is called: hence the little waits.)
        wait_until(lambda: phone.wait_for_timeout(20) or held, "the phone to try again")
        live.seat_client(0).act({"type": "declare"})
        phone.locator("#choices .choice >> nth=0").tap()
        wait_until(lambda: "Look again" in phone.locator("#message").inner_text(),
                   "the stale note")
        assert phone.locator("#message").is_visible()
        for route in held:
            route.continue_()
        phone.unroute("**/api/seat/stream")
        wait_synced(phone, live, 2)
        assert phone.locator("#screen-title").inner_text() == live.payload(2)["display"]["title"]

        # A rule refusal shows the server's own message: here, a double tap on "Ready"
        # sent twice with the same version is applied once and the second one refused.
        ready = live.payload(2)["display"]["choices"][-1]
        assert ready["action"] == {"type": "ready"}
        version = live.payload(2)["version"]
        client = live.seat_client(2)
        assert client.act(ready["action"], version)[0] == 200
        status, body = client.act(ready["action"], version)
        assert status == 409 and body["code"] == "stale"
    finally:
        cable.close()


def test_a_phone_that_drops_off_the_network_catches_up_when_it_is_back(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    cable = Cable(live.server.http.port)
    try:
        phone = live.phone(browser, 3, via=cable.url)
        wait_synced(phone, live, 3)
        wait_until(lambda: phone.locator("#conn").inner_text() == "Live", "the stream")

        # Out of the Wi-Fi: the stream breaks and the page says it is reconnecting.
        cable.cut()
        phone.context.set_offline(True)
        wait_until(lambda: phone.locator("#conn").inner_text() == "Reconnecting...",
                   "the phone to notice")
        seen = len(payloads(phone))
        live.seat_client(0).act({"type": "declare"})
        for seat in (0, 1):
            live.seat_client(seat).act({"type": "ready"})
        assert len(payloads(phone)) == seen  # nothing reached it

        # Back in range: the stream comes back on its own with the current state.
        cable.restore()
        phone.context.set_offline(False)
        wait_synced(phone, live, 3)
        wait_until(lambda: phone.locator("#conn").inner_text() == "Live", "Live again")
        display = live.payload(3)["display"]
        assert phone.locator("#screen-title").inner_text() == display["title"]
        for line in display["lines"]:
            assert line in phone.locator("#screen-lines").inner_text()

        # ... and it can act at once on what it shows (the Boatswain and the Chaplain
        # find "ready" in their secret "Your move" group, the others at the top).
        choices = display["choices"]
        ready = next(i for i, c in enumerate(choices) if c["action"]["type"] == "ready")
        act_on_phone(phone, ready, choices[ready], way=1)
        wait_until(lambda: live.table.match.view(PUBLIC)["state"]["ready"][3], "its ready")

        # Closed and opened again (the browser killed the tab): the cookie keeps the
        # seat and the page starts from the current state.
        context = phone.context
        phone.close()
        again = context.new_page()
        again.goto(cable.url + "/seat/")
        wait_synced(again, live, 3)
        assert again.locator("#seat-number").inner_text() == "Seat 4"
        assert again.locator("#seat-name").inner_text() == "Drake"
    finally:
        cable.close()


class GroupedHighCard(HighCard):
    """The engine's toy game with its votes filed in a group, the way the converted
    games file their decisions: a public "Vote" group of secret targets (full labels,
    short forms for the OLED), and one decision at the top level."""

    def display(self, view, seat):
        shown = super().display(view, seat)
        choices = tuple(
            Choice(f"Vote for seat {c.action['seat'] + 1}", c.action, secret=True,
                   group=("Vote",), short=f"Seat {c.action['seat'] + 1}")
            if c.action["type"] == "vote" else Choice("Bump the counter", c.action)
            for c in shown.choices)
        return Display(title=shown.title, choices=choices, private=shown.private)


def test_a_phone_opens_a_group_of_choices_goes_back_and_acts_inside_it(browser, serve):
    live = serve(seats=4)
    live.table.start(GroupedHighCard(), 4, names=NAMES)
    phone = live.phone(browser, 0)
    wait_synced(phone, live, 0)
    lines = phone.locator("#choices .choice")
    assert lines.count() == 2
    assert lines.nth(0).locator(".choice-label").inner_text() == "Vote"
    assert lines.nth(0).locator(".choice-count").inner_text() == "3"
    assert lines.nth(1).inner_text().startswith("Bump the counter")
    assert phone.locator(".choice-back").count() == 0

    lines.nth(0).tap()  # the group opens in place: its three secret targets and Back
    wait_until(lambda: phone.locator(".choice-back").count() == 1, "the group to open")
    assert phone.locator(".choice-where").inner_text() == "Vote"
    assert [lines.nth(n).locator(".choice-label").inner_text() for n in range(3)] == \
        ["Hidden choice 1", "Hidden choice 2", "Hidden choice 3"]
    phone.locator(".choice-back").tap()
    wait_until(lambda: phone.locator(".choice-back").count() == 0, "Back to the top")
    assert lines.nth(0).locator(".choice-label").inner_text() == "Vote"
    assert live.table.match.view(0)["state"]["vote"]["mine"] == []  # browsing sent nothing

    lines.nth(0).tap()
    wait_until(lambda: phone.locator(".choice-back").count() == 1, "the group to open again")
    # Holding the eye shows the full labels (never the OLED's short forms); the other
    # hand's tap on a target votes.
    seen: list[str] = []

    def read_labels():
        wait_until(lambda: "Vote for" in lines.nth(0).inner_text(), "the labels to show")
        seen.extend(lines.nth(n).locator(".choice-label").inner_text() for n in range(3))

    touch_hold_and_tap(phone, "#reveal-pad", "#choices .choice >> nth=1", read_labels)
    assert seen == ["Vote for seat 2", "Vote for seat 3", "Vote for seat 4"]
    wait_until(lambda: live.table.match.view(0)["state"]["vote"]["mine"] == [2],
               "seat 1's vote for seat 3")
    wait_synced(phone, live, 0)
    assert phone.locator(".choice-back").count() == 0  # acted: back at the top
    for word in ("select", "press"):  # OLED words never reach a phone's page
        assert word not in visible_text(phone).lower()
    assert not page_errors(phone)


def test_seat_one_starts_a_match_from_its_phone_through_the_lobby_menu(browser, serve):
    live = serve(seats=4)
    phone = live.phone(browser, 0)
    wait_synced(phone, live, 0)
    lines = phone.locator("#choices .choice")
    games = [choice["group"][0] for choice in live.payload(0)["display"]["choices"]]
    titles = list(dict.fromkeys(games))
    wait_until(lambda: lines.count() == len(titles), "one line per game")
    assert [lines.nth(n).locator(".choice-label").inner_text()
            for n in range(len(titles))] == titles
    lines.nth(titles.index("Booty Dice")).tap()  # the game opens: its player counts
    wait_until(lambda: phone.locator(".choice-back").count() == 1, "Booty Dice to open")
    assert lines.nth(0).locator(".choice-label").inner_text() == "Booty Dice, 2 players"
    lines.nth(1).tap()  # one tap: a lobby choice is no secret
    wait_until(lambda: live.table.match is not None, "the match to start")
    assert live.table.match.game.spec.id == "booty-dice" and live.table.match.seats == 3
    assert not page_errors(phone)
