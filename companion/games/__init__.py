"""Every game the companion knows, by id.

Each package in this package that exposes ``GAME`` (an instance of its
:class:`~companion.engine.Game` subclass) is a game, all of one shape (docs/engine.md,
"One shape for every game"): adding a game is adding its package.
"""
from __future__ import annotations

import importlib
import pkgutil

from companion.engine import Game
from companion.errors import UnknownGame


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.spec.id] = game
    return games


#: Every registered game by id, in module-name order.
GAMES: dict[str, Game] = _load()


def get(game_id: str) -> Game:
    """The game registered under ``game_id``; raises :class:`UnknownGame`."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES) or "none"
        raise UnknownGame(f"no game {game_id!r} (known: {known})") from None


def ids() -> list[str]:
    return list(GAMES)
