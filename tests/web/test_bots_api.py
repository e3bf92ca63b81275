"""Seating and standing bots through the API (docs/api.md): the host, or seat 1's phone
from the lobby; never another seat, never a seat with a player or a phone."""
from __future__ import annotations

from tests.web.conftest import join


def test_the_host_seats_a_bot_in_an_empty_seat_and_stands_it_up(app, table, host):
    reply = host.post("/api/host/seats/3/bot", json={"level": "easy"})
    assert reply.status_code == 200 and reply.json == {"ok": True, "name": "Bot (easy)"}
    public = app.test_client().get("/api/public/view").json["table"]
    assert public["names"][2] == "Bot (easy)" and public["bots"][2]["level"] == "easy"
    seats = host.get("/api/host/view").json["seats"]
    assert seats[2]["bot"]["name"] == "Bot (easy)" and seats[1]["bot"] is None
    assert host.post("/api/host/seats/3/bot/stand", json={}).json == {"ok": True}
    assert not table.bots.sits(2)
    reply = host.post("/api/host/seats/3/bot/stand", json={})
    assert reply.status_code == 409 and reply.json["code"] == "no_bot"


def test_only_the_host_and_seat_one_seat_bots(app, table):
    assert app.test_client().post("/api/host/seats/3/bot",
                                  json={"level": "easy"}).status_code == 401
    first, second = join(app, table, 0), join(app, table, 1)
    version = second.get("/api/seat/view").json["version"]
    reply = second.post("/api/seat/act", json={
        "action": {"type": "lobby_bot", "seat": 2, "level": "easy"}, "version": version})
    assert reply.status_code == 409 and reply.json["code"] == "not_your_turn"
    assert not table.bots.sits(2)
    version = first.get("/api/seat/view").json["version"]
    reply = first.post("/api/seat/act", json={
        "action": {"type": "lobby_bot", "seat": 2, "level": "hard"}, "version": version})
    assert reply.status_code == 200 and table.bots.seats[2].level == "hard"
    version = first.get("/api/seat/view").json["version"]
    reply = first.post("/api/seat/act", json={
        "action": {"type": "lobby_bot_stands", "seat": 2}, "version": version})
    assert reply.status_code == 200 and not table.bots.sits(2)


def test_a_seat_with_a_player_or_a_bot_is_not_empty(app, table, host):
    phone = join(app, table, 1)  # seat 2 has a phone
    reply = host.post("/api/host/seats/2/bot", json={"level": "easy"})
    assert reply.status_code == 409 and reply.json["code"] == "seat_taken"
    first = join(app, table, 0)
    version = first.get("/api/seat/view").json["version"]
    reply = first.post("/api/seat/act", json={
        "action": {"type": "lobby_bot", "seat": 1, "level": "easy"}, "version": version})
    assert reply.status_code == 409 and reply.json["code"] == "seat_taken"
    assert host.post("/api/host/seats/4/bot", json={"level": "easy"}).status_code == 200
    reply = host.post("/api/host/seats/4/bot", json={"level": "hard"})
    assert reply.status_code == 409 and reply.json["code"] == "seat_taken"
    for body, code, status in (({"level": "wicked"}, "bad_value", 400),
                               ({}, "bad_value", 400)):
        reply = host.post("/api/host/seats/3/bot", json=body)
        assert (reply.status_code, reply.json["code"]) == (status, code)
    assert host.post("/api/host/seats/9/bot", json={"level": "easy"}).status_code == 404
    assert phone.get("/api/seat/view").status_code == 200  # its phone is untouched


def test_no_bot_sits_down_mid_match_and_a_start_keeps_the_bots_name(app, table, host):
    for seat in (0, 1, 2):
        join(app, table, seat)
    assert host.post("/api/host/seats/4/bot", json={"level": "normal"}).status_code == 200
    reply = host.post("/api/host/start", json={
        "game": "booty-dice", "players": 4, "names": ["Anne", "Bonny", "Mary", "Typed"]})
    assert reply.status_code == 200
    assert table.match.names == ["Anne", "Bonny", "Mary", "Bot (normal)"]
    assert table.access.names()[3] != "Typed"  # a bot's seat keeps no typed name
    reply = host.post("/api/host/seats/4/bot/stand", json={})
    assert reply.status_code == 200
    reply = host.post("/api/host/seats/4/bot", json={"level": "easy"})
    assert reply.status_code == 409 and reply.json["code"] == "not_now"


def test_a_phone_joining_a_bots_seat_by_its_code_takes_it_over(app, table, host):
    host.post("/api/host/seats/3/bot", json={"level": "easy"})
    join_call = app.test_client().get("/api/public/join").json
    phone = join(app, table, 2)  # the code the host shows (its QR) or the seat's screen
    assert not table.bots.sits(2)
    view = phone.get("/api/seat/view").json
    assert view["display"]["lines"][0] == "! Took over from bot"
    assert app.test_client().get("/api/public/view").json["table"]["bots"][2] is None
    assert join_call["code"] is not None  # other seats' codes were still public
