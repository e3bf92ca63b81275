"""Twin tables for the secrecy tests: closed after each test."""
from __future__ import annotations

import pytest

from tests.secrecy.harness import Twins


@pytest.fixture
def twins(tmp_path):
    made: list[Twins] = []

    def make(game: str, players: int, options: dict | None = None, seed: str = "twins"):
        pair = Twins(tmp_path, game, players, options or {}, seed)
        made.append(pair)
        return pair

    yield make
    for pair in made:
        pair.close()
