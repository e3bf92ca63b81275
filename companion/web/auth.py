"""Seat and host cookies, and the same-site check on every write.

Cookies are signed with the table's key (kept next to the journal, new each game night),
HttpOnly, and never hold a secret the server does not also keep: a seat cookie holds its
phone's own grant (``SeatAccess.join``), which the host can revoke and which replacing
the seat or a new night ends; a host cookie holds one login (``HostPin.open_session``),
which logging out ends. Seat cookies are SameSite=Lax (a QR code opened from the camera
is a cross-site navigation and must set it) and last a night at most; the host cookie is
SameSite=Strict and lasts as long as the browser's session. See docs/security.md.
"""
from __future__ import annotations

import functools
import re
import time
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

from companion.access import GRANT_SECONDS

SEAT_COOKIE = "mutiny_seat"
HOST_COOKIE = "mutiny_host"
#: A seat cookie lasts one game night at most (a new night ends it sooner), as its
#: grant does on the table.
SEAT_COOKIE_SECONDS = GRANT_SECONDS
#: Longest seat name kept; names are shown on 128-pixel screens.
NAME_LENGTH = 24


def _ext():
    return current_app.extensions["mutiny"]


def _signer(salt: str) -> URLSafeSerializer:
    return URLSafeSerializer(_ext()["table"].access.secret_key, salt=salt)


def pin():
    return _ext()["pin"]


#: Cookies whose signature was checked: (key, salt, cookie) -> what it holds. A phone
#: sends the same cookie with every request, and checking its HMAC again each time cost
#: a tenth of a millisecond per action. The key is part of the entry, so a new night's
#: key checks every cookie afresh; what a cookie holds is still checked against the
#: table on each request (a revoked grant is refused all the same).
_VERIFIED: dict[tuple[bytes, str, str], dict[str, Any]] = {}
#: Entries kept: a table has a few dozen phones and pages.
VERIFIED_KEPT = 256


def _signed(name: str, salt: str) -> Any:
    raw = request.cookies.get(name)
    if not raw:
        return None
    return verified(raw, salt, _ext()["table"].access.secret_key)


def verified(raw: str, salt: str, secret_key: bytes) -> dict[str, Any] | None:
    """What the signed cookie ``raw`` holds (a copy), or None when its signature does
    not hold under ``secret_key`` and ``salt`` ("seat" or "host")."""
    key = (secret_key, salt, raw)
    data = _VERIFIED.get(key)
    if data is None:
        try:
            data = URLSafeSerializer(secret_key, salt=salt).loads(raw)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        if len(_VERIFIED) >= VERIFIED_KEPT:
            _VERIFIED.clear()  # (strangers' forged cookies are never kept)
        _VERIFIED[key] = data
    return dict(data)


def phone_from_cookie() -> str | None:
    """This phone's grant, as its cookie holds it (not yet checked against the table)."""
    raw = request.cookies.get(SEAT_COOKIE)
    return phone_in(raw, _ext()["table"].access.secret_key) if raw else None


def phone_in(raw: str, secret_key: bytes) -> str | None:
    """The phone's grant a seat cookie's value ``raw`` holds, if its signature holds
    (not yet checked against the table)."""
    data = verified(raw, "seat", secret_key)
    phone = data.get("p") if data else None
    return phone if isinstance(phone, str) else None


def seat_from_cookie() -> int | None:
    """The seat this browser holds, or None (no cookie, forged, revoked, replaced, or
    from another night)."""
    phone = phone_from_cookie()
    return None if phone is None else _ext()["table"].access.phone_seat(phone)


def require_seat() -> int:
    """The seat this phone acts for, or a refusal: ``taken_over`` (403) when another
    phone took its seat over, saying when, else ``no_seat``."""
    from companion.web.api import ApiError
    seat = seat_from_cookie()
    if seat is not None:
        return seat
    phone = phone_from_cookie()
    taken = None if phone is None else _ext()["table"].access.taken_over(phone)
    if taken is not None:
        seat, when = taken
        raise ApiError("taken_over", taken_over_message(seat, when), seat=seat + 1,
                       seconds_ago=max(0, round(time.time() - when)))
    raise ApiError("no_seat", "this phone has no seat: scan the code on your seat")


def taken_over_message(seat: int, when: float) -> str:
    """What a phone whose seat another phone took over is told (the table's clock; the
    phone words it again in its own, from ``seconds_ago``)."""
    return (f"Another phone took over seat {seat + 1} at"
            f" {time.strftime('%H:%M', time.localtime(when))}. This phone can no longer"
            f" act for it.")


#: (pattern in a User-Agent, what the host page calls it), first match wins.
_BROWSERS = (("SamsungBrowser", "Samsung Internet"), ("Firefox|FxiOS", "Firefox"),
             ("Edg", "Edge"), ("OPR|Opera", "Opera"), ("Chrome|CriOS", "Chrome"),
             ("Safari", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X|Macintosh", "Mac"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))


def device_summary(user_agent: str) -> str:
    """A phone's browser as the host page lists it ("Chrome on Android"), from its
    User-Agent; the first words of an unknown one."""
    def first(table: tuple[tuple[str, str], ...]) -> str | None:
        return next((name for pattern, name in table if re.search(pattern, user_agent)),
                    None)
    browser, system = first(_BROWSERS), first(_SYSTEMS)
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or " ".join(user_agent.split())[:40] or "unknown browser"


def is_host() -> bool:
    data = _signed(HOST_COOKIE, "host")
    return data is not None and pin().has_session(data.get("h"))


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
        access, phone = _ext()["table"].access, phone_from_cookie()
        return lambda: access.phone_seat(phone) == viewer
    if viewer == "host":
        data, sessions = _signed(HOST_COOKIE, "host"), pin()
        return lambda: data is not None and sessions.has_session(data.get("h"))
    return lambda: True


def set_seat_cookie(response, phone: str) -> None:
    """Give this browser ``phone``'s grant (from ``SeatAccess.join``)."""
    response.set_cookie(SEAT_COOKIE, _signer("seat").dumps({"p": phone}),
                        max_age=SEAT_COOKIE_SECONDS, httponly=True, samesite="Lax",
                        path="/")


def set_host_cookie(response, session: str | None = None) -> None:
    """A new login: a session of its own (``session``, else a new one), in a cookie
    that ends with the browser."""
    session = session or pin().open_session()
    response.set_cookie(HOST_COOKIE, _signer("host").dumps({"h": session}),
                        httponly=True, samesite="Strict", path="/")


def clear_host_cookie(response) -> None:
    """Log out: the login ends on the server (a copy of the cookie is worthless)."""
    data = _signed(HOST_COOKIE, "host")
    if data is not None:
        pin().close_session(data.get("h"))
    response.delete_cookie(HOST_COOKIE, path="/")


def check_same_site() -> None:
    """Refuse a write whose Origin (or, lacking one, Referer) is another site."""
    from companion.web.api import ApiError
    headers = request.headers
    if not is_same_site(headers.get("Origin"), headers.get("Referer"),
                        headers.get("Sec-Fetch-Site"), request.host):
        raise ApiError("cross_site", "requests from another site are refused")


def check_form_from_here() -> None:
    """Refuse a form's post (a phone's yes to taking a seat over, switching seats or
    becoming a host) unless the browser names this site as its origin. Stricter than
    :func:`check_same_site`: a ``null`` or missing Origin is refused, since a sandboxed
    frame or a ``data:`` page of another site sends exactly that. The question pages
    ask for ``Referrer-Policy: same-origin`` so that a browser's own post names it."""
    from companion.web.api import ApiError
    headers = request.headers
    if not is_form_from_here(headers.get("Origin"), headers.get("Referer"),
                             headers.get("Sec-Fetch-Site"), request.host):
        raise ApiError("cross_site", "requests from another site are refused")


def is_form_from_here(origin: str | None, referer: str | None, fetch_site: str | None,
                      host: str) -> bool:
    """Does a form post with these headers come from a page of this site (``host``)?"""
    if fetch_site not in (None, "same-origin"):
        return False
    source = origin if origin not in (None, "null") else referer
    return bool(source) and is_same_site(source, None, fetch_site, host)


def is_same_site(origin: str | None, referer: str | None, fetch_site: str | None,
                 host: str) -> bool:
    """Does a write with these headers come from this site (``host``, the Host header)?
    The Origin is asked, else the Referer; a browser that sends neither (or a ``null``
    Origin) passes only where its Sec-Fetch-Site, if any, says same-origin."""
    source = origin or referer
    if source in (None, "null") and fetch_site in (None, "same-origin", "none"):
        return True
    try:
        return bool(source) and urlsplit(source).netloc == host
    except ValueError:  # not even a URL ("http://[::1"): not this site either
        return False


def clean_name(name: str) -> str:
    """A seat name as the table shows it: trimmed, one line, not too long, printable
    characters only (a lone surrogate from a JSON escape cannot even be stored)."""
    name = "".join(c for c in name if c.isprintable() or c.isspace())
    return " ".join(name.split())[:NAME_LENGTH] or "Pirate"
