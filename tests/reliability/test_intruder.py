"""Issue 18's attacks, each replayed against the table: every one now fails to get in.

One test per finding (the stalls of finding 4 are in test_stalls.py, the journal damage
of finding 6 in test_journal_damage.py). docs/security.md lists which test holds which
promise.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.access import FREE_TRIES, GLOBAL_LOCK_SECONDS, GLOBAL_TRIES, HostPin, PinLocked
from companion.engine import HOST
from companion.errors import MutinyError
from companion.serve import HttpServer, ServeOptions, Server
from tests.reliability.conftest import PIN, join, login
from tests.reliability.helpers import Client


def start_server(data_dir: Path, game: str | None = "moon-yeti") -> Server:
    server = Server(ServeOptions(backend="sim", seats=4, game=game, data_dir=str(data_dir),
                                 host="127.0.0.1", port=0))
    server.start_table()
    return server


def seat_lines(client) -> list[str]:
    return client.get("/api/seat/view").json["display"]["lines"]


# -- 1. the host's powers are never silent ------------------------------------------------
def test_showing_a_seats_code_and_every_phone_that_joins_are_told_to_the_seat(app, table):
    table.start("moon-yeti", 4)
    seat4 = join(app, table, 3)
    host = login(app)
    assert host.get("/api/host/seats/4/qr.svg").status_code == 200
    assert "! Host showed your code" in seat_lines(seat4)
    assert any("Host showed" in line for line in table.display(3).lines)  # the OLED too
    # The host (or seat 1, with the PIN) takes seat 4 over with that code: seat 4 sees it.
    spy = take_over(app, table, 3)
    assert seat4.get("/api/seat/view").json["code"] == "taken_over"
    assert any("Phone taken over" in line for line in table.display(3).lines)
    phones = host.get("/api/host/seats/4/phones").json["phones"]
    assert len(phones) == 1 and len(phones[0]["id"]) == 8
    # The host lets that phone go: its cookie is dead at once.
    assert host.post(f"/api/host/seats/4/phones/{phones[0]['id']}/revoke",
                     json={}).status_code == 200
    assert spy.get("/api/seat/view").json["code"] == "no_seat"
    assert host.post("/api/host/seats/4/phones/00000000/revoke",
                     json={}).json["code"] == "no_such_phone"


def take_over(app, table, seat):
    """A second phone that opens ``seat``'s link and answers yes to "take it over?"."""
    client = app.test_client()
    path = "/" + table.join_url(seat).split("/", 3)[3]
    assert b"Take over seat" in client.get(path).data
    assert client.post(path, headers={"Origin": "http://localhost"}).status_code == 303
    return client


def test_each_phone_has_a_cookie_of_its_own(app, table):
    table.start("moon-yeti", 4)
    first, second = join(app, table, 2), take_over(app, table, 2)
    cookie = lambda c: c.get_cookie("mutiny_seat").value  # noqa: E731
    assert cookie(first) != cookie(second)
    assert second.get("/api/seat/view").json["viewer"] == 2


# -- 2. seat access ends with the game night ------------------------------------------------
def test_last_nights_cookie_and_link_are_dead_after_a_restart(tmp_path):
    first = start_server(tmp_path)
    with first.in_background():
        phone = Client(first.http.port)
        old_token = first.table.access.token(2)
        assert phone.get(f"/J/{old_token}")[0] == 303
        assert phone.json("GET", "/api/seat/view")[0] == 200
        host = Client(first.http.port)
        assert host.json("POST", "/api/host/login", {"pin": first.pin.pin})[0] == 200
        version = host.json("GET", "/api/host/view")[1]["version"]
        assert host.json("POST", "/api/host/act",
                         {"action": {"type": "end"}, "version": version})[0] == 200
    # The next night: the match is over, nothing to resume, a new match is started.
    second = start_server(tmp_path)
    with second.in_background():
        phone.port, phone._conn = second.http.port, None
        status, body = phone.json("GET", "/api/seat/view")
        assert status == 401 and body["code"] == "no_seat"
        assert Client(second.http.port).get(f"/J/{old_token}")[0] == 404
        assert second.table.access.phones(2) == []


def test_a_new_match_from_the_lobby_gives_every_seat_a_new_link(app, table):
    table.start("moon-yeti", 4)
    old_link = table.join_url(1)
    phone = join(app, table, 1)
    host = login(app)
    host.post("/api/host/act", json={"action": {"type": "end"},
                                     "version": table.turn_version(HOST)})
    host.post("/api/host/lobby", json={})
    assert host.post("/api/host/start", json={"game": "moon-yeti",
                                              "players": 4}).status_code == 200
    assert table.join_url(1) != old_link
    stale = app.test_client().get("/" + old_link.split("/", 3)[3])
    assert stale.status_code == 404
    assert phone.get("/api/seat/view").status_code == 200  # the seated phone plays on


def test_a_restart_that_resumes_the_match_keeps_the_phones(tmp_path):
    first = start_server(tmp_path)
    with first.in_background():
        phone = Client(first.http.port)
        assert phone.get(f"/J/{first.table.access.token(1)}")[0] == 303
    second = start_server(tmp_path, game=None)
    with second.in_background():
        phone.port, phone._conn = second.http.port, None
        assert phone.json("GET", "/api/seat/view")[1]["viewer"] == 1


# -- 3. one client cannot lock the host out ---------------------------------------------------
def test_wrong_pins_lock_the_client_that_sent_them_not_the_host(app, table):
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "10.42.0.66"
    for _ in range(FREE_TRIES + 3):
        stranger.post("/api/host/login", json={"pin": "000000"})
    assert stranger.post("/api/host/login", json={"pin": PIN}).json["code"] == "locked"
    host = app.test_client()
    host.environ_base["REMOTE_ADDR"] = "10.42.0.2"
    assert host.post("/api/host/login", json={"pin": PIN}).status_code == 200


def test_many_clients_together_lock_everyone_for_a_minute_at_most():
    now = [1000.0]
    pin = HostPin("135790", clock=lambda: now[0])
    for n in range(GLOBAL_TRIES):
        assert pin.check("000000", client=f"10.0.0.{n}") is False
    with pytest.raises(PinLocked) as locked:
        pin.check("135790", client="10.42.0.2")
    assert locked.value.retry_after <= GLOBAL_LOCK_SECONDS == 60
    now[0] += GLOBAL_LOCK_SECONDS
    assert pin.check("135790", client="10.42.0.2") is True


# -- 5. an action from before a restart is stale after it -------------------------------------
def test_a_version_from_before_a_restart_is_refused_after_it(tmp_path):
    first = start_server(tmp_path)
    with first.in_background():
        host = Client(first.http.port)
        assert host.json("POST", "/api/host/login", {"pin": first.pin.pin})[0] == 200
        old = host.json("GET", "/api/host/view")[1]["version"]
    second = start_server(tmp_path, game=None)
    with second.in_background():
        host = Client(second.http.port)
        assert host.json("POST", "/api/host/login", {"pin": second.pin.pin})[0] == 200
        new = host.json("GET", "/api/host/view")[1]["version"]
        assert new != old
        status, body = host.json("POST", "/api/host/act",
                                 {"action": {"type": "pause"}, "version": old})
        assert status == 409 and body["code"] == "stale"
        assert second.table.match is not None and not second.table.match.is_paused


# -- 7. other names, other sites --------------------------------------------------------------
def test_requests_for_another_host_name_never_reach_the_table(app, table):
    table.start("moon-yeti", 4)
    host = login(app)
    before = json.dumps(table.match.snapshot(), sort_keys=True)
    evil = {"Host": "evil.example", "Origin": "http://evil.example"}
    for path, body in (("/api/host/act", {"action": {"type": "pause"}}),
                       ("/api/host/seats/2/replace", {}), ("/api/host/login", {"pin": PIN})):
        reply = host.post(path, json=body, headers=evil)
        assert reply.status_code == 403 and reply.json["code"] == "wrong_host"
    assert host.get("/api/host/view", headers=evil).status_code == 403
    assert json.dumps(table.match.snapshot(), sort_keys=True) == before
    # The names the Pi answers to, and any address, are served.
    for name in ("localhost", "mutiny.local", "10.42.0.1:8000", "[::1]:8000"):
        assert host.get("/api/public/view", headers={"Host": name}).status_code == 200
    app.config["MUTINY_HOSTS"] = ["pirates.lan"]
    assert host.get("/api/public/view", headers={"Host": "pirates.lan"}).status_code == 200


@pytest.mark.parametrize("path", ["/", "/any/page", "/generate_204", "/hotspot-detect.html"])
def test_a_captive_portal_name_lands_on_the_join_page(app, path):
    reply = app.test_client().get(path, headers={"Host": "captive.apple.com"})
    assert reply.status_code == 302 and reply.headers["Location"].endswith("/join")


def test_another_site_cannot_move_a_phone_to_another_seat(app, table):
    table.start("moon-yeti", 4)
    phone = join(app, table, 1)
    cookie = phone.get_cookie("mutiny_seat").value
    other = "/" + table.join_url(3).split("/", 3)[3]
    # A page of another site links (or navigates) the phone to seat 4's code.
    reply = phone.get(other, headers={"Referer": "http://evil.example/",
                                      "Sec-Fetch-Site": "cross-site"})
    assert reply.status_code == 200 and b"Switch to seat 4" in reply.data
    assert phone.get_cookie("mutiny_seat").value == cookie
    # ...and cannot post the switch for it either.
    assert phone.post(other, headers={"Origin": "http://evil.example"}).status_code == 403
    assert phone.get("/api/seat/view").json["viewer"] == 1
    # The phone's own yes moves it.
    assert phone.post(other, headers={"Origin": "http://localhost"}).status_code == 303
    assert phone.get("/api/seat/view").json["viewer"] == 3


def test_another_site_cannot_press_the_simulated_buttons(app):
    reply = app.test_client().post("/sim/press", json={"seat": 0, "button": "select",
                                                       "down": True},
                                   headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403 and reply.json["code"] == "cross_site"


# -- 8. the smaller ones ----------------------------------------------------------------------
def test_a_host_cookie_is_new_at_each_login_and_dead_after_logout(app, table):
    first, second = login(app), login(app)
    value = first.get_cookie("mutiny_host").value
    assert value != second.get_cookie("mutiny_host").value
    assert first.post("/api/host/logout", json={}).status_code == 200
    copy = app.test_client()
    copy.set_cookie("mutiny_host", value)
    assert copy.get("/api/host/view").json["code"] == "no_host"
    assert second.get("/api/host/view").status_code == 200  # another login lives on


@pytest.mark.parametrize("path", ["/", "/sim/", "/table", "/host", "/join", "/api/public/view",
                                  "/api/nope", "/static/mutiny.css"])
def test_every_answer_carries_the_security_headers(app, path):
    reply = app.test_client().get(path)
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "no-referrer"
    policy = reply.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy


def test_the_pages_hold_no_inline_script_or_style():
    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    for page in templates.rglob("*.html"):
        text = page.read_text()
        assert "<script>" not in text and "<style" not in text, page
        assert " style=" not in text and " onclick=" not in text, page


def test_every_api_error_is_json(app):
    client = app.test_client()
    for method, path, status in (("GET", "/api/nope", 404), ("GET", "/api/seat/act", 405),
                                 ("DELETE", "/api/public/view", 405)):
        reply = client.open(path, method=method)
        assert reply.status_code == status and reply.is_json, (method, path)
        assert set(reply.json) == {"code", "message"}


def test_an_oversize_body_is_413_chunked_or_not(tmp_path):
    server = start_server(tmp_path)
    with server.in_background():
        for chunked in (False, True):
            sock = socket.create_connection(("127.0.0.1", server.http.port), timeout=20)
            body = b"x" * 200_000
            if chunked:
                head = (b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                data = head + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
            else:
                head = (b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                        % len(body))
                data = head + body
            try:
                sock.sendall(data)
            except OSError:
                pass  # the server may answer and close before taking it all
            answer = sock.recv(4096)
            sock.close()
            assert answer.startswith(b"HTTP/1.1 413"), (chunked, answer[:80])
        # A small body in chunks is read whole, as if it gave its length.
        sock = socket.create_connection(("127.0.0.1", server.http.port), timeout=20)
        body = b'{"pin": "000001"}'
        sock.sendall(b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type:"
                     b" application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n")
        answer = b""
        while b"bad_pin" not in answer and (chunk := sock.recv(4096)):
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 401") and b'"code":"bad_pin"' in answer


def test_a_port_in_use_is_one_line_not_a_traceback(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(MutinyError, match=f"cannot listen on 127.0.0.1:{port}"):
            HttpServer("127.0.0.1", port, object())
        mutiny = Path(sys.executable).with_name("mutiny")
        done = subprocess.run([str(mutiny), "serve", "--backend", "sim", "--seats", "4",
                               "--data-dir", str(tmp_path), "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
