"""Helpers for the browser tests: a live server on the simulated table, seat clients
without a browser, and waiting for a page to show what the server has."""
from __future__ import annotations

import http.cookiejar
import json
import os
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from companion.serve import Server  # noqa: E402
from companion.web.auth import SEAT_COOKIE  # noqa: E402

CHROMIUM = os.environ.get("MUTINY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 360, "height": 740}
#: How long a page may take to show what the server has (generous for a loaded CI box).
SYNC_SECONDS = 10.0


class Live:
    """A running server on the simulated table, and helpers to drive it."""

    def __init__(self, server: Server):
        self.server = server
        self.table = server.table
        self.url = server.url
        self.thread = threading.Thread(target=server.serve_forever, name="test-http",
                                       daemon=True)
        self.thread.start()
        self.contexts: list[BrowserContext] = []
        #: Each seat's grant (its seat cookie) as the test's phones hold it: a seat has
        #: one phone at a time (docs/security.md), so every page and client a test
        #: opens for a seat is that same phone, never a second one taking it over.
        self.grants: dict[int, str] = {}

    @property
    def pin(self) -> str:
        return self.server.pin.pin

    def join_url(self, seat: int) -> str:
        return self.table.join_url(seat)

    # -- the server's side ------------------------------------------------------------
    def payload(self, viewer: Any) -> dict[str, Any]:
        """What the server would send ``viewer`` now, through JSON like the stream."""
        return json.loads(json.dumps(self.table.payload(viewer)[1]))

    def post(self, path: str, body: dict[str, Any], opener=None) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with (opener or urllib.request.build_opener()).open(request, timeout=10) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def seat_client(self, seat: int) -> "SeatClient":
        return SeatClient(self, seat)

    def press(self, seat: int, button: str = "select") -> None:
        """A press and release of a seat's button through /sim/press."""
        for down in (True, False):
            status, _ = self.post("/sim/press", {"seat": seat, "button": button, "down": down})
            assert status == 200
            time.sleep(0.06)  # past the 30 ms debounce, as a finger would be

    # -- browsers -----------------------------------------------------------------------
    def context(self, browser: Browser, **options: Any) -> BrowserContext:
        """A browser context (its own cookie jar), closed before the server stops."""
        context = browser.new_context(**options)
        context.set_default_timeout(SYNC_SECONDS * 1000)
        self.contexts.append(context)
        return context

    def phone(self, browser: Browser, seat: int, via: str | None = None,
              **options: Any) -> Page:
        """A phone of its own that opened seat ``seat``'s join link (the QR code);
        ``via`` is another base URL to reach the server by (a :class:`Cable`)."""
        options.setdefault("viewport", PHONE)
        options.setdefault("has_touch", True)
        options.setdefault("is_mobile", True)
        context = self.context(browser, **options)
        url = self.join_url(seat)
        if via:
            url = via + url[url.index("/J/"):]
        if seat in self.grants:  # the same phone in another tab (a dead grant joins anew)
            context.add_cookies([{"name": SEAT_COOKIE, "value": self.grants[seat],
                                  "url": url[:url.index("/J/")]}])
        page = context.new_page()
        watch_errors(page)
        page.goto(url)
        assert page.url.endswith("/seat/"), page.url
        self.grants[seat] = next(c["value"] for c in context.cookies()
                                 if c["name"] == SEAT_COOKIE)
        return page

    def page(self, browser: Browser, path: str, **options: Any) -> Page:
        page = self.context(browser, **options).new_page()
        watch_errors(page)
        page.goto(self.url + path)
        return page

    def close(self) -> None:
        """Close its pages and stop the server (idempotent: a test may stop it first)."""
        if getattr(self, "_closed", False):
            return
        self._closed = True
        for context in self.contexts:
            try:
                context.close()
            except Exception:  # noqa: BLE001 - the browser may have gone first
                pass
        self.server.shutdown()
        self.thread.join(10)


class SeatClient:
    """A seat's phone without a browser: the join link's cookie and the JSON API."""

    def __init__(self, live: Live, seat: int):
        self.live, self.seat = live, seat
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        if seat in live.grants:  # the seat's phone, through the API (see Live.grants)
            self.jar.set_cookie(http.cookiejar.Cookie(
                0, SEAT_COOKIE, live.grants[seat], None, False, "127.0.0.1", False, False,
                "/", True, False, None, False, None, None, {}))
        with self.opener.open(live.join_url(seat), timeout=10) as reply:
            assert reply.status == 200 and reply.url.endswith("/seat/"), reply.url
        live.grants[seat] = next(c.value for c in self.jar if c.name == SEAT_COOKIE)

    def act(self, action: dict[str, Any], version: int | None = None) -> tuple[int, dict]:
        if version is None:
            version = self.live.payload(self.seat)["version"]
        return self.live.post("/api/seat/act", {"action": action, "version": version},
                              self.opener)


def watch_errors(page: Page) -> None:
    """Fail on any script error in a page (kept on the page, checked by last_payload),
    and keep every request that failed or was answered with an error (a 404 for an
    asset) for :func:`failed_requests`."""
    page._mutiny_errors = []  # type: ignore[attr-defined]
    page._mutiny_failed = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page._mutiny_errors.append(str(error)))  # type: ignore[attr-defined]
    page.on("response", lambda reply: page._mutiny_failed.append(  # type: ignore[attr-defined]
        f"{reply.status} {reply.url}") if reply.status >= 400 else None)
    page.on("requestfailed", lambda request: page._mutiny_failed.append(  # type: ignore[attr-defined]
        f"failed {request.url} ({request.failure})"))


def page_errors(page: Page) -> list[str]:
    return list(getattr(page, "_mutiny_errors", []))


def failed_requests(page: Page) -> list[str]:
    """Every request of the page that failed or got an HTTP error so far. A live stream
    that the page closed itself (on leaving, or to reconnect) is not a failure."""
    return [line for line in getattr(page, "_mutiny_failed", [])
            if not ("/stream" in line and "ERR_ABORTED" in line)]


#: The accessibility checker, vendored from npm (tests/browser/vendor/axe-core/README.md):
#: a test-only file, never served by the companion.
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, base_url: str = "") -> list[dict[str, Any]]:
    """What axe-core finds wrong with the page as it is now (WCAG 2.1 A and AA and best
    practices), each as ``{id, impact, help, nodes: [selector and html, ...]}``.

    The companion never serves axe: Playwright answers one address of the page's own
    site with the test's copy (a route inside the browser, the server never asked) and
    puts it in as a script tag from there, so the page's CSP ('self' only, no inline
    script) allows it as it allows the page's own scripts."""
    if not page.evaluate("() => !!window.axe"):
        origin = base_url or page.evaluate("() => location.origin")
        address = origin + "/__tests__/axe.min.js"
        page.route(address, lambda route: route.fulfill(
            path=str(AXE), content_type="text/javascript; charset=utf-8"))
        page.add_script_tag(url=address)
    found = page.evaluate("""async () => {
        const result = await window.axe.run(document, {
          runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                          "best-practice"]},
          resultTypes: ["violations"]});
        return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.html.slice(0, 160)}`)}));
    }""")
    return found


def payloads(page: Page, start: int = 0) -> list[dict[str, Any]]:
    """Every payload the page has received (window.__mutinyPayloads), from ``start``."""
    return page.evaluate("(n) => window.__mutinyPayloads.slice(n)", start)


def last_payload(page: Page) -> dict[str, Any] | None:
    return page.evaluate("() => window.__mutinyPayloads.at(-1) || null")


def wait_until(check: Callable[[], Any], what: str, seconds: float = SYNC_SECONDS) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.03)


def wait_synced(page: Page, live: Live, viewer: Any, seconds: float = SYNC_SECONDS) -> dict:
    """Wait until the page's latest payload is exactly what the server has for ``viewer``."""
    holder: dict[str, Any] = {}

    def same() -> bool:
        holder["want"] = live.payload(viewer)
        holder["got"] = last_payload(page)
        return holder["got"] == holder["want"]

    try:
        wait_until(same, f"the page of {viewer!r} to catch up", seconds)
    except AssertionError:
        raise AssertionError(f"page of {viewer!r} never caught up:\n got {holder.get('got')}\n"
                             f"want {holder.get('want')}\nerrors {page_errors(page)}") from None
    assert not page_errors(page), page_errors(page)
    return holder["want"]




class HostClient:
    """The host without a browser: logs in with the PIN, then uses /api/host/*."""

    def __init__(self, live: Live):
        self.live = live
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        status, body = live.post("/api/host/login", {"pin": live.pin}, self.opener)
        assert status == 200, body

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.live.post(path, body, self.opener)

    def start(self, game: str, players: int, options: dict[str, Any] | None = None,
              names: list[str] | None = None) -> dict[str, Any]:
        status, body = self.post("/api/host/start", {"game": game, "players": players,
                                                     "options": options or {},
                                                     **({"names": names} if names else {})})
        assert status == 200, body
        return body


def touch_hold_and_tap(page: Page, hold_selector: str, tap_selector: str,
                       while_held: Callable[[], None] | None = None) -> None:
    """Two fingers, as on a phone: one holds ``hold_selector`` down, the other taps
    ``tap_selector``; then the first lets go. ``while_held`` runs with the first finger
    down (before the tap)."""
    cdp = page.context.new_cdp_session(page)

    def centre(selector: str) -> dict[str, float]:
        box = page.locator(selector).bounding_box()
        assert box, selector
        return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}

    hold = {**centre(hold_selector), "id": 1}
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [hold]})
        if while_held:
            while_held()
        # A held secret may push the choice below the fold: the second finger scrolls
        # to it first, as a player would (the eye is fixed in its dock and stays held).
        page.locator(tap_selector).scroll_into_view_if_needed()
        tap = {**centre(tap_selector), "id": 2}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [hold, tap]})
        # Chromium lifts the points a touchEnd names (the holding finger stays down).
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [tap]})
    finally:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()


def visible_text(page: Page) -> str:
    """What a glance at the screen shows (hidden elements excluded)."""
    return page.inner_text("body")


class Cable:
    """A TCP relay in front of the server that a test can unplug: ``cut()`` drops every
    open connection (a phone's live stream included) and refuses new ones until
    ``restore()``, as when a phone walks out of the table's Wi-Fi. Cookies do not depend
    on the port, so a phone that joined through the server keeps its seat here."""

    def __init__(self, target_port: int):
        import socket
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.down = False
        self.open: set[Any] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True, name="cable").start()

    def _accept(self) -> None:
        import socket
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source, sink) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                self._close(sock)

    def _close(self, sock) -> None:
        import socket
        with self.lock:
            self.open.discard(sock)
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

    def cut(self) -> None:
        self.down = True
        with self.lock:
            socks = list(self.open)
        for sock in socks:
            self._close(sock)

    def restore(self) -> None:
        self.down = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
