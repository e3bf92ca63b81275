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
    """A seat's QR code: remember the seat in a cookie, then drop the token from the
    address bar."""
    table = current_app.extensions["mutiny"]["table"]
    seat = table.access.seat_for(token)
    if seat is None:
        return render_template("join/index.html", stale=True), 404
    table.claim(seat)
    response = redirect(url_for("pages.seat"), code=303)
    auth.set_seat_cookie(response, seat)
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


def register_portal_fallback(app) -> None:
    """With the hotspot's DNS rule every name resolves to the Pi: a request for another
    host name that we do not know is a phone looking for the internet."""

    @app.errorhandler(404)
    def not_found(exc):
        own = request.host.split(":")[0]
        served = current_app.config.get("SERVER_NAMES", ())
        if request.path.startswith("/api/") or not served or own in served:
            return exc
        return redirect("/join", code=302)
