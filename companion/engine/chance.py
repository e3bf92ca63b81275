"""Chance as an explicit, seeded, logged step.

Every die roll, shuffle and draw the companion makes comes from a :class:`Chance`.
Draw number ``k`` of a match is seeded from ``(match seed, k)`` alone, so the
generator's whole state is one counter that lives in the match state; its outcome is
written to the journal as an action of the ``chance`` actor, and a replay applies
those recorded outcomes without running the generator again.
"""
from __future__ import annotations

import random
from datetime import datetime
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
Clock = Callable[[], datetime]


class Chance:
    """The random source for one chance step of a match."""

    def __init__(self, seed: str, draw: int, clock: Clock | None = None):
        self._seed = f"{seed}/{draw}"
        self._generator: random.Random | None = None
        self._clock = clock or datetime.now

    @property
    def _rng(self) -> random.Random:
        """The draw's generator, seeded when first used: the engine makes a Chance after
        every action to ask whether one is due, and most often none is. Seeding from a
        string hashes it (SHA-512), the same on every platform."""
        if self._generator is None:
            self._generator = random.Random(self._seed)
        return self._generator

    def roll(self, sides: int, count: int = 1) -> list[int]:
        """Roll ``count`` dice of ``sides`` faces; faces are 1..sides."""
        return [self._rng.randint(1, sides) for _ in range(count)]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``."""
        out = list(items)
        self._rng.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return self._rng.choice(list(items))

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        return self._rng.sample(list(items), count)

    def now(self) -> datetime:
        """The table's clock (injectable, so tests can fix the time)."""
        return self._clock()
