"""The pages as the server writes them: a seat's page holds its first payload; nothing
the tests alone use (axe-core) is served."""
from __future__ import annotations

import json
import re

from tests.conftest import take_seat
from tests.web.conftest import join

FIRST = re.compile(r'<script type="application/json" id="first-payload">(.*?)</script>', re.S)


def test_the_seat_page_holds_its_viewers_payload_as_json(app, table):
    table.start("moon-yeti", 4, seed="first", names=["<b>Ann</b>", "Bo'b", "C&D", "Dee"])
    phone = join(app, table, 1)
    reply = phone.get("/seat/")
    assert reply.status_code == 200
    assert reply.headers["Cache-Control"] == "no-store"  # it holds the seat's secrets
    page = reply.get_data(as_text=True)
    found = FIRST.findall(page)
    assert len(found) == 1
    text = found[0]
    # Nothing in it that HTML would read: no tag, no entity, no quote to end an attribute.
    assert not re.search(r"[<>&']", text)
    assert json.loads(text) == json.loads(phone.get("/api/seat/view").data)
    assert json.loads(text)["seat"]["index"] == 1
    # The seat's screen is written in the page too, shown before any script has run.
    display = json.loads(text)["display"]
    assert f'tabindex="-1">{display["title"]}</h1>' in page
    assert all(f"<li>{line}</li>" in page for line in display["lines"] if "'" not in line)
    # Data, never a script the page runs (its CSP allows no inline script).
    assert "<script>" not in page and page.count("<script") == page.count("<script src=") + 1


def test_a_page_without_a_seat_holds_no_payload(app, table):
    phone = join(app, table, 0)
    assert phone.get("/seat/").status_code == 200
    other = take_seat(app, table, 0)  # a seat has one phone at a time
    assert other.get("/seat/").status_code == 200
    gone = phone.get("/seat/")
    assert gone.status_code == 200 and not FIRST.search(gone.get_data(as_text=True))
    assert not FIRST.search(app.test_client().get("/table").get_data(as_text=True))


def test_axe_core_is_not_served(client):
    for path in ("/static/vendor/axe-core/axe.min.js", "/static/vendor/axe-core/README.md"):
        assert client.get(path).status_code == 404, path
