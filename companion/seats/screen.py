"""Draw a seat's display model into a 1-bit image; the drawing knows no device.

Layout, for the usual 128x64 landscape panel (8 text rows of 21 characters, each row
exactly one SSD1306 page, so changing one line re-sends at most one 128-byte page):

    row 0      title, bold, centred
    rows 1-5   the public ``lines`` (rows 1-7 when there are no choices and more
               than five lines)
    row 5      while browsing: what select does now (``select: cast this vote``,
               ``select: open``, ``select: back``); the lines keep rows 1-4
    row 6      a rule, with or without choices; while browsing ``< 2/5 >`` in its middle,
               else the step timer (``0:42``) when one runs
    row 7      the highlighted menu line (masked at rest when it is secret, with what
               select does then: ``? 2/5 - press to see``), else empty

Choices form a menu (``engine.display.menu``): a line is a choice (its ``short`` form,
else its full label, fitted to the row), a group to open (``Pass a card (6) >``) or,
below the top level, ``< Back``. While browsing a level below the top, row 5 says
where the player is (``Pass a card > 7:``), over the hint. A choice's hint uses the
display's ``confirm`` (action type -> words, e.g. ``{"vote": "cast this
vote"}``), else ``choose this``. At rest the seat is always at the top
level (``Seat`` sees to it), whose group names are public.

A portrait panel (rotation 1 or 3, 64x128) uses the same rows: 16 rows of 10 characters.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import segno
from PIL import Image, ImageChops, ImageDraw

from companion.engine.display import Display, MenuItem, menu

from . import font

WIDTH = 128
HEIGHT = 64

#: What a seat screen can show; ``Seat`` picks one from its state.
MODES = ("rest", "browse", "private", "qr", "dim", "blank")

MARGIN = 1  #: left margin in pixels

#: The last line of every menu level below the top: select on it goes one level up.
BACK = MenuItem("< Back")
#: What select does on a choice when the display names no verb for its action type.
CONFIRM = "choose this"


def menu_lines(display: Display | None, path: tuple[str, ...] = ()) -> list[MenuItem]:
    """The lines a seat pages through at menu ``path``: the level's groups and choices
    in the display's order, then ``BACK`` below the top level (compare with ``is``)."""
    if display is None:
        return []
    lines = menu(display.choices, path)
    return lines + [BACK] if path else lines


@dataclass(frozen=True)
class ScreenState:
    """Everything a screen needs to draw one frame (a pure value: same state, same pixels)."""

    mode: str = "rest"
    display: Display | None = None
    highlight: int = 0
    seat_number: int = 1
    qr_url: str | None = None
    #: The menu level shown (group names from the top); ``highlight`` indexes its lines.
    path: tuple[str, ...] = ()


class _Canvas:
    """A blank 1-bit image plus the text grid that fits it."""

    def __init__(self, size: tuple[int, int]):
        self.image = Image.new("1", size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = size
        self.rows = self.height // font.LINE_H
        self.cols = (self.width - MARGIN) // font.ADVANCE
        self.bold_cols = (self.width - MARGIN + 1) // font.advance(bold=True)

    def text(self, row: int, text: str, *, x: int = MARGIN, bold: bool = False) -> None:
        cols = self.bold_cols if bold else self.cols
        cols -= (x - MARGIN) // font.advance(bold=bold)
        font.draw_text(self.draw, (x, row * font.LINE_H), font.fit(text, cols), bold=bold)

    def centred(self, row: int, text: str, *, bold: bool = False,
                left: int = 0, width: int | None = None) -> None:
        width = self.width - left if width is None else width
        cols = (width - MARGIN + (1 if bold else 0)) // font.advance(bold=bold)
        text = font.fit(text, cols)
        x = left + (width - font.text_width(text, bold=bold)) // 2
        font.draw_text(self.draw, (x, row * font.LINE_H), text, bold=bold)

    def rule(self, row: int, x0: int = 0, x1: int | None = None) -> None:
        y = row * font.LINE_H + 3
        self.draw.line((x0, y, self.width - 1 if x1 is None else x1, y), fill=1)


#: Frames kept for reuse: a table shows the same few screens again and again (a
#: player browsing back and forth, a vote's "3 of 8 in" at every round).
FRAMES_KEPT = 256
_frames: "OrderedDict[tuple, Image.Image]" = OrderedDict()
_frames_lock = threading.Lock()


def render(state: ScreenState, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """Draw ``state`` into a mode "1" image of ``size`` (width, height).

    The image is shared with every later call for an equal state (the same pixels):
    treat it as read-only."""
    if state.mode not in MODES:
        raise ValueError(f"unknown screen mode {state.mode!r}; expected one of {MODES}")
    key = _frame_key(state, size)
    with _frames_lock:
        image = _frames.get(key)
        if image is not None:
            _frames.move_to_end(key)
            return image
    image = _draw(state, size)
    with _frames_lock:
        _frames[key] = image
        if len(_frames) > FRAMES_KEPT:
            _frames.popitem(last=False)
    return image


def _frame_key(state: ScreenState, size: tuple[int, int]) -> tuple:
    # Everything the drawing below reads, and nothing else (not a choice's action).
    shown = state.display
    content = None if shown is None else (
        shown.title, shown.screen_lines, shown.timer,
        tuple((c.label, c.secret, c.group, c.short, confirm_words(shown, c.action))
              for c in shown.choices), shown.screen_private)
    return (state.mode, content, state.highlight, state.seat_number, state.qr_url,
            state.path, size)


def _draw(state: ScreenState, size: tuple[int, int]) -> Image.Image:
    canvas = _Canvas(size)
    if state.mode == "qr":
        _draw_qr(canvas, state.qr_url or "", state.seat_number)
    elif state.display is None or state.mode == "blank":
        pass
    elif state.mode == "dim":
        canvas.centred(canvas.rows // 2 - 1, state.display.title)
    elif state.mode == "private":
        _draw_private(canvas, state.display)
    else:
        _draw_main(canvas, state.display, state.highlight, state.path,
                   browsing=state.mode == "browse")
    return canvas.image


def _draw_lines(canvas: _Canvas, lines: Sequence[str], first: int, last: int) -> None:
    """Lines into rows ``first..last``; an overflow ends in a "+N more" row."""
    room = last - first + 1
    if room <= 0:
        return
    shown = list(lines)
    if len(shown) > room:
        hidden = len(shown) - (room - 1)
        shown = shown[: room - 1] + [f"+{hidden} more"]
    for offset, line in enumerate(shown):
        canvas.text(first + offset, line)


def _draw_main(canvas: _Canvas, display: Display, highlight: int, path: tuple[str, ...],
               browsing: bool) -> None:
    canvas.centred(0, display.title, bold=True)
    rule_row, choice_row = canvas.rows - 2, canvas.rows - 1
    lines = menu_lines(display, path)
    if not lines and len(display.screen_lines) > rule_row - 1:
        _draw_lines(canvas, display.screen_lines, 1, choice_row)  # lines need the choice rows
        return
    if lines and browsing:  # where the player is and what select does, over the lines
        hint_row = rule_row - 1
        if path:
            _draw_lines(canvas, display.screen_lines, 1, hint_row - 2)
            canvas.text(hint_row - 1, font.fit_tail(" > ".join(path) + ":", canvas.cols))
        else:
            _draw_lines(canvas, display.screen_lines, 1, hint_row - 1)
        line = lines[highlight % len(lines)]
        canvas.text(hint_row, "select: " + select_does(display, line))
    else:
        _draw_lines(canvas, display.screen_lines, 1, rule_row - 1)
    if not lines:
        # The rule stays put while there is nothing to choose: choices coming and
        # going (at every vote) then redraw the choice row, not a full-width rule too.
        _labelled_rule(canvas, rule_row, display.timer)
        return
    index = highlight % len(lines)
    line = lines[index]
    position = f"{index + 1}/{len(lines)}"
    if browsing:
        _labelled_rule(canvas, rule_row, f"< {position} >")
        canvas.centred(choice_row, line_text(display, path, line, canvas.cols))
    elif line.secret:
        _labelled_rule(canvas, rule_row, display.timer)
        canvas.text(choice_row, f"? {position} - press to see")
    else:
        _labelled_rule(canvas, rule_row, display.timer)
        canvas.text(choice_row, "> " + line_text(display, path, line, canvas.cols - 2,
                                                  at_rest=True))


def _labelled_rule(canvas: _Canvas, row: int, label: str) -> None:
    """A full-width rule, or one with ``label`` in its middle (the page while browsing,
    the step timer at rest): the timer's second changes one page of the panel."""
    if not label:
        canvas.rule(row)
        return
    half = (canvas.width - font.text_width(label)) // 2
    canvas.rule(row, 0, half - 4)
    canvas.rule(row, canvas.width - half + 3)
    canvas.centred(row, label)


def select_does(display: Display, line: MenuItem) -> str:
    """What a short select on ``line`` does, in a few words (the hint row)."""
    if line is BACK:
        return "back"
    if line.is_group:
        return "open"
    return confirm_words(display, display.chosen(line).action)


def confirm_words(display: Display, action: dict) -> str:
    """The display's words for confirming an action of this type (``Display.confirm``)."""
    return display.confirm.get(action.get("type", ""), CONFIRM)


def line_text(display: Display, path: tuple[str, ...], line: MenuItem, cols: int, *,
              at_rest: bool = False) -> str:
    """The words of one menu line in ``cols`` characters: a choice's short form (else
    its label), ``< Back``, or a group as ``Name (6) >`` (6 lines inside) when that fits,
    else ``Name >``. At rest a group holding any secret choice shows no count: how many
    cards or targets lie inside may tell what the seat holds."""
    if line is BACK:
        return line.label
    if not line.is_group:
        return font.fit(display.chosen(line).screen_label, cols)
    inside = path + (line.label,)
    secret = any(c.secret for c in display.choices if c.group[:len(inside)] == inside)
    if not (at_rest and secret):
        counted = f"{line.label} ({len(menu(display.choices, inside))}) >"
        if len(font.fold(counted)) <= cols:
            return counted
    return font.fit(line.label, cols - 2) + " >"


def _draw_private(canvas: _Canvas, display: Display) -> None:
    canvas.centred(0, "PRIVATE", bold=True)
    canvas.rule(0, 0, 8)
    canvas.rule(0, canvas.width - 9)
    lines = display.screen_private or ("(nothing private)",)
    _draw_lines(canvas, lines, 1, canvas.rows - 1)


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` (error level L, smallest version) as rows of dark modules.

    Version 3 (29x29, drawn at 2 pixels a module) holds 53 characters of any kind, or
    77 of the QR "alphanumeric" set (0-9 A-Z space $%*+-./:), so either
    ``http://10.42.0.1:8000/seat/<22-char token_urlsafe(16)>`` (49) or an upper-case
    ``HTTP://10.42.0.1:8000/J/<32 hex digits>`` (56) fits. Longer URLs get a bigger
    version drawn at 1 pixel a module, which phones read less easily.
    """
    qr = segno.make_qr(url, error="l", boost_error=False)
    return [[bool(v) for v in row] for row in qr.matrix]


def qr_scale(modules: int, room: int) -> int:
    """Pixels per module: 2 when the code plus a 2-pixel light border fits ``room``."""
    return 2 if modules * 2 + 4 <= room else 1


def _draw_qr(canvas: _Canvas, url: str, seat_number: int) -> None:
    side = min(canvas.width, canvas.height)
    matrix = qr_matrix(url)
    if len(matrix) + 2 <= side:
        _draw_code(canvas, matrix, side)
    else:  # not even at 1 pixel a module: say so rather than clip the code
        for row, words in enumerate(("link too", "long for", "a QR code"), start=2):
            canvas.centred(row, words, width=side)
    if canvas.width >= canvas.height:  # landscape: words to the right of the code
        left, width, top = side, canvas.width - side, 0
    else:  # portrait: words below the code
        left, width, top = 0, canvas.width, side // font.LINE_H
    canvas.centred(top + 1, "SEAT", bold=True, left=left, width=width)
    number = str(seat_number)
    x = left + (width - font.text_width(number, scale=2, bold=True)) // 2
    font.draw_text(canvas.draw, (x, (top + 2) * font.LINE_H + 2), number, scale=2, bold=True)
    canvas.centred(top + 5, "scan to", left=left, width=width)
    canvas.centred(top + 6, "join", left=left, width=width)


def _draw_code(canvas: _Canvas, matrix: list[list[bool]], side: int) -> None:
    scale = qr_scale(len(matrix), side)
    # Normal polarity (dark modules on a lit square) scans on every phone; the lit
    # square around the code is its quiet zone.
    canvas.draw.rectangle((0, 0, side - 1, side - 1), fill=1)
    origin = (side - len(matrix) * scale) // 2
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = origin + x * scale, origin + y * scale
                canvas.draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)


def follow_highlight(previous: Display | None, path: tuple[str, ...], highlight: int,
            display: Display, *, inside: bool) -> tuple[tuple[str, ...], int]:
    """The menu path and highlight to keep when ``display`` replaces ``previous``.

    A highlighted choice whose action is still offered stays highlighted: in the group
    that now holds it when ``inside`` a menu (browsing), else on its top-level line. A
    highlighted group or "< Back" stays if its level still exists. Otherwise: the
    first line of the top level."""
    old = menu_lines(previous, path)
    line = old[highlight % len(old)] if old else None
    if previous is not None and line is not None and line is not BACK and not line.is_group:
        action = previous.chosen(line).action
        for index, choice in enumerate(display.choices):
            if choice.action == action:
                where = choice.group if inside else ()
                return where, line_of_choice(display, where, index)
    if path and not any(c.group[:len(path)] == path for c in display.choices):
        return (), 0
    if line is BACK:
        return path, len(menu_lines(display, path)) - 1
    if line is not None and line.is_group:
        return path, line_of_group(display, path, line.label)
    return path, 0


def line_of_group(display: Display | None, path: tuple[str, ...], name: str) -> int:
    """The line of group ``name`` in the level at ``path`` (0 if it is not there)."""
    for number, line in enumerate(menu_lines(display, path)):
        if line.is_group and line is not BACK and line.label == name:
            return number
    return 0


def line_of_choice(display: Display, path: tuple[str, ...], index: int) -> int:
    """The line at ``path`` that holds choice ``index``: itself, or the group it is in."""
    group = display.choices[index].group
    for number, line in enumerate(menu_lines(display, path)):
        if line.index == index or (line.is_group and line is not BACK
                                   and group[len(path):len(path) + 1] == (line.label,)):
            return number
    return 0


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """Whether two frames light the same pixels (in C: a quarter of comparing bytes)."""
    if a.size != b.size or a.mode != b.mode:
        return False
    if a.mode == "1":
        return ImageChops.logical_xor(a, b).getbbox() is None
    return a.tobytes() == b.tobytes()
