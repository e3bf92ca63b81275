"""A phone's first screen and a tap's redraw, in Chromium slowed down as a cheap phone
on a poor link: CPU 6 times slower (``Emulation.setCPUThrottlingRate``) and Chrome's
"slow 4G" (``Network.emulateNetworkConditions``: 150 ms round trip, 1.6 Mbit/s down,
750 kbit/s up), through Playwright's CDP session.

- **link to title**: a phone that holds its seat opens the seat's page with nothing in
  its cache, until the seat's screen shows its title (the frame after it is written):
  from the navigation's start, as the page's own clock measures it. The median of N.
- **link to board**: the same loads, until the board is drawn (by the page's scripts).
- **tap to redraw** (Card Mutiny, 4 players, its 7x7 grid): a tap on a face-down card
  of the grid until the frame after the board is drawn from the payload it brought; the
  CPU slowed alone (the phone is on the table's own Wi-Fi), the median of N.

Either against this working tree or another (``--root``: an export of an older commit,
to compare before and after; its server runs from that tree, the phone's pages too)::

    python -m bench.first_load --loads 15 --taps 15
    git archive <commit> | tar -x -C /tmp/before
    python -m bench.first_load --root /tmp/before

Figures, never asserted (docs/performance.md, "A phone's first screen").
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

HERE = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("MUTINY_CHROMIUM", "/usr/bin/chromium")
#: Chrome DevTools' "Slow 4G" preset (bytes per second; latency in ms).
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
           "uploadThroughput": 750 * 1024 / 8 * 0.9}
CPU_SLOWDOWN = 6
PHONE = {"width": 360, "height": 740}
TARGETS = {"link to title": 1000.0, "link to board": 1000.0, "tap to redraw": 150.0}

#: The table, run in a child process from the tree under test: it prints its address
#: and seat 1's join link, then answers "turn" (others play until seat 1 may flip a
#: card of the grid; it prints the payload's version then) until stdin closes.
TABLE = r"""
import json, random, sys, tempfile, threading
from companion.serve import ServeOptions, Server
server = Server(ServeOptions(backend="sim", seats=4, data_dir=tempfile.mkdtemp(), port=0,
                             host="127.0.0.1"))
server.http.connections_per_client = 200
server.start_table()
threading.Thread(target=server.serve_forever, daemon=True).start()
table = server.table
table.start("card-mutiny", 4, {"first_seat": 1}, seed="first-load",
            names=["Anne", "Bonny", "Calico Jack", "Drake"])
rng = random.Random(7)
def flips(seat):
    return [a for a in table.match.legal_actions(seat) if a.get("type") == "flip"]
def turn():
    for _ in range(400):
        match = table.match
        if match.is_over:
            return None
        acting = [a for a in match.acting() if isinstance(a, int)]
        if 0 in acting and flips(0):
            return table.payload(0)[1]["version"]
        seat = 0 if 0 in acting else rng.choice(acting)
        table.submit(seat, rng.choice(match.legal_actions(seat)))
    return None
for _ in range(10):   # mid-match: a grid with some cards gone and some face up
    turn(); table.submit(0, rng.choice(flips(0)))
print(json.dumps({"url": server.url, "join": table.join_url(0)}), flush=True)
for line in sys.stdin:
    print(json.dumps({"version": turn(), "title": table.payload(0)[1]["display"]["title"]}),
          flush=True)
"""

#: In the page from its first script on: when the seat's title is first shown (the frame
#: after), and when the board is first drawn again from the payload a tap brought.
WATCH = r"""
(() => {
  window.__firstLoad = {title: null, board: null, tapAt: null, tapDone: null, place: null,
                        version: null};
  const seen = (records) => {
    const node = document.getElementById("screen-title");
    const want = window.__wantTitle, w0 = window.__firstLoad;
    if (w0.board === null && document.querySelector("#board button.tap, #board figure")) {
      requestAnimationFrame(() => { if (w0.board === null) w0.board = performance.now(); });
    }
    if (window.__firstLoad.title === null && node && want && node.textContent === want) {
      requestAnimationFrame(() => {
        if (window.__firstLoad.title === null) window.__firstLoad.title = performance.now();
      });
    }
    // The board drawn again from a payload newer than the one the tap was made on.
    const w = window.__firstLoad;
    const last = (window.__mutinyPayloads || []).at(-1);
    if (w.tapAt !== null && w.tapDone === null && last && last.version > w.version &&
        records.some((r) => r.target.closest && r.target.closest("#board"))) {
      requestAnimationFrame(() => { if (w.tapDone === null) w.tapDone = performance.now(); });
    }
  };
  new MutationObserver(seen).observe(document, {childList: true, subtree: true,
                                                characterData: true});
  addEventListener("pointerdown", (event) => {
    const cell = event.target.closest && event.target.closest("td[data-place]");
    if (cell) {
      window.__firstLoad.place = cell.dataset.place;
      window.__firstLoad.version = ((window.__mutinyPayloads || []).at(-1) || {}).version;
      window.__firstLoad.tapAt = performance.now();
      window.__firstLoad.tapDone = null;
    }
  }, true);
})();
"""


class TableProcess:
    """The table under test in its own process (its own interpreter and GIL)."""

    def __init__(self, root: Path):
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen([sys.executable, "-c", TABLE], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        first = json.loads(self.proc.stdout.readline())
        self.url, self.join = first["url"], first["join"]

    def turn(self) -> dict[str, Any]:
        self.proc.stdin.write("turn\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait(10)


def seat_cookie(table: TableProcess) -> dict[str, str]:
    """Join seat 1 once (its QR link), as the phone did: the cookie it was given."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(table.join, timeout=10).read()
    cookie = next(c for c in jar if c.name.startswith("mutiny_seat"))
    return {"name": cookie.name, "value": cookie.value, "url": table.url}


def slowed_page(browser, cookie: dict[str, str], network: bool = True):
    """A fresh phone (no cache) holding the seat, its CPU slowed (and its network, unless
    ``network`` is False)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([cookie])
    context.add_init_script(WATCH)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    if network:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page


def link_to_title(browser, table: TableProcess, cookie: dict[str, str],
                  title: str) -> tuple[float, float]:
    """One cold load of the seat's page: ms from the navigation's start to its title,
    and to its board (drawn by the page's scripts)."""
    context, page = slowed_page(browser, cookie)
    try:
        page.add_init_script(f"window.__wantTitle = {json.dumps(title)};")
        page.goto(table.url + "/seat/", wait_until="commit")
        page.wait_for_function("() => window.__firstLoad && window.__firstLoad.title !== null"
                               " && window.__firstLoad.board !== null", timeout=60000)
        return page.evaluate("() => [window.__firstLoad.title, window.__firstLoad.board]")
    finally:
        context.close()


def taps(browser, table: TableProcess, cookie: dict[str, str], count: int) -> list[float]:
    """``count`` taps on face-down cards of the grid: ms from each to its redraw."""
    # The CPU alone: slow 4G's round trip alone is 150 ms, and a phone at the table is on
    # the Pi's own Wi-Fi a few metres away.
    context, page = slowed_page(browser, cookie, network=False)
    found = []
    try:
        page.goto(table.url + "/seat/")
        while len(found) < count:
            state = table.turn()
            if state["version"] is None:
                break
            page.wait_for_function(
                "(v) => (window.__mutinyPayloads.at(-1) || {}).version === v && "
                "document.querySelector('#board button.tap:not(:disabled)')",
                arg=state["version"], timeout=60000)
            page.wait_for_timeout(300)  # the drawing of that payload is over
            page.locator("#board button.tap:not(:disabled)").first.click()
            page.wait_for_function("() => window.__firstLoad.tapDone !== null", timeout=60000)
            found.append(page.evaluate("() => window.__firstLoad.tapDone - window.__firstLoad.tapAt"))
    finally:
        context.close()
    return found


def run(root: Path = HERE, loads: int = 15, tap_count: int = 15) -> dict[str, list[float]]:
    """Every load's and tap's time in ms, against the tree at ``root``."""
    from playwright.sync_api import sync_playwright
    table = TableProcess(root)
    try:
        cookie = seat_cookie(table)
        title = table.turn()["title"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
            try:
                times = [link_to_title(browser, table, cookie, title) for _ in range(loads)]
                tapped = taps(browser, table, cookie, tap_count)
            finally:
                browser.close()
    finally:
        table.close()
    return {"link to title": [title for title, _board in times],
            "link to board": [board for _title, board in times], "tap to redraw": tapped}


def report(found: dict[str, list[float]], label: str) -> None:
    for name, values in found.items():
        if not values:
            print(f"{label:8} {name:15} no figures")
            continue
        ordered = sorted(values)
        print(f"{label:8} {name:15} n={len(values):3} median {statistics.median(values):7.0f} ms"
              f"  min {ordered[0]:6.0f}  max {ordered[-1]:6.0f}  target {TARGETS[name]:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE,
                        help="the tree whose server and pages are measured (default: this one)")
    parser.add_argument("--loads", type=int, default=15)
    parser.add_argument("--taps", type=int, default=15)
    parser.add_argument("--label", default="")
    args = parser.parse_args(argv)
    started = time.time()
    found = run(args.root.resolve(), args.loads, args.taps)
    report(found, args.label or args.root.name)
    print(f"({time.time() - started:.0f} s; CPU x{CPU_SLOWDOWN}, slow 4G)")


if __name__ == "__main__":
    main()
