"""A seat's action, answered without Flask's machinery.

``POST /api/seat/act`` is the request players make many times a minute, and the one a
vote waits on. Through Flask it passes a request context, four hooks, a Request and a
Response object and a JSON provider, a cost that shows in each action's latency.

A speed trick, fenced: this is a second way to answer one route of
:mod:`companion.web.api`, and it stays only while the benchmark that justifies it says
so: ``bench/peer.py`` (``python -m bench.peer --compare 500``, paced and back to back;
the figures in docs/performance.md, "Why each speed trick is there"). Its one seam is
:func:`install`: without it the Flask route answers everything, the same way (the
tests compare both ways byte for byte). This WSGI middleware answers that one route
itself when the request is plainly in order:

- the host name is the server's own, the body is ``application/json`` with a length
  within the limit, the write comes from this site, the seat cookie is valid and its
  phone holds the seat: all checked with the same functions the Flask app's hooks use
  (:mod:`companion.web.guard`, :mod:`companion.web.auth`);
- the body is a JSON object whose ``version``, if any, is a whole number.

Anything else goes on to the Flask app unchanged (the body is handed over unread), and
Flask answers as it always has, refusals included. Once the action reaches the table,
its answer is the Flask route's, byte for byte: the same JSON, status and security
headers (``tests/web/test_quick.py`` sends every kind of request both ways and compares).
"""
from __future__ import annotations

import io
import json
import logging
from typing import Any, Callable, Iterable

from flask import Flask
from werkzeug.exceptions import InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from companion.errors import MutinyError
from companion.web import auth, guard
from companion.web.api import refusal_body, what_refused

log = logging.getLogger(__name__)

ROUTE = "/api/seat/act"
#: Host headers already judged (a table hears from a handful of names).
HOSTS_KEPT = 64

StartResponse = Callable[..., Any]


class QuickSeatAction:
    """WSGI middleware in front of the Flask app (``app.wsgi_app``): see the module."""

    def __init__(self, app: Flask, inner: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]):
        self.app = app
        self.inner = inner
        self._hosts: dict[str, bool] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != ROUTE or environ.get("REQUEST_METHOD") != "POST" \
                or environ.get("SCRIPT_NAME"):
            return self.inner(environ, start_response)
        ready = self._in_order(environ)
        if ready is None:
            return self.inner(environ, start_response)
        seat, action, version = ready
        try:
            version = self.app.extensions["mutiny"]["table"].submit(seat, action, version)
        except MutinyError as exc:  # (a rule's refusal is one) as the API's handlers answer
            body, status = refusal_body(*what_refused(exc))
            return self._answer(start_response, status, body)
        except Exception:
            if self._propagates():
                raise
            log.exception("Exception on %s [POST]", ROUTE)
            error = InternalServerError()
            return self._answer(start_response, 500, {
                "code": guard.HTTP_CODES.get(500, "http_error"), "message": error.description})
        return self._answer(start_response, 200, {"ok": True, "version": version})

    def _in_order(self, environ: dict[str, Any]) -> tuple[int, Any, int | None] | None:
        """(seat, action, version) of a request in order, else None (Flask answers it;
        whatever body was read is put back for it)."""
        host = environ.get("HTTP_HOST")
        if not host or not self._own_host(host) or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() \
                != "application/json":
            return None
        if not auth.is_same_site(environ.get("HTTP_ORIGIN"), environ.get("HTTP_REFERER"),
                                 environ.get("HTTP_SEC_FETCH_SITE"), host):
            return None
        seat = self._seat(environ.get("HTTP_COOKIE", ""))
        if seat is None:
            return None
        body = self._body(environ)
        if not isinstance(body, dict):
            return None
        version = body.get("version")
        if version is not None and type(version) is not int:
            return None
        return seat, body.get("action"), version

    def _own_host(self, host: str) -> bool:
        allowed = self._hosts.get(host)
        if allowed is None:
            if len(self._hosts) >= HOSTS_KEPT:
                self._hosts.clear()
            extra = self.app.config.get("MUTINY_HOSTS", ())
            allowed = self._hosts[host] = guard.is_own_host(host, extra)
        return allowed

    def _seat(self, cookies: str) -> int | None:
        """The seat whose phone sent this cookie header, if it still holds it."""
        raw = _cookie(cookies, auth.SEAT_COOKIE)
        if not raw:
            return None
        access = self.app.extensions["mutiny"]["table"].access
        phone = auth.phone_in(raw, access.secret_key)
        return None if phone is None else access.phone_seat(phone)

    def _body(self, environ: dict[str, Any]) -> Any:
        """The body as JSON, or None; the bytes read stay readable for Flask."""
        length = environ.get("CONTENT_LENGTH", "")
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if not length.isdigit() or (limit is not None and int(length) > limit):
            return None
        data = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(data)
        try:
            return json.loads(data)
        except (ValueError, RecursionError):
            return None

    def _answer(self, start_response: StartResponse, status: int,
                body: dict[str, Any]) -> list[bytes]:
        # What ``jsonify`` writes (the app's JSON provider) and what ``guard.add_headers``
        # adds to every answer.
        text = (self.app.json.dumps(body, separators=(",", ":")) + "\n").encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(text))),
                   *guard.SECURITY_HEADERS.items()]
        start_response(f"{status} {HTTP_STATUS_CODES.get(status, 'UNKNOWN').upper()}", headers)
        return [text]

    def _propagates(self) -> bool:
        """Flask's rule: an unexpected error reaches the server (tests see it raised)
        when testing or debugging, unless PROPAGATE_EXCEPTIONS says otherwise."""
        propagate = self.app.config.get("PROPAGATE_EXCEPTIONS")
        return (self.app.testing or self.app.debug) if propagate is None else propagate


def _cookie(header: str, name: str) -> str | None:
    """The first cookie called ``name`` in a Cookie header, as sent (a quoted value is
    left to Flask: None)."""
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return None if value.startswith('"') else value
    return None


def install(app: Flask) -> None:
    """Put the quick seat action in front of ``app``: the one place it is switched on
    (justified by ``bench/peer.py``, see the module)."""
    # Flask's documented way to wrap its WSGI app; mypy sees a method assigned.
    app.wsgi_app = QuickSeatAction(app, app.wsgi_app)  # type: ignore[method-assign]
