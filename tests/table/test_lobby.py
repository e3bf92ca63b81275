"""The lobby: seat 1 picks a game and the number of players as one whole decision, from
its buttons or its phone; "New match" once a match is over."""
from __future__ import annotations

import json

import pytest

import companion.games
from companion.access import HostPin
from companion.engine import HOST, Journal
from companion.engine.display import menu
from companion.errors import ActionRejected
from companion.table import Table, lobby
from tests.table.conftest import choose, claim_all


def test_seat_one_picks_a_game_and_player_count_with_buttons(table, hardware):
    claim_all(hardware)
    choose(hardware, 0, lambda a: a.get("game") == "moon-yeti" and a.get("players") == 4)
    assert table.match is not None and table.match.game.spec.id == "moon-yeti"
    assert table.match.seats == 4
    assert table.journal.match_ids() == [table.match.id]


def test_the_lobby_menu_is_a_game_then_its_player_counts(table):
    choices = table.display(0).choices
    games = [g for g in companion.games.GAMES.values() if g.spec.min_seats <= 4]
    # The top level names the games, once each, in the registry's order (then "Bots":
    # the seats are empty, docs/bots.md) ...
    assert [item.label for item in menu(choices)] == [g.spec.title for g in games] + ["Bots"]
    assert all(item.is_group and not item.secret for item in menu(choices))
    # ... and each game holds one whole decision per number of players it takes.
    for game in games:
        inside = [choices[item.index] for item in menu(choices, (game.spec.title,))]
        counts = list(range(game.spec.min_seats, min(game.spec.max_seats, 4) + 1))
        assert [c.action for c in inside] == [
            {"type": lobby.START, "game": game.spec.id, "players": n} for n in counts]
        assert [c.label for c in inside] == [f"{game.spec.title}, {n} players" for n in counts]
        assert [c.screen_label for c in inside] == [f"{n} players" for n in counts]


def test_the_lobby_takes_no_more_presses_than_a_game_menu_then_a_players_menu(
        table, hardware):
    claim_all(hardware)
    seat = hardware[0]
    choices = seat.display.choices
    titles = list(dict.fromkeys(c.group[0] for c in choices))
    for index, choice in enumerate(choices):
        game_line = titles.index(choice.group[0])
        players_line = [c for c in choices if c.group == choice.group].index(choice)
        # Two menus, one after the other: "next" to the game (once round for the first
        # line: browsing starts with a move), select; "next" to the count, select.
        two_menus = (game_line or len(titles)) + 1 + players_line + 1
        assert len(seat.presses_to_choose(index)) <= two_menus, choice.label


def test_seat_one_picks_the_game_from_its_phone_too(table, hardware):
    start = {"type": lobby.START, "game": "booty-dice", "players": 2}
    with pytest.raises(ActionRejected) as info:
        table.submit(1, start)  # only seat 1 picks
    assert info.value.code == "not_your_turn"
    version = table.submit(0, start, version=table.turn_version(0))
    assert version > 0
    assert table.match.game.spec.id == "booty-dice" and table.match.seats == 2
    with pytest.raises(ActionRejected) as info:  # a match is on: no second start
        table.submit(0, start)
    assert info.value.code == "stale"


def test_only_what_seat_one_was_offered_starts_a_match(table):
    for action in ({"type": lobby.START, "game": "no-such-game", "players": 2},
                   {"type": lobby.START, "game": "booty-dice", "players": 99},
                   {"type": lobby.NEW_MATCH}):
        with pytest.raises(ActionRejected) as info:
            table.submit(0, action)
        assert info.value.code == "stale"
    assert table.match is None and table.journal.match_ids() == []


def test_a_lobby_action_is_told_by_its_type_alone():
    assert lobby.is_lobby_action({"type": lobby.START, "game": "booty-dice", "players": 2})
    assert lobby.is_lobby_action({"type": lobby.NEW_MATCH})
    for other in ({"type": "lobby_game"}, {"type": "lobby_"}, {"type": "roll"},
                  {"type": ["lobby_start"]}, {"type": None}, "lobby_start", None):
        assert not lobby.is_lobby_action(other)


def test_a_seat_press_of_a_gone_lobby_choice_is_said_on_its_screen(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 2, seed="gone")
    table.press(0, {"type": lobby.START, "game": "booty-dice", "players": 2})
    assert hardware[0].display.lines[0] == "! that choice is gone; look again"


def test_new_match_takes_a_finished_match_back_to_the_lobby(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 2, seed="over")
    assert lobby.new_match_choice() not in table.display(0).choices
    table.submit(HOST, {"type": "end"})
    assert lobby.new_match_choice() in table.display(0).choices
    assert lobby.new_match_choice() not in table.display(1).choices
    with pytest.raises(ActionRejected):
        table.submit(1, {"type": lobby.NEW_MATCH})
    choose(hardware, 0, lambda a: a["type"] == lobby.NEW_MATCH)
    assert table.match is None and hardware[0].display.title == "Pick a game"
    assert table.payload("public")[1]["lobby"] == {"games": lobby.game_specs()}


def test_the_host_pin_is_on_seat_ones_own_screen_only_behind_select(hardware, tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite3"), list(hardware), pin=HostPin("123456"))
    claim_all(hardware)
    assert hardware[0].display.private == ("Host PIN 123456",)
    assert not any("123456" in line for line in hardware[0].display.lines)
    # The display the runtime builds (what the phone is sent) never holds it.
    assert "123456" not in json.dumps(table.display(0).to_dict())
    for viewer in (*range(4), "public", "host"):
        assert "123456" not in json.dumps(table.payload(viewer)[1])
    table.start("booty-dice", 2, seed="pin")
    assert "Host PIN 123456" in hardware[0].display.private
    for viewer in (*range(4), "public", "host"):
        assert "123456" not in json.dumps(table.payload(viewer)[1])
    table.close()
