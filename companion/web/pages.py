"""The pages a person opens: a seat's phone page, the table display, the host page,
the join page, and the captive-portal answers that lead a phone to it."""
from __future__ import annotations

import time

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from companion.web import auth

bp = Blueprint("pages", __name__)

#: Where phones and laptops check whether they are online (each answers a redirect,
#: which makes the phone offer to "sign in" to the Pi's Wi-Fi and open /join).
CONNECTIVITY_CHECKS = ("/generate_204", "/gen_204", "/hotspot-detect.html",
                       "/library/test/success.html", "/connecttest.txt", "/ncsi.txt",
                       "/success.txt", "/canonical.html", "/redirect", "/chat")


@bp.get("/J/<token>")
@bp.get("/j/<token>")
def join_seat(token: str):
    """A seat's QR code: give this phone a grant of its own for the seat, in a cookie,
    then drop the token from the address bar. The same phone again (a reload, its own
    grant) goes straight to its seat. A phone is asked first when it holds another
    seat (a page of another site could otherwise move it to a seat of its choosing) or
    when another phone holds this one: a seat has one phone at a time, and taking it
    over ends the other phone's turn at it (docs/security.md)."""
    table = current_app.extensions["mutiny"]["table"]
    seat = table.access.seat_for(token)
    held = auth.seat_from_cookie()
    if seat is None:
        # A code works once: the phone that used it (a reload, a second tab) goes to
        # its seat; anyone else is told to ask for a new one.
        return _to_seat() if held is not None else _stale()
    if held == seat:
        return _to_seat()
    holder = next(iter(table.access.phones(seat)), None)
    if holder is not None:
        holder = {"device": holder["device"] or "a browser",
                  "joined": time.strftime("%H:%M", time.localtime(holder["joined"]))}
    if held is None and holder is None:
        return _join(table, token)
    return _question(render_template(
        "join/switch.html", held=None if held is None else held + 1, seat=seat + 1,
        token=token, holder=holder))


def _question(page: str):
    """A page that asks a phone's yes by a form: never cached, and its post names
    this site as its origin (``auth.check_form_from_here`` refuses one that does not)."""
    response = current_app.make_response(page)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _stale():
    return render_template("join/index.html", stale=True, **_join_words()), 404


@bp.post("/J/<token>")
@bp.post("/j/<token>")
def switch_seat(token: str):
    """The phone's own yes to "switch seats?" or "take this seat over?": a form of this
    site only."""
    refused = _refused_form()
    if refused is not None:
        return refused
    table = current_app.extensions["mutiny"]["table"]
    if table.access.seat_for(token) is None:
        return _stale()
    return _join(table, token)


def _refused_form():
    """403 for a form post that does not come from a page of this site, else None."""
    from companion.web.api import ApiError
    try:
        auth.check_form_from_here()
    except ApiError as exc:
        return exc.message, 403
    return None


def _join(table, token: str):
    seat = table.access.seat_for(token)
    taking_over = seat is not None and bool(table.access.phones(seat))
    joined = table.access.join(token, auth.device_summary(
        request.headers.get("User-Agent", "")))
    if joined is None:
        return _stale()
    seat, phone = joined
    table.claim(seat)
    # Every phone that joins is shown on the seat's own screen and phone: nobody reads
    # a seat's secrets without the seat knowing (docs/security.md).
    table.tell(seat, "Phone taken over" if taking_over else "Phone joined")
    response = _to_seat()
    auth.set_seat_cookie(response, phone)
    return response


def _to_seat():
    response = redirect(url_for("pages.seat"), code=303)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/seat/")
def seat():
    # A phone whose seat was taken over still gets the page: it says so (seat.js).
    phone = auth.phone_from_cookie()
    access = current_app.extensions["mutiny"]["table"].access
    if access.phone_seat(phone) is None and access.taken_over(phone) is None:
        return redirect(url_for("pages.join"))
    return render_template("seat/index.html")


@bp.get("/table")
def table():
    return render_template("table/index.html")


@bp.get("/host")
def host():
    return render_template("host/index.html")


@bp.get("/join")
def join():
    return render_template("join/index.html", stale=False, **_join_words())


def _join_words() -> dict[str, bool]:
    """What the join page may speak of: seat screens only where the table has some."""
    devices = current_app.extensions["mutiny"]["table"].devices
    return {"screens": bool(devices)}


@bp.get("/H/<token>")
@bp.get("/h/<token>")
def handover(token: str):
    """A host's handover code (``HostPin.hand_over``): asks this phone's yes first, so a
    link opened by a camera's preview does not spend it."""
    if not auth.pin().is_handover(token.strip().upper()):
        return render_template("join/host.html", token=None), 404
    return _question(render_template("join/host.html", token=token))


@bp.post("/H/<token>")
@bp.post("/h/<token>")
def take_handover(token: str):
    """The phone's yes: it becomes a host (a login of its own), once per code."""
    refused = _refused_form()
    if refused is not None:
        return refused
    session = auth.pin().take_handover(token.strip().upper())
    if session is None:
        return render_template("join/host.html", token=None), 404
    response = redirect(url_for("pages.host"), code=303)
    auth.set_host_cookie(response, session)
    response.headers["Cache-Control"] = "no-store"
    return response


def connectivity_check():
    return redirect(url_for("pages.join", _external=False), code=302)


for _path in CONNECTIVITY_CHECKS:
    bp.add_url_rule(_path, f"portal{_path.replace('/', '_').replace('.', '_')}",
                    connectivity_check)
