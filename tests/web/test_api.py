"""The JSON API: joining, reading, acting, the host, rejections."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import PIN, join


def first_payload(response):
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: payload" in text and text.endswith("\n\n"):
            break
    response.close()
    block = [b for b in text.split("\n\n") if "event: payload" in b][0]
    fields = dict(line.split(": ", 1) for line in block.splitlines())
    return int(fields["id"]), json.loads(fields["data"])


def start(host, game="moon-yeti", players=4, **options):
    reply = host.post("/api/host/start", json={"game": game, "players": players,
                                               "options": options})
    assert reply.status_code == 200, reply.json
    return reply.json["match"]


# -- joining ---------------------------------------------------------------------------
def test_the_join_link_sets_an_httponly_cookie_and_drops_the_token(app, table):
    client = app.test_client()
    url = table.join_url(2)
    assert url.startswith("HTTP://LOCALHOST/J/") and len(url.rsplit("/", 1)[1]) == 32
    reply = client.get("/J/" + url.rsplit("/", 1)[1].lower())  # any case will do
    assert reply.status_code == 303 and reply.headers["Location"] == "/seat/"
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/api/seat/view").json["seat"]["number"] == 3
    assert table.is_claimed(2)


def test_a_wrong_token_gives_no_seat_and_a_replaced_phone_is_told_it_was_taken_over(
        app, table, host):
    assert app.test_client().get("/J/" + "0" * 32).status_code == 404
    phone = join(app, table, 1)
    reply = host.post("/api/host/seats/2/replace", json={})
    assert reply.status_code == 200 and reply.json == {"ok": True}  # no live link in JSON
    reply = phone.get("/api/seat/view")
    assert reply.status_code == 403 and reply.json["code"] == "taken_over"


def test_a_forged_cookie_gives_no_seat(app):
    client = app.test_client()
    client.set_cookie("mutiny_seat", "eyJzIjowLCJnIjowfQ.forged")
    assert client.get("/api/seat/view").json["code"] == "no_seat"
    assert client.post("/api/seat/act", json={"action": {"type": "ready"}}).status_code == 401


def test_without_a_seat_the_phone_page_sends_you_to_join(app):
    reply = app.test_client().get("/seat/")
    assert reply.status_code == 302 and reply.headers["Location"].endswith("/join")


# -- views -----------------------------------------------------------------------------
def test_each_viewer_reads_only_its_own_payload(app, table, host, phones):
    from companion.games.moon_yeti import ROLES
    start(host)
    table.submit(0, {"type": "declare"})
    state = table.match.snapshot()["state"]
    cards = [state["cards"][ROLES.index(state["roles"][s])] for s in range(4)]
    for seat, phone in enumerate(phones):
        payload = phone.get("/api/seat/view").json
        assert payload["viewer"] == seat and payload["match"]["you"]["seat"] == seat
        text = json.dumps(payload)
        assert json.dumps(cards[seat]) in text  # its own card is there...
        for other in set(range(4)) - {seat}:
            assert json.dumps(cards[other]) not in text  # ...and no other seat's
    public = json.dumps(app.test_client().get("/api/public/view").json)
    assert not any(json.dumps(card) in public for card in cards)
    assert '"you"' not in public


def test_the_public_payload_has_a_summary_and_the_lobby(app):
    public = app.test_client().get("/api/public/view").json
    assert public["match"] is None and public["lobby"]["games"]
    assert public["summary"]["headline"] and public["table"]["seats"] == 4


def test_games_lists_every_game_with_its_options(app):
    games = app.test_client().get("/api/games").json
    ids = [g["id"] for g in games]
    assert "booty-dice" in ids and "moon-yeti" in ids
    assert all("options" in g for g in games)


# -- acting ----------------------------------------------------------------------------
def test_a_seat_acts_with_its_version_and_a_double_tap_acts_once(app, table, host, phones):
    start(host, "booty-dice", 2)
    payload = phones[0].get("/api/seat/view").json
    hold = {"type": "hold", "die": 1}
    assert hold in payload["match"]["you"]["legal"]
    body = {"action": hold, "version": payload["version"]}
    first = phones[0].post("/api/seat/act", json=body)
    assert first.status_code == 200 and first.json["version"] > payload["version"]
    again = phones[0].post("/api/seat/act", json=body)
    assert again.status_code == 409 and again.json["code"] == "stale"
    assert table.match.snapshot()["state"]["held"][0] is True


@pytest.mark.parametrize("body,status,code", [
    ({"action": {"type": "fly"}}, 400, "unknown_action"),
    ({"action": "roll"}, 400, "bad_action"),
    ({"action": {"type": "hold"}}, 400, "missing_field"),
    ({"action": {"type": "hold", "die": 9}}, 400, "bad_value"),
    ({"action": {"type": "hold", "die": 1}, "version": "1"}, 400, "bad_request"),
    ({"action": {"type": "hold", "die": 1}, "version": -5}, 409, "stale"),
])
def test_bad_actions_are_refused_with_code_and_status(app, table, host, phones,
                                                      body, status, code):
    start(host, "booty-dice", 2)
    before = table.match.snapshot()
    reply = phones[0].post("/api/seat/act", json=body)
    assert (reply.status_code, reply.json["code"]) == (status, code)
    assert reply.json["message"] and "Traceback" not in reply.get_data(as_text=True)
    assert table.match.snapshot() == before


def test_the_wrong_seat_cannot_act(app, table, host, phones):
    start(host, "booty-dice", 2)
    reply = phones[1].post("/api/seat/act", json={"action": {"type": "hold", "die": 1}})
    assert (reply.status_code, reply.json["code"]) == (409, "not_your_turn")


def test_acting_without_a_match_is_refused(phones):
    reply = phones[0].post("/api/seat/act", json={"action": {"type": "roll"}})
    assert (reply.status_code, reply.json["code"]) == (404, "no_match")


@pytest.mark.parametrize("kwargs,status,code", [
    ({"data": "not json", "content_type": "text/plain"}, 415, "json_only"),
    ({"data": "{not json", "content_type": "application/json"}, 400, "bad_json"),
    ({"data": "[1, 2]", "content_type": "application/json"}, 400, "bad_json"),
    ({"json": {"action": {"type": "roll"}}, "headers": {"Origin": "http://evil.example"}},
     403, "cross_site"),
    ({"data": json.dumps({"x": "y" * 100_000}), "content_type": "application/json"},
     413, "too_large"),
])
def test_malformed_and_cross_site_writes_are_refused(phones, kwargs, status, code):
    reply = phones[0].post("/api/seat/act", **kwargs)
    assert (reply.status_code, reply.json["code"]) == (status, code)


def test_a_same_site_origin_is_accepted(app, table, host, phones):
    start(host, "booty-dice", 2)
    reply = phones[0].post("/api/seat/act", json={"action": {"type": "hold", "die": 2}},
                           headers={"Origin": "http://localhost"})
    assert reply.status_code == 200


# -- the host --------------------------------------------------------------------------
def test_the_host_needs_the_pin(app):
    client = app.test_client()
    assert client.get("/api/host/view").json["code"] == "no_host"
    assert client.post("/api/host/login", json={"pin": "000000"}).json["code"] == "bad_pin"
    assert client.post("/api/host/start", json={"game": "moon-yeti"}).status_code == 401


HOST_ROUTES = [("GET", "/api/host/view"), ("GET", "/api/host/stream"),
               ("POST", "/api/host/start"), ("POST", "/api/host/act"),
               ("POST", "/api/host/lobby"), ("POST", "/api/host/seats/1/name"),
               ("POST", "/api/host/seats/1/replace"), ("POST", "/api/host/seats/1/kick"),
               ("GET", "/api/host/seats/1/qr.svg")]


@pytest.mark.parametrize("method, path", HOST_ROUTES)
def test_every_host_route_refuses_a_browser_without_the_host_login(app, method, path):
    client = app.test_client()
    reply = client.get(path) if method == "GET" else client.post(path, json={})
    assert reply.status_code == 401
    assert reply.json == {"code": "no_host", "message": "log in with the host PIN first"}


def test_an_unknown_game_is_refused_by_name(app, table, host):
    reply = host.post("/api/host/start", json={"game": "no-such-game", "players": 2})
    assert reply.status_code == 400 and reply.json["code"] == "unknown_game"
    assert reply.json["message"].startswith("no game 'no-such-game'")
    assert table.match is None


def test_wrong_pins_lock_the_login(app):
    client = app.test_client()
    codes = [client.post("/api/host/login", json={"pin": "1"}).json["code"]
             for _ in range(6)]
    assert codes[:5] == ["bad_pin"] * 5 and codes[5] == "locked"
    locked = client.post("/api/host/login", json={"pin": PIN})  # even the right one
    assert locked.status_code == 429 and locked.json["retry_after"] >= 1


def test_the_host_starts_pauses_undoes_and_ends(app, table, host, phones):
    start(host, "booty-dice", 2, dice="companion")
    view = host.get("/api/host/view").json
    assert view["viewer"] == "host" and {"type": "pause"} in view["host"]["legal"]
    phones[0].post("/api/seat/act", json={"action": {"type": "hold", "die": 1}})
    view = host.get("/api/host/view").json
    assert view["host"]["can_undo"]
    undo = host.post("/api/host/act", json={"action": {"type": "undo"},
                                            "version": view["version"]})
    assert undo.status_code == 200
    assert table.match.snapshot()["state"]["held"][0] is False
    assert host.post("/api/host/act", json={"action": {"type": "pause"}}).status_code == 200
    paused = phones[0].post("/api/seat/act", json={"action": {"type": "hold", "die": 1}})
    assert paused.json["code"] == "paused"
    host.post("/api/host/act", json={"action": {"type": "end"}})
    assert table.match.is_over
    assert host.post("/api/host/lobby", json={}).status_code == 200
    assert table.match is None


def test_the_host_renames_and_names_reach_the_match(app, table, host):
    host.post("/api/host/seats/1/name", json={"name": "  <b>Anne</b>  "})
    start(host, "booty-dice", 2, )
    assert table.match.names[0] == "<b>Anne</b>"  # kept as text; pages escape it
    assert host.post("/api/host/seats/9/name", json={"name": "x"}).json["code"] == "no_such_seat"


def test_a_second_match_cannot_start_over_a_running_one(host):
    start(host, "booty-dice", 2)
    reply = host.post("/api/host/start", json={"game": "moon-yeti", "players": 4})
    assert (reply.status_code, reply.json["code"]) == (409, "not_now")


def test_kick_frees_the_seat_and_shows_a_new_code(app, table, host, hardware, phones):
    assert table.is_claimed(3)
    reply = host.post("/api/host/seats/4/kick", json={})
    assert reply.status_code == 200 and reply.json == {"ok": True}
    assert not table.is_claimed(3) and hardware[3].mode == "qr"


def test_the_qr_code_is_for_the_host_only(app, host):
    assert app.test_client().get("/api/host/seats/1/qr.svg").status_code == 401
    svg = host.get("/api/host/seats/1/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"


# -- streams -----------------------------------------------------------------------------
def test_streams_start_with_the_viewers_whole_payload(app, table, host, phones):
    start(host)
    event_id, payload = first_payload(phones[1].get("/api/seat/stream"))
    assert event_id >= 1 and payload == phones[1].get("/api/seat/view").json
    _, public = first_payload(app.test_client().get("/api/public/stream"))
    assert public == app.test_client().get("/api/public/view").json
    _, hosted = first_payload(host.get("/api/host/stream"))
    assert hosted["viewer"] == "host"
    assert app.test_client().get("/api/host/stream").status_code == 401


def test_a_secret_move_does_not_change_other_seats_payloads(app, table, host, phones):
    start(host, players=4)
    table.submit(0, {"type": "declare"})
    roles = table.match.view("public")["state"]["roles"]
    chaplain = roles.index("Chaplain")
    before = {s: table.payload(s)[0] for s in range(4)}
    target = next(a for a in table.match.legal_actions(chaplain) if a["type"] == "confess")
    table.submit(chaplain, target)
    after = {s: table.payload(s)[0] for s in range(4)}
    changed = {s for s in range(4) if before[s] != after[s]}
    # Only the Chaplain and the confessed (who is told, ruling Y2) hear of it.
    assert changed == {chaplain, target["target"]}


# -- pages and the captive portal -------------------------------------------------------
@pytest.mark.parametrize("path", ["/generate_204", "/hotspot-detect.html", "/ncsi.txt",
                                  "/connecttest.txt", "/library/test/success.html"])
def test_connectivity_checks_lead_to_the_join_page(app, path):
    reply = app.test_client().get(path)
    assert reply.status_code == 302 and reply.headers["Location"].endswith("/join")


def test_unknown_host_names_land_on_join_when_the_pi_answers_every_name(app):
    app.config["MUTINY_HOSTS"] = ["pirates.lan"]
    reply = app.test_client().get("/some/page", headers={"Host": "example.com"})
    assert reply.status_code == 302 and reply.headers["Location"].endswith("/join")
    for own in ("mutiny.local", "10.42.0.1", "pirates.lan"):
        assert app.test_client().get("/nope", headers={"Host": own}).status_code == 404
