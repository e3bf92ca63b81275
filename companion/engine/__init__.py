"""The game-agnostic rules engine: specs, matches, chance, votes, views, journal."""
from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.journal import Journal
from companion.engine.match import HOST_ACTIONS, Entry, Match
from companion.engine.rules import (CHANCE, HOST, PUBLIC, Context, Game, RedealFailed,
                                    Result, Step, always)
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected

__all__ = [
    "ActionRejected", "CHANCE", "Chance", "Choice", "Context", "Display", "Entry",
    "Game", "GameSpec", "HOST", "HOST_ACTIONS", "Journal", "Match", "Option", "PUBLIC",
    "RedealFailed", "Result", "Step", "always",
]
