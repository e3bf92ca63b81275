"""The bot's search: information-set Monte Carlo tree search over re-dealt worlds.

Each iteration draws one world from the seat's knowledge (Cowling, Powley and
Whitehouse's single-observer ISMCTS, 2012): the seat's own legal actions are the same
in every world (the contract's re-deal test), so the root's children are fixed; deeper,
each node is a move of whoever acts in that world, and a child's UCB counts only the
iterations in which it was available. Below the tree a playout of random legal moves
runs to the end or to the level's depth, where the game's ``bot_score`` stands in for
the outcome. Every seat's outcome is backed up and each node is judged by the seat that
moved into it (max^n), so the other seats play for themselves in the search.

This module sees a :class:`~companion.bots.knowledge.SeatKnowledge` and the worlds it
draws, never a match (tests/bots/test_fence.py reads its imports).
"""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, replace
from typing import Any

from companion.bots.knowledge import SeatKnowledge, World

Action = dict[str, Any]


@dataclass(frozen=True)
class Level:
    """What one level of bot may spend on a decision.

    ``iterations`` worlds searched (the budget that decides; the search is then the
    same for the same seed), ``seconds`` a cap on the wall clock (None: none; a cap
    that bites makes the decision depend on the machine's speed), ``depth`` actions a
    playout runs before ``bot_score`` judges it, ``remembers`` whether the bot keeps
    what earlier views showed, ``explore`` UCB's exploration constant."""

    name: str
    iterations: int
    seconds: float | None
    depth: int
    remembers: bool
    explore: float = 0.7


LEVELS: dict[str, Level] = {
    "easy": Level("easy", iterations=40, seconds=1.0, depth=8, remembers=False,
                  explore=1.4),
    # Normal's cap is what a slow board may spend (8 s emulated, about a Pi Zero 2 W):
    # its 200 worlds decide on a Pi too, not just on a fast machine. At the table the
    # pace caps the search well before (companion/table/bots.py, SEARCH_SHARE).
    "normal": Level("normal", iterations=200, seconds=8.0, depth=24, remembers=True),
    "hard": Level("hard", iterations=800, seconds=30.0, depth=40, remembers=True),
}


def level(name: str, **changes: Any) -> Level:
    """Level ``name``, with any field changed (``level("hard", seconds=None)``)."""
    if name not in LEVELS:
        raise ValueError(f"no bot level {name!r} (easy, normal, hard)")
    return replace(LEVELS[name], **changes)


#: How often (in iterations) the search asks whether its choice is already settled.
SETTLE_EVERY = 10


class _Node:
    """One edge of the tree: a move of ``actor``, with the outcomes of the iterations
    that took it (for that actor) and how often it was on offer."""

    __slots__ = ("actor", "action", "visits", "value", "offered", "children")

    def __init__(self, actor: Any, action: Action | None):
        self.actor, self.action = actor, action
        self.visits = 0
        self.value = 0.0
        self.offered = 0
        self.children: dict[str, _Node] = {}


def _key(actor: Any, action: Action) -> str:
    # The fields in a fixed order, so the same move listed twice is one edge; repr of
    # the sorted fields is a third of json.dumps's cost and a tree makes thousands.
    return f"{actor}|{sorted(action.items())!r}"


def _settled(root: _Node, keys: list[str], left: int) -> bool:
    """Whether the most visited root move leads the next by more than the iterations
    left: the rest of the budget could not change the choice, so it is not spent."""
    visits = sorted((root.children[k].visits for k in keys if k in root.children),
                    reverse=True)
    if len(visits) < len(keys):
        return False
    return visits[0] - (visits[1] if len(visits) > 1 else 0) > left


def search(knowledge: SeatKnowledge, rules: Level, rng: random.Random,
           memory: dict[str, Any] | None = None) -> tuple[Action, dict[str, Any]]:
    """The seat's move by ISMCTS, and what the search did (``iterations``,
    ``seconds``, ``visits`` per root move)."""
    legal = list(knowledge.legal)
    if not legal:
        raise ValueError(f"seat {knowledge.seat} has nothing to do now")
    started = time.perf_counter()
    if len(legal) == 1:
        return legal[0], {"iterations": 0, "seconds": 0.0, "visits": {}}
    seat, seats = knowledge.seat, knowledge.seats
    root = _Node(None, None)
    root_keys = [_key(seat, a) for a in legal]
    done = 0
    while done < rules.iterations:
        if rules.seconds is not None and done and \
                time.perf_counter() - started > rules.seconds:
            break
        world = knowledge.sample(rng, memory)
        path = _descend(root, world, seat, legal, root_keys, rules, rng)
        rewards = _playout(world, seats, rules.depth, rng)
        root.visits += 1
        for node in path:
            node.visits += 1
            node.value += rewards[node.actor] if isinstance(node.actor, int) else 0.5
        done += 1
        if done % SETTLE_EVERY == 0 and _settled(root, root_keys, rules.iterations - done):
            break
    # The most visited move; ties (a small budget visits many moves once) go to the
    # better mean, then to chance: never to the first move listed.
    best = max((root.children[k] for k in root_keys if k in root.children),
               key=lambda n: (n.visits, n.value / n.visits, rng.random()))
    assert best.action is not None  # a root edge is always a move of the seat
    visits = {json.dumps(root.children[k].action, sort_keys=True, separators=(",", ":")):
              root.children[k].visits
              for k in root_keys if k in root.children}
    return best.action, {"iterations": done, "seconds": time.perf_counter() - started,
                         "visits": visits}


def _descend(root: _Node, world: World, seat: int, legal: list[Action],
             root_keys: list[str], rules: Level, rng: random.Random) -> list[_Node]:
    """Selection and expansion in one world: UCB over the moves on offer in it, until a
    move never tried (added to the tree) or the end. Returns the edges taken."""
    path: list[_Node] = []
    node = root
    first = True
    while not world.over:
        if first:
            actor, moves, keys = seat, legal, root_keys
            first = False
        else:
            turn = _whose_turn(world, rng)
            if turn is None:
                break
            actor, moves = turn
            keys = [_key(actor, a) for a in moves]
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        if untried:
            i = rng.choice(untried)
            child = node.children[keys[i]] = _Node(actor, moves[i])
            for k in keys:
                if k in node.children:
                    node.children[k].offered += 1
            world.apply(actor, moves[i])
            path.append(child)
            return path
        offered = [node.children[k] for k in keys]
        for child in offered:
            child.offered += 1
        pick = max(range(len(offered)), key=lambda j: _ucb(offered[j], rules.explore))
        world.apply(actor, moves[pick])
        node = offered[pick]
        path.append(node)
    return path


def _ucb(node: _Node, explore: float) -> float:
    return node.value / node.visits + explore * math.sqrt(math.log(node.offered) / node.visits)


def _playout(world: World, seats: int, depth: int, rng: random.Random) -> list[float]:
    """Random legal moves by whoever acts, for at most ``depth`` moves; then every
    seat's outcome (the result, or the game's score where the playout was cut)."""
    for _ in range(depth):
        turn = None if world.over else _whose_turn(world, rng)
        if turn is None:
            break
        actor, moves = turn
        world.apply(actor, rng.choice(moves))
    return world.rewards(seats)


def _whose_turn(world: World, rng: random.Random) -> tuple[Any, list[Action]] | None:
    """Who moves next in the world and their moves: one of those acting, at random when
    several may (a secret vote: any order of ballots is a possible one); None when
    nobody can."""
    acting = world.acting()
    if not acting:
        return None
    actor = acting[0] if len(acting) == 1 else rng.choice(acting)
    moves = world.legal(actor)
    return (actor, moves) if moves else None
