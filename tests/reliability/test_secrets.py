"""Nobody sees what is not theirs: the re-deal test over every outgoing channel, and
typed text escaped wherever it is shown.

The contract suite (tests/engine/contract.py) checks that ``Match.view``, ``display``
and ``summary`` of a viewer do not change when everything that viewer may not see is
re-drawn (``Game.redeal``). Here the same re-deal is pushed through everything that
leaves the companion: for matches of every game at random points, a twin of the table
gets the re-drawn state, and for that viewer the table payload, the live-stream event
(its id and its text), the JSON API answers, the seat's OLED model, and every error a
seat can provoke (through the API and through its buttons) must be byte for byte the
same as the real table's. For the public, the host's payload and answers too (the host
sees the public view plus the controls).
"""
from __future__ import annotations

import json
import random
import re
import time
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest

import companion.games
from companion.access import HostPin, SeatAccess
from companion.engine import HOST, PUBLIC, Journal
from companion.seats.config import parse_table_config
from companion.seats.wiring import wiring_svg
from companion.table import Table
from companion.web import create_app
from companion.web.live import Hub
from tests.engine.contract import fixed_clock, random_options
from tests.reliability.conftest import PIN, SEATS, join, login

GAMES = list(companion.games.GAMES)
WEB = Path(__file__).resolve().parents[2] / "web"


# -- a twin table: the same table, its match forked and perhaps re-dealt -----------------
def twin_of(table: Table, scratch: Journal, match: Any = None) -> Table:
    """A copy of ``table`` (no seats, no hub, a scratch journal) playing ``match`` (a
    re-dealt fork, ``Match.redealt``), or else a plain fork of its match."""
    return table.twin(match if match is not None else table.match.fork(), scratch)


class Pair:
    """Two apps, A (the table as it is) and B (the re-dealt twin), with a phone per seat
    and a host in each; every answer is asked of both and must be the same."""

    def __init__(self, table: Table):
        self.apps = []
        for _ in range(2):
            app = create_app(table, Hub())
            app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
            self.apps.append(app)
        # The seat cookies are signed with the table's key, which both twins share; a
        # seat has one phone, so B's phone for a seat is A's (the same cookie).
        phones = [join(self.apps[0], table, s) for s in range(table.seat_count)]
        self.phones = [phones, [self.apps[1].test_client() for _ in phones]]
        for phone, twin in zip(*self.phones, strict=True):
            twin.set_cookie("mutiny_seat", phone.get_cookie("mutiny_seat").value)
        self.hosts = [login(app) for app in self.apps]
        self.checks = 0

    def use(self, a: Table, b: Table) -> None:
        for app, twin in zip(self.apps, (a, b), strict=True):
            app.extensions["mutiny"]["table"] = twin

    def same(self, who: Any, method: str, path: str, body: Any = None, where: str = ""):
        answers = []
        for index in range(2):
            client = (self.hosts[index] if who == HOST else
                      self.apps[index].test_client() if who == PUBLIC else
                      self.phones[index][who])
            if path.endswith("/stream"):
                reply = client.get(path, buffered=False)
                answers.append((reply.status_code, first_event(reply)))
            elif method == "GET":
                reply = client.get(path)
                answers.append((reply.status_code, reply.get_data()))
            else:
                reply = client.post(path, json=body)
                answers.append((reply.status_code, reply.get_data()))
        assert answers[0] == answers[1], (
            f"{where}: {method} {path} {body!r} answers {who!r} differently when what it"
            f" may not see is re-drawn:\n{answers[0]}\n{answers[1]}")
        self.checks += 1
        return answers[0]


def first_event(response) -> bytes:
    text = b""
    for chunk in response.response:
        text += chunk if isinstance(chunk, bytes) else chunk.encode()
        if b"event: payload" in text and text.endswith(b"\n\n"):
            break
    response.close()
    return text


def probes(table: Table, seat: Any, rng: random.Random, many: int) -> list[Any]:
    """Actions a seat (or the host) might send that are not among its own choices now:
    other seats' and the host's choices, its own choices bent out of shape, and junk."""
    match = table.match
    own = match.legal_actions(seat) if seat == HOST or seat < match.seats else []
    others = [a for s in [*range(match.seats), HOST] if s != seat
              for a in match.legal_actions(s)]
    if seat == HOST:
        others += [{"type": t} for t in ("pause", "resume", "undo", "end")]
    bent = []
    for action in own:
        bent.append({**action, "surplus": 1})
        for key in [k for k in action if k != "type"]:
            bent.append({k: v for k, v in action.items() if k != key})
            bent += [{**action, key: odd} for odd in (10_000, -1, "x", None, True, [1])]
    junk = [{"type": t} for t in sorted(match.game.action_types)]
    junk += ["not an action", None, [], {"type": 1}, {"type": "no-such-move"},
             {"type": "x", "blob": "y" * 5000}]
    chosen = rng.sample(others, min(len(others), many)) + rng.sample(bent, min(len(bent), many))
    chosen += rng.sample(junk, min(len(junk), many))
    return [p for p in chosen if p not in own]


def check_viewer(table: Table, viewer: Any, pair: Pair, rng: random.Random,
                 where: str, tally: dict[str, int], many: int) -> None:
    match = table.match
    state = match.snapshot()["state"]
    redealt = match.redealt(viewer, random.Random(rng.random()))
    assert match.snapshot()["state"] == state, f"{where}: redeal changed the original"
    tally["redeals"] += 1
    tally["redeals_changed"] += redealt.snapshot()["state"] != state
    scratch = Journal(":memory:")
    a, b = twin_of(table, scratch), twin_of(table, scratch, redealt)
    where = f"{where} viewer {viewer!r}"
    # The public's re-deal also covers the host and the seats that sit this match out.
    viewers = [viewer] if viewer != PUBLIC else [PUBLIC, HOST,
                                                  *range(match.seats, table.seat_count)]
    for who in viewers:
        # The payload and its live-stream text (with its serial: the event id).
        assert a.payload(who) == table.payload(who), f"{where}: the twin is not faithful"
        assert a.payload_text(who) == b.payload_text(who), (
            f"{where}: the payload of {who!r} depends on what it may not see")
        tally["checks"] += 2
    if viewer != PUBLIC:
        assert a.display(viewer) == b.display(viewer), f"{where}: the OLED model differs"
        tally["checks"] += 1
    pair.use(a, b)
    before = pair.checks
    if viewer == PUBLIC:
        for path in ("/api/public/view", "/api/public/stream", "/api/games"):
            pair.same(PUBLIC, "GET", path, where=where)
        for path in ("/api/host/view", "/api/host/stream"):
            pair.same(HOST, "GET", path, where=where)
        snapshot = a.match.snapshot()
        for action in probes(table, HOST, rng, many):
            status, _ = pair.same(HOST, "POST", "/api/host/act",
                                  {"action": action, "version": a.turn_version(HOST)}, where)
            assert status != 200, f"{where}: {action!r} was accepted"
            assert a.match.snapshot() == snapshot, f"{where}: a refusal changed the match"
    else:
        pair.same(viewer, "GET", "/api/seat/view", where=where)
        pair.same(viewer, "GET", "/api/seat/stream", where=where)
        version = a.turn_version(viewer)
        snapshot = a.match.snapshot()
        sent = probes(table, viewer, rng, many)
        for index, action in enumerate(sent):
            for sent_version in (version, version - 1)[:1 + (index < 2)]:
                status, _ = pair.same(viewer, "POST", "/api/seat/act",
                                      {"action": action, "version": sent_version}, where)
                assert status != 200, f"{where}: {action!r} was accepted"
                assert a.match.snapshot() == snapshot, f"{where}: a refusal changed the match"
        # The same through the seat's buttons: the error shows on its screen.
        for action in sent[:many]:
            if isinstance(action, dict):
                a.press(viewer, action)
                b.press(viewer, action)
                assert a.display(viewer) == b.display(viewer), (
                    f"{where}: pressing {action!r} shows differently")
                assert a.payload_text(viewer) == b.payload_text(viewer)
                tally["checks"] += 2
    tally["checks"] += pair.checks - before
    scratch.close()


def play_to_random_points(game_id: str, points: int, seed: int):
    """Yield (table, where) at ``points`` random moments of random matches of a game,
    played through the table runtime, host moves included."""
    rng = random.Random(seed)
    game = companion.games.get(game_id)
    table = Table(Journal(":memory:"), seat_count=SEATS, pin=HostPin(PIN),
                  base_url="http://localhost", access=SeatAccess(":memory:", SEATS),
                  clock=fixed_clock(rng))
    for seat in range(SEATS):
        table.claim(seat)
    seen = 0
    matches = 0
    while seen < points:
        players = rng.randint(game.spec.min_seats, min(game.spec.max_seats, SEATS))
        table.start(game_id, players, random_options(game, rng), seed=str(rng.random()))
        matches += 1
        while not table.match.is_over and seen < points:
            if rng.random() < 0.03:
                seen += 1
                yield table, rng, f"{game_id} match {matches} step {table.match.step()!r}"
            moves = [(actor, action) for actor in table.match.acting()
                     for action in table.match.legal_actions(actor)]
            host = [(HOST, a) for a in table.match.legal_actions(HOST)
                    if a["type"] in ("undo", "resume")]
            if not moves or (host and rng.random() < 0.05):
                moves += host
            actor, action = rng.choice(moves)
            table.submit(actor, action, table.turn_version(actor))
        if seen < points and table.match.is_over:
            yield table, rng, f"{game_id} match {matches} over"
            seen += 1
    table.close()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
def test_every_channel_is_the_same_whatever_is_redrawn(game_id, request, figures):
    full = request.config.full_run
    points, many = (40, 5) if full else (6, 2)
    seed = time.time_ns() % 10**9 if full else zlib.crc32(game_id.encode())
    tally = {"points": 0, "redeals": 0, "redeals_changed": 0, "checks": 0, "seed": seed}
    pair = None
    for table, rng, where in play_to_random_points(game_id, points, seed):
        if pair is None:
            pair = Pair(table)
        tally["points"] += 1
        for viewer in [PUBLIC, *range(table.match.seats)]:
            check_viewer(table, viewer, pair, rng, f"{where} (seed {seed})", tally, many)
    if companion.games.get(game_id).has_secrets:
        assert tally["redeals_changed"], f"{game_id}: no re-deal changed anything"
    figures("secrets", **{game_id: tally})


# -- typed text is escaped wherever it is shown ------------------------------------------
NASTY = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
         "</title><svg onload=alert(1)>", "Anne & 'Bonny'", "a\u2028b\rc",
         "{{7*7}}", "javascript:alert(1)", "\u202eevil"]


def test_names_are_escaped_everywhere_they_are_shown(app, table, figures):
    host = login(app)
    for seat, name in enumerate(NASTY):
        assert host.post(f"/api/host/seats/{seat + 1}/name", json={"name": name}).status_code == 200
    reply = host.post("/api/host/start", json={"game": "moon-yeti", "players": 8,
                                               "names": [n + "!" for n in NASTY]})
    assert reply.status_code == 200, reply.json
    names = table.access.names()
    dangerous = [n for n in names if re.search(r"[<>\"'&]", n)]
    assert len(dangerous) >= 4
    phone = join(app, table, 0)
    pages = {path: phone.get(path) for path in ("/seat/", "/table", "/host", "/join", "/sim/")}
    pages["/J/<unknown>"] = app.test_client().get("/J/" + "0" * 32)
    pages["qr.svg"] = host.get("/api/host/seats/1/qr.svg")
    checked = 0
    for path, reply in pages.items():
        assert reply.status_code in (200, 404), path
        text = reply.get_data(as_text=True)
        for name in dangerous:
            assert name not in text, f"{path} holds {name!r} unescaped"
            checked += 1
    # The data itself goes out as JSON (never rendered as HTML by the server) ...
    for path, client in (("/api/public/view", phone), ("/api/host/view", host)):
        reply = client.get(path)
        assert reply.mimetype == "application/json" and reply.json["table"]["names"] == names
    reply = phone.get("/api/seat/view")
    assert reply.mimetype == "application/json" and reply.json["seat"]["name"] == names[0]
    # ... and a stream event is exactly one event, whatever a name holds.
    event = first_event(phone.get("/api/public/stream", buffered=False)).decode()
    assert event.count("\ndata: ") == 1 and "\r" not in event and "\u2028" not in event
    payload = json.loads(event.split("\ndata: ", 1)[1].split("\n", 1)[0])
    assert payload["table"]["names"] == names
    figures("escaping", names_tried=len(NASTY), page_checks=checked)


def test_the_wiring_diagram_escapes_names():
    text = "[table]\nname = %s\n" % json.dumps(NASTY[0])
    for index, name in enumerate(NASTY[:4]):
        text += ("[[seat]]\nname = %s\nbuttons = { previous = %d, select = %d, next = %d }\n"
                 "screen = { bus = 1, address = 0x3C, mux = 0x70, channel = %d }\n"
                 % (json.dumps(name), 4 + 3 * index, 5 + 3 * index, 6 + 3 * index, index))
    svg = wiring_svg(parse_table_config(text, "nasty.toml", backend="sim"))
    for name in NASTY[:4]:
        if re.search(r"[<>&]", name):
            assert name not in svg
    root = ET.fromstring(svg)  # well-formed: nothing broke out of its element
    shown = "".join(root.itertext())
    assert all(name in shown for name in NASTY[:2])
    assert not root.findall(".//{http://www.w3.org/2000/svg}script") and "onerror=" not in \
        "".join(f"{k}={v}" for el in root.iter() for k, v in el.attrib.items())


HTML_SINKS = re.compile(r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write"
                        r"|\beval\s*\(|new\s+Function\s*\(|\.srcdoc\b|setAttribute\(\s*['\"]on")


def test_pages_put_data_in_as_text_never_as_html():
    # Our own scripts: vendor/ holds third-party code the pages never load (axe-core,
    # injected by the browser tests only).
    scripts = sorted(p for p in (WEB / "static").rglob("*.js") if "vendor" not in p.parts)
    assert scripts
    for script in scripts:
        for number, line in enumerate(script.read_text().splitlines(), 1):
            assert not HTML_SINKS.search(line), f"{script.name}:{number}: {line.strip()}"
    for template in sorted((WEB / "templates").rglob("*.html")):
        text = template.read_text()
        assert "|safe" not in text.replace(" ", "") and "autoescape false" not in text, template
