"""What every request passes before a route sees it, and what every answer carries.

- **Host names.** Only the names the Pi answers to reach the app: any IP address (a
  browser sends an address as Host only when it connects to that address, so DNS
  rebinding cannot forge one), ``localhost``, the Pi's mDNS names and the names in
  ``MUTINY_HOSTS``. With the hotspot's DNS rule every other name resolves to the Pi: a
  page under such a name is a phone looking for the internet and is sent to the join
  page on the Pi's own address; anything else (the API, a join link, a write) is
  refused, so a page of another site can never talk to the table through a name it
  controls.
- **Headers** (OWASP's secure headers): a Content Security Policy allowing only this
  server's own scripts, styles and images, no framing, no MIME sniffing, no referrer.
- **Errors under /api/** are always the JSON ``{"code", "message"}``, 404 and 405 too.
- **Bodies** larger than ``MAX_CONTENT_LENGTH`` are refused with 413, chunked or not.
"""
from __future__ import annotations

import io
import ipaddress
import socket
from typing import Iterable

from flask import Flask, current_app, jsonify, redirect, request
from werkzeug.exceptions import HTTPException

#: Names the Pi answers to besides IP addresses (``MUTINY_HOSTS`` adds more).
LOCAL_NAMES = ("localhost", "mutiny.local", f"{socket.gethostname().lower()}.local",
               socket.gethostname().lower())

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self';"
                           " img-src 'self' data:; connect-src 'self'; object-src 'none';"
                           " base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: Error codes of the API for the HTTP errors Flask raises itself.
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "bad_method", 413: "too_large",
              415: "json_only"}


def host_name(host: str) -> str:
    """``request.host`` without its port, lower case (IPv6 brackets dropped)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_own_host(host: str, extra: Iterable[str] | None = None) -> bool:
    """Is ``host`` (a Host header) one of the names this server answers to? ``extra``:
    the names configured besides (default: the app's ``MUTINY_HOSTS``)."""
    name = host_name(host)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if extra is None:
        extra = current_app.config.get("MUTINY_HOSTS", ())
    return name in LOCAL_NAMES or name in {n.lower() for n in extra}


def _own_address() -> str:
    """Where a phone that asked for another name is sent: the table's own address."""
    base = current_app.extensions["mutiny"]["table"].base_url
    return base if base.startswith("http") else ""


def check_host():
    """Refuse (or, for a page, redirect to the join page) a request for another name."""
    if is_own_host(request.host):
        return None
    path = request.path
    if request.method == "GET" and not path.startswith(("/api/", "/J/", "/j/", "/sim")):
        return redirect(f"{_own_address()}/join", code=302)
    body = {"code": "wrong_host", "message": "this server answers to its own names only"}
    return jsonify(body), 403


def check_body_size():
    """413 for a body over the limit, whether it says its length or is chunked."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is None or request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    length = request.content_length
    if length is not None:
        return _too_large() if length > limit else None
    # Chunked: read at most one byte past the limit, then keep what was read for the
    # route (Flask's own limit would answer 400 here, not 413).
    stream = request.environ["wsgi.input"]
    data = b""
    while len(data) <= limit:
        piece = stream.read(min(65536, limit + 1 - len(data)))
        if not piece:
            break
        data += piece
    if len(data) > limit:
        return _too_large()
    request.environ["wsgi.input"] = _Replay(data)
    request.environ["CONTENT_LENGTH"] = str(len(data))
    request.environ.pop("HTTP_TRANSFER_ENCODING", None)
    request.environ["wsgi.input_terminated"] = False
    return None


class _Replay(io.BytesIO):
    """A chunked body already read whole, read again by the route."""


def _too_large():
    body = {"code": "too_large", "message": "that request is far too large"}
    if request.path.startswith("/api/"):
        return jsonify(body), 413
    return "that request is far too large", 413


def add_headers(response):
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def api_http_error(exc: HTTPException):
    """Every HTTP error under /api/ as the API's JSON error (else Flask's own page)."""
    if not request.path.startswith("/api/"):
        return exc
    code = HTTP_CODES.get(exc.code or 500, "http_error")
    message = {404: "no such route", 405: "this route does not take that method"}.get(
        exc.code or 500, exc.description or "refused")
    response = jsonify(code=code, message=message)
    response.status_code = exc.code or 500
    if exc.code == 405:
        allowed = exc.get_response().headers.get("Allow")
        if allowed:
            response.headers["Allow"] = allowed
    return response


def install(app: Flask) -> None:
    """Put the guards on ``app`` (first in line: before any blueprint's own)."""
    app.before_request_funcs.setdefault(None, []).insert(0, check_body_size)
    app.before_request_funcs[None].insert(0, check_host)
    app.after_request(add_headers)
    app.register_error_handler(HTTPException, api_http_error)
