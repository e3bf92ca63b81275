"""``mutiny preview GAME --seat N``: see a game as its players will, without a table.

A match is played to a point (``moves`` random legal moves from a seed) on a table of
its own; then the seat's OLED is drawn by the seat screen's own ``render`` and printed
as block characters, with what the display holds in words and every text the screen
had to cut to fit (``screen_cuts``), and the table display's board can be saved as a
PNG: ``/table`` of an in-process server, drawn by Debian's Chromium through Playwright
(the ``test`` extra). docs/writing-a-game.md, "See it".
"""
from __future__ import annotations

import importlib
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import companion.games
from companion.engine import PUBLIC, Game, Journal
from companion.engine.display import Display, menu
from companion.errors import MutinyError
from companion.seats import font
from companion.seats.screen import HEIGHT, MARGIN, WIDTH, ScreenState, line_text, render
from companion.table.table import Table

#: The browser that draws ``/table`` (``./dev test`` installs Debian's ``chromium``).
CHROMIUM = os.environ.get("MUTINY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]
#: What to do when Playwright or Chromium is missing.
BOARD_NEEDS = ("the board is drawn by Chromium through Playwright: run `./dev test` once "
               "(it installs the test extra and Debian's chromium), or `pip install -e "
               "'.[test]'` and `apt install chromium`")


@dataclass(frozen=True)
class Cut:
    """A text the seat's screen cut to fit: where it is, the game's words, what shows."""

    where: str
    text: str
    shown: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text!r} shows as {self.shown!r}"


def find_game(name: str) -> Game:
    """A registered game by id, or the ``GAME`` of a module named with dots (a game not
    registered, such as ``tests.games.example_game``, imported from the current folder)."""
    if "." not in name:
        return companion.games.get(name)
    if os.getcwd() not in sys.path:  # a module of the checkout the command runs in
        sys.path.insert(0, os.getcwd())
    try:
        game = getattr(importlib.import_module(name), "GAME", None)
    except ImportError as exc:
        raise MutinyError(f"cannot import {name!r}: {exc}") from None
    if not isinstance(game, Game):
        raise MutinyError(f"{name!r} has no GAME")
    return game


def play(table: Table, game: Game, players: int, moves: int, seed: str,
         options: dict[str, Any] | None = None) -> int:
    """Start ``game`` (with ``options``) on ``table`` and make up to ``moves`` random legal
    moves of its seats (chance acts by itself); returns how many were made."""
    table.start(game, players, options, seed=seed)
    rng = random.Random(f"preview/{seed}")
    for made in range(moves):
        match = table.match
        acting = [a for a in match.acting() if isinstance(a, int)] if match else []
        if match is None or not acting:
            return made
        seat = rng.choice(acting)
        table.submit(seat, rng.choice(match.legal_actions(seat)))
    return moves


# -- what the OLED shows ------------------------------------------------------------------

def screen_columns(size: tuple[int, int] = (WIDTH, HEIGHT)) -> tuple[int, int]:
    """(columns of a text row, columns of the bold title) on a screen of ``size``, as
    the seat screen lays them out (companion/seats/screen.py)."""
    width = size[0]
    return (width - MARGIN) // font.ADVANCE, (width - MARGIN + 1) // font.advance(bold=True)


def screen_cuts(display: Display, size: tuple[int, int] = (WIDTH, HEIGHT)) -> list[Cut]:
    """Every text of ``display`` the seat's screen cuts with an ellipsis: the title, each
    line (the short forms when given), each private line, and each line of every menu
    level as the player reads it while browsing."""
    cols, bold = screen_columns(size)
    found = [Cut("title", display.title, font.fit(display.title, bold))]
    found += [Cut(f"line {n}", text, font.fit(text, cols))
              for n, text in enumerate(display.screen_lines, 1)]
    found += [Cut(f"private line {n}", text, font.fit(text, cols))
              for n, text in enumerate(display.screen_private, 1)]
    for path, item in _menu_items(display):
        shown = line_text(display, path, item, cols)
        where = "choice" + (f" in {' > '.join(path)}" if path else "")
        full = item.label if item.is_group else display.choices[item.index].screen_label
        found.append(Cut(where, full, shown.removesuffix(" >") if item.is_group else shown))
    return [cut for cut in found if font.ELLIPSIS in cut.shown
            and font.ELLIPSIS not in font.fold(cut.text)]


def _menu_items(display: Display, path: tuple[str, ...] = ()
                ) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every line of every menu level, with the level's path, top level first."""
    for item in menu(display.choices, path):
        yield path, item
        if item.is_group:
            yield from _menu_items(display, path + (item.label,))


def oled_blocks(display: Display, seat: int, size: tuple[int, int] = (WIDTH, HEIGHT)) -> str:
    """The seat's screen at rest, drawn by ``render``, as block characters (two pixel
    rows a character) inside a frame."""
    image = render(ScreenState(mode="rest", display=display, seat_number=seat + 1), size)
    width, height = image.size
    pixels = image.load()
    assert pixels is not None  # Pillow's type allows None; a drawn image has its pixels
    rows = ["+" + "-" * width + "+"]
    for y in range(0, height, 2):
        cells = []
        for x in range(width):
            top = bool(pixels[x, y])
            bottom = y + 1 < height and bool(pixels[x, y + 1])
            cells.append("\u2588" if top and bottom else "\u2580" if top
                         else "\u2584" if bottom else " ")
        rows.append("|" + "".join(cells) + "|")
    rows.append(rows[0])
    return "\n".join(rows)


def display_text(display: Display) -> str:
    """What the display holds, in words: title, lines, choices (menu path, short form,
    secret), private lines, LED and the select hints, then what the screen cut."""
    out = [f"title: {display.title}", f"led: {display.led}"]
    out += ["lines:", *(f"  {line}" for line in display.lines)]
    if display.short_lines:
        out += ["short lines (the OLED's):", *(f"  {line}" for line in display.short_lines)]
    out.append("choices:" if display.choices else "choices: none")
    for choice in display.choices:
        where = " > ".join(choice.group + (choice.label,))
        extra = [f"short: {choice.short}"] if choice.short else []
        extra += ["secret"] if choice.secret else []
        out.append(f"  {where}" + (f" ({', '.join(extra)})" if extra else ""))
    out += ["private:", *(f"  {line}" for line in display.screen_private)]
    if display.confirm:
        out.append("select says: " + ", ".join(f"{kind} -> {words}"
                                               for kind, words in display.confirm.items()))
    cuts = screen_cuts(display)
    out.append("cut on the OLED:" if cuts else "cut on the OLED: nothing")
    out += [f"  {cut}" for cut in cuts]
    return "\n".join(out)


# -- the table display --------------------------------------------------------------------

def board_png(game: Game, players: int, moves: int, seed: str, out: Path,
              options: dict[str, Any] | None = None) -> None:
    """Play the same match on an in-process server and save ``/table`` as drawn by
    Chromium (1280x720, a table display's size) to ``out``."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise MutinyError(f"no Playwright: {BOARD_NEEDS}") from None
    if not Path(CHROMIUM).exists():
        raise MutinyError(f"no Chromium at {CHROMIUM}: {BOARD_NEEDS} (or set MUTINY_CHROMIUM)")
    from companion.serve import ServeOptions, Server
    with tempfile.TemporaryDirectory(prefix="mutiny-preview-") as data:
        server = Server(ServeOptions(backend="sim", seats=players, data_dir=data, port=0,
                                     host="127.0.0.1"))
        server.start_table()
        play(server.table, game, players, moves, seed, options)
        want = json.loads(server.table.payload_text(PUBLIC)[1])
        with server.in_background(), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                page.goto(server.url + "/table")
                _wait_for(page, want)
                page.screenshot(path=str(out))
            finally:
                browser.close()


def _wait_for(page: Any, payload: dict[str, Any], seconds: float = 15.0) -> None:
    """Until the page has drawn ``payload`` (its latest), then a frame more."""
    deadline = time.monotonic() + seconds
    while page.evaluate("() => (window.__mutinyPayloads || []).at(-1) || null") != payload:
        if time.monotonic() > deadline:
            raise MutinyError("the /table page did not show the match in time")
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)  # the board fits itself to the window after drawing


# -- the command --------------------------------------------------------------------------

def preview(name: str, seat: int, players: int | None = None, moves: int = 0,
            seed: str = "preview", board: Path | None = None,
            options: dict[str, Any] | None = None) -> str:
    """Everything ``mutiny preview`` prints: the match's point, seat ``seat``'s (1-based)
    screen as blocks and in words; with ``board``, the table display saved there."""
    game = find_game(name)
    spec = game.spec
    players = players or min(spec.max_seats, max(spec.min_seats, 4))
    spec.check_seats(players)
    if not 1 <= seat <= players:
        raise MutinyError(f"--seat must be 1 to {players}")
    table = Table(Journal(":memory:"), seat_count=players)
    try:
        made = play(table, game, players, moves, seed, options)
        display = table.display(seat - 1)
        step = table.match.step() if table.match else ""
    finally:
        table.close()  # and its journal
    head = (f"{spec.title} ({spec.id}), {players} players, seed {seed!r}: {made} random "
            f"moves made, step {step!r}. Seat {seat}'s screen at rest:")
    lines = [head, oled_blocks(display, seat - 1), display_text(display)]
    if board is not None:
        board_png(game, players, moves, seed, board, options)
        lines.append(f"the table display: {board}")
    return "\n".join(lines)
