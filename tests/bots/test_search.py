"""The search's own rules: a settled choice stops spending, and worlds keep their chance."""
from __future__ import annotations

import importlib
import random

import companion.games
from companion.bots import knowledge_of, level
from companion.engine import Match

#: The module (``companion.bots.search`` the name is the function it exports).
searching = importlib.import_module("companion.bots.search")


def decisions(game_id: str, seats: int, seed: str, count: int):
    """``count`` points of a random match where some seat has more than one choice."""
    rng = random.Random(seed)
    match = Match.create(companion.games.get(game_id), seats, seed=seed)
    found = []
    while match.result() is None and len(found) < count:
        acting = [s for s in match.acting() if isinstance(s, int)]
        seat = rng.choice(acting)
        legal = match.legal_actions(seat)
        if len(legal) > 1:
            found.append(knowledge_of(match, seat))
        match.apply(seat, rng.choice(legal))
    return found


def test_settled_only_when_the_rest_of_the_budget_cannot_change_the_choice():
    root = searching._Node(None, None)
    keys = ["a", "b", "c"]
    for key, visits in zip(keys, (30, 12, 3), strict=True):
        root.children[key] = searching._Node(0, {"type": key})
        root.children[key].visits = visits
    assert searching._settled(root, keys, left=17)
    assert not searching._settled(root, keys, left=18)  # b could still draw level
    assert not searching._settled(root, keys + ["d"], left=0)  # d never tried


def test_a_search_that_stops_early_chooses_what_the_whole_budget_would(monkeypatch):
    rules = level("normal", seconds=None)
    early = []
    for game_id, seats in (("moon-yeti", 4), ("booty-dice", 2), ("mit-mutiny", 4)):
        for knowledge in decisions(game_id, seats, f"settle-{game_id}", 6):
            chosen, spent = searching.search(knowledge, rules, random.Random(5))
            with monkeypatch.context() as never_settle:
                never_settle.setattr(searching, "SETTLE_EVERY", 10 ** 9)
                whole, all_spent = searching.search(knowledge, rules, random.Random(5))
            assert chosen == whole, game_id
            assert all_spent["iterations"] == rules.iterations
            early.append(spent["iterations"] < rules.iterations)
    assert any(early), "no search settled early: the test proved nothing"


def test_a_world_copy_rolls_the_same_dice_as_its_original():
    knowledge = decisions("booty-dice", 2, "twin-dice", 1)[0]
    world = knowledge.sample(random.Random(1))
    twin = world.copy()
    for one in (world, twin):
        for _ in range(30):
            if one.over:
                break
            actor = one.acting()[0]
            one.apply(actor, one.legal(actor)[0])
    assert world.state == twin.state
