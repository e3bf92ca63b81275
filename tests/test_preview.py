"""`mutiny preview`: a seat's OLED as the real ``render`` draws it, the display in
words, what the screen cut, and /table saved as PNG; and the check every game gets for
free: its first screens fit the OLED without an ellipsis."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import companion.games
from companion import preview
from companion.cli import main
from companion.engine import Display, Game, Journal, Match
from companion.seats.screen import ScreenState, render
from companion.table.table import Table

#: Displays of each seat checked at the start of a match: the first, and after each of
#: the next two moves.
FIRST_SCREENS = 3
#: Cuts the five games made on their first screens the day the check came (2026-11-27),
#: as patterns (a seat's name is "Seat N", a number "#"). Each hides part of what its
#: line says; the owners of the games fix them, and a pattern that no longer occurs
#: must go from this list. A game not listed here may cut nothing.
KNOWN_CUTS = {
    # (Shorter since: "Seat N passed to Seat N" is cut at its last letters; with names
    # of up to six letters it fits.)
    "captains-orders": {"line: Seat N passed to Seat N",
                        "title: Round #: Seat N's turn"},
    "card-mutiny": {"line: Seat N: match the Copper coin",
                    "line: Seat N: match the Silver coin"},
    "mit-mutiny": {"choice: Make Seat N First Mate", "choice: Make Seat N Quarter Master",
                   "private: Rum # Crew # red + # green"},
}
CASES = [(game_id, seats) for game_id, game in companion.games.GAMES.items()
         for seats in range(game.spec.min_seats, game.spec.max_seats + 1)]


def pattern(cut: preview.Cut) -> str:
    """``line: Seat N passed a card to Seat N``: a cut with names and numbers left out."""
    kind = cut.where.split(" ")[0]
    return f"{kind}: " + re.sub(r"\d+", "#", re.sub(r"Seat \d+", "Seat N", cut.text))


def first_screen_cuts(game: Game, seats: int) -> dict[str, str]:
    """Every cut on each seat's first screens of a seeded random match, by pattern (one
    example each, with where it was)."""
    seed = f"fit/{game.spec.id}/{seats}"
    match = Match.create(game, seats, seed=seed)
    rng = random.Random(seed)
    found: dict[str, str] = {}
    for moves in range(FIRST_SCREENS):
        for seat in range(seats):
            for cut in preview.screen_cuts(match.display(seat)):
                found.setdefault(pattern(cut), f"seat {seat + 1} after {moves} moves, {cut}")
        acting = [a for a in match.acting() if isinstance(a, int)]
        if not acting:
            break
        seat = rng.choice(acting)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return found


def check_first_screens(game: Game) -> None:
    """Fails on a cut on a first screen at any seat count, unless it is a known one."""
    known = KNOWN_CUTS.get(game.spec.id, set())
    seen: set[str] = set()
    for seats in range(game.spec.min_seats, game.spec.max_seats + 1):
        found = first_screen_cuts(game, seats)
        seen |= set(found)
        new = [example for key, example in found.items() if key not in known]
        assert not new, (f"{game.spec.id} at {seats} seats: the OLED cuts these lines "
                         "(give a short form, or fewer words):\n" + "\n".join(new))
    assert known <= seen, f"{game.spec.id}: fixed, take out of KNOWN_CUTS: {known - seen}"


@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
def test_every_games_first_screens_fit_the_oled(game_id):
    check_first_screens(companion.games.get(game_id))


def test_the_fit_check_finds_a_purse_cut_short():
    display = Display(title="Round 1 of 5: bidding", lines=("Your purse: 6 doubloons",),
                      short_lines=(), choices=())
    cuts = preview.screen_cuts(display)
    assert [(c.where, c.shown) for c in cuts] == [
        ("title", "Round 1 of 5: bid\u2026"), ("line 1", "Your purse: 6 doublo\u2026")]
    assert pattern(cuts[1]) == "line: Your purse: # doubloons"
    short = Display(title="Round 1 of 5", lines=("Your purse: 6 doubloons",),
                    short_lines=("Purse 6",))
    assert preview.screen_cuts(short) == []


@pytest.mark.parametrize("game_id,seats", CASES)
def test_preview_draws_the_seats_real_screen_and_says_what_it_holds(game_id, seats):
    seat = seats  # the last seat: not the first to act in most games
    text = preview.preview(game_id, seat, seats, moves=2, seed="p")
    head, *rest = text.split("\n")
    assert head.startswith(f"{companion.games.get(game_id).spec.title} ({game_id}), "
                           f"{seats} players, seed 'p': 2 random moves made")
    frame, words = rest[:34], "\n".join(rest[34:])
    table = Table(Journal(":memory:"), seat_count=seats)
    preview.play(table, companion.games.get(game_id), seats, 2, "p")
    display = table.display(seat - 1)
    table.close()
    # The blocks are the pixels render() draws for the seat at rest, two rows a line.
    image = render(ScreenState(mode="rest", display=display, seat_number=seat))
    assert frame[0] == frame[-1] == "+" + "-" * 128 + "+"
    lit = sum(row.count("\u2588") * 2 + row.count("\u2580") + row.count("\u2584")
              for row in frame[1:-1])
    assert lit == sum(image.histogram()[1:]) > 0
    assert words.startswith(f"title: {display.title}\nled: {display.led}\nlines:\n")
    for line in display.lines:
        assert f"\n  {line}\n" in words
    assert words.endswith("cut on the OLED: nothing") == (not preview.screen_cuts(display))


def test_preview_of_a_module_not_registered_and_its_cuts(capsys):
    assert main(["preview", "tests.games.example_game", "--seat", "2", "--players", "3",
                 "--moves", "1", "--seed", "s"]) == 0
    out = capsys.readouterr().out
    assert "Raid or Bank (raid-or-bank), 3 players, seed 's': 1 random moves made" in out
    assert "  Raid a pirate > Raid Seat 1 (short: Seat 1)" in out
    assert main(["preview", "tests.games.example_game", "--seat", "2", "--players", "3",
                 "--moves", "1", "--seed", "s", "--option", "at_once=true"]) == 0
    out = capsys.readouterr().out
    assert "led: blink" in out and "select says: bank -> lock it in" in out
    assert "  Raid a pirate > Raid Seat 1 (short: Seat 1, secret)" in out
    assert main(["preview", "captains-orders", "--seat", "1", "--players", "8",
                 "--moves", "1", "--seed", "preview"]) == 0
    out = capsys.readouterr().out
    assert ("  line 2: 'Seat 2 passed to Seat 3' shows as "
            "'Seat 2 passed to Sea\u2026'") in out


def test_preview_refuses_what_it_cannot_show(capsys):
    assert main(["preview", "chess"]) == 1
    assert "no game 'chess'" in capsys.readouterr().err
    assert main(["preview", "booty-dice", "--seat", "7", "--players", "6"]) == 1
    assert "--seat must be 1 to 6" in capsys.readouterr().err
    assert main(["preview", "companion.engine.votes"]) == 1
    assert "'companion.engine.votes' has no GAME" in capsys.readouterr().err


def test_a_board_without_chromium_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(preview, "CHROMIUM", str(tmp_path / "no-chromium"))
    assert main(["preview", "booty-dice", "--board", str(tmp_path / "b.png")]) == 1
    err = capsys.readouterr().err
    assert "no Chromium at" in err and "./dev test" in err and "apt install chromium" in err
    assert not (tmp_path / "b.png").exists()


@pytest.mark.browser
def test_the_board_is_the_table_page_drawn_by_chromium(tmp_path):
    # The command as a developer runs it, in a process of its own: Playwright's sync API
    # cannot start inside the browser tests' own running session in this process.
    out = tmp_path / "board.png"
    done = subprocess.run([str(Path(sys.executable).with_name("mutiny")), "preview",
                           "booty-dice", "--players", "3", "--moves", "4", "--board",
                           str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(f"the table display: {out}")
    with Image.open(out) as picture:
        assert picture.size == (1280, 720)
        # A page drawn, not a blank one: many colours on the felt and its parts.
        assert len(picture.convert("RGB").getcolors(1 << 20) or []) > 50
