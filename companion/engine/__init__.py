"""The game-agnostic rules engine: specs, matches, chance, votes, views, journal.

Every name a game needs comes from here (``from companion.engine import ...``), the
modules ``board`` (board parts) and ``votes`` (secret votes) included.
"""
from companion.engine import board, votes
from companion.engine.board import Part
from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.journal import Journal
from companion.engine.match import HOST_ACTIONS, Entry, Match, clone
from companion.engine.rules import (
                                    CHANCE,
                                    DEVICES,
                                    HOST,
                                    PUBLIC,
                                    TIMEKEEPER,
                                    Action,
                                    Actor,
                                    Context,
                                    Game,
                                    Parts,
                                    RedealFailed,
                                    Result,
                                    State,
                                    Step,
                                    Timed,
                                    Viewer,
                                    always,
)
from companion.engine.spec import GameSpec, Option, timer_option
from companion.errors import ActionRejected

__all__ = [
    "Action", "ActionRejected", "Actor", "CHANCE", "Chance", "Choice", "Context", "DEVICES",
    "Display", "Entry", "Game", "GameSpec", "HOST", "HOST_ACTIONS", "Journal", "Match",
    "Option", "PUBLIC", "Part", "Parts", "RedealFailed", "Result", "State", "Step",
    "TIMEKEEPER", "Timed", "Viewer", "always", "board", "clone", "timer_option", "votes",
]
