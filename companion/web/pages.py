"""The pages a person opens: a seat's phone page, the table display, the host page,
the join page, and the captive-portal answers that lead a phone to it."""
from __future__ import annotations

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
    then drop the token from the address bar. A phone that holds another seat already
    is asked first (a page of another site could otherwise move it to a seat of its
    choosing by linking here)."""
    table = current_app.extensions["mutiny"]["table"]
    seat = table.access.seat_for(token)
    if seat is None:
        return render_template("join/index.html", stale=True), 404
    held = auth.seat_from_cookie()
    if held == seat:
        return _to_seat()
    if held is not None:
        response = current_app.make_response(render_template(
            "join/switch.html", held=held + 1, seat=seat + 1, token=token))
        response.headers["Cache-Control"] = "no-store"
        return response
    return _join(table, token)


@bp.post("/J/<token>")
@bp.post("/j/<token>")
def switch_seat(token: str):
    """The phone's own answer to "switch seats?": a form of this site only."""
    from companion.web.api import ApiError
    try:
        auth.check_same_site()
    except ApiError as exc:
        return exc.message, 403
    table = current_app.extensions["mutiny"]["table"]
    if table.access.seat_for(token) is None:
        return render_template("join/index.html", stale=True), 404
    return _join(table, token)


def _join(table, token: str):
    joined = table.access.join(token, request.headers.get("User-Agent", ""))
    if joined is None:
        return render_template("join/index.html", stale=True), 404
    seat, phone = joined
    table.claim(seat)
    # Every phone that joins is shown on the seat's own screen and phones: nobody
    # reads a seat's secrets without the seat knowing (docs/security.md).
    count = len(table.access.phones(seat))
    table.tell(seat, "Phone joined" if count == 1 else f"{count} phones on seat")
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
    if auth.seat_from_cookie() is None:
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
    return render_template("join/index.html", stale=False)


def connectivity_check():
    return redirect(url_for("pages.join", _external=False), code=302)


for _path in CONNECTIVITY_CHECKS:
    bp.add_url_rule(_path, f"portal{_path.replace('/', '_').replace('.', '_')}",
                    connectivity_check)
