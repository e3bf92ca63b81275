"""SeatAccess answers from memory and writes every change through to its file."""
from __future__ import annotations

import sqlite3

from companion.access import SeatAccess


def test_tokens_generations_and_names_survive_a_restart(tmp_path):
    path = tmp_path / "access.sqlite3"
    first = SeatAccess(path, 4)
    tokens = [first.token(s) for s in range(4)]
    new = first.replace(2)
    first.rename(1, "Anne")
    first.close()
    first.close()  # idempotent

    again = SeatAccess(path, 4)
    assert [again.token(s) for s in range(4)] == [tokens[0], tokens[1], new, tokens[3]]
    assert [again.generation(s) for s in range(4)] == [0, 0, 1, 0]
    assert again.names() == ["Seat 1", "Anne", "Seat 3", "Seat 4"]
    assert again.seat_for(new.lower()) == 2
    assert again.seat_for(tokens[2]) is None
    again.close()


def test_every_change_is_in_the_file_at_once(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 2)
    token = access.replace(0)
    access.rename(0, "Bo")
    # Another reader sees it before this one closes: nothing waits in memory.
    with sqlite3.connect(path) as other:
        row = other.execute("SELECT token, generation, name FROM seats WHERE seat = 0").fetchone()
    assert row == (token, 1, "Bo")
    assert access.generation(5) == -1
    access.close()
