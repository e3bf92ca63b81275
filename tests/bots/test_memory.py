"""A bot remembers what the table showed, as a careful player would: Card Mutiny's
cards turned back face down (the view keeps no record of them); "easy" forgets."""
from __future__ import annotations

import random

import companion.games
from companion.bots import Bot, knowledge_of, level
from companion.engine import Match

GAME = companion.games.get("card-mutiny")
SMALL = level("normal", iterations=4, seconds=None, depth=4)


def _turn_without_a_match(match: Match) -> list[int]:
    """The player to move flips cards until the turn shows them face up (LOOK); the
    flipped places."""
    flipped = []
    rng = random.Random(4)
    while match.step() == "flip":
        seat = match.acting()[0]
        flips = [a for a in match.legal_actions(seat) if a["type"] == "flip"]
        action = rng.choice(flips)
        match.apply(seat, action)
        flipped.append(action["cell"])
    return flipped


def _down(view, cell):
    return view["state"]["grid"][cell // 7][cell % 7] == "down"


def test_a_card_seen_face_up_is_remembered_where_it_lies_once_face_down():
    for seed in range(10):
        # The pure memory game: a history naming places would keep them for "easy" too.
        match = Match.create(GAME, 2, {"first_seat": 1, "history_names_places": False},
                             seed=f"memory-{seed}")
        watcher = Bot(GAME, 1, SMALL, seed=1)
        flipped = _turn_without_a_match(match)
        watcher.watch(match.view(1))
        if match.step() != "look":
            continue
        grid = match.view(1)["state"]["grid"]
        places = {cell: grid[cell // 7][cell % 7] for cell in flipped}
        kinds = {cell: place["kind"] for cell, place in places.items()
                 if isinstance(place, dict) and place["state"] == "open"}
        match.apply(0, {"type": "end_turn"})
        watcher.watch(match.view(1))
        back_down = {c: k for c, k in kinds.items() if _down(match.view(1), c)}
        if not back_down:
            continue
        assert {c: watcher.memory["seen"][c] for c in back_down} == back_down
        knowledge = knowledge_of(match, 1)
        world = knowledge.sample(random.Random(3), watcher.memory)
        truth = match.snapshot()["state"]["grid"]
        assert all(world.state["grid"][c] == truth[c] for c in back_down)
        # ... and the world stays one the seat's view allows.
        assert GAME.view(world.state, 1) == match.view(1)["state"]
        forgetful = knowledge.sample(random.Random(3))
        assert any(forgetful.state["grid"][c] != truth[c] for c in back_down) or \
            len(back_down) == 1
        return
    raise AssertionError("no match in ten turned a card back face down")


def test_easy_forgets_and_only_games_that_forget_are_watched():
    assert not Bot(GAME, 0, "easy").watches
    assert Bot(GAME, 0, "normal").watches
    assert not Bot(companion.games.get("moon-yeti"), 0, "hard").watches


def test_a_bot_is_shown_only_its_own_seat():
    match = Match.create(GAME, 2, seed="own")
    bot = Bot(GAME, 0, SMALL)
    try:
        bot.watch(match.view(1))
    except ValueError as exc:
        assert "another viewer" in str(exc)
    else:
        raise AssertionError("a bot watched another seat's view")
