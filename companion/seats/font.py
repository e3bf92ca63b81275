"""A 5x7 bitmap font for the seat OLEDs, drawn for this project.

Why our own font: golden-image tests compare pixels, so text must not depend on the
machine (Pillow 13's ``load_default()`` is a FreeType font when FreeType is present),
and a fixed 6-pixel advance makes cutting and ellipsis exact. Glyphs sit in an 8-pixel
line pitch, so a text line is exactly one SSD1306 page when drawn at y = 8 * row.

Each glyph is seven rows of five columns, ``#`` lit and ``.`` dark, top row first.
Lower-case descenders are squeezed into the seven rows, as in classic 5x7 LCD fonts.
"""
from __future__ import annotations

import functools
import unicodedata
from functools import lru_cache  # noqa: F401 (glyph cache)

from PIL import Image, ImageDraw

GLYPH_W = 5
GLYPH_H = 7
ADVANCE = GLYPH_W + 1  #: pixels from one character to the next
LINE_H = 8  #: pixels from one text line to the next (one SSD1306 page)
ELLIPSIS = "\u2026"

_ROWS: dict[str, str] = {
    " ": "..... ..... ..... ..... ..... ..... .....",
    "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    '"': ".#.#. .#.#. .#.#. ..... ..... ..... .....",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "$": "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    "'": "..#.. ..#.. .#... ..... ..... ..... .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    ",": "..... ..... ..... ..... .##.. ..#.. .#...",
    "-": "..... ..... ..... ##### ..... ..... .....",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    "/": "..... ....# ...#. ..#.. .#... #.... .....",
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    ";": "..... .##.. .##.. ..... .##.. ..#.. .#...",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    "=": "..... ..... ##### ..... ##### ..... .....",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "@": ".###. #...# ....# .##.# #.#.# #.#.# .###.",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "[": ".###. .#... .#... .#... .#... .#... .###.",
    "\\": "..... #.... .#... ..#.. ...#. ....# .....",
    "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    "^": "..#.. .#.#. #...# ..... ..... ..... .....",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "`": ".#... ..#.. ...#. ..... ..... ..... .....",
    "a": "..... ..... .###. ....# .#### #...# .####",
    "b": "#.... #.... #.##. ##..# #...# #...# ####.",
    "c": "..... ..... .###. #.... #.... #...# .###.",
    "d": "....# ....# .##.# #..## #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.",
    "f": "..##. .#..# .#... ###.. .#... .#... .#...",
    "g": "..... ..... .#### #...# .#### ....# .###.",
    "h": "#.... #.... #.##. ##..# #...# #...# #...#",
    "i": "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
    "j": "...#. ..... ..##. ...#. ...#. #..#. .##..",
    "k": "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
    "l": ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "m": "..... ..... ##.#. #.#.# #.#.# #...# #...#",
    "n": "..... ..... #.##. ##..# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.",
    "p": "..... ..... ####. #...# ####. #.... #....",
    "q": "..... ..... .#### #...# .#### ....# ....#",
    "r": "..... ..... #.##. ##..# #.... #.... #....",
    "s": "..... ..... .###. #.... .###. ....# ####.",
    "t": ".#... .#... ###.. .#... .#... .#..# ..##.",
    "u": "..... ..... #...# #...# #...# #..## .##.#",
    "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.",
    "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# .#### ....# .###.",
    "z": "..... ..... ##### ...#. ..#.. .#... #####",
    "{": "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.",
    "|": "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "}": ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#...",
    "~": "..... ..... .#... #.#.# ...#. ..... .....",
    ELLIPSIS: "..... ..... ..... ..... ..... ..... #.#.#",
}

#: Characters the font can draw; anything else is folded (accents dropped) or shown as "?".
CHARSET = frozenset(_ROWS)


def _check_table() -> None:
    """Fail at import if a glyph row was mistyped, rather than drawing garbage."""
    for char, rows in _ROWS.items():
        parts = rows.split()
        if len(parts) != GLYPH_H or any(len(p) != GLYPH_W for p in parts):
            raise ValueError(f"font glyph {char!r} is not {GLYPH_W}x{GLYPH_H}")


_check_table()


@lru_cache(maxsize=None)
def glyph(char: str) -> Image.Image:
    """The glyph of one character as a 5x7 mode "1" mask (lit pixels are 1)."""
    rows = _ROWS.get(char, _ROWS["?"]).split()
    img = Image.new("1", (GLYPH_W, GLYPH_H), 0)
    img.putdata([1 if c == "#" else 0 for row in rows for c in row])
    return img


@lru_cache(maxsize=2048)  # every redraw folds every line again: the same few lines
def fold(text: str) -> str:
    """Map text onto the font's character set: accents dropped, unknown chars as "?"."""
    out = []
    for char in text:
        if char in CHARSET:
            out.append(char)
            continue
        if char in "\t\n\r":
            out.append(" ")
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char)
                       if not unicodedata.combining(c))
        out.append(base if base and all(c in CHARSET for c in base) else "?")
    return "".join(out)


def advance(scale: int = 1, bold: bool = False) -> int:
    """Pixels from one character to the next at ``scale`` (bold adds a column)."""
    return (ADVANCE + (1 if bold else 0)) * scale


def text_width(text: str, scale: int = 1, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn at ``scale`` (no trailing gap)."""
    if not text:
        return 0
    return len(fold(text)) * advance(scale, bold) - scale


def fit(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters, ending in an ellipsis when cut."""
    text = fold(text)
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    return text[: max_chars - 1].rstrip() + ELLIPSIS


def fit_tail(text: str, max_chars: int) -> str:
    """``text``'s last ``max_chars`` characters, starting with an ellipsis when cut
    (for a menu path, whose deepest level says the most)."""
    text = fold(text)
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    return ELLIPSIS + text[len(text) - max_chars + 1:].lstrip()


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str,
              fill: int = 1, scale: int = 1, bold: bool = False) -> None:
    """Draw ``text`` with its top-left corner at ``xy``.

    ``bold`` strikes each glyph twice, ``scale`` pixels apart, and advances 7 * scale.
    """
    mask = _line_mask(fold(text), scale, bold)
    if mask is not None:
        draw.bitmap(xy, mask, fill=fill)


@functools.lru_cache(maxsize=512)
def _line_mask(text: str, scale: int, bold: bool) -> Image.Image | None:
    """One line of text as a 1-bit mask. Screens redraw the same few lines again and
    again, and drawing glyph by glyph was most of the cost of a redraw."""
    if not text:
        return None
    step = advance(scale, bold)
    mask = Image.new("1", (step * len(text) + scale, GLYPH_H * scale), 0)
    pen = ImageDraw.Draw(mask)
    x = 0
    for char in text:
        glyph_mask = glyph(char)
        if scale != 1:
            glyph_mask = glyph_mask.resize((GLYPH_W * scale, GLYPH_H * scale),
                                           Image.Resampling.NEAREST)
        pen.bitmap((x, 0), glyph_mask, fill=1)
        if bold and char != ELLIPSIS:  # struck twice, its dots would run into a line
            pen.bitmap((x + scale, 0), glyph_mask, fill=1)
        x += step
    return mask
