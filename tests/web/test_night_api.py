"""The game night through the API: play again with every phone still joined, the night's
exports for the host, and an unclaimed seat's join code on the table display."""
from __future__ import annotations

import csv
import io

from tests.table.test_night import play_out
from tests.web.conftest import join, login


def end_match(host) -> None:
    assert host.post("/api/host/act", json={"action": {"type": "end"}}).status_code == 200


def test_a_host_rematch_keeps_every_phone_joined_and_the_options(app, table, host, phones):
    reply = host.post("/api/host/start", json={
        "game": "booty-dice", "players": 4, "options": {"first_seat": 3},
        "names": ["Ann", "Bo", "Cy", "Di"]})
    first = reply.json["match"]
    assert host.post("/api/host/rematch", json={}).json["code"] == "not_now"
    end_match(host)
    second = host.post("/api/host/rematch", json={}).json["match"]
    assert second != first
    for seat, phone in enumerate(phones):
        view = phone.get("/api/seat/view")
        assert view.status_code == 200
        assert view.json["match"]["match"] == second
        assert view.json["seat"]["name"] == ["Ann", "Bo", "Cy", "Di"][seat]
    assert table.match.options["first_seat"] == 3
    roller = table.match.acting()[0]
    action = table.match.legal_actions(roller)[0]
    acted = phones[roller].post("/api/seat/act", json={"action": action})
    assert acted.status_code == 200


def test_seat_ones_phone_plays_again_and_picks_another_game(app, table, host, phones):
    seat_one = phones[0]
    host.post("/api/host/start", json={"game": "booty-dice", "players": 4})
    end_match(host)
    choices = [c["action"] for c in seat_one.get("/api/seat/view").json["display"]["choices"]]
    assert {"type": "lobby_rematch"} in choices and {"type": "lobby_back"} in choices
    refused = phones[1].post("/api/seat/act", json={"action": {"type": "lobby_rematch"}})
    assert refused.status_code == 409
    assert seat_one.post("/api/seat/act",
                         json={"action": {"type": "lobby_rematch"}}).status_code == 200
    assert table.match is not None and not table.match.is_over
    end_match(host)
    assert seat_one.post("/api/seat/act",
                         json={"action": {"type": "lobby_back"}}).status_code == 200
    start = {"type": "lobby_start", "game": "moon-yeti", "players": 4}
    assert seat_one.post("/api/seat/act", json={"action": start}).status_code == 200
    for phone in phones:
        assert phone.get("/api/seat/view").json["match"]["game"] == "moon-yeti"


def test_the_night_exports_are_the_hosts_and_hold_every_match(app, table, host):
    for path in ("/api/host/night.csv", "/api/host/night.json"):
        assert app.test_client().get(path).status_code == 401
    assert app.test_client().post("/api/host/night/new", json={}).status_code == 401
    table.start("booty-dice", 2, names=["Ann", "Bo"], seed="export")
    result = play_out(table, "export")
    night = host.get("/api/host/night.json")
    assert night.mimetype == "application/json"
    assert "attachment" in night.headers["Content-Disposition"]
    match = night.json["matches"][0]
    assert match["winners"] == [["Ann", "Bo"][w] for w in result["winners"]]
    assert match["scores"] == result["scores"]
    rows = list(csv.DictReader(io.StringIO(host.get("/api/host/night.csv").text)))
    assert [(r["player"], r["won"], r["score"]) for r in rows] == [
        (name, "yes" if seat in result["winners"] else "no", str(result["scores"][seat]))
        for seat, name in enumerate(["Ann", "Bo"])]
    public = app.test_client().get("/api/public/view").json["night"]
    assert public["count"] == 1 and public["matches"][0]["title"] == "Booty Dice"
    assert host.post("/api/host/night/new", json={}).status_code == 200
    assert host.get("/api/host/night.json").json["matches"] == []


def test_the_table_display_shows_only_an_unclaimed_seats_code(app, table, hardware):
    display = app.test_client()
    reply = display.get("/api/public/seats/2/qr.svg")
    assert reply.status_code == 200 and reply.mimetype == "image/svg+xml"
    join(app, table, 1)  # a phone took seat 2
    assert display.get("/api/public/seats/2/qr.svg").status_code == 404
    hardware.click(2, "select")  # a player pressed seat 3's buttons
    assert display.get("/api/public/seats/3/qr.svg").status_code == 404
    assert display.get("/api/public/seats/9/qr.svg").status_code == 404
    host = login(app)
    host.post("/api/host/start", json={"game": "booty-dice", "players": 2})
    # Seat 4 sits this match out: no code to show.
    assert display.get("/api/public/seats/4/qr.svg").status_code == 404
    assert display.get("/api/public/seats/1/qr.svg").status_code == 200
