"""Every game the companion knows, by id.

A game module exposes ``GAME``, an instance of its :class:`~companion.engine.Game`
subclass; adding a game is adding its module name to ``_MODULES``.
"""
from __future__ import annotations

import importlib

from companion.engine.rules import Game
from companion.errors import UnknownGame

_MODULES = ("booty_dice", "moon_yeti")


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for name in _MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        games[module.GAME.spec.id] = module.GAME
    return games


#: Every registered game by id, in the order they are listed.
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
