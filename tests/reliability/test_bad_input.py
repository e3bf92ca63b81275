"""Bad input: whatever a phone, a browser, a config file or a pod's cable sends.

Hypothesis throws requests at every route of docs/api.md (and /sim/press, the join
links, the pages and the captive-portal answers): random and malformed bodies, wrong
types, huge bodies, odd encodings and charsets, invalid UTF-8, wrong content types,
other seats' actions, stale versions and forged cookies. The app runs as it does for
real (an unexpected exception becomes a 500, it is not raised into the test), and
every answer must be a deliberate one: never a 500, never a Python exception's text,
and after every refusal the match, the seat names, tokens and claims are as they were.
"""
from __future__ import annotations

import json
import logging
import random
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from itsdangerous import URLSafeSerializer

import companion.games
from companion.engine import HOST
from companion.errors import ConfigError
from companion.seats import ManualClock, podlink
from companion.seats.config import SCREEN_KEYS, SEAT_KEYS, TABLE_KEYS, parse_table_config
from companion.seats.pods import PodManager, PodSeat
from companion.web.pages import CONNECTIVITY_CHECKS
from tests.conftest import take_seat
from tests.engine.contract import random_options
from tests.reliability.conftest import PIN, login

GAMES = list(companion.games.GAMES)

#: (method, path template) of every route a phone or a page may call, in groups that
#: are fuzzed one at a time (so that each gets its share of requests).
GROUPS = {
    "seat-act": [("POST", "/api/seat/act")],
    "host-act": [("POST", "/api/host/act"), ("POST", "/api/host/lobby")],
    "host-start": [("POST", "/api/host/start")],
    "host-login": [("POST", "/api/host/login"), ("POST", "/api/host/logout")],
    "host-seats": [("POST", "/api/host/seats/{n}/name"), ("POST", "/api/host/seats/{n}/replace"),
                   ("POST", "/api/host/seats/{n}/kick"), ("GET", "/api/host/seats/{n}/qr.svg"),
                   ("GET", "/api/host/seats/{n}/phones"),
                   ("POST", "/api/host/seats/{n}/phones/{token}/revoke")],
    "reads": [("GET", "/api/seat/view"), ("GET", "/api/seat/stream"),
              ("GET", "/api/public/view"), ("GET", "/api/public/stream"),
              ("GET", "/api/host/view"), ("GET", "/api/host/stream"), ("GET", "/api/games")],
    "sim": [("POST", "/sim/press"), ("GET", "/sim/stream"), ("GET", "/sim/")],
    "pages": [("GET", "/J/{token}"), ("GET", "/j/{token}"), ("POST", "/J/{token}"),
              ("GET", "/seat/"),
              ("GET", "/table"), ("GET", "/host"), ("GET", "/join"), ("GET", "/"),
              ("GET", "/healthz"), *[("GET", path) for path in CONNECTIVITY_CHECKS]],
}
ROUTES = [route for group in GROUPS.values() for route in group]
#: The API's own routes: every refusal there is a JSON {"code", "message"}.
API = [(method, re.compile(re.escape(template).replace(r"\{n\}", r"\d+")))
       for method, template in ROUTES if template.startswith("/api/")]
#: What a Python exception looks like when it leaks into an answer.
LEAKS = re.compile(r"Traceback|File \"|\b[A-Z][A-Za-z]*(Error|Exception)\b\(?|NoneType"
                   r"|object has no attribute|positional argument|line \d+ column \d+")

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(),
                        st.integers(min_value=2**63, max_value=2**80),
                        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_values = st.recursive(json_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
odd_versions = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                         st.text(max_size=5), st.lists(st.integers(), max_size=2),
                         st.integers(min_value=10**20, max_value=10**30))
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8",
                 "application/json; charset=utf-16", "application/json; charset=latin-1",
                 "application/json; charset=x-bogus", "text/plain",
                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=xx",
                 "application/octet-stream", "", "application/vnd.api+json", "json",
                 "text/html; charset=utf-8"]
ORIGINS = [None, "http://localhost", "http://evil.example", "null", "http://localhost.evil",
           "https://localhost", "not a url", "http://[::1"]


@st.composite
def requests(draw, table, cookies, routes):
    """One request: (method, path, body bytes or None, content type, headers, identity).

    Half are well-formed but for the body (the route's method, JSON, same site, a real
    seat or host cookie), so that they reach the rules; the other half are odd all over.
    """
    method, template = draw(st.sampled_from(routes))
    clean = draw(st.booleans())
    number = draw(st.one_of(st.integers(1, 8), st.integers(0, 10), st.integers(-3, -1),
                            st.integers(10**3, 10**25)))
    tokens = [table.access.token(s) for s in range(table.seat_count)]
    token = draw(st.one_of(
        st.sampled_from(tokens), st.sampled_from(tokens).map(str.lower),
        st.sampled_from(tokens).map(lambda t: t[:-1]), st.text(max_size=40).map(quote),
        st.binary(max_size=20).map(lambda b: "".join(f"%{x:02X}" for x in b)),
        st.just("0" * 32), st.just("A" * 5000)))
    path = template.format(n=number, token=token)
    body = draw(bodies(table, template))
    real = sorted(name for name in cookies if name.startswith("seat-") or name == "host")
    headers = {}
    if clean:
        identity = draw(st.sampled_from(real))
        if draw(st.booleans()):
            headers["Origin"] = "http://localhost"
        return method, path, body, "application/json", headers, identity
    if draw(st.integers(0, 4)) == 0:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
                                       "HEAD"]))
    if draw(st.integers(0, 9)) == 0:  # now and then a path of no route at all
        path = draw(st.sampled_from(["/api/", "/api/seat", "/static/../companion/table/table.py",
                                     "/api/host/seats/x/name", "/%ff", "/sim/press/"]))
        path += quote(draw(st.text(max_size=10)))
    if draw(st.booleans()):
        path += "?" + quote(draw(st.text(max_size=15)), safe="=&")
    content_type = draw(st.sampled_from(CONTENT_TYPES))
    origin = draw(st.sampled_from(ORIGINS))
    if origin is not None:
        headers[draw(st.sampled_from(["Origin", "Referer"]))] = origin
    if draw(st.integers(0, 4)) == 0:
        headers["Sec-Fetch-Site"] = draw(st.sampled_from(["cross-site", "same-origin",
                                                          "none", "same-site"]))
    if draw(st.integers(0, 9)) == 0:
        headers["Host"] = draw(st.sampled_from(["example.com", "10.0.0.1:8000", "a" * 300]))
    identity = draw(st.sampled_from(real + sorted(cookies)))
    return method, path, body, content_type, headers, identity


@st.composite
def bodies(draw, table, template):
    kind = draw(st.integers(0, 11))
    if kind == 0:
        return None
    if kind == 1:  # raw bytes, broken UTF-8, deep nesting, huge
        return draw(st.one_of(
            st.binary(max_size=200), st.just(b'{"action": "\xff\xfe"}'),
            st.integers(1, 70_000).map(lambda n: b"[" * n),
            st.integers(1, 3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
            st.just(b"x" * 70_000), st.just(b'{"pin": NaN, "version": Infinity}'),
            st.just(b'\xef\xbb\xbf{"pin": "1"}'), st.just(b'{"a": 1, "a": 2}'),
            st.just(json.dumps({"name": "\ud800", "pin": "\udfff"}).encode())))
    if kind == 2:
        value = draw(json_values)
    else:
        value = draw(structured(table, template))
    text = json.dumps(value, allow_nan=True)
    encoding = draw(st.sampled_from(["utf-8"] * 6 + ["utf-16", "utf-32", "latin-1"]))
    return text.encode(encoding, "replace") if encoding == "latin-1" else text.encode(encoding)


@st.composite
def structured(draw, table, template):
    """A body shaped like the route's own, with odd values in it."""
    match = table.match
    pool = []
    if match is not None:
        pool = [a for s in [*range(match.seats), HOST] for a in match.legal_actions(s)]
    # (Indexes into what the table offers now, so that Hypothesis draws the same way
    # whatever the table holds.)
    pick, kind = draw(st.integers(0, 2**16)), draw(st.integers(0, 3))
    real = pool[pick % len(pool)] if pool else {"type": "ready"}
    if kind == 0:
        action = real
    elif kind == 1:
        action = {**real, "extra": draw(json_values)}
    elif kind == 2:
        action = draw(st.fixed_dictionaries(
            {"type": st.sampled_from(["undo", "pause", "resume", "end", "vote", "roll",
                                      "x" * 100])},
            optional={"seat": json_values, "die": json_values}))
    else:
        action = draw(json_values)
    seat_version = table.turn_version(0)
    version = draw(st.one_of(st.just(seat_version), st.just(seat_version - 1), odd_versions,
                             st.integers(-2, 30)))
    game = draw(st.sampled_from(GAMES + ["", "no-such-game", "x" * 300]))
    options = draw(st.one_of(st.just({}), json_values, st.dictionaries(
        st.sampled_from([o.name for g in companion.games.GAMES.values() for o in g.spec.options]
                        + ["nope"]), json_values, max_size=3),
        st.just(random_options(companion.games.get(GAMES[0]), random.Random(0)))))
    shapes = {
        "/api/seat/act": {"action": action, "version": version},
        "/api/host/act": {"action": action, "version": version},
        "/api/host/login": {"pin": draw(st.one_of(st.text(max_size=8), json_values,
                                                  st.just(PIN + " "), st.just(" " + PIN)))},
        "/api/host/start": {"game": game, "players": draw(st.one_of(st.integers(-1, 10),
                                                                    json_values)),
                            "options": options, "names": draw(st.one_of(
                                st.none(), st.lists(st.text(max_size=30), max_size=9),
                                json_values))},
        "/api/host/seats/{n}/name": {"name": draw(st.one_of(st.text(max_size=60),
                                                            json_values))},
        "/sim/press": {"seat": draw(st.one_of(st.integers(-1, 9), json_values)),
                       "button": draw(st.sampled_from(["previous", "select", "next", "", 1])),
                       "down": draw(st.one_of(st.booleans(), json_values))},
    }
    body = dict(shapes.get(template, {}))
    for key in draw(st.lists(st.sampled_from(sorted(body) or ["x"]), max_size=2)):
        if draw(st.booleans()):
            body.pop(key, None)
        else:
            body[key] = draw(json_values)
    return body


def forged_cookies(table) -> dict[str, str | None]:
    """Cookie header values by name: none, the real ones, and forgeries."""
    key = table.access.secret_key
    seat_signer = URLSafeSerializer(key, salt="seat")
    host_signer = URLSafeSerializer(key, salt="host")
    wrong_key = URLSafeSerializer(b"not the key", salt="seat")
    forged = {
        "nobody": None,
        "forged-unsigned": "mutiny_seat=eyJzIjowLCJnIjowfQ.forged",
        "forged-other-key": "mutiny_seat=" + wrong_key.dumps({"s": 0, "g": 0}),
        "signed-odd-seat": "mutiny_seat=" + seat_signer.dumps({"s": "0", "g": 0}),
        "signed-bool-seat": "mutiny_seat=" + seat_signer.dumps({"s": True, "g": 0}),
        "signed-far-seat": "mutiny_seat=" + seat_signer.dumps({"s": 99, "g": 0}),
        "signed-list": "mutiny_seat=" + seat_signer.dumps([0, 0]),
        "signed-old-generation": "mutiny_seat=" + seat_signer.dumps({"s": 1, "g": -1}),
        "seat-as-host": "mutiny_host=" + seat_signer.dumps({"s": 0, "g": 0}),
        "host-other-boot": "mutiny_host=" + host_signer.dumps({"b": "0" * 16}),
        "garbage": "mutiny_seat=\x7f\x01; mutiny_host=%%%; x=" + "y" * 3000,
    }
    return forged


def current_state(table) -> str:
    """Everything a refusal must leave alone."""
    access = table.access
    return json.dumps({
        "match": table.match.snapshot() if table.match else None,
        "names": access.names(),
        "tokens": [(access.token(s), access.generation(s)) for s in range(table.seat_count)],
        "claimed": [table.is_claimed(s) for s in range(table.seat_count)],
        "versions": [table.turn_version(v) for v in [*range(table.seat_count), HOST]],
    }, sort_keys=True)


def keep_a_match_going(table, rng: random.Random) -> None:
    """Most requests meet a match being played; some meet one that is over, or none."""
    roll = rng.random()
    if table.match is None or table.match.is_over:
        if roll < 0.1 and table.match is not None:
            return  # leave it over for once: start and lobby can succeed
        if table.match is not None:
            table.back_to_lobby()
        if roll < 0.15:
            return  # the lobby
        game_id = rng.choice(GAMES)
        game = companion.games.get(game_id)
        players = rng.randint(game.spec.min_seats, min(game.spec.max_seats, table.seat_count))
        table.start(game_id, players, random_options(game, rng), seed=str(rng.random()))
    elif roll < 0.03:
        table.submit(HOST, {"type": "end"})


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_no_request_gets_a_500_a_traceback_or_changes_anything_when_refused(
        group, app, table, request, figures, caplog):
    full = request.config.full_run
    examples = 1000 if full else 60
    caplog.set_level(logging.ERROR)
    rng = random.Random(1)
    host_cookie = login(app).get_cookie("mutiny_host").value
    seen = {"requests": 0, "refused": 0, "accepted": 0, "statuses": {}}

    def identities() -> dict[str, str | None]:
        found = dict(forged_cookies(table))
        for seat in range(table.seat_count):
            phone = take_seat(app, table, seat)  # the seat's cookie as it is now
            found[f"seat-{seat}"] = "mutiny_seat=" + phone.get_cookie("mutiny_seat").value
        found["host"] = "mutiny_host=" + host_cookie
        return found

    cookies = identities()
    generations = [table.access.generation(s) for s in range(table.seat_count)]

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def fuzz(data):
        nonlocal cookies, generations
        caplog.clear()
        keep_a_match_going(table, rng)
        now = [table.access.generation(s) for s in range(table.seat_count)]
        if now != generations:  # the fuzz replaced a seat: take the new cookies
            cookies, generations = identities(), now
        method, path, body, content_type, headers, who = data.draw(
            requests(table, cookies, GROUPS[group]))
        if cookies[who] is not None:
            headers["Cookie"] = cookies[who]
        before = current_state(table)
        client = app.test_client(use_cookies=False)  # (so the Cookie header is ours)
        reply = client.open(path, method=method, data=body, headers=headers,
                            content_type=content_type or None, buffered=False)
        status = reply.status_code
        if reply.mimetype == "text/event-stream":
            text = next(iter(reply.response), b"")  # the first event; never the rest
            text = text if isinstance(text, bytes) else text.encode()
        else:
            text = reply.get_data()
        reply.close()
        shown = text.decode("utf-8", "replace")
        where = f"{method} {path} {content_type!r} {headers} body={body[:200] if body else body!r}"
        seen["requests"] += 1
        seen["statuses"][status] = seen["statuses"].get(status, 0) + 1
        assert status < 500, f"{where}: {status}\n{shown[:500]}"
        assert not LEAKS.search(shown), f"{where}: {shown[:500]}"
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, f"{where}: {errors[0].getMessage()}"
        if status >= 400:
            seen["refused"] += 1
            assert current_state(table) == before, f"{where}: refused ({status}) yet changed"
            routed = "Host" not in headers  # (an odd host name is refused before routing)
            if routed and any(m == method and rule.fullmatch(path.split("?")[0])
                              for m, rule in API):
                answer = json.loads(text)  # every refusal of the API says what and why
                assert set(answer) >= {"code", "message"}, f"{where}: {answer}"
        else:
            seen["accepted"] += 1

    fuzz()
    seen["statuses"] = {str(k): v for k, v in sorted(seen["statuses"].items())}
    figures("bad_input", **{f"requests_{group}": seen})


# -- the bugs the fuzz found, kept as plain tests ------------------------------------------
def test_json_nested_deeper_than_the_parser_is_refused(app, table):
    client = login(app)
    for path in ("/api/host/login", "/api/seat/act", "/sim/press"):
        reply = client.post(path, data="[" * 50_000, content_type="application/json")
        assert reply.status_code == 400, (path, reply.status_code)
        assert reply.json["code"] in ("bad_json", "bad_press")


def test_a_pin_with_a_lone_surrogate_is_a_wrong_pin_not_a_500(app, table):
    reply = app.test_client().post("/api/host/login", data=b'{"pin": "\\udfff"}',
                                   content_type="application/json")
    assert reply.status_code == 401 and reply.json["code"] == "bad_pin"


def test_a_name_with_a_lone_surrogate_is_cleaned_not_a_500(app, table):
    host = login(app)
    reply = host.post("/api/host/seats/1/name", data=b'{"name": "Anne\\ud800"}',
                      content_type="application/json")
    assert reply.status_code == 200
    assert table.access.names()[0] == "Anne"


def test_a_refused_start_renames_nobody(app, table):
    host = login(app)
    table.start("moon-yeti", 4)
    before = table.access.names()
    reply = host.post("/api/host/start", json={"game": "moon-yeti", "players": 4,
                                               "names": ["W", "X", "Y", "Z"]})
    assert reply.status_code == 409 and reply.json["code"] == "not_now"
    assert table.access.names() == before


# -- the table config file --------------------------------------------------------------------
toml_values = st.one_of(
    st.integers(-5, 300).map(str), st.sampled_from(["0x3C", "0x70", "true", "false", "1.5",
                                                    "nan", "inf", "-0", "1e400", "0o17"]),
    st.text(max_size=12).map(json.dumps), st.just('"""x"""'), st.just("[1, 2]"),
    st.just("[]"), st.just("{}"),
    st.dictionaries(st.sampled_from(["previous", "select", "next", *SCREEN_KEYS, "x"]),
                    st.integers(-2, 130).map(str), max_size=5).map(
        lambda d: "{ " + ", ".join(f"{k} = {v}" for k, v in d.items()) + " }"))
toml_lines = st.one_of(
    st.sampled_from(["[table]", "[[seat]]", "[seat]", "[[table]]", "[seat.screen]",
                     "[[seat.screen]]", "", "# a comment", "[", "]]", "=", "x = ",
                     '"key" = 1', "[table] # x"]),
    st.builds(lambda k, v: f"{k} = {v}",
              st.sampled_from([*TABLE_KEYS, *SEAT_KEYS, *SCREEN_KEYS, "nope", "seat",
                               "buttons.select", "screen.bus"]), toml_values),
    st.text(max_size=30))


HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SAMPLES = [path.read_text().splitlines() for path in sorted(HARDWARE.glob("table-*.toml"))]


@st.composite
def config_texts(draw):
    """A real table config with a few lines changed, dropped or added; or pure noise."""
    if draw(st.integers(0, 3)) == 0:
        return "\n".join(draw(st.lists(toml_lines, max_size=30)))
    lines = list(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.integers(0, 3))
        if edit == 0 and at < len(lines):
            del lines[at]
        elif edit == 1 and at < len(lines) and "=" in lines[at]:
            key = lines[at].split("=", 1)[0]
            lines[at] = f"{key}= {draw(toml_values)}"
        else:
            lines.insert(at, draw(toml_lines))
    return "\n".join(lines)


@pytest.mark.slow
def test_any_table_config_text_is_a_config_or_a_config_error(request, figures):
    examples = 5000 if request.config.full_run else 300
    outcome = {"configs": 0, "config_errors": 0}

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(config_texts(), st.sampled_from(["sim", "pi"]))
    def fuzz(text, backend):
        try:
            parse_table_config(text, "fuzz.toml", backend=backend, bus_exists=lambda b: b == 1)
        except ConfigError as exc:
            message = str(exc)
            assert message.startswith("fuzz.toml:") and "Fix:" in message, message
            outcome["config_errors"] += 1
        else:
            outcome["configs"] += 1

    fuzz()
    figures("bad_input", config_texts=examples, **{"config_" + k: v for k, v in outcome.items()})


# -- seat pod frames ------------------------------------------------------------------------
class Cable:
    """The Pi's end of a serial cable, in memory: what the pod sent, what the table wrote."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.written = 0

    def read_available(self) -> bytes:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.written += len(data)

    def close(self) -> None:
        pass


UID = b"\x0f\x1e\x2d\x3c\x4b\x5a\x69\x78"


@pytest.mark.slow
def test_any_bytes_from_a_pod_are_frames_or_counted_drops(request, figures):
    """Any bytes on a pod's cable: the link code (shared with the firmware) cuts them
    into frames and messages or counts them as dropped; the table's end of the port
    (PodConnection, bound to a seat) takes them without ever raising."""
    examples = 5000 if request.config.full_run else 300
    valid = [podlink.encode(kind, seq, ack, payload) for kind, seq, ack, payload in (
        (podlink.HELLO, 0, 0, podlink.pack_hello(7, 0, 1, UID, "1.0.0")),
        (podlink.HELLO, 0, 0, podlink.pack_hello(8, 0, 2, b"\x01\x02", "9.9")),
        (podlink.HELLO, 0, 0, b"\x02" + podlink.pack_hello(7, 0, 1, UID, "1.0.0")[1:]),
        (podlink.BUTTON, 0, 0, podlink.pack_button(1, 0)),
        (podlink.BUTTON, 1, 0, podlink.pack_button(1, 2)),
        (podlink.BUTTON, 2, 0, b"\x07\x09"),
        (podlink.PING, 0, 0, podlink.pack_counters({"bad": 3})),
        (podlink.ACK, 0, 5, b""), (0x7E, 3, 0, b"future"), (podlink.WELCOME, 0, 0, b""))]
    tally = {"bytes": 0, "frames": 0, "messages": 0, "dropped": 0, "linked": 0}

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(st.one_of(
        st.binary(max_size=300), st.sampled_from(valid),
        st.sampled_from(valid).flatmap(lambda f: st.integers(0, len(f) - 1).map(
            lambda i: f[:i] + bytes([f[i] ^ 0x55]) + f[i + 1:])),
        st.sampled_from(valid).flatmap(lambda f: st.integers(0, len(f)).map(lambda i: f[:i])),
        st.just(b"\x00" * 5), st.just(b"\xff" * 400), st.just(b"\r\x03")), max_size=12),
        st.integers(0, 10_000), st.lists(st.integers(0, 400), max_size=12))
    def fuzz(chunks, start, gaps):
        # The link alone, as both ends run it.
        deframer, link = podlink.Deframer(), podlink.Link("table")
        now = start
        for chunk in chunks:
            now += 7
            for raw in deframer.feed(chunk, now):
                tally["frames"] += 1
                message = link.receive(raw, now, linked=True)
                if message is not None:
                    tally["messages"] += 1
                    try:
                        podlink.describe(*message)
                    except podlink.FrameError:
                        link.stats["malformed"] += 1
            deframer.expire(now + podlink.PARTIAL_MS)
            link.output(now)
        tally["bytes"] += sum(map(len, chunks))
        tally["dropped"] += link.dropped() + deframer.oversize + deframer.truncated
        # The table's end of a port, with a seat bound to the pod's id.
        clock = [start]
        manager = PodManager(ports=lambda: [], clock=lambda: clock[0])
        seat = PodSeat(1, manager.bind(podlink.to_hex(UID), 1), clock=ManualClock())
        cable = Cable()
        connection = manager.attach("fuzz", cable)
        for index, chunk in enumerate(chunks):
            cable.inbox += chunk
            clock[0] += gaps[index] if index < len(gaps) else 7
            connection.pump(clock[0])
        tally["linked"] += connection.binding is not None
        connection.pump(clock[0] + podlink.TIMEOUT_MS)  # and the pod falls silent
        connection.close()
        seat.close()

    fuzz()
    figures("bad_input", pod_streams=examples, **{"pod_" + k: v for k, v in tally.items()})
