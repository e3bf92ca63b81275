"""The fence between a bot and the match: what one seat knows, and nothing else.

:func:`knowledge_of` is the engine's side of the fence. It reads the live match once
and hands a bot a :class:`SeatKnowledge`: the seat's own view (``Match.view(seat)``,
the same door a player's phone goes through), its legal actions, and a way to draw
private :class:`World` copies consistent with that view. The knowledge keeps no
reference to the match or its state: the only state it holds is one the game has
re-dealt for the seat (``Game.redeal``: everything the seat may not see drawn again),
with a fresh chance seed (the match's seed would tell every future die) and no undo
history (the host's undo keeps earlier states, secrets and all). Whatever a bot does
with its knowledge, it cannot reach what another seat holds.

A :class:`World` is a determinization: one guess at the whole state, the bot's own to
play forward as fast as it can (no journal, no copies, no checks beyond the game's own
listers: every action it applies comes from the world's legal actions).
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from companion.engine import CHANCE, Action, Actor, Chance, Context, Game, Match, State, clone

#: A chance step that never ends is a bug in a game (as in ``Match``).
MAX_CHANCE_CHAIN = 1000


class _WorldChance(Chance):
    """Chance for a world: one generator running through the whole playout.

    A match seeds each draw from its seed and the draw's number (SHA-512 of a string,
    so a replay can start anywhere); a world is never replayed, and the seeding was a
    sixth of a dice game's playout (docs/bots.md, "Levels")."""

    def __init__(self, generator: random.Random):
        super().__init__("world", 0)
        self._generator = generator


class World:
    """One determinized state of a match, private to a bot: play it forward in place."""

    __slots__ = ("game", "state", "seed", "draws", "_dice", "_chance", "_context")

    def __init__(self, game: Game, state: State, seed: int, names: list[str]):
        self.game = game
        self.state = state
        self.seed = f"bot/{seed}"
        self.draws = 0
        self._dice = random.Random(seed)
        self._chance = _WorldChance(self._dice)
        self._context = Context(names, game.ballots_undoable)
        self._run_chance()

    def copy(self) -> "World":
        """A twin to play forward apart: the same state and the same chance to come."""
        twin = World.__new__(World)
        twin.game, twin.state, twin.seed = self.game, clone(self.state), self.seed
        twin.draws, twin._context = self.draws, self._context
        twin._dice = random.Random()
        twin._dice.setstate(self._dice.getstate())
        twin._chance = _WorldChance(twin._dice)
        return twin

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def acting(self) -> list[Actor]:
        """Who may act now (empty once over)."""
        return self.game.acting(self.state)

    def legal(self, actor: Actor) -> list[Action]:
        return self.game.legal_actions(self.state, actor)

    def apply(self, actor: Actor, action: Action) -> None:
        """Apply a listed action, then every chance step it sets off (drawn from the
        world's own seed, never the match's)."""
        self.game.apply(self.state, actor, action, self._context)
        self._run_chance()

    def rewards(self, seats: int) -> list[float]:
        """Each seat's outcome from 0 to 1: 1 for a winner and 0 for the rest once the
        match is over, else the game's own ``bot_score``."""
        result = self.game.result(self.state)
        if result is not None:
            return [1.0 if s in result.winners else 0.0 for s in range(seats)]
        return [min(1.0, max(0.0, float(self.game.bot_score(self.state, s))))
                for s in range(seats)]

    def _run_chance(self) -> None:
        for _ in range(MAX_CHANCE_CHAIN):
            if self.game.result(self.state) is not None:
                return
            outcome = self.game.chance_action(self.state, self._chance)
            if outcome is None:
                return
            self.game.apply(self.state, CHANCE, outcome, self._context)
            self.draws += 1
        raise RuntimeError(f"{self.game.spec.id}: chance step never ends")


@dataclass(frozen=True)
class SeatKnowledge:
    """All a bot in seat ``seat`` is given: the rules, the seat's view, its legal
    actions, and :meth:`sample` (worlds consistent with the view).

    ``view`` is exactly what ``Match.view(seat)`` gives the seat's phone (a copy);
    ``legal`` is ``view["you"]["legal"]``. ``game`` is the rules alone (a game object
    holds no match state). Plain data all through, so it pickles: a table may send it
    to a process of its own for the search."""

    game: Game
    seat: int
    seats: int
    view: dict[str, Any]
    legal: tuple[Action, ...]
    #: One state re-dealt for the seat (never the match's own) and the seats' names.
    _base: State = field(repr=False)
    _names: tuple[str, ...] = field(repr=False)

    def sample(self, rng: random.Random, memory: dict[str, Any] | None = None) -> World:
        """A private world: everything the seat may not see drawn again by ``rng``,
        made to agree with ``memory`` (what the bot remembers of earlier views,
        ``Game.bot_recall``), with chance seeded from ``rng`` too."""
        state = self.game.redeal(clone(self._base), self.seat, rng)
        if memory:
            state = self.game.bot_recall(state, self.seat, memory, rng)
        return World(self.game, state, rng.getrandbits(64), list(self._names))


def knowledge_of(match: Match, seat: int) -> SeatKnowledge:
    """What seat ``seat`` of ``match`` knows now (the engine's side of the fence).

    Reads ``match`` here and never again: the knowledge holds a copy of the seat's view
    and one re-dealt state, drawn by a generator seeded from that view alone, so two
    matches that differ only in what the seat cannot see give the same knowledge."""
    view = json.loads(json.dumps(match.view(seat)))
    spelled = json.dumps(view, sort_keys=True, separators=(",", ":"))
    base = match.redealt(seat, random.Random(spelled)).snapshot()["state"]
    return SeatKnowledge(match.game, seat, match.seats, view, tuple(view["you"]["legal"]),
                         base, tuple(match.names))
