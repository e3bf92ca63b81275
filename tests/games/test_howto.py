"""How to play, in a minute: every game's texts, each seat's own part built from its own
view, and no secret in what the table display is sent."""
from __future__ import annotations

import random

import pytest

from companion.engine import Match
from companion.games import GAMES as REGISTERED
from companion.games import get
from companion.games.mit_mutiny.data import ROLE_NAMES
from companion.games.moon_yeti import JUROR, ROLES

GAMES = list(REGISTERED.values())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec.id)
def test_every_game_says_its_goal_a_turn_in_three_lines_and_what_the_devices_do(game):
    howto = game.how_to_play()
    assert howto["title"] == game.spec.title
    assert len(howto["goal"]) > 40
    assert len(howto["turn"]) == 3 and all(len(line) > 20 for line in howto["turn"])
    assert any("phone" in line for line in howto["devices"])
    assert any("button" in line for line in howto["devices"])
    assert howto["parts"] and all(lines for lines in howto["parts"].values())


def test_every_role_has_its_part():
    moon = get("moon-yeti").how_to_play()
    assert set(moon["parts"]) == {*ROLES, JUROR}
    mit = get("mit-mutiny").how_to_play()
    assert set(mit["parts"]) == set(ROLE_NAMES.values())


def test_the_texts_are_the_games_own_words_not_ids():
    for game in GAMES:
        text = repr(game.how_to_play())
        assert "_" not in text.replace("__", ""), game.spec.id  # no step or role ids


def test_each_moon_yeti_seat_is_told_its_own_role_and_only_its_own():
    match = Match.create(get("moon-yeti"), 6, {},
                         seed="howto-moon")
    roles = match.snapshot()["state"]["roles"]
    for seat in range(6):
        part = match.game.my_part(match.view(seat), seat)
        assert roles[seat] in part[0]
        others = {r for r in roles if r != roles[seat]} - {JUROR}
        assert not any(f"You are the {other}" in line for line in part for other in others)


def test_only_the_mutineers_own_help_says_it_is_the_mutineer():
    match = Match.create(get("moon-yeti"), 4, {},
                         seed="howto-secret")
    match.apply(0, {"type": "declare"})
    mutineer = match.snapshot()["state"]["mutineer"]
    for seat in range(4):
        secret = " ".join(match.game.my_secret(match.view(seat), seat))
        assert ("You are the Mutineer" in secret) == (seat == mutineer)
        # The part shown without the pad is the role's public text, nothing more.
        role = match.snapshot()["state"]["roles"][seat]
        part = match.game.my_part(match.view(seat), seat)
        assert part == [f"You are the {role}.", *match.game.how_to_play()["parts"][role]]


def test_each_mit_mutiny_seat_is_told_its_role_this_round():
    game = get("mit-mutiny")
    match = Match.create(game, 4, {}, seed="howto-mit")
    rng = random.Random(5)
    while None in match.snapshot()["state"]["roles"]:
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
    roles = match.snapshot()["state"]["roles"]
    for seat in range(4):
        part = game.my_part(match.view(seat), seat)
        assert part[0] == f"You are the {ROLE_NAMES[roles[seat]]} this round."
