"""The Flask app factory: phones, host, table display and the simulated table."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion.access import HostPin
from companion.table import Table
from companion.web.live import Hub

#: Templates and static files live in the repository's top-level ``web/`` folder.
WEB_DIR = Path(__file__).resolve().parents[2] / "web"


def create_app(table: Table, hub: Hub, sim: Any = None,
               config: dict[str, Any] | None = None, screens: Hub | None = None) -> Flask:
    """A Flask app for one table. ``sim`` is the simulated seat backend, if any: with it
    the ``/sim`` page shows and drives every seat; ``screens`` is the hub its seats
    publish when a screen changes (default: ``hub``). The host PIN is the table's
    (``table.pin``); a table without one gets a fresh PIN here."""
    app = Flask(__name__, template_folder=str(WEB_DIR / "templates"),
                static_folder=str(WEB_DIR / "static"), static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=64 * 1024)
    app.config.update(config or {})
    if table.pin is None:
        table.pin = HostPin()
    app.extensions["mutiny"] = {"table": table, "hub": hub, "screens": screens or hub,
                                "sim": sim, "pin": table.pin}

    from companion.web import api, compress, guard, home, pages, quick, static_files
    guard.install(app)
    static_files.install(app)
    compress.install(app)  # pages and JSON gzipped for a browser that takes it
    app.register_blueprint(home.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    if sim is not None:
        from companion.web import sim as sim_pages
        app.register_blueprint(sim_pages.bp)
    quick.install(app)  # a seat's action without Flask's machinery (web/quick.py)
    return app
