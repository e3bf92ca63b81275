"""A bot: one seat's player, with its level, its own random generator and its memory.

The table side (whoever seats the bot) owns the match and calls two things:
``watch(view)`` with the seat's view whenever the match changes (what a careful player
sees at the table; cheap, and a no-op for games whose views already hold everything),
and ``choose(knowledge_of(match, seat))`` when the seat must act. Pacing a bot like a
person is the table side's business, not the bot's.
"""
from __future__ import annotations

import random
from typing import Any

from companion.bots.knowledge import SeatKnowledge
from companion.bots.search import Level, level, search
from companion.engine import Action, Game


class Bot:
    """Seat ``seat``'s bot at ``strength`` (a level name or a :class:`Level`).

    ``seed`` makes every decision repeatable: the same knowledge, memory and seed give
    the same action (unless the level's time cap bites first)."""

    def __init__(self, game: Game, seat: int, strength: str | Level = "normal",
                 seed: Any = None):
        self.game = game
        self.seat = seat
        self.level = level(strength) if isinstance(strength, str) else strength
        self.rng = random.Random(f"bot/{seat}/{seed}" if seed is not None else None)
        self.memory: dict[str, Any] = {}
        #: What the last search did (iterations, seconds, visits per root move).
        self.last: dict[str, Any] = {}

    @property
    def watches(self) -> bool:
        """Whether :meth:`watch` does anything: a level that remembers, in a game whose
        views forget what they showed (Card Mutiny's cards turned back face down)."""
        return self.level.remembers and \
            type(self.game).bot_remember is not Game.bot_remember

    def watch(self, view: dict[str, Any]) -> None:
        """Remember what the seat's view shows now (its own view: ``Match.view(seat)``)."""
        if self.watches:
            if view.get("viewer") != self.seat:
                raise ValueError(f"seat {self.seat}'s bot shown another viewer's view")
            self.game.bot_remember(self.memory, view, self.seat)

    def choose(self, knowledge: SeatKnowledge) -> Action:
        """The seat's next action: always one of ``knowledge.legal``."""
        if knowledge.seat != self.seat:
            raise ValueError(f"seat {self.seat}'s bot given seat {knowledge.seat}'s knowledge")
        self.watch(knowledge.view)
        action, self.last = search(knowledge, self.level, self.rng,
                                   self.memory if self.level.remembers else None)
        return action
