"""One phone per seat at a time (docs/security.md): a reload is the same phone, a second
phone is asked first, taking over ends the first phone's acting, and the host sees and
lets go each seat's phone."""
from __future__ import annotations

import http.client

from companion.serve import ServeOptions, Server
from companion.web.auth import device_summary
from tests.web.conftest import join
from tests.web.test_live import Stream, cookie_for

HOLD = {"type": "hold", "die": 1}
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like"
           " Gecko) Chrome/124.0.0.0 Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
          " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")


#: What a browser's post of the join page's own form says of where it comes from (the
#: page asks for ``Referrer-Policy: same-origin``, so the browser names the site).
FROM_HERE = {"Origin": "http://localhost"}


def link(table, seat: int) -> str:
    return "/" + table.join_url(seat).split("/", 3)[3]


def hold_first_die(phone):
    """Seat 1's first booty-dice decision, sent with its phone's current version."""
    payload = phone.get("/api/seat/view").json
    return phone.post("/api/seat/act", json={"action": HOLD, "version": payload["version"]})


def test_a_reload_of_the_same_phone_is_not_a_second_phone(app, table):
    table.start("booty-dice", 2)
    phone = join(app, table, 0)
    again = phone.get(link(table, 0))
    assert again.status_code == 303 and again.headers["Location"].endswith("/seat/")
    assert len(table.access.phones(0)) == 1
    assert hold_first_die(phone).status_code == 200


def test_a_second_phone_is_asked_and_until_it_answers_nothing_changes(app, table):
    table.start("booty-dice", 2)
    first = app.test_client()
    assert first.get(link(table, 0), headers={"User-Agent": ANDROID}).status_code == 303
    second = app.test_client()
    question = second.get(link(table, 0), headers={"User-Agent": IPHONE})
    page = question.get_data(as_text=True)
    assert question.status_code == 200 and question.headers["Cache-Control"] == "no-store"
    assert "Take over seat 1" in page and "Chrome on Android" in page
    assert second.get_cookie("mutiny_seat") is None
    # Declining is following the other link: the first phone keeps the seat.
    assert 'href="/table"' in page
    assert second.get("/api/seat/view").json["code"] == "no_seat"
    assert [p["device"] for p in table.access.phones(0)] == ["Chrome on Android"]
    assert hold_first_die(first).status_code == 200


def test_taking_over_ends_the_first_phones_acting_and_says_when(app, table):
    table.start("booty-dice", 2)
    first = join(app, table, 0)
    second = app.test_client()
    second.get(link(table, 0))
    assert second.post(link(table, 0), headers=FROM_HERE).status_code == 303
    refused = first.get("/api/seat/view")
    assert refused.status_code == 403 and refused.json["code"] == "taken_over"
    assert refused.json["seat"] == 1 and refused.json["seconds_ago"] >= 0
    assert refused.json["message"].startswith("Another phone took over seat 1 at ")
    assert refused.json["message"].endswith(". This phone can no longer act for it.")
    before = table.match.snapshot()
    acted = first.post("/api/seat/act", json={"action": HOLD})
    assert (acted.status_code, acted.json["code"]) == (403, "taken_over")
    assert table.match.snapshot() == before
    assert first.get("/api/seat/stream").json["code"] == "taken_over"
    # Its page still opens, to say so (seat.js words it), rather than the join page.
    assert first.get("/seat/").status_code == 200
    # The seat is told, on its screen and its (new) phone.
    assert any("Phone taken over" in line for line in table.display(0).lines)
    assert any("Phone taken over" in line
               for line in second.get("/api/seat/view").json["display"]["lines"])
    assert hold_first_die(second).status_code == 200


def test_the_first_phone_can_take_its_seat_back_the_same_way(app, table):
    table.start("booty-dice", 2)
    first = join(app, table, 0)
    second = app.test_client()
    second.post(link(table, 0), headers=FROM_HERE)
    assert b"Take over seat 1" in first.get(link(table, 0)).data
    assert first.post(link(table, 0), headers=FROM_HERE).status_code == 303
    assert second.get("/api/seat/view").json["code"] == "taken_over"
    assert hold_first_die(first).status_code == 200


def test_another_site_cannot_take_a_seat_over(app, table):
    table.start("booty-dice", 2)
    first = join(app, table, 0)
    second = app.test_client()
    answer = second.post(link(table, 0), headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert first.get("/api/seat/view").status_code == 200


def test_a_phone_of_another_seat_is_told_of_the_phone_it_would_take_over(app, table):
    table.start("booty-dice", 2)
    join(app, table, 1)
    roamer = join(app, table, 0)
    page = roamer.get(link(table, 1)).get_data(as_text=True)
    assert "Switch to seat 2" in page and "already has a phone" in page
    assert roamer.get("/api/seat/view").json["viewer"] == 0  # nothing moved yet


def test_the_host_lists_every_seats_phone_and_revokes_one(app, table, host):
    table.start("booty-dice", 2)
    phone = app.test_client()
    phone.get(link(table, 1), headers={"User-Agent": IPHONE})
    seats = host.get("/api/host/phones").json["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3, 4]
    assert seats[0]["phones"] == []
    (listed,) = seats[1]["phones"]
    assert listed["device"] == "Safari on iPhone" and len(listed["id"]) == 8
    assert host.get("/api/host/seats/2/phones").json["phones"] == [listed]
    assert host.post(f"/api/host/seats/2/phones/{listed['id']}/revoke", json={}).status_code == 200
    assert phone.get("/api/seat/view").json["code"] == "no_seat"  # let go, not taken over
    assert host.get("/api/host/phones").json["seats"][1]["phones"] == []
    assert app.test_client().get("/api/host/phones").json["code"] == "no_host"


def test_a_device_is_summed_up_in_words():
    assert device_summary(ANDROID) == "Chrome on Android"
    assert device_summary(IPHONE) == "Safari on iPhone"
    assert device_summary("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101"
                          " Firefox/125.0") == "Firefox on Linux"
    assert device_summary("curl/8.5") == "curl/8.5"
    assert device_summary("") == "unknown browser"


def test_the_first_phones_live_stream_ends_when_its_seat_is_taken_over(tmp_path):
    server = Server(ServeOptions(backend="sim", seats=4, game="moon-yeti",
                                 data_dir=str(tmp_path), host="127.0.0.1", port=0))
    server.start_table()
    with server.in_background():
        stream = Stream(server, "/api/seat/stream", cookie_for(server, 2))
        try:
            stream.next()
            conn = http.client.HTTPConnection("127.0.0.1", server.http.port, timeout=10)
            conn.request("POST", "/J/" + server.table.access.token(2),
                         headers={"Origin": f"http://127.0.0.1:{server.http.port}"})
            assert conn.getresponse().status == 303
            conn.close()
            stream.join(10)  # the stream is closed, not fed the new phone's payloads
            assert not stream.is_alive()
        finally:
            stream.close()
