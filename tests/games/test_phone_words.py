"""Full words on every phone: what a phone shows of a seat's display (its title, its
lines, its private lines, each choice's label and menu groups) is never the OLED's
shorthand.

A game gives the OLED its own short forms (``Display.short_lines``,
``Display.short_private``, ``Choice.short``) where 21 columns need them; the phone shows
``lines``, ``private`` and ``label``, so those must read as words (``Round 2: you are the Scout``, never ``R2``; ``1 of 3 ballots in``, never
``Ballots 1/3``). Each game is played at its fewest and most seats with random options,
and every seat's display is read after every move.
"""
from __future__ import annotations

import random
import re
from typing import Any, Iterator

import pytest

import companion.games
from companion.engine import Game, Match

#: What only a 21-column screen would say: a letter code with a count (``R1``, ``S0``,
#: ``L10``), a role code waiting on an answer (``QM ?``), a lone ``?`` for "not yet", a
#: count out of a total (``3/4``), a sum or a die (``=12``, ``d8:3``), a money code
#: (``$5``), or three bare numbers in a row (``Wins 3 1 2 1``).
SHORTHAND = re.compile(r"\b[A-Z]{1,2}\d+\b|\b[A-Z]{2} \?|(^|\s)\?($|[\s,)])|\d+/\d+"
                       r"|=\d|\bd\d+:\d|\$\d|\b\d+ \d+ \d+\b")
#: Matches played per seat count: enough to reach every step of every game.
MATCHES = 3


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """A choice of every option that has choices, and every switch flipped at random."""
    options: dict[str, Any] = {}
    for option in game.spec.options:
        if option.choices:
            options[option.name] = rng.choice(option.choices)
        elif isinstance(option.default, bool):
            options[option.name] = rng.random() < 0.5
    return options


def phone_texts(display: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """What a phone shows of a display payload, each with where it is."""
    yield "title", display["title"]
    for line in display["lines"]:
        yield "line", line
    for line in display["private"]:
        yield "private line", line
    for choice in display["choices"]:
        yield "choice", choice["label"]
        for group in choice.get("group", []):
            yield "group", group


def shorthand_on_phones(game: Game) -> dict[str, str]:
    """Every phone text of seeded random matches that looks like OLED shorthand (one
    example of each, with the seat count and the step)."""
    found: dict[str, str] = {}
    for seats in sorted({game.spec.min_seats, game.spec.max_seats}):
        for number in range(MATCHES):
            seed = f"phone-words/{game.spec.id}/{seats}/{number}"
            rng = random.Random(seed)
            match = Match.create(game, seats, random_options(game, rng), seed=seed)
            for _ in range(game.max_actions(seats, match.options)):
                for seat in range(seats):
                    for where, text in phone_texts(match.display(seat).to_dict()):
                        if SHORTHAND.search(text):
                            found.setdefault(f"{where}: {text}",
                                             f"{seats} seats, step {match.step()}")
                moves = [(actor, action) for actor in match.acting()
                         for action in match.legal_actions(actor)]
                if not moves:
                    break
                match.apply(*rng.choice(moves))
    return found


@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
def test_no_phone_text_is_oled_shorthand(game_id):
    found = shorthand_on_phones(companion.games.get(game_id))
    assert not found, "the phone shows the OLED's shorthand:\n" + "\n".join(
        f"  {text}  ({where})" for text, where in found.items())


@pytest.mark.parametrize("text", [
    "R1 Assign roles", "Rum 2 Crew 3 S0 O0 G1 P0", "Scout mutiny, QM ?, FM ?",
    "Pick Cayman Cove (S1 O1 G2 P3) on space 3", "Wins 3 1 2 1", "Ballots 1/3",
    "Your dice 3 4 =7", "You L9 S0 $4", "Round 2 over, 3/4 ready", "Your lowest: ?"])
def test_the_check_knows_the_oled_shorthand_the_phones_used_to_show(text):
    assert SHORTHAND.search(text)


@pytest.mark.parametrize("text", [
    "Round 2: you are the Scout; Anne is Captain",
    "You have 2 Rum and 3 crew dice; loot: 1 Sugar and 2 Gold",
    "Scout: mutiny, Quarter Master: defend, First Mate: not yet",
    "Pick Cayman Cove (1 Sugar, 1 Orange, 2 Gold and 3 Plantain) on space 3",
    "Round wins: Anne 3, Bonny 1", "1 of 3 ballots in", "Time declared :07",
    "Declare the time :07", "Flip row A, column 3", "Your roll 1 of 3", "Minute 00-09"])
def test_the_check_lets_full_words_through(text):
    assert not SHORTHAND.search(text)
