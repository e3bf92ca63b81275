"""The JSON API under /api/ (docs/api.md): views, live streams and actions.

Every answer for a viewer is built from that viewer's payload, which the table built
from that viewer's own view; every rejection is ``{"code", "message"}`` with a 4xx
status and leaves the match unchanged.
"""
from __future__ import annotations

import io
import math
import threading
from typing import Any

import segno
from flask import Blueprint, Response, current_app, g, jsonify, request, stream_with_context

import companion.games
from companion import jsontext
from companion.access import PinLocked
from companion.engine import HOST, PUBLIC
from companion.engine.spec import TIMER_MAX
from companion.errors import MutinyError, UnknownGame
from companion.table import lobby, nudges
from companion.web import auth, pages
from companion.web.live import StreamEnded

bp = Blueprint("api", __name__, url_prefix="/api")

#: HTTP status for each engine or API code that is not a 409 rule refusal.
STATUS = {
    "bad_json": 400, "bad_request": 400, "bad_action": 400, "missing_field": 400,
    "unknown_field": 400, "bad_value": 400, "bad_seats": 400, "bad_option": 400,
    "unknown_option": 400, "bad_names": 400, "unknown_game": 400, "unknown_action": 400,
    "no_seat": 401, "no_host": 401, "bad_pin": 401, "cross_site": 403, "taken_over": 403,
    "no_match": 404, "no_such_seat": 404, "no_such_phone": 404, "not_found": 404,
    "bad_method": 405, "wrong_host": 403, "too_large": 413, "json_only": 415,
    "locked": 429, "busy": 503,
}


class ApiError(MutinyError):
    """A refusal of the API itself (not of the rules)."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


def refusal_body(code: str, message: str, **extra: Any) -> tuple[dict[str, Any], int]:
    """The body and HTTP status of a refusal."""
    return {"code": code, "message": message, **extra}, STATUS.get(code, 409)


def refusal(code: str, message: str, **extra: Any):
    body, status = refusal_body(code, message, **extra)
    return jsonify(body), status


def what_refused(exc: MutinyError) -> tuple[str, str]:
    """The code and message that answer ``exc`` (a rule's refusal has both)."""
    return getattr(exc, "code", "bad_request"), getattr(exc, "message", str(exc))


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError):
    return refusal(exc.code, exc.message, **exc.extra)


@bp.errorhandler(MutinyError)  # (ActionRejected, the rules' refusal, is one)
def _mutiny_error(exc: MutinyError):
    return refusal(*what_refused(exc))


@bp.errorhandler(413)
def _too_large(_exc):
    return refusal("too_large", "that request is far too large")


@bp.before_request
def _guard_writes():
    if request.method == "POST":
        auth.check_same_site()
        if not request.is_json:
            raise ApiError("json_only", "send application/json")
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # nested deeper than the JSON parser goes
            body = None
        if not isinstance(body, dict):
            raise ApiError("bad_json", "the body must be a JSON object")
        g.body = body


class StreamSlots:
    """Live streams per kind of viewer, so that strangers cannot take the seats' and
    the host's: each seat a few (its one phone, a reload or a second tab), the host a
    few, and the public streams (the table display, and anyone on the Wi-Fi) a pool of
    their own. When the public pool is full the table display reads
    ``/api/public/view`` instead, as every page does when refused (docs/security.md)."""

    LIMITS = {"seat": 4, "host": 4, "public": 12, "sim": 4}

    def __init__(self) -> None:
        self._open: dict[Any, int] = {}
        self._lock = threading.Lock()

    def take(self, kind: str, viewer: Any) -> bool:
        key = viewer if kind == "seat" else kind
        with self._lock:
            if self._open.get(key, 0) >= self.LIMITS.get(kind, 4):
                return False
            self._open[key] = self._open.get(key, 0) + 1
            return True

    def give_back(self, kind: str, viewer: Any) -> None:
        key = viewer if kind == "seat" else kind
        with self._lock:
            self._open[key] = max(0, self._open.get(key, 0) - 1)


def _table():
    return current_app.extensions["mutiny"]["table"]


def _hub():
    return current_app.extensions["mutiny"]["hub"]


# -- reading --------------------------------------------------------------------------
@bp.get("/games")
def games():
    return jsonify(lobby.game_specs())


@bp.get("/howto/<game_id>")
def howto(game_id: str):
    """A game's how-to (``Game.how_to_play``): public and the same all match long, so
    the payloads only name the game and the pages fetch its texts once."""
    try:
        game = companion.games.get(game_id)
    except UnknownGame:
        raise ApiError("not_found", f"there is no game {game_id!r}") from None
    return jsonify(game.how_to_play())


@bp.get("/seat/view")
def seat_view():
    return jsonify(_table().payload(auth.require_seat())[1])


@bp.get("/public/view")
def public_view():
    return jsonify(_table().payload(PUBLIC)[1])


@bp.get("/host/view")
@auth.host_required
def host_view():
    return jsonify(_table().payload(HOST)[1])


@bp.get("/seat/stream")
def seat_stream():
    return _stream(auth.require_seat())


@bp.get("/public/stream")
def public_stream():
    return _stream(PUBLIC)


@bp.get("/host/stream")
@auth.host_required
def host_stream():
    return _stream(HOST)


def _stream(viewer):
    table = _table()
    slots = current_app.extensions["mutiny"].setdefault("slots", StreamSlots())
    kind = "seat" if isinstance(viewer, int) else viewer
    if _hub().is_full or not slots.take(kind, viewer):
        # The page asks /view and retries, backing off.
        raise ApiError("busy", "too many live pages are open at this table")
    # The seat (or host) is checked once here and again on every event, so a replaced
    # token or a logout closes the stream instead of feeding it.
    still_allowed = auth.still_allowed(viewer)

    def build():
        if not still_allowed():
            raise StreamEnded
        serial, text = table.payload_text(viewer)
        return serial, "payload", text

    handover = request.environ.get("mutiny.connection")
    hub = _hub()

    def events():
        yield "retry: 1500\n\n"  # reconnect soon after a phone wakes
        # The headers are out now: a server that hands over the connection lets the
        # hub write this viewer's events straight to it.
        yield from hub.stream(build, connection=handover() if handover else None)

    response = Response(stream_with_context(events()), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: slots.give_back(kind, viewer))  # however it ends
    return response


# -- acting ---------------------------------------------------------------------------
@bp.post("/seat/act")
def seat_act():
    seat = auth.require_seat()
    action, version = _action_and_version()
    return jsonify(ok=True, version=_table().submit(seat, action, version))


@bp.post("/seat/name")
def seat_name():
    """The seat's own phone names its player, on joining or later; the host may still
    change it (``/host/seats/<n>/name``), and either name is shown alike."""
    seat = auth.require_seat()
    name = _name_given()
    _table().rename(seat, name)
    return jsonify(ok=True, name=name)


def _name_given() -> str:
    """The body's ``name``, cleaned as the table shows it, or ``bad_request``."""
    name = g.body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ApiError("bad_request", "give a name")
    return auth.clean_name(name)


@bp.post("/host/login")
def host_login():
    pin = g.body.get("pin")
    try:
        ok = auth.pin().check(pin, client=request.remote_addr or "")
    except PinLocked as exc:
        raise ApiError("locked", str(exc), retry_after=round(exc.retry_after)) from None
    if not ok:
        raise ApiError("bad_pin", "that is not the host PIN")
    response = jsonify(ok=True)
    auth.set_host_cookie(response)
    return response


@bp.post("/host/logout")
def host_logout():
    response = jsonify(ok=True)
    auth.clear_host_cookie(response)
    return response


@bp.post("/host/start")
@auth.host_required
def host_start():
    body = g.body
    game, players, options, names = (body.get("game"), body.get("players"),
                                      body.get("options", {}), body.get("names"))
    if not isinstance(game, str) or not isinstance(options, dict):
        raise ApiError("bad_request", "give a game id and an options object")
    if names is not None and (not isinstance(names, list) or
                              not all(isinstance(n, str) for n in names)):
        raise ApiError("bad_request", "names is a list of strings")
    if names is not None:
        names = [auth.clean_name(n) for n in names]
    try:
        match = _table().start(game, players, options, names=names)
    except UnknownGame as exc:
        raise ApiError("unknown_game", str(exc)) from None
    # The seats take the names only once the match has started: a refused start
    # changes nothing.
    for seat, name in enumerate((names or [])[:_table().seat_count]):
        if not _table().bots.sits(seat):  # a bot's name is its level, never kept
            _table().rename(seat, name)
    return jsonify(ok=True, match=match.id)


@bp.post("/host/act")
@auth.host_required
def host_act():
    action, version = _action_and_version()
    return jsonify(ok=True, version=_table().submit(HOST, action, version))


@bp.post("/host/lobby")
@auth.host_required
def host_lobby():
    _table().back_to_lobby()
    return jsonify(ok=True)


@bp.post("/host/rematch")
@auth.host_required
def host_rematch():
    """The finished match again: same game, seats, names and options; phones stay."""
    return jsonify(ok=True, match=_table().rematch().id)


@bp.post("/host/night/new")
@auth.host_required
def host_new_night():
    """A new game night: the standings start again (phones stay joined)."""
    _table().new_night()
    return jsonify(ok=True)


@bp.post("/host/nudges")
@auth.host_required
def host_nudges():
    """Switch the phones' buzz and the table display's chime: ``{"vibrate": false}``,
    ``{"sound": true}`` or both (docs/table.md, "Nudges")."""
    given = {name: g.body[name] for name in nudges.SWITCHES if name in g.body}
    if not given or set(g.body) - set(nudges.SWITCHES) or not all(
            type(on) is bool for on in given.values()):
        raise ApiError("bad_request", "give vibrate and/or sound, each true or false")
    for name, on in given.items():
        _table().switch_nudges(name, on)
    return jsonify(ok=True, nudges=_table().nudges.switches)


@bp.post("/host/timer")
@auth.host_required
def host_timer():
    """More time on the step timer (``{"add": 30}``), less (``{"add": -30}``), or none
    left (``{"end": true}``: the time is up now, as if it had run out)."""
    add, end = g.body.get("add"), g.body.get("end")
    if end is True and add is None:
        _table().add_time(-math.inf)  # all that is left, however much was added
    elif type(add) is int and -TIMER_MAX <= add <= TIMER_MAX and end is None:
        _table().add_time(add)
    else:
        raise ApiError("bad_request", f"give add (seconds, at most {TIMER_MAX}) or end: true")
    return jsonify(ok=True, timer=_table().timekeeper.shown())


@bp.get("/clock")
def clock():
    """The table's clock, in milliseconds: a page counts a step timer down against it
    (a timer's ``since`` is on this clock), whatever its own clock says."""
    return jsonify(now=round(_table().timekeeper.clock.now() * 1000))


@bp.get("/host/night.json")
@auth.host_required
def host_night_json():
    return Response(jsontext.dumps(_table().night.to_dict()), mimetype="application/json",
                    headers=_download("mutiny-night.json"))


@bp.get("/host/night.csv")
@auth.host_required
def host_night_csv():
    return Response(_table().night.to_csv(), mimetype="text/csv",
                    headers=_download("mutiny-night.csv"))


def _download(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store"}


@bp.post("/host/seats/<int:number>/name")
@auth.host_required
def host_rename(number: int):
    _table().rename(_seat_index(number), _name_given())
    return jsonify(ok=True)


@bp.post("/host/seats/<int:number>/replace")
@auth.host_required
def host_replace(number: int):
    """A lost phone: the seat gets a new code, shown on its own screen (or by the host's
    QR), never in this answer: a live link travels only as a picture to be scanned."""
    _table().replace_seat(_seat_index(number))
    return jsonify(ok=True)


@bp.post("/host/seats/<int:number>/kick")
@auth.host_required
def host_kick(number: int):
    """Free the seat: its phone is cut off and its code changes (see host_replace)."""
    _table().replace_seat(_seat_index(number), unclaim=True)
    return jsonify(ok=True)


@bp.post("/host/seats/<int:number>/bot")
@auth.host_required
def host_seat_bot(number: int):
    """A bot sits in empty seat *n* (no player, no phone), between matches:
    ``{"level": "easy" | "normal" | "hard"}`` (docs/bots.md, "At the table")."""
    seat = _seat_index(number)
    _table().seat_bot(seat, g.body.get("level"))
    return jsonify(ok=True, name=_table().bots.name(seat))


@bp.post("/host/seats/<int:number>/bot/stand")
@auth.host_required
def host_stand_bot(number: int):
    """The bot in seat *n* stands up: the seat is empty (a phone may join it)."""
    _table().stand_bot(_seat_index(number))
    return jsonify(ok=True)


@bp.get("/host/phones")
@auth.host_required
def host_all_phones():
    """Every seat's phone at once, as the host page shows them."""
    access = _table().access
    return jsonify(seats=[{"seat": seat + 1, "phones": access.phones(seat)}
                          for seat in range(_table().seat_count)])


@bp.get("/host/seats/<int:number>/phones")
@auth.host_required
def host_phones(number: int):
    """The phone holding seat *n* (one at most): a short id, when it joined, what
    browser it is."""
    return jsonify(phones=_table().access.phones(_seat_index(number)))


@bp.post("/host/seats/<int:number>/phones/<phone>/revoke")
@auth.host_required
def host_revoke(number: int, phone: str):
    seat = _seat_index(number)
    if not _table().access.revoke(seat, phone):
        raise ApiError("no_such_phone", f"seat {number} has no phone {phone}")
    _table().tell(seat, "A phone was let go")
    return jsonify(ok=True)


@bp.get("/host/seats/<int:number>/qr.svg")
@auth.host_required
def host_qr(number: int):
    seat = _seat_index(number)
    url = _table().join_url(seat)
    # A seat's live link is never handed out without the seat knowing: its screen and
    # phones say so, and every phone that joins with it is shown there too.
    _table().tell(seat, "Host showed your code")
    return _qr_svg(url)


@bp.get("/host/handover/qr.svg")
@auth.host_required
def host_handover_qr():
    """A code that makes the phone scanning it a host too, once, within two minutes
    (``HostPin.hand_over``): how a logged-in host shares the role without the PIN ever
    being shown to the network. Only ever a picture: no live link in any JSON."""
    token = auth.pin().hand_over()
    return _qr_svg(f"{_table().base_url}/H/{token}".upper())


@bp.get("/public/seats/<int:number>/qr.svg")
def public_qr(number: int):
    """The join code of a seat nobody has had tonight, for the table display (a laptop
    table has no seat screens to show it). A seat that has had a player is never
    shown (404), even once kicked or let go, nor one sitting out: a new phone for it
    needs a code the host shows or the seat's own screen."""
    table = _table()
    seat = _seat_index(number)
    if not table.code_is_public(seat):
        raise ApiError("not_found", f"seat {number} has no code to show")
    return _qr_svg(table.join_url(seat))


@bp.get("/public/join")
def public_join():
    """How a phone joins, for the table display: the short address to type, the table
    code while some seat's code is public (null otherwise: it would lead nowhere), the
    public seats' QR size in modules (the display sizes each module from it and its own
    width, docs/table.md) and what the lobby says about joining."""
    table = _table()
    seats = table.match.seats if table.match else table.seat_count
    public = [s for s in range(seats) if table.code_is_public(s)]
    waiting = sum(not table.is_claimed(s) and not table.bots.sits(s) for s in range(seats))
    code = table.access.table_code if public else None
    address = lobby.join_address(table.base_url)
    modules = _qr(table.join_url(public[0])).symbol_size(border=0)[0] if public else None
    response = jsonify(address=address, code=code, modules=modules, border=QR_BORDER,
                       call=lobby.join_call(pages.has_screens(), waiting, len(public),
                                            address, code))
    response.headers["Cache-Control"] = "no-store"
    return response


#: Light modules around a drawn QR code (its quiet zone; the display adds no margin).
QR_BORDER = 2


def _qr(url: str) -> segno.QRCode:
    return segno.make(url, error="l")


def _qr_svg(url: str) -> Response:
    out = io.BytesIO()
    _qr(url).save(out, kind="svg", scale=8, border=QR_BORDER, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


def _seat_index(number: int) -> int:
    if not 1 <= number <= _table().seat_count:
        raise ApiError("no_such_seat", f"this table has seats 1 to {_table().seat_count}")
    return number - 1


def _action_and_version() -> tuple[Any, int | None]:
    action, version = g.body.get("action"), g.body.get("version")
    if version is not None and type(version) is not int:
        raise ApiError("bad_request", "version is a whole number")
    return action, version
