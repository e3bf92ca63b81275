"""Seat and host cookies, and the same-site check on every write.

Cookies are signed with the table's key (kept next to the journal), HttpOnly and
SameSite=Lax. A seat cookie names the seat and its token generation: replacing the
seat's token makes it worthless. A host cookie names this run of the server: the PIN is
new at every start, and so is the host's login.
"""
from __future__ import annotations

import functools
import secrets
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

SEAT_COOKIE = "mutiny_seat"
HOST_COOKIE = "mutiny_host"
#: Longest seat name kept; names are shown on 128-pixel screens.
NAME_LENGTH = 24


def _ext():
    return current_app.extensions["mutiny"]


def _signer(salt: str) -> URLSafeSerializer:
    return URLSafeSerializer(_ext()["table"].access.secret_key, salt=salt)


def pin():
    return _ext()["pin"]


def boot_id() -> str:
    ext = _ext()
    if "boot" not in ext:
        ext["boot"] = secrets.token_hex(8)
    return ext["boot"]


def seat_from_cookie() -> int | None:
    """The seat this browser holds, or None (no cookie, forged, or replaced)."""
    raw = request.cookies.get(SEAT_COOKIE)
    if not raw:
        return None
    try:
        data = _signer("seat").loads(raw)
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    seat, generation = data.get("s"), data.get("g")
    access = _ext()["table"].access
    if type(seat) is not int or not 0 <= seat < access.seats:
        return None
    return seat if generation == access.generation(seat) else None


def require_seat() -> int:
    from companion.web.api import ApiError
    seat = seat_from_cookie()
    if seat is None:
        raise ApiError("no_seat", "this phone has no seat: scan the code on your seat")
    return seat


def is_host() -> bool:
    raw = request.cookies.get(HOST_COOKIE)
    if not raw:
        return False
    try:
        return _signer("host").loads(raw) == {"b": boot_id()}
    except BadSignature:
        return False


def require_host() -> None:
    """Refuse the request (``no_host``) unless this browser is logged in as the host."""
    from companion.web.api import ApiError
    if not is_host():
        raise ApiError("no_host", "log in with the host PIN first")


def host_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a view that only the host may use: anyone else gets ``no_host``."""
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        require_host()
        return view(*args, **kwargs)
    return wrapped


def still_allowed(viewer) -> Callable[[], bool]:
    """A check a long-lived stream repeats: is this browser still that viewer?"""
    if isinstance(viewer, int):
        access = _ext()["table"].access
        generation = access.generation(viewer)
        return lambda: access.generation(viewer) == generation
    return lambda: True


def set_seat_cookie(response, seat: int) -> None:
    access = _ext()["table"].access
    value = _signer("seat").dumps({"s": seat, "g": access.generation(seat)})
    response.set_cookie(SEAT_COOKIE, value, max_age=7 * 24 * 3600, httponly=True,
                        samesite="Lax", path="/")


def set_host_cookie(response) -> None:
    response.set_cookie(HOST_COOKIE, _signer("host").dumps({"b": boot_id()}),
                        httponly=True, samesite="Strict", path="/")


def clear_host_cookie(response) -> None:
    response.delete_cookie(HOST_COOKIE, path="/")


def check_same_site() -> None:
    """Refuse a write whose Origin (or, lacking one, Referer) is another site."""
    from companion.web.api import ApiError
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source in (None, "null") and request.headers.get("Sec-Fetch-Site") in (None, "same-origin", "none"):
        return
    try:
        if source and urlsplit(source).netloc == request.host:
            return
    except ValueError:  # not even a URL ("http://[::1"): not this site either
        pass
    raise ApiError("cross_site", "requests from another site are refused")


def clean_name(name: str) -> str:
    """A seat name as the table shows it: trimmed, one line, not too long, printable
    characters only (a lone surrogate from a JSON escape cannot even be stored)."""
    name = "".join(c for c in name if c.isprintable() or c.isspace())
    return " ".join(name.split())[:NAME_LENGTH] or "Pirate"
