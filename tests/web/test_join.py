"""Joining by the typed table code (``POST /join``) and the name a phone gives its seat
(``POST /api/seat/name``): the code leads only to a seat whose QR code the table display
shows, wrong codes lock the client that sent them, and the code is new each match and
each night (docs/security.md, "Seats and phones")."""
from __future__ import annotations

import html
import re

import pytest

from companion.access import FREE_TRIES, SeatAccess
from tests.web.conftest import join
from tests.web.test_takeover import FROM_HERE


def type_code(client, code: str, seat: int | None = None, name: str = "",
              address: str = "127.0.0.1", headers: dict | None = None):
    """A phone's post of the join page's form (``seat`` 1-based, once picked)."""
    form = {"code": code, **({"seat": str(seat)} if seat else {}),
            **({"name": name} if name else {})}
    return client.post("/join", data=form, headers=headers or FROM_HERE,
                       environ_base={"REMOTE_ADDR": address})


def words(page) -> str:
    """A page's text, its lines joined as a browser shows them."""
    return " ".join(html.unescape(page.get_data(as_text=True)).split())


def offered(page) -> list[int]:
    """The seats a seat-picking page offers (1-based)."""
    return [int(n) for n in re.findall(r'name="seat" value="(\d+)"', page.get_data(as_text=True))]


def test_the_right_code_offers_every_free_seat_and_picking_one_joins_it(app, table):
    phone = app.test_client()
    page = type_code(phone, table.access.table_code.lower())  # case and
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert offered(page) == [1, 2, 3, 4]
    # The seat-picking page's own form: its post must name this site.
    assert page.headers["Referrer-Policy"] == "same-origin"
    joined = type_code(phone, " " + table.access.table_code[:2] + "-" +
                       table.access.table_code[2:], seat=3, name="  Anne\n Bonny ")
    assert joined.status_code == 303 and joined.headers["Location"] == "/seat/"
    assert phone.get("/api/seat/view").json["seat"]["number"] == 3
    assert table.access.names()[2] == "Anne Bonny"
    assert table.is_claimed(2) and not table.code_is_public(2)
    assert "Phone joined" in table.display(2).lines[0]


def set_cookies(reply) -> str:
    return " | ".join(reply.headers.getlist("Set-Cookie"))


def test_a_seat_joined_without_a_name_is_offered_one_on_its_page(app, table):
    phone = app.test_client()
    joined = type_code(phone, table.access.table_code, seat=1)
    assert "mutiny_ask_name=1" in set_cookies(joined)
    scanned = app.test_client().get("/" + table.join_url(1).split("/", 3)[3])
    assert "mutiny_ask_name=1" in set_cookies(scanned)
    named = type_code(app.test_client(), table.access.table_code, seat=3, name="Anne")
    assert "mutiny_seat" in set_cookies(named) and "mutiny_ask_name" not in set_cookies(named)


def test_a_seat_someone_had_tonight_is_never_offered_even_once_kicked(app, table, host):
    join(app, table, 0)
    table.access.revoke(0, table.access.phones(0)[0]["id"])  # let go: nobody holds it
    host.post("/api/host/seats/2/kick", json={})  # never held: its code stays public
    join(app, table, 3)
    host.post("/api/host/seats/4/kick", json={})
    phone = app.test_client()
    assert offered(type_code(phone, table.access.table_code)) == [2, 3]
    # Naming a seat that is not offered joins nothing: the list again.
    again = type_code(phone, table.access.table_code, seat=1)
    assert again.status_code == 200 and offered(again) == [2, 3]
    assert "Another phone took seat 1 first" in words(again)
    assert phone.get("/api/seat/view").json["code"] == "no_seat"
    assert len(table.access.phones(0)) == 0


def test_with_every_seat_had_the_code_leads_nowhere(app, table):
    for seat in range(table.seat_count):
        join(app, table, seat)
    page = type_code(app.test_client(), table.access.table_code, seat=2)
    assert offered(page) == [] and "No free seat to join" in words(page)
    assert len(table.access.phones(1)) == 1


def test_seats_sitting_out_of_the_match_are_not_offered(app, table):
    table.start("booty-dice", 2)
    assert offered(type_code(app.test_client(), table.access.table_code)) == [1, 2]


def test_wrong_codes_lock_out_the_client_that_sent_them_only(app, table):
    right = table.access.table_code
    wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
    stranger = app.test_client()
    for _ in range(FREE_TRIES):
        page = type_code(stranger, wrong, address="10.0.0.9")
        assert page.status_code == 403 and "not this table's code" in words(page)
    locked = type_code(stranger, right, address="10.0.0.9", seat=1)
    assert locked.status_code == 429 and "try again in 30 seconds" in words(locked)
    assert not table.is_claimed(0)
    # Another phone (another address) is not locked out by the stranger.
    assert type_code(app.test_client(), right, address="10.0.0.10", seat=1).status_code == 303
    assert table.access.code_tries.locked_for("10.0.0.9") > 0


def test_a_code_form_from_another_site_is_refused(app, table):
    phone = app.test_client()
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {}):
        page = type_code(phone, table.access.table_code, seat=1, headers=headers or
                         {"X-None": "1"})
        assert page.status_code == 403
    assert not table.is_claimed(0)


def test_the_code_is_new_each_match_and_each_night_and_kept_by_a_restart(tmp_path):
    access = SeatAccess(tmp_path / "access.sqlite3", 4)
    first = access.table_code
    assert re.fullmatch(r"[A-Z]{4}", first)
    access.new_match()
    second = access.table_code
    access.close()
    again = SeatAccess(tmp_path / "access.sqlite3", 4)  # a restart resuming the night
    assert again.table_code == second
    assert not again.check_table_code(first, "10.0.0.1") and again.check_table_code(second)
    again.new_night()
    assert again.table_code != second
    codes = {again.table_code}
    for _ in range(20):
        again.new_match()
        codes.add(again.table_code)
    assert len(codes) > 15  # (26^4 codes: twenty draws all but never repeat)
    again.close()


def test_the_table_display_learns_the_address_and_code_while_a_seat_is_public(app, table):
    client = app.test_client()
    answer = client.get("/api/public/join")
    assert answer.headers["Cache-Control"] == "no-store"
    body = answer.json
    assert body["address"] == "localhost/join" and body["code"] == table.access.table_code
    assert body["modules"] == 29 and body["border"] == 2  # (a version 3 code)
    assert "localhost/join" in body["call"] and table.access.table_code in body["call"]
    for seat in range(table.seat_count):
        join(app, table, seat)
    body = client.get("/api/public/join").json
    assert body["code"] is None and body["modules"] is None
    assert body["call"] == "Every seat has a player."


def test_the_join_page_speaks_of_what_the_table_has(app, table):
    page = app.test_client().get("/join")
    text = words(page)
    assert '<meta name="referrer" content="same-origin">' in text  # its form names the site
    assert "seat's screen" in text and 'name="code"' in text and "localhost/join" in text
    app.config.update(MUTINY_SCREENS=False, MUTINY_LAPTOP=True)
    text = words(app.test_client().get("/join"))
    assert "screen" not in text.replace("private screen", "")
    assert "buttons" not in text and "laptop running this table" in text


# -- the name a phone gives its seat ------------------------------------------------------
def test_a_phone_names_its_own_seat_and_everyone_sees_it(app, table, host):
    phone = join(app, table, 1)
    answer = phone.post("/api/seat/name", json={"name": " Calico\tJack  "})
    assert answer.status_code == 200 and answer.json == {"ok": True, "name": "Calico Jack"}
    assert phone.get("/api/seat/view").json["seat"]["name"] == "Calico Jack"
    assert app.test_client().get("/api/public/view").json["table"]["names"][1] == "Calico Jack"
    assert host.get("/api/host/view").json["seats"][1]["name"] == "Calico Jack"
    # The host may still change it.
    assert host.post("/api/host/seats/2/name", json={"name": "Jack"}).status_code == 200
    assert phone.get("/api/seat/view").json["seat"]["name"] == "Jack"
    # A match started from the lobby takes the seat's name.
    table.start("booty-dice", 2)
    assert table.match.names[1] == "Jack"


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "   "}, {"name": 7}])
def test_a_name_must_be_words(app, table, body):
    phone = join(app, table, 0)
    answer = phone.post("/api/seat/name", json=body)
    assert answer.status_code == 400 and answer.json["code"] == "bad_request"
    assert table.access.names()[0] == "Seat 1"


def test_only_a_seated_phone_of_this_site_names_a_seat(app, table):
    stranger = app.test_client()
    assert stranger.post("/api/seat/name", json={"name": "X"}).json["code"] == "no_seat"
    phone = join(app, table, 0)
    crossed = phone.post("/api/seat/name", json={"name": "X"},
                         headers={"Origin": "http://evil.example"})
    assert crossed.status_code == 403 and crossed.json["code"] == "cross_site"
    form = phone.post("/api/seat/name", data={"name": "X"})
    assert form.status_code == 415
    assert table.access.names() == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
