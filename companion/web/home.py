"""The front door: where a browser that opens the Pi's address lands."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, url_for

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    if current_app.extensions["mutiny"]["sim"] is not None:
        return redirect(url_for("sim.page"))
    return redirect(url_for("pages.table"))


@bp.get("/healthz")
def healthz():
    """For `mutiny doctor` and the service manager: the app answers."""
    return jsonify(status="ok")
