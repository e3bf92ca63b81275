"""Access: who may act for which seat, the host PIN, cross-site posts, and a log that
never holds a secret."""
from __future__ import annotations

import base64
import http.client
import json
import re
import sqlite3

import pytest

from companion.access import (
    FIRST_LOCK_SECONDS,
    FREE_TRIES,
    MAX_LOCK_SECONDS,
    TOKEN_BYTES,
    HostPin,
    PinLocked,
    SeatAccess,
    new_token,
)
from companion.engine import HOST
from companion.serve import ServeOptions, Server
from tests.reliability.conftest import PIN, join, login
from tests.reliability.helpers import Client, Serve, free_port


# -- seat tokens -----------------------------------------------------------------------------
def test_seat_tokens_are_128_random_bits(figures):
    assert TOKEN_BYTES * 8 >= 128
    assert "secrets" in new_token.__code__.co_names  # the OS's CSPRNG, not random
    access = SeatAccess(":memory:", 8)
    tokens = [access.token(s) for s in range(8)]
    for _ in range(60):
        for seat in range(8):
            tokens.append(access.replace(seat))
    assert all(re.fullmatch(r"[0-9A-F]{32}", t) for t in tokens)
    assert len(set(tokens)) == len(tokens)
    # Every one of the 128 bit positions is set in about half of the tokens.
    bits = [int(t, 16) for t in tokens]
    for position in range(128):
        share = sum(b >> position & 1 for b in bits) / len(bits)
        assert 0.3 < share < 0.7, f"bit {position} is set in {share:.0%} of the tokens"
    assert access.seat_for(tokens[-1]) == 7 and access.seat_for(tokens[0]) is None
    figures("access", tokens_checked=len(tokens))


def forge(cookie: str, **changes) -> str:
    """The cookie with its data edited and the old signature kept."""
    data, signature = cookie.rsplit(".", 1)
    padded = data + "=" * (-len(data) % 4)
    value = json.loads(base64.urlsafe_b64decode(padded))
    value.update(changes)
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=") + "." + signature


def with_cookie(app, name: str, value: str):
    client = app.test_client()
    client.set_cookie(name, value)
    return client


def test_a_seat_cookie_reads_and_acts_for_its_own_seat_only(app, table):
    table.start("moon-yeti", 8)
    phones = [join(app, table, s) for s in range(8)]
    for seat, phone in enumerate(phones):
        payload = phone.get("/api/seat/view").json
        assert payload["viewer"] == seat and payload["match"]["you"]["seat"] == seat
    # Another seat's move, sent with this seat's cookie, is this seat's move: refused.
    match = table.match
    while True:  # a move one seat may make and another may not
        found = [(actor, action, other) for actor in match.acting()
                 for action in match.legal_actions(actor) for other in range(8)
                 if action not in match.legal_actions(other)]
        if found:
            actor, action, other = found[0]
            break
        actor = match.acting()[0]
        table.submit(actor, match.legal_actions(actor)[0])
    before = table.match.snapshot()
    reply = phones[other].post("/api/seat/act", json={"action": action,
                                                      "version": table.turn_version(other)})
    assert reply.status_code == 409 and table.match.snapshot() == before
    # A cookie edited into another seat's is worthless, as is one glued from two.
    own = phones[0].get_cookie("mutiny_seat").value
    theirs = phones[3].get_cookie("mutiny_seat").value
    forged = [forge(own, s=1), forge(own, s=7), forge(own, g=1),
              own.split(".")[0] + "." + theirs.split(".")[1],
              own + "x", own.upper(), "", "." + own.split(".")[1]]
    for value in forged:
        client = with_cookie(app, "mutiny_seat", value)
        assert client.get("/api/seat/view").status_code == 401, value
        assert client.get("/api/seat/stream").status_code == 401, value
        reply = client.post("/api/seat/act", json={"action": action})
        assert reply.status_code == 401 and reply.json["code"] == "no_seat", value
    assert table.match.snapshot() == before
    # A seat cookie is no host cookie, nor the other way round.
    assert with_cookie(app, "mutiny_host", own).get("/api/host/view").status_code == 401
    host = login(app).get_cookie("mutiny_host").value
    assert with_cookie(app, "mutiny_seat", host).get("/api/seat/view").status_code == 401


def test_cookies_are_httponly_and_same_site(app, table):
    client = app.test_client()
    reply = client.get("/J/" + table.access.token(0))
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert reply.headers["Referrer-Policy"] == "no-referrer"  # the token leaves no trace
    reply = client.post("/api/host/login", json={"pin": PIN})
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


@pytest.fixture
def live(tmp_path):
    """A real server on loopback, in this process."""
    server = Server(ServeOptions(backend="sim", seats=4, game="moon-yeti",
                                 data_dir=str(tmp_path), host="127.0.0.1", port=0))
    server.start_table()
    with server.in_background():
        yield server


def test_after_replace_the_old_link_and_every_cookie_from_it_are_dead(live):
    port = live.http.port
    phone = Client(port)
    old_token = live.table.access.token(1)
    assert phone.get(f"/J/{old_token}")[0] == 303
    old_cookie = phone.cookies["mutiny_seat"]
    # A live stream of the seat, open while the host replaces its token.
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    stream.request("GET", "/api/seat/stream", headers={"Cookie": f"mutiny_seat={old_cookie}"})
    reply = stream.getresponse()
    assert reply.status == 200
    first = b""
    while b"event: payload" not in first:
        first += reply.readline()
    host = Client(port)
    assert host.json("POST", "/api/host/login", {"pin": live.pin.pin})[0] == 200
    status, body = host.json("POST", "/api/host/seats/2/replace", {})
    assert (status, body) == (200, {"ok": True})  # the new link is never in JSON
    new_token = live.table.access.token(1)  # (what the seat's screen shows)
    assert new_token != old_token.upper()
    rest = reply.read()  # the stream ends: the server closes it, it is not fed on
    assert b"event: payload" not in rest
    stream.close()
    for method, path, data in (("GET", "/api/seat/view", None), ("GET", "/api/seat/stream", None),
                               ("POST", "/api/seat/act", {"action": {"type": "declare"}})):
        status, answer = phone.json(method, path, data)
        assert status == 403 and answer["code"] == "taken_over", (path, answer)
    assert Client(port).get(f"/J/{old_token}")[0] == 404
    fresh = Client(port)
    assert fresh.get(f"/J/{new_token}")[0] == 303
    assert fresh.json("GET", "/api/seat/view")[1]["viewer"] == 1


# -- the host PIN ---------------------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_the_host_pin_locks_out_and_the_lock_grows_then_ends(figures):
    clock = Clock()
    pin = HostPin("135790", clock=clock)
    for _ in range(FREE_TRIES - 1):
        assert pin.check("000000") is False
        assert pin.locked_for() == 0
    locks = []
    for _ in range(9):
        assert pin.check("000000") is False  # the try that locks
        wait = pin.locked_for()
        locks.append(wait)
        with pytest.raises(PinLocked) as refused:
            pin.check("135790")  # even the right PIN waits
        assert refused.value.retry_after == wait
        clock.now += wait - 0.5
        with pytest.raises(PinLocked):
            pin.check("000000")  # still locked, and a try while locked costs nothing
        clock.now += 0.5
    assert locks == [min(MAX_LOCK_SECONDS, FIRST_LOCK_SECONDS * 2 ** i) for i in range(9)]
    assert locks[-1] == MAX_LOCK_SECONDS == 900
    assert pin.check("135790") is True  # the lock ended; the right PIN opens
    assert pin.check(" 135790 ") is True
    for guess in (135790, None, ["135790"], "", "1357900"):
        assert pin.check(guess) is False
    figures("access", pin_locks_seconds=locks)


def test_the_host_login_is_rate_limited(app, table):
    client = app.test_client()
    for _ in range(FREE_TRIES):
        reply = client.post("/api/host/login", json={"pin": "000000"})
        assert reply.status_code == 401 and reply.json["code"] == "bad_pin"
    reply = client.post("/api/host/login", json={"pin": PIN})
    assert reply.status_code == 429 and reply.json["code"] == "locked"
    assert 25 <= reply.json["retry_after"] <= 30
    assert "mutiny_host" not in reply.headers.get("Set-Cookie", "")


# -- cross-site posts ----------------------------------------------------------------------
WRITES = [("/api/seat/act", {"action": {"type": "declare"}}), ("/api/host/login", {"pin": PIN}),
          ("/api/host/logout", {}), ("/api/host/start", {"game": "moon-yeti", "players": 4}),
          ("/api/host/act", {"action": {"type": "pause"}}), ("/api/host/lobby", {}),
          ("/api/host/seats/2/name", {"name": "Evil"}), ("/api/host/seats/2/replace", {}),
          ("/api/host/seats/2/kick", {})]


def state(table):
    access = table.access
    return json.dumps([table.match.snapshot(), access.names(),
                       [access.token(s) for s in range(table.seat_count)],
                       [table.is_claimed(s) for s in range(table.seat_count)]], sort_keys=True)


def test_cross_site_posts_are_refused(app, table, figures):
    table.start("moon-yeti", 4)
    seat = join(app, table, 0)
    host = login(app)
    before = state(table)
    tried = 0
    for path, body in WRITES:
        client = seat if path.startswith("/api/seat") else host
        form = "&".join(f"{k}={v}" for k, v in body.items() if not isinstance(v, dict))
        attempts = [
            # What an HTML form on another site can send: no JSON.
            dict(data=form, content_type="application/x-www-form-urlencoded"),
            dict(data=form, content_type="multipart/form-data; boundary=x"),
            dict(data=json.dumps(body), content_type="text/plain"),
            # JSON from another site's script: the browser says where it comes from.
            dict(json=body, headers={"Origin": "http://evil.example"}),
            dict(json=body, headers={"Origin": "http://localhost.evil.example"}),
            dict(json=body, headers={"Referer": "http://evil.example/page"}),
            dict(json=body, headers={"Origin": "null", "Sec-Fetch-Site": "cross-site"}),
        ]
        for attempt in attempts:
            reply = client.post(path, **attempt)
            assert reply.status_code in (403, 415), (path, attempt, reply.status_code)
            assert reply.json["code"] in ("cross_site", "json_only")
            assert state(table) == before, (path, attempt)
            tried += 1
        reply = client.get(path)  # and no state changes on a GET
        assert reply.status_code == 405 and state(table) == before
    reply = app.test_client().post("/sim/press", data="seat=0&button=select&down=true",
                                   content_type="application/x-www-form-urlencoded")
    assert reply.status_code == 415
    # The same from the page itself goes through (the check is not a wall).
    reply = host.post("/api/host/act", json={"action": {"type": "pause"},
                                             "version": table.turn_version(HOST)},
                      headers={"Origin": "http://localhost"})
    assert reply.status_code == 200
    figures("access", cross_site_posts_refused=tried)


# -- the log ------------------------------------------------------------------------------------
def test_no_token_cookie_or_key_ever_reaches_the_server_log(tmp_path, figures):
    data = tmp_path / "data"
    serve = Serve(data, free_port(), 4, "--game", "moon-yeti").wait_ready()
    secrets_seen: set[str] = set()
    try:
        port = serve.port
        tokens = serve.tokens()
        secrets_seen |= set(tokens.values())
        phones = []
        for seat, token in sorted(tokens.items()):
            phone = Client(port)
            assert phone.get(f"/J/{token.lower() if seat % 2 else token}")[0] == 303
            phones.append(phone)
        stray = "0123456789ABCDEF" * 2
        assert Client(port).get(f"/J/{stray}")[0] == 404
        host = Client(port)
        assert host.json("POST", "/api/host/login", {"pin": "000000"})[0] == 401
        assert host.json("POST", "/api/host/login", {"pin": serve.pin})[0] == 200
        assert host.get("/api/host/seats/1/qr.svg")[0] == 200
        for _ in range(6):  # play a little, from the phones
            for phone in phones:
                status, view = phone.json("GET", "/api/seat/view")
                legal = view["match"]["you"]["legal"]
                if legal:
                    phone.json("POST", "/api/seat/act", {"action": legal[0],
                                                         "version": view["version"]})
                    phone.json("POST", "/api/seat/act", {"action": legal[0],
                                                         "version": view["version"]})  # stale
        host.json("POST", "/api/host/seats/3/replace", {})
        replaced = serve.tokens()[2]  # (what the seat's screen shows)
        assert phones[2].json("GET", "/api/seat/view")[0] == 403
        host.json("POST", "/api/host/seats/4/kick", {})
        kicked = serve.tokens()[3]
        assert Client(port).get(f"/J/{replaced}")[0] == 303
        host.json("POST", "/api/host/act", {"action": {"type": "end"}})
        host.json("POST", "/api/host/logout", {})
    finally:
        assert serve.stop() == 0
    log = serve.output
    # The seat and host cookies (the join page's one-time "ask my name" flag holds no
    # secret: its value is "1").
    secret_cookies = ("mutiny_seat", "mutiny_host")
    cookies = [c for client in [*phones, host] for name, c in client.cookies.items()
               if name in secret_cookies]
    cookies += [raw.split(";")[0].split("=", 1)[1] for client in [*phones, host]
                for raw in client.raw_set_cookies if raw.split("=", 1)[0] in secret_cookies]
    db = sqlite3.connect(data / "access.sqlite3")
    key = bytes(db.execute("SELECT value FROM keys WHERE name = 'cookies'").fetchone()[0])
    db.close()
    secrets_all = (secrets_seen | {replaced, kicked, stray}) | {c for c in cookies if c}
    secrets_all |= {c.split(".")[-1] for c in cookies if "." in c}  # signatures alone
    secrets_all |= {key.hex(), base64.b64encode(key).decode(),
                    base64.urlsafe_b64encode(key).decode().rstrip("=")}
    lowered = log.lower()
    for secret in secrets_all:
        assert secret.lower() not in lowered, f"the log holds a secret ({secret[:6]}...)"
    assert log.count(serve.pin) == 1, "the PIN is logged once, at start, and only then"
    assert "Traceback" not in log
    figures("access", log_lines=len(log.splitlines()), secrets_looked_for=len(secrets_all))
