"""Bots for empty seats: a seat that sees only what a player in that seat sees.

- ``knowledge`` - the fence: :func:`knowledge_of` (the engine's side) reads a match once
  and gives a :class:`SeatKnowledge` (the seat's view, its legal actions, and re-dealt
  private :class:`World` copies); nothing in it leads back to the match.
- ``search`` - information-set MCTS over re-dealt worlds, and the :data:`LEVELS`.
- ``bot`` - :class:`Bot`: one seat's player with its level, seed and memory.

Seating a bot (lobby, pace, process) is the table's job, on top of ``knowledge_of``,
``Bot.watch`` and ``Bot.choose``. See docs/bots.md.
"""
from companion.bots.bot import Bot
from companion.bots.knowledge import SeatKnowledge, World, knowledge_of
from companion.bots.search import LEVELS, Level, level, search

__all__ = ["Bot", "LEVELS", "Level", "SeatKnowledge", "World", "knowledge_of", "level",
           "search"]
