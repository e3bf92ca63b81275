"""Static files sent compressed and cached: a phone's first load is small, the next free.

Flask's own static view sends each file whole, every time it is asked. Here every
text file (CSS, scripts, SVG) is gzipped once and kept in memory while the file on disk
is unchanged, and sent gzipped to a browser that accepts it. Every file has an ETag
(a digest of its content), so a browser that has it gets ``304 Not Modified``. The
pages link to files with ``?v=<digest>`` (added to every ``url_for("static", ...)``):
such a URL names one version of the file forever, so the browser keeps it a year
without asking; a URL without it (a game's script loaded by a page) is revalidated.
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, request
from werkzeug.security import safe_join

#: Kinds of file worth compressing (images and fonts are compressed already).
COMPRESSIBLE = frozenset({".css", ".js", ".mjs", ".svg", ".json", ".html", ".txt", ".map"})
#: How long a browser keeps a file whose URL names its version (a year: it never changes).
VERSIONED_MAX_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class StaticFile:
    """One file as it is on disk now: its bytes, gzipped bytes and digest."""

    key: tuple[int, int]     # (mtime_ns, size): the file on disk changed when this does
    body: bytes
    gzipped: bytes | None    # None: not worth compressing
    digest: str
    mimetype: str


class StaticFiles:
    """The files under ``folder``, read and compressed once per change on disk."""

    def __init__(self, folder: str | Path):
        self.folder = str(folder)
        self._files: dict[str, StaticFile] = {}
        self._lock = threading.Lock()

    def get(self, filename: str) -> StaticFile | None:
        """The file ``filename`` (a path under the folder), or None if there is none."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            stat = Path(path).stat()
        except OSError:
            return None
        if not Path(path).is_file():
            return None
        key = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            known = self._files.get(path)
        if known is not None and known.key == key:
            return known
        loaded = self._load(path, key)
        with self._lock:
            self._files[path] = loaded
        return loaded

    @staticmethod
    def _load(path: str, key: tuple[int, int]) -> StaticFile:
        body = Path(path).read_bytes()
        gzipped = None
        if Path(path).suffix.lower() in COMPRESSIBLE:
            # mtime=0: the same file gzips to the same bytes on every start.
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            gzipped = packed if len(packed) < len(body) else None
        mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
        return StaticFile(key, body, gzipped, hashlib.sha256(body).hexdigest()[:16], mimetype)

    def response(self, filename: str) -> Response:
        """The response for ``GET /static/<filename>``: gzipped when the browser takes
        it, with its ETag, cached for a year when asked for by its version."""
        found = self.get(filename)
        if found is None:
            abort(404)
        packed = found.gzipped is not None and request.accept_encodings["gzip"] > 0
        reply = Response(found.gzipped if packed else found.body, mimetype=found.mimetype)
        if packed:
            reply.headers["Content-Encoding"] = "gzip"
        if found.gzipped is not None:
            reply.vary.add("Accept-Encoding")
        reply.set_etag(found.digest + ("-gz" if packed else ""))
        if request.args.get("v") == found.digest:
            reply.cache_control.public = True
            reply.cache_control.max_age = VERSIONED_MAX_AGE
            reply.cache_control.immutable = True
        else:
            reply.cache_control.no_cache = True  # keep it, but ask (a 304) before use
        reply.make_conditional(request)  # in place (it returns the same reply)
        return reply


def install(app: Flask) -> StaticFiles:
    """Serve ``app``'s static folder through :class:`StaticFiles` and add each file's
    version to the URLs that ``url_for("static", filename=...)`` builds."""
    files = StaticFiles(app.static_folder or "")
    app.view_functions["static"] = files.response

    @app.url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            found = files.get(values["filename"])
            if found is not None:
                values["v"] = found.digest

    app.extensions["static_files"] = files
    return files
