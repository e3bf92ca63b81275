"""A phone's first screen and a tap's redraw, in Chromium slowed down as a cheap phone
on a poor link: CPU 6 times slower (``Emulation.setCPUThrottlingRate``) and Chrome's
"slow 4G" (``Network.emulateNetworkConditions``: 150 ms round trip, 1.6 Mbit/s down,
750 kbit/s up), through Playwright's CDP session.

- **link to title**: a phone that holds its seat opens the seat's page with nothing in
  its cache, until the seat's screen shows its title (the frame after it is written):
  from the navigation's start, as the page's own clock measures it. The median of N.
- **link to board**: the same loads, until the board is drawn (by the page's scripts).
- **tap to redraw** (Card Mutiny, 4 players, its 7x7 grid): a tap on a face-down card
  of the grid until the frame after the board is drawn from the payload it brought (its
  animation frame, before Chromium lays it out and paints it); the CPU slowed alone (the
  phone is on the table's own Wi-Fi), the median of N. Beside it, from the same taps:
  **tap to payload**, until the payload arrived (the table's share: the action's round
  trip and its commit), and **tap to painted**, until that frame is laid out and painted
  (the next task after it); **payload to painted**, the phone's own share of each tap.
- ``--trace FILE``: Chromium's performance trace of the taps, written to FILE (DevTools'
  Performance panel opens it), and where each tap's time went on the page's main thread
  (by kind of task, and by the page's functions from V8's samples).

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
TARGETS = {"link to title": 1000.0, "link to board": 1000.0, "tap to redraw": 150.0,
           "tap to payload": None, "tap to painted": None, "payload to painted": None}

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
                        version: null, payloadAt: null, painted: null};
  // When each payload arrives (common.js keeps them in this list, made here first).
  const payloads = window.__mutinyPayloads = window.__mutinyPayloads || [];
  payloads.push = function (...items) {
    const w = window.__firstLoad;
    if (w.tapAt !== null && w.payloadAt === null && items.some((p) => p && p.version > w.version)) {
      w.payloadAt = performance.now();
    }
    return Array.prototype.push.apply(this, items);
  };
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
        records.some((r) => (r.target.nodeType === Node.ELEMENT_NODE ? r.target
                                                                 : r.target.parentElement).closest("#board"))) {
      requestAnimationFrame(() => {
        if (w.tapDone !== null) return;
        w.tapDone = performance.now();
        performance.mark("mutiny-redrawn");
        // The next task runs once that frame is laid out and painted.
        const after = new MessageChannel();
        after.port1.onmessage = () => {
          w.painted = performance.now();
          performance.mark("mutiny-painted");
        };
        after.port2.postMessage(0);
      });
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
      window.__firstLoad.payloadAt = null;
      window.__firstLoad.painted = null;
      performance.mark("mutiny-tap");  // where a trace's tap starts (--trace)
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


def taps(browser, table: TableProcess, cookie: dict[str, str], count: int,
         trace: Path | None = None) -> dict[str, list[float]]:
    """``count`` taps on face-down cards of the grid: ms from each to its payload, its
    redraw and that frame painted (with ``trace``, Chromium's performance trace of them
    written there)."""
    # The CPU alone: slow 4G's round trip alone is 150 ms, and a phone at the table is on
    # the Pi's own Wi-Fi a few metres away.
    context, page = slowed_page(browser, cookie, network=False)
    found: dict[str, list[float]] = {"tap to redraw": [], "tap to payload": [],
                                     "tap to painted": [], "payload to painted": []}
    try:
        page.goto(table.url + "/seat/")
        if trace:
            browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
        while len(found["tap to redraw"]) < count:
            state = table.turn()
            if state["version"] is None:
                break
            page.wait_for_function(
                "(v) => (window.__mutinyPayloads.at(-1) || {}).version === v && "
                "document.querySelector('#board button.tap:not(:disabled)')",
                arg=state["version"], timeout=60000)
            page.wait_for_timeout(300)  # the drawing of that payload is over
            page.locator("#board button.tap:not(:disabled)").first.click()
            page.wait_for_function("() => window.__firstLoad.painted !== null", timeout=60000)
            w = page.evaluate("() => window.__firstLoad")
            found["tap to redraw"].append(w["tapDone"] - w["tapAt"])
            found["tap to payload"].append(w["payloadAt"] - w["tapAt"])
            found["tap to painted"].append(w["painted"] - w["tapAt"])
            found["payload to painted"].append(w["painted"] - w["payloadAt"])
        if trace:
            browser.stop_tracing()
    finally:
        context.close()
    return found


#: What a trace records: the main thread's tasks, the page's marks, V8's samples.
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline",
                    "blink.user_timing", "v8.execute", "disabled-by-default-v8.cpu_profiler"]
#: A main-thread task's kind, by its trace event's name (the rest is "script and other").
KINDS = {"style": {"UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation"},
         "layout": {"Layout", "InvalidateLayout"},
         "paint": {"Paint", "PrePaint", "Layerize", "UpdateLayerTree", "Commit",
                   "CompositeLayers", "PaintImage", "UpdateLayer"},
         "garbage collection": {"MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCCompactor",
                                "V8.GC_MC_BACKGROUND_EVACUATE_COPY", "BlinkGC.AtomicPhase"}}


def tap_profile(trace: Path) -> dict[str, Any]:
    """What the renderer's main thread did between each tap and its redraw painted (the
    page's marks "mutiny-tap" and "mutiny-painted"), from a trace ``taps`` wrote: ms a tap by
    kind (each event's own time, its children's taken out), and by the page's script
    functions (V8's samples, a function's time with what it called)."""
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    marks = sorted((e["ts"], e["name"], e["pid"]) for e in events
                   if e.get("name") in ("mutiny-tap", "mutiny-painted"))
    windows, start, pid = [], None, None
    for ts, name, mark_pid in marks:
        if name == "mutiny-tap":
            start, pid = ts, mark_pid
        elif start is not None:
            windows.append((start, ts))
            start = None
    inside = lambda ts: any(a <= ts <= b for a, b in windows)  # noqa: E731
    main = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
            and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
            and e["pid"] == pid}
    tasks = sorted((e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in main
                    and "dur" in e and inside(e["ts"])), key=lambda e: (e["ts"], -e["dur"]))
    own: dict[str, float] = {}
    stack: list[list[Any]] = []  # [end, name, its own time so far]
    def close_until(ts: float) -> None:
        while stack and stack[-1][0] <= ts:
            _end, name, mine = stack.pop()
            own[name] = own.get(name, 0.0) + mine
    for event in tasks:
        close_until(event["ts"])
        if stack:
            stack[-1][2] -= event["dur"]
        stack.append([event["ts"] + event["dur"], event["name"], float(event["dur"])])
    close_until(float("inf"))
    taps = max(len(windows), 1)
    by_kind: dict[str, float] = {}
    for name, us in own.items():
        kind = next((k for k, names in KINDS.items() if name in names), "script and other")
        by_kind[kind] = by_kind.get(kind, 0.0) + us / 1000 / taps
    return {"taps": len(windows), "by kind": by_kind,
            "functions": _sampled_functions(events, pid, inside, taps)}


def _sampled_functions(events, pid, inside, taps: int) -> dict[str, float]:
    """ms a tap in each of the page's own functions and what they called (V8's samples
    in the trace's ProfileChunk events, inside the taps' windows)."""
    nodes: dict[int, dict[str, Any]] = {}
    samples: list[tuple[float, int]] = []
    clock: dict[Any, float] = {}
    for event in sorted((e for e in events if e.get("pid") == pid
                         and e.get("name") in ("Profile", "ProfileChunk")),
                        key=lambda e: e["ts"]):
        data = event["args"]["data"]
        key = event.get("id")
        if event["name"] == "Profile":
            clock[key] = data.get("startTime", event["ts"])
            continue
        profile = data.get("cpuProfile", {})
        for node in profile.get("nodes", []):
            nodes[node["id"]] = node
        at = clock.get(key, event["ts"])
        for sample, delta in zip(profile.get("samples", []), data.get("timeDeltas", []),
                                 strict=False):
            at += delta
            samples.append((at, sample))
        clock[key] = at
    spent: dict[str, float] = {}
    for index, (at, node_id) in enumerate(samples[:-1]):
        if not inside(at):
            continue
        gap = samples[index + 1][0] - at
        names, node = set(), nodes.get(node_id)
        while node is not None:
            frame = node["callFrame"]
            if "/static/" in frame.get("url", ""):
                names.add(f"{frame['functionName'] or '(anonymous)'} "
                          f"({frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1})")
            node = nodes.get(node.get("parent"))
        for name in names:
            spent[name] = spent.get(name, 0.0) + gap / 1000 / taps
    return dict(sorted(spent.items(), key=lambda item: -item[1])[:12])


def print_profile(found: dict[str, Any]) -> None:
    print(f"trace: {found['taps']} taps; ms a tap on the main thread, by kind:")
    for kind, ms in sorted(found["by kind"].items(), key=lambda item: -item[1]):
        print(f"  {kind:20} {ms:6.1f}")
    print("the page's functions (with what they called), ms a tap:")
    for name, ms in found["functions"].items():
        print(f"  {ms:6.1f}  {name}")


def run(root: Path = HERE, loads: int = 15, tap_count: int = 15,
        trace: Path | None = None) -> dict[str, list[float]]:
    """Every load's and tap's time in ms, against the tree at ``root`` (``trace``: the
    taps' performance trace written there)."""
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
                tapped = taps(browser, table, cookie, tap_count, trace)
            finally:
                browser.close()
    finally:
        table.close()
    return {"link to title": [title for title, _board in times],
            "link to board": [board for _title, board in times], **tapped}


def report(found: dict[str, list[float]], label: str) -> None:
    for name, values in found.items():
        if not values:
            print(f"{label:8} {name:18} no figures")
            continue
        ordered = sorted(values)
        target = f"target {TARGETS[name]:.0f} ms" if TARGETS[name] else ""
        print(f"{label:8} {name:18} n={len(values):3} median {statistics.median(values):7.0f} ms"
              f"  min {ordered[0]:6.0f}  max {ordered[-1]:6.0f}  {target}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE,
                        help="the tree whose server and pages are measured (default: this one)")
    parser.add_argument("--loads", type=int, default=15)
    parser.add_argument("--taps", type=int, default=15)
    parser.add_argument("--label", default="")
    parser.add_argument("--trace", type=Path, default=None,
                        help="write Chromium's performance trace of the taps here (it opens in"
                             " DevTools' Performance panel) and print where their time went")
    args = parser.parse_args(argv)
    started = time.time()
    found = run(args.root.resolve(), args.loads, args.taps, args.trace)
    report(found, args.label or args.root.name)
    if args.trace:
        print_profile(tap_profile(args.trace))
    print(f"({time.time() - started:.0f} s; CPU x{CPU_SLOWDOWN}, slow 4G)")


if __name__ == "__main__":
    main()
