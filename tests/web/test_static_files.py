"""Static files: gzipped for a browser that takes it, ETags, and versioned URLs kept a year."""
from __future__ import annotations

import gzip

from flask import url_for

from companion.web.static_files import VERSIONED_MAX_AGE, StaticFiles


def test_text_files_are_sent_gzipped_to_a_browser_that_takes_it(client, app):
    plain = client.get("/static/mutiny.css")
    packed = client.get("/static/mutiny.css", headers={"Accept-Encoding": "gzip, br"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert plain.headers["Content-Type"].startswith("text/css")


def test_an_etag_answers_304(client):
    first = client.get("/static/common.js")
    etag = first.headers["ETag"]
    again = client.get("/static/common.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert "no-cache" in first.headers["Cache-Control"]


def test_pages_link_to_versioned_files_kept_a_year(client, app):
    with app.test_request_context():
        url = url_for("static", filename="board.js")
    assert "?v=" in url
    reply = client.get(url)
    assert reply.status_code == 200
    assert f"max-age={VERSIONED_MAX_AGE}" in reply.headers["Cache-Control"]
    assert "immutable" in reply.headers["Cache-Control"]
    assert url in client.get("/table").get_data(as_text=True)


def test_no_file_outside_the_folder_and_none_missing(client, tmp_path):
    assert client.get("/static/../companion/web/__init__.py").status_code == 404
    assert client.get("/static/games/no-such-game.js").status_code == 404
    files = StaticFiles(tmp_path)
    (tmp_path / "a.js").write_text("x" * 2000)
    first = files.get("a.js")
    (tmp_path / "a.js").write_text("y" * 3000)
    assert files.get("a.js").digest != first.digest  # a changed file is read again
    assert files.get("../a.js") is None
