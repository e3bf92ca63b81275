"""The simulated table: every seat's OLED, live and pixel-exact, with its buttons.

A developer's tool (docs/security.md, "The simulated table"): it shows every seat at
once and presses any seat's buttons, so it is never a player's page. Served only on
this machine (``mutiny serve`` on 127.0.0.1) it is open to that machine; served beyond
it (``--sim-page`` with ``--lan``, or another address) only a logged-in host may open,
watch or press it. Either way a seat showing one of its secrets (select held, a secret
choice browsed) is sent to anyone but the host as a plain "secret on this seat" frame.
"""
from __future__ import annotations

import base64
from functools import lru_cache

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    stream_with_context,
)
from PIL import Image

from companion.engine import PUBLIC
from companion.engine.display import Display
from companion.seats.screen import ScreenState, render
from companion.seats.simfaults import KINDS
from companion.web import auth

bp = Blueprint("sim", __name__, url_prefix="/sim")
BUTTONS = ("previous", "select", "next")
#: ``app.config`` key: "open" (this machine only) or "host" (served beyond it).
ACCESS = "MUTINY_SIM_ACCESS"


def _parts():
    ext = current_app.extensions["mutiny"]
    return ext["table"], ext["screens"], ext["sim"]


@bp.before_request
def _host_only_beyond_this_machine():
    if current_app.config.get(ACCESS, "open") == "open" or auth.is_host():
        return None
    if request.method == "GET" and request.path.rstrip("/") == "/sim":
        return redirect("/host")
    return {"code": "no_host", "message": "the simulated table is the host's here:"
            " log in on /host first"}, 401


@lru_cache(maxsize=16)
def _hidden_frame(seat: int, size: tuple[int, int]) -> str:
    """What a seat showing a secret looks like to anyone but the host (base64)."""
    display = Display(title=f"Seat {seat + 1}", lines=("Showing a secret:", "only the host",
                                                       "sees it here."))
    image = render(ScreenState("rest", display, 0, seat + 1), size)
    return base64.b64encode(image.convert("1").tobytes()).decode()


def _frame(sim, seat: int, host: bool) -> str:
    image: Image.Image = sim.frame(seat)
    if not host and sim.shows_secret(seat):
        return _hidden_frame(seat, image.size)
    return base64.b64encode(image.tobytes()).decode()


@bp.get("/")
def page():
    table, _hub, sim = _parts()
    return render_template("sim/index.html", seats=range(sim.seat_count),
                           buttons=BUTTONS)


@bp.get("/stream")
def stream():
    """Server-Sent Events: each seat's frame (1,024 bytes, 1 bit a pixel, row-major,
    base64) and LED, sent when it changes; the first event holds every seat."""
    from companion.web.api import StreamSlots
    table, hub, sim = _parts()
    slots = current_app.extensions["mutiny"].setdefault("slots", StreamSlots())
    if hub.is_full or not slots.take("sim", "sim"):
        return {"code": "busy", "message": "too many live pages are open"}, 503
    sent: dict[int, tuple[str, str]] = {}
    count = [0]
    host = auth.is_host()

    def build():
        changed = []
        for seat in range(sim.seat_count):
            frame = _frame(sim, seat, host)
            led = sim.led(seat)
            if sent.get(seat) != (frame, led):
                sent[seat] = (frame, led)
                changed.append({"seat": seat, "frame": frame, "led": led})
        if not changed:
            return None
        count[0] += 1
        return count[0], "frames", {"seats": changed, "match": _match_line(table)}

    response = Response(stream_with_context(hub.stream(build)),
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: slots.give_back("sim", "sim"))
    return response


def _match_line(table) -> str:
    """What the table is doing, in the words the table display says it (the game's
    headline from the public payload), never the engine's step names or action count
    (a count that moves on a hidden action would tell of it)."""
    match = table.match
    if match is None:
        return "No match yet: seat 1 picks a game."
    title = match.game.spec.title + (", over" if match.is_over else "")
    headline = (table.payload(PUBLIC)[1].get("summary") or {}).get("headline") or ""
    if not headline:
        return f"{title}."
    return f"{title}: {headline}" + ("" if headline.endswith((".", "!", "?")) else ".")


def _json_body() -> dict | tuple[dict, int]:
    """The request's JSON object ({} if it is not one), or the refusal to answer: a
    page of another site, or a body that is not ``application/json`` (which a
    cross-site form cannot send without the browser asking first)."""
    from companion.web.api import ApiError
    try:
        auth.check_same_site()  # a page of another site pressing the table's buttons
    except ApiError as exc:
        return {"code": exc.code, "message": exc.message}, 403
    if not request.is_json:
        return {"code": "json_only", "message": "send application/json"}, 415
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # nested deeper than the JSON parser goes
        body = None
    return body if isinstance(body, dict) else {}


@bp.post("/press")
def press():
    """Drive one simulated button: ``{"seat": 0, "button": "select", "down": true}``.

    JSON only: a cross-site form cannot send it without the browser asking first.
    """
    _table, _hub, sim = _parts()
    body = _json_body()
    if isinstance(body, tuple):
        return body
    seat, button, down = body.get("seat"), body.get("button"), body.get("down")
    if (type(seat) is not int or not 0 <= seat < sim.seat_count
            or button not in BUTTONS or type(down) is not bool):
        return {"code": "bad_press", "message": "seat, button and down are needed"}, 400
    if down:
        sim.press(seat, button)
    else:
        sim.release(seat, button)
    return {"ok": True}


def _faults_now(sim) -> dict:
    return {"faults": [fault.to_dict() for fault in sim.sim_faults],
            "kinds": dict(KINDS), "seats": sim.seat_count}


@bp.get("/faults")
def faults():
    """The faults put into the simulated table now, and the kinds there are."""
    _table, _hub, sim = _parts()
    return _faults_now(sim)


@bp.post("/fault")
def fault():
    """Put a fault into the simulated table or lift it (docs/seats.md, "When a part
    fails"): ``{"kind": "screen-missing", "seat": 3, "on": false}``, seat numbers from 1,
    ``"role"`` for a ``button-stuck`` (select when left out). JSON only, as /sim/press."""
    _table, _hub, sim = _parts()
    body = _json_body()
    if isinstance(body, tuple):
        return body
    kind, seat, on = body.get("kind"), body.get("seat"), body.get("on")
    role = body.get("role", "select")
    if (kind not in KINDS or type(seat) is not int or not 1 <= seat <= sim.seat_count
            or role not in BUTTONS or type(on) is not bool):
        return {"code": "bad_fault", "message": "kind, seat (from 1) and on are needed"}, 400
    if on:
        sim.put_fault(kind, seat, role)
    else:
        sim.lift_fault(kind, seat, role)
    return _faults_now(sim)
