"""The quick seat action (companion/web/quick.py) answers exactly as the Flask route.

Every request is sent both ways: through the app as served (the quick path in front)
and through the Flask app behind it. The answers must be the same, byte for byte; and
the quick path must really be the one that answered a request in order (Flask's own
``request_started`` signal counts the requests Flask saw).
"""
from __future__ import annotations

import pytest
from flask import request_started

from companion.access import HostPin
from companion.engine import Journal
from companion.seats import open_seats, sim_table_config
from companion.table import Table
from companion.web import create_app
from companion.web.live import Hub
from companion.web.quick import QuickSeatAction
from tests.web.conftest import PIN, join

ACT = "/api/seat/act"


class FlaskCount:
    """How many requests reached the Flask app (its ``request_started`` signal)."""

    def __init__(self, app):
        self.seen = 0
        request_started.connect(self._started, app)

    def _started(self, _sender, **_extra):
        self.seen += 1


def answer(reply):
    """What a client sees of an answer: status, headers (in order) and body."""
    return reply.status, list(reply.headers.items()), reply.get_data()


def both_ways(app, client, **kwargs):
    """The answer to the same POST through the quick path and through Flask alone."""
    quick = client.post(ACT, **kwargs)
    served = app.wsgi_app
    assert isinstance(served, QuickSeatAction)
    app.wsgi_app = served.inner
    try:
        plain = client.post(ACT, **kwargs)
    finally:
        app.wsgi_app = served
    return quick, plain


@pytest.fixture
def booty(table):
    table.start("booty-dice", 2, seed="quick")
    return table


def legal(client):
    payload = client.get("/api/seat/view").json
    return payload["match"]["you"]["legal"], payload["version"]


@pytest.mark.parametrize("body", [
    {"action": {"type": "fly"}},                  # no such action
    {"action": "roll"},                           # not an action at all
    {"action": {"type": "hold"}},                 # a field missing
    {"action": {"type": "hold", "die": 1}, "version": 0},  # an old version: stale
])
def test_a_refused_action_is_answered_as_flask_answers_it(app, booty, body):
    phone = join(app, booty, 0)
    before = booty.match.snapshot()
    flask = FlaskCount(app)
    quick, plain = both_ways(app, phone, json=body)
    assert flask.seen == 1  # the quick path answered the first itself
    assert quick.status_code in (400, 409)
    assert answer(quick) == answer(plain)
    assert booty.match.snapshot() == before


def test_the_wrong_seat_is_refused_the_same_way(app, booty):
    phone = join(app, booty, 1)
    quick, plain = both_ways(app, phone, json={"action": {"type": "hold", "die": 1}})
    assert quick.json["code"] == "not_your_turn"
    assert answer(quick) == answer(plain)


def test_a_closed_journal_is_answered_as_flask_answers_it(app, booty):
    phone = join(app, booty, 0)
    actions, version = legal(phone)
    booty.journal.close()
    quick, plain = both_ways(app, phone, json={"action": actions[0], "version": version})
    assert quick.status_code == 400
    assert answer(quick) == answer(plain)


@pytest.mark.parametrize("kwargs", [
    {"data": "not json", "content_type": "text/plain"},
    {"data": "{not json", "content_type": "application/json"},
    {"data": "[1, 2]", "content_type": "application/json"},
    {"json": {"action": {"type": "roll"}, "version": "3"}},
    {"json": {"action": {"type": "roll"}}, "headers": {"Origin": "http://evil.example"}},
    {"json": {"action": {"type": "roll"}}, "headers": {"Host": "evil.example"}},
    {"data": "{" + " " * 70_000 + "}", "content_type": "application/json"},
])
def test_a_request_out_of_order_goes_on_to_flask(app, booty, kwargs):
    phone = join(app, booty, 0)
    flask = FlaskCount(app)
    quick, plain = both_ways(app, phone, **kwargs)
    assert flask.seen == 2  # both answered by Flask, the first one's body handed over
    assert quick.status_code >= 400
    assert answer(quick) == answer(plain)


@pytest.mark.parametrize("cookie", [None, "forged", '"quoted"'])
def test_a_phone_without_a_seat_goes_on_to_flask(app, booty, cookie):
    client = app.test_client()
    if cookie is not None:
        client.set_cookie("mutiny_seat", cookie)
    flask = FlaskCount(app)
    quick, plain = both_ways(app, client, json={"action": {"type": "roll"}})
    assert flask.seen == 2 and quick.json["code"] == "no_seat"
    assert answer(quick) == answer(plain)


def _second_table(tmp_path):
    """A table, app and seat-1 phone set up as the ``booty`` fixture's."""
    hardware = open_seats(sim_table_config(4), "sim")
    table = Table(Journal(tmp_path / "twin.sqlite3"), list(hardware), hub=Hub(),
                  pin=HostPin(PIN), base_url="http://localhost")
    table.start("booty-dice", 2, seed="quick")
    app = create_app(table, table.hub, sim=hardware)
    app.config.update(TESTING=True)
    return hardware, table, app


def test_an_action_in_order_is_answered_as_flask_answers_it(app, booty, tmp_path):
    hardware, twin, twin_app = _second_table(tmp_path)
    try:
        phone, twin_phone = join(app, booty, 0), join(twin_app, twin, 0)
        (action, *_), version = legal(phone)
        assert legal(twin_phone) == legal(phone)
        body = {"action": action, "version": version}
        flask = FlaskCount(app)
        quick = phone.post(ACT, json=body)
        assert flask.seen == 0 and quick.status_code == 200
        twin_app.wsgi_app = twin_app.wsgi_app.inner  # the twin answers through Flask
        plain = twin_phone.post(ACT, json=body)
        assert answer(quick) == answer(plain)
        assert booty.match.snapshot() == twin.match.snapshot()
    finally:
        twin.close()
        hardware.close()


def test_an_unexpected_error_is_answered_as_flask_answers_it(app, booty, monkeypatch,
                                                             caplog):
    """A fault injected where no real one can be made on demand: the table failing."""
    phone = join(app, booty, 0)
    (action, *_), version = legal(phone)

    def failing(*_args, **_kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(booty, "submit", failing)
    with pytest.raises(RuntimeError):  # testing: Flask lets it through, and so do we
        phone.post(ACT, json={"action": action, "version": version})
    app.config.update(TESTING=False)
    quick, plain = both_ways(app, phone, json={"action": action, "version": version})
    assert quick.status_code == 500 and quick.json["code"] == "http_error"
    assert answer(quick) == answer(plain)
    assert caplog.text.count("RuntimeError: a bug") == 2  # logged both ways
