"""The pages a person opens: a seat's phone page, the table display, the host page,
the join page (scan a code, or type the table's), and the captive-portal answers that
lead a phone to it."""
from __future__ import annotations

import math
import time

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from companion.access import CodeLocked
from companion.table import lobby
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


def _question(page: str, status: int = 200):
    """A page that asks a phone's yes by a form: never cached, and its post names
    this site as its origin (``auth.check_form_from_here`` refuses one that does not)."""
    response = current_app.make_response((page, status))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _stale():
    return _join_page(stale=True, status=404)


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


def _join(table, token: str, name: str = "", lost=_stale):
    """This phone joins the seat whose current code ``token`` is, named ``name`` if
    given (else its page offers to name it); ``lost()`` answers a code used meanwhile."""
    seat = table.access.seat_for(token)
    taking_over = seat is not None and bool(table.access.phones(seat))
    joined = table.access.join(token, auth.device_summary(
        request.headers.get("User-Agent", "")))
    if joined is None:
        return lost()
    seat, phone = joined
    table.claim(seat)
    if name.strip():
        table.rename(seat, auth.clean_name(name))
    # Every phone that joins is shown on the seat's own screen and phone: nobody reads
    # a seat's secrets without the seat knowing (docs/security.md).
    table.tell(seat, "Phone taken over" if taking_over else "Phone joined")
    response = _to_seat()
    auth.set_seat_cookie(response, phone)
    if table.access.names()[seat] == f"Seat {seat + 1}":
        # A seat nobody named: its page offers to name its player (a host who named
        # the seats already is not asked again by every phone).
        response.set_cookie(ASK_NAME_COOKIE, "1", max_age=600, samesite="Strict",
                            path="/seat/")
    return response


#: A cookie (not HttpOnly: seat.js reads and drops it) that tells a phone's seat page
#: the phone has just joined, so it offers to name its player. It holds no secret.
ASK_NAME_COOKIE = "mutiny_ask_name"


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
    seat = access.phone_seat(phone)
    if seat is None and access.taken_over(phone) is None:
        return redirect(url_for("pages.join"))
    first = None if seat is None else first_payload(seat)
    screen = {}
    if seat is not None:  # its screen written in the page too: shown before any script runs
        screen = current_app.extensions["mutiny"]["table"].payload(seat)[1].get("display") or {}
    response = current_app.make_response(render_template("seat/index.html", first=first,
                                                         screen=screen))
    if first is not None:  # it holds the seat's secrets: never kept by the browser
        response.headers["Cache-Control"] = "no-store"
    return response


#: What a JSON text may not hold raw inside an HTML ``<script>`` element: ``</script>``
#: would end it, and ``&`` and ``'`` are escaped as the pages escape names everywhere.
_NOT_IN_SCRIPT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                "'": "\\u0027"})


def first_payload(seat: int) -> Markup:
    """Seat ``seat``'s current payload as JSON text for the page's
    ``<script type="application/json" id="first-payload">``: the phone draws its first
    screen from it without waiting for the live stream (seat.js). JSON is data, not a
    script: the Content Security Policy allows no inline script, and runs none here.
    The characters HTML could read inside the element are written as JSON escapes,
    which mean the same to ``JSON.parse``."""
    _serial, text = current_app.extensions["mutiny"]["table"].payload_text(seat)
    return Markup(text.translate(_NOT_IN_SCRIPT))


@bp.get("/table")
def table():
    return render_template("table/index.html")


@bp.get("/host")
def host():
    return render_template("host/index.html")


@bp.get("/join")
def join():
    return _join_page()


def _join_page(stale: bool = False, error: str = "", status: int = 200):
    """The join page: how to scan, and the table code's field. Never cached; its form's
    post must name this site, which the page asks of the browser by its own
    ``<meta name="referrer">`` (its answer keeps every page's ``no-referrer``)."""
    response = current_app.make_response((render_template(
        "join/index.html", stale=stale, error=error, **_join_words()), status))
    response.headers["Cache-Control"] = "no-store"
    return response


def has_screens() -> bool:
    """Does this table have seat screens a player can read: a Pi's, or the simulated
    table's while ``/sim`` shows them? A laptop table (``--lan``) has none."""
    table = current_app.extensions["mutiny"]["table"]
    return bool(current_app.config.get("MUTINY_SCREENS", bool(table.devices)))


def _join_words() -> dict[str, object]:
    """What the join page may speak of: seat screens and buttons only where the table
    has some, and the machine it runs on (a laptop, or the table's Pi)."""
    table = current_app.extensions["mutiny"]["table"]
    return {"screens": has_screens(), "laptop": bool(current_app.config.get("MUTINY_LAPTOP")),
            "address": lobby.join_address(table.base_url)}


@bp.post("/join")
def join_by_code():
    """A phone typed the table's code (a form of this site only): the free seats to
    pick from, then the one picked, exactly as if its code on the table display had
    been scanned. Only a seat whose code is public is offered (docs/security.md):
    wrong codes lock this phone out as wrong PINs do."""
    refused = _refused_form()
    if refused is not None:
        return refused
    table = current_app.extensions["mutiny"]["table"]
    form = request.form
    try:
        right = table.access.check_table_code(form.get("code", ""), request.remote_addr or "")
    except CodeLocked as exc:
        return _join_page(error=f"Too many wrong codes from this phone: try again in"
                          f" {math.ceil(exc.retry_after)} seconds.", status=429)
    if not right:
        return _join_page(error="That is not this table's code. The table display shows"
                          " it under the seats' codes, with the address.", status=403)
    free = _public_seats(table)
    picked = form.get("seat", "")
    seat = int(picked) - 1 if picked.isdigit() else None
    if seat in free:
        def taken():
            return _seats_page(table, taken=seat + 1)
        return _join(table, table.access.token(seat), form.get("name", ""), lost=taken)
    return _seats_page(table, taken=seat + 1 if seat is not None else None)


def _public_seats(table) -> list[int]:
    """The seats a typed code may lead to: those whose code the table display shows."""
    return [seat for seat in range(table.seat_count) if table.code_is_public(seat)]


def _seats_page(table, taken: int | None = None):
    """The free seats to pick from, after the right code (``taken``: the seat this phone
    picked went to another phone first)."""
    names = table.access.names()
    held = auth.seat_from_cookie()
    seats = [{"number": s + 1, "name": names[s]} for s in _public_seats(table)]
    return _question(render_template(
        "join/seats.html", seats=seats, code=request.form.get("code", ""), taken=taken,
        held=None if held is None else held + 1, name=request.form.get("name", "")))


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
