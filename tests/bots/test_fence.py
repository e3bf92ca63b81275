"""A bot is a seat that sees only what a player in that seat sees (docs/bots.md).

Twin matches that differ only in what one seat cannot see (everything else re-dealt,
and another seed, so other future dice) must give that seat's bot the same knowledge,
byte for byte, the same drawn worlds and the same decisions; the knowledge must lead
back to neither match; and the bot's modules must not import the table or the match.
"""
from __future__ import annotations

import ast
import gc
import json
import pickle
import random
from pathlib import Path

import pytest

import companion.bots
import companion.games
from companion.bots import Bot, knowledge_of, level
from companion.engine import HOST_ACTIONS, Match

SMALL = level("normal", iterations=12, seconds=None, depth=6)
BOTS_DIR = Path(companion.bots.__file__).parent


def spelled(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def points(game_id: str, seats: int, seed: str, every: int = 7, limit: int = 120):
    """A random match's positions where some seat must choose: (match, seat)."""
    rng = random.Random(seed)
    match = Match.create(companion.games.get(game_id), seats, seed=seed)
    for n in range(limit):
        if match.is_over:
            return
        acting = [a for a in match.acting() if isinstance(a, int)]
        if n % every == 0:
            for seat in acting:
                if len(match.legal_actions(seat)) > 1:
                    yield match, seat
        choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)
                   if act["type"] not in HOST_ACTIONS]
        match.apply(*rng.choice(choices))


@pytest.mark.parametrize("game_id,seats", [("captains-orders", 4), ("card-mutiny", 3),
                                           ("mit-mutiny", 4), ("moon-yeti", 5),
                                           ("booty-dice", 3)])
def test_twins_that_differ_only_in_hidden_things_give_the_bot_the_same(game_id, seats):
    differed = 0
    for match, seat in (found for n in range(3)
                        for found in points(game_id, seats, f"fence-{game_id}-{n}", every=5)):
        twin = match.redealt(seat, random.Random(f"twin-{match.version}"))
        twin.seed = "another seed: other dice to come"
        if twin.snapshot()["state"] != match.snapshot()["state"]:
            differed += 1
        mine, theirs = knowledge_of(match, seat), knowledge_of(twin, seat)
        assert spelled(mine.view) == spelled(theirs.view)
        assert spelled(mine.legal) == spelled(theirs.legal)
        for draw in range(3):
            one, other = mine.sample(random.Random(draw)), theirs.sample(random.Random(draw))
            assert spelled(one.state) == spelled(other.state)
            assert one.seed == other.seed and one.seed not in (match.seed, twin.seed)
        first = Bot(match.game, seat, SMALL, seed=9).choose(mine)
        second = Bot(twin.game, seat, SMALL, seed=9).choose(theirs)
        assert first == second and first in mine.legal
    if match.game.has_secrets:
        assert differed >= 3, "the twins never differed: the test proved nothing"


def _reachable(root, limit: int = 200_000) -> list[int]:
    """The ids of every object reachable from ``root`` (gc's referents)."""
    seen, todo = set(), [root]
    while todo and len(seen) < limit:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        todo.extend(gc.get_referents(item))
    return list(seen)


def test_the_knowledge_leads_back_to_neither_the_match_nor_its_state():
    match, seat = next(points("moon-yeti", 5, "reach", every=5))
    knowledge = knowledge_of(match, seat)
    found = set(_reachable(knowledge))
    secret = match._state  # the live state, read here only to look for it
    assert id(match) not in found and id(secret) not in found
    assert not any(id(kept) in found for kept, _ in match._undo)
    world = knowledge.sample(random.Random(1))
    assert world.state is not secret and id(match) not in set(_reachable(world))


def test_a_seed_makes_the_decision_and_another_seed_may_change_it():
    match, seat = next(points("card-mutiny", 3, "seeded", every=4))
    knowledge = knowledge_of(match, seat)
    made = {spelled(Bot(match.game, seat, SMALL, seed=s).choose(knowledge)) for s in range(8)}
    again = [spelled(Bot(match.game, seat, SMALL, seed=3).choose(knowledge)) for _ in range(3)]
    assert len(set(again)) == 1
    assert len(made) > 1  # the seed matters: a fixed answer would prove nothing


FORBIDDEN = ("companion.table", "companion.web", "companion.seats")


@pytest.mark.parametrize("module", ["search", "bot"])
def test_the_bot_itself_imports_neither_the_table_nor_the_match(module):
    tree = ast.parse((BOTS_DIR / f"{module}.py").read_text())
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            imported += [a.name for a in node.names]
    assert imported and not [i for i in imported if i.startswith(FORBIDDEN)]
    assert not [i for i in imported if i.endswith((".Match", ".knowledge_of"))]


def test_no_module_of_the_bots_imports_the_table():
    for path in BOTS_DIR.glob("*.py"):
        text = path.read_text()
        assert not any(f"import {name}" in text or f"from {name}" in text
                       for name in FORBIDDEN), path.name


def test_knowledge_and_bot_pickle_for_a_search_process_of_their_own():
    match, seat = next(points("mit-mutiny", 4, "pickled", every=9))
    knowledge = knowledge_of(match, seat)
    bot = Bot(match.game, seat, SMALL, seed=4)
    sent_bot, sent = pickle.loads(pickle.dumps((bot, knowledge)))
    assert spelled(sent.view) == spelled(knowledge.view)
    assert sent_bot.choose(sent) == bot.choose(knowledge)


def test_who_has_cast_a_secret_ballot_stays_hidden_from_the_bot():
    # MIT Mutiny's secret ballot: a seat knows how many ballots are in, never whose.
    game = companion.games.get("mit-mutiny")
    rng = random.Random(5)
    match = Match.create(game, 4, {"ballot": "secret"}, seed="ballot")
    while match.step() != "ballot":
        choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)
                   if act["type"] not in HOST_ACTIONS]
        match.apply(*rng.choice(choices))
    bot, first, second = match.acting()
    one, two = match.fork(), match.fork()
    one.apply(first, {"type": "ballot", "choice": "defend"})
    two.apply(second, {"type": "ballot", "choice": "defend"})
    mine, theirs = knowledge_of(one, bot), knowledge_of(two, bot)
    assert spelled(mine.view) == spelled(theirs.view)
    for draw in range(3):
        worlds = mine.sample(random.Random(draw)), theirs.sample(random.Random(draw))
        assert spelled(worlds[0].state) == spelled(worlds[1].state)
    assert {tuple(mine.sample(random.Random(d)).acting()) for d in range(12)} == {
        (bot, first), (bot, second)}
