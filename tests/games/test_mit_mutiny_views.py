"""MIT Mutiny's views and screens: hidden things reach only their viewer, screens fit the
OLED and light up only those who act, and a re-deal keeps each viewer's view.

Matches use table dice and physical islands, so every roll and island is exact; the
conventions and the helpers that play a round: tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

import json
import random

from companion.engine import PUBLIC, Match
from companion.games.mit_mutiny import GAME
from tests.games.mit_mutiny_helpers import TABLE, M, give_cards, new, st, to_decisions

# -- views, screens, re-deal ------------------------------------------------------------------

def test_hidden_things_never_reach_another_viewer():
    match = new(stack="cannon", ballot="secret")
    give_cards(match, {2: 1})
    to_decisions(match, dice={0: [3, 4], 1: [5, 5], 2: [2, 6, 7], 3: [1, 6]})
    match.apply(1, {"type": "ballot", "choice": M})
    for viewer in (PUBLIC, 0, 1, 3):
        state = match.view(viewer)["state"]
        assert "hand" not in json.dumps(state.get("me", {})) or state["me"]["hand"] == []
        assert state["dice"] is None and "[8, 7]" not in json.dumps(state)
        assert state["ballot"].get("mine", []) == ([M] if viewer == 1 else [])
        assert "cast" not in state["ballot"]
    assert match.view(2)["state"]["me"]["hand"] == ["cannon"]
    assert match.view(PUBLIC)["state"]["pirates"][2]["cards"] == 1


def test_screens_fit_the_oled_and_light_up_only_those_who_act():
    rng = random.Random(5)
    for seed, options in ((1, {}), (2, TABLE), (3, {"ballot": "secret", "cup_draws": "table"})):
        match = Match.create(GAME, 4, options, seed=seed)
        while not match.is_over:
            for seat in range(4):
                display = match.display(seat)
                # The screens fit the words; a hand-made short form fits 21 columns.
                assert display.title and len(display.lines) <= 3
                assert all(len(c.short) <= 21 for c in display.choices)
                assert (display.led != "off") == bool(display.choices)
                assert all(c.secret for c in display.choices if c.action["type"] == "play")
            choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)]
            actor, action = rng.choice(choices)
            match.apply(actor, action)
        assert match.result() is not None


def test_a_seats_own_screen_says_you_never_its_own_name_while_it_plays():
    # "Scout Anne looks at two islands" under "you are the Scout" read as if Anne were
    # someone else; on Anne's screen it is "You look at two islands".
    names = ["Anne", "Bonny", "Calico", "Drake"]
    rng, said = random.Random(8), set()
    for seed, options in ((4, {}), (5, TABLE), (6, {"stack": "cannon"})):
        match = Match.create(GAME, 4, options, seed=seed, names=names)
        while not match.is_over:
            for seat, name in enumerate(names):
                display = match.display(seat)
                for line in (*display.lines, *display.short_lines):
                    assert name not in line, (match.step(), seat, line)
                said.update(line.split(":")[0] for line in display.lines if line.startswith("You"))
            choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)]
            actor, action = rng.choice(choices)
            match.apply(actor, action)
    assert {"You look at two islands", "You pick the island to raid", "You assign roles",
            "You are buying"} <= said, said


def test_redeal_redraws_what_a_viewer_cannot_see_and_keeps_its_view():
    match = new(stack="cannon", ballot="secret")
    give_cards(match, {1: 1})
    rng = random.Random(3)
    state = st(match)
    for viewer in (PUBLIC, 0, 1, 2, 3):
        changed = False
        for _ in range(10):
            twin = GAME.redeal(state, viewer, rng)
            assert GAME.view(twin, viewer) == GAME.view(state, viewer)
            changed |= twin != state
        assert changed
