"""The board tests' shared check: no text on a board or a panel is cut mid-word.

A word counts as whole when it is one the game could have written: it appears in the
game's source files (its board, its screen text, the engine's part defaults) or in the
names at the table. A word cut by a screen's limit ("Chapla") appears in none of them.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Iterator

WORD = re.compile(r"[A-Za-z]+")


def vocabulary(sources: Iterable[Path], *texts: Iterable[str]) -> set[str]:
    """Every word (lower case) in ``sources`` and in the given extra texts."""
    words: set[str] = set()
    for text in [path.read_text() for path in sources] + [t for more in texts for t in more]:
        words.update(w.lower() for w in WORD.findall(text))
    return words


def strings(value: Any) -> Iterator[str]:
    """Every text in a part (or a list of parts), the part kinds left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "part":
                yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def check_whole(parts: Any, words: set[str], token: re.Pattern[str] = WORD,
                also: frozenset[str] = frozenset()) -> None:
    """Assert every word in ``parts`` is a whole one (in ``words`` or ``also``)."""
    for text in strings(parts):
        for found in token.findall(text):
            assert found in also or found.lower() in words, (
                f"{found!r} is not a whole word, in {text!r}")
