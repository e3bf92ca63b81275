"""The byte figures of docs/pods.md, measured."""
from __future__ import annotations

import math
import re

import pytest
from PIL import ImageDraw

from companion.seats import ScreenState, font, podlink, render, screen
from companion.seats.pods import PodSeat, page_update
from tests.seats.pods.conftest import DOC, JOIN_URL, Rig, vote

TEXT_COST = 4  # op, x, y, flags (bold, scale, length) before the characters
LINE_COST = 5  # op, x0, y0, x1, y1
CLEAR_COST = 3  # op, first page, last page
FRAME_COST = 11  # type, seq, ack, crc, COBS code byte, delimiter: what each frame adds


def drawing_ops(state: ScreenState, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """What drawing commands would draw ``state``: (bytes, top row, bottom row) each.

    Recorded from the drawing itself: each text run, rule, and the QR code as one bitmap.
    """
    ops: list[tuple[int, int, int]] = []
    draw_text, line, draw_code = font.draw_text, ImageDraw.ImageDraw.line, screen._draw_code

    def text(draw, xy, string, fill=1, scale=1, bold=False):
        ops.append((TEXT_COST + len(string), xy[1], xy[1] + font.GLYPH_H * scale - 1))
        draw_text(draw, xy, string, fill, scale, bold)

    def rule(self, xy, *args, **kwargs):
        ops.append((LINE_COST, xy[1], xy[3]))
        line(self, xy, *args, **kwargs)

    def code(canvas, matrix, side):
        ops.append((3 + math.ceil(len(matrix) ** 2 / 8), 0, side - 1))
        draw_code(canvas, matrix, side)
    with monkeypatch.context() as patch:
        patch.setattr(font, "draw_text", text)
        patch.setattr(ImageDraw.ImageDraw, "line", rule)
        patch.setattr(screen, "_draw_code", code)
        screen._draw(state, (screen.WIDTH, screen.HEIGHT))  # not render: it may reuse a frame
    return ops


def command_bytes(ops: list[tuple[int, int, int]], changed: list[int]) -> int:
    """Clear each run of changed pages, redraw every op that touches it, in frames."""
    total, runs = 0, []
    for page in changed:
        if runs and runs[-1][1] == page - 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    for first, last in runs:
        total += CLEAR_COST + sum(cost for cost, top, bottom in ops
                                  if top <= last * 8 + 7 and bottom >= first * 8)
    return total + FRAME_COST * math.ceil(total / podlink.MAX_PAYLOAD) if total else 0


def state_of(seat: PodSeat) -> ScreenState:
    mode = seat.mode
    if mode == "qr":
        return ScreenState("qr", None, 0, seat.number, JOIN_URL)
    return ScreenState(mode, seat.display, seat.highlight, seat.number)


def measure_pods(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int, int, int]]:
    """The docs/seats.md session on a pod seat: per step, the pages changed and the bytes
    to the pod as whole pages, as changed columns (what is sent) and as drawing commands."""
    made = Rig()
    steps = [
        ("show a vote on a blank screen", lambda: made.seat.show(vote())),
        ("the same display again", lambda: made.seat.show(vote())),
        ("one public line changes", lambda: made.seat.show(vote(
            lines=("Round 3 - night", "Captain: seat 4", "Rum: 4 barrels")))),
        ("next pressed (starts browsing)", lambda: made.click("next")),
        ("next pressed again", lambda: made.click("next")),
        ("browsing times out", lambda: made.clock.advance(5)),
        ("select pressed (browsing)", lambda: made.press("select")),
        ("select held 0.6 s: private lines", lambda: made.run(600)),
        ("select released (browsing)", lambda: made.release("select")),
        ("browsing times out again", lambda: made.clock.advance(5)),
        ("idle 5 minutes: the screen dims", lambda: made.clock.advance(300)),
        ("join QR code", lambda: made.seat.show_qr(JOIN_URL)),
        ("pod plugged back in: everything again", lambda: (made.unplug(), made.run(100),
                                                           made.plug("again"))),
    ]
    rows = []
    made.run(200)
    try:
        for name, step in steps:
            before = list(made.seat.pod.pages) if not name.startswith("pod") else [None] * 8
            made.sent_to_pod.clear()
            step()
            made.run(300)
            after = list(made.seat.pod.pages)
            assert render(state_of(made.seat)).tobytes() == made.seat.frame().tobytes()
            changed = [p for p in range(8) if before[p] != after[p]]
            whole = sum(len(podlink.encode(podlink.PAGE, 1, 1, podlink.pack_page(p, after[p])))
                        for p in changed)
            spans = sum(len(podlink.encode(podlink.PAGE, 1, 1,
                                           page_update(p, before[p], after[p])))
                        for p in changed)
            assert spans == sent_page_bytes(made.sent_to_pod)  # what really went out
            commands = command_bytes(drawing_ops(state_of(made.seat), monkeypatch), changed)
            rows.append((name, len(changed), whole, spans, commands))
    finally:
        made.manager.close()
        made.seat.close()
    return rows


def sent_page_bytes(stream: bytes) -> int:
    return sum(len(raw) + 1 for raw in podlink.Deframer().feed(bytes(stream))
               if podlink.decode(raw)[0] == podlink.PAGE)


def figure_rows(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rows = measure_pods(monkeypatch)
    out = [f"| {name} | {pages} | {whole} | {spans} | {commands} |"
           for name, pages, whole, spans, commands in rows]
    totals = [sum(row[i] for row in rows) for i in range(1, 5)]
    out.append("| **the whole session** | {} | {} | {} | {} |".format(*totals))
    return out


def test_the_byte_figures_in_the_docs_are_measured(monkeypatch):
    documented = [line for line in DOC.read_text().splitlines()
                  if re.match(r"\| .* \| \d+ \| \d+ \| \d+ \| \d+ \|$", line)]
    measured = figure_rows(monkeypatch)
    assert documented == measured, "\n".join(["re-measured:"] + measured)
