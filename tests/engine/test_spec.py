"""Specs, options and the registry."""
from __future__ import annotations

import pytest

import companion.games
from companion.engine import GameSpec, Option
from companion.errors import OptionError, UnknownGame

SPEC = GameSpec("g", "G", 2, 4, (Option("fast", False, "go fast"),
                                 Option("mode", "a", "mode", choices=("a", "b")),
                                 Option("n", 3, "count", minimum=1, maximum=5)))


def test_defaults_fill_in_and_given_values_are_checked():
    assert SPEC.resolve_options() == {"fast": False, "mode": "a", "n": 3}
    assert SPEC.resolve_options({"mode": "b", "n": 5})["mode"] == "b"


@pytest.mark.parametrize("given,code", [
    ({"fast": 1}, "bad_option"), ({"mode": "c"}, "bad_option"), ({"n": 0}, "bad_option"),
    ({"n": 6}, "bad_option"), ({"n": "3"}, "bad_option"), ({"slow": True}, "unknown_option"),
])
def test_bad_options_are_refused_with_a_code(given, code):
    with pytest.raises(OptionError) as info:
        SPEC.resolve_options(given)
    assert info.value.code == code


def test_seat_range_is_enforced():
    assert SPEC.check_seats(3) == 3
    for bad in (1, 5, "3", True):
        with pytest.raises(OptionError):
            SPEC.check_seats(bad)


def test_the_registry_lists_every_game_by_id():
    ids = companion.games.ids()
    assert {"booty-dice", "moon-yeti"} <= set(ids)
    for game_id in ids:
        assert companion.games.get(game_id).spec.id == game_id
    with pytest.raises(UnknownGame):
        companion.games.get("chess")
    with pytest.raises(KeyError):  # the matching built-in
        companion.games.get("chess")
