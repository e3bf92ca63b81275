"""Board parts: what each helper builds, what it refuses, and the match's board hooks."""
from __future__ import annotations

import json
import random

import pytest

import companion.games
from companion.engine import PUBLIC, Match
from companion.engine import board as b
from tests.engine.toy import GAME

NAMES = ["Anne", "Bonny", "Calico"]


def test_card_face_up_and_face_down():
    up = b.card("Copper", value=300, kind="gold", label="C4", state="open")
    assert up == {"part": "card", "face": "Copper", "down": False, "value": 300,
                  "kind": "gold", "label": "C4", "state": "open"}
    down = b.card(back="Treasure", label="A1")
    assert down == {"part": "card", "down": True, "back": "Treasure", "label": "A1"}


def test_card_keeps_seat_zero():
    assert b.card("7", seat=0)["seat"] == 0
    assert b.dice([1], seat=0)["seat"] == 0
    assert b.person(0, "Anne", turn=True) == {"seat": 0, "name": "Anne", "turn": True}


def test_grid_takes_rows_or_a_flat_list_and_checks_its_size():
    rows = [[b.card(back="Treasure"), None], ["Rock", 4]]
    part = b.grid(rows, rows=2, cols=2, row_names=["A", "B"], col_names=["1", "2"])
    assert len(part["cells"]) == 4 and part["cells"][1] is None
    assert b.grid([None] * 4, rows=2, cols=2)["cells"] == [None] * 4
    with pytest.raises(ValueError, match="needs 4 places"):
        b.grid([None] * 3, rows=2, cols=2)
    with pytest.raises(ValueError, match="one name per row"):
        b.grid([None] * 4, rows=2, cols=2, row_names=["A"])


def test_dice_words_numbers_and_the_cup():
    part = b.dice([3, "Cutlass", None], held=[True, False, False], tones=["red"] * 3)
    assert part["faces"] == [3, "Cutlass", None] and part["held"] == [True, False, False]
    assert "held" not in b.dice([1, 2])  # nothing held: left out
    with pytest.raises(ValueError):
        b.dice([1, 2], held=[True])
    with pytest.raises(TypeError):
        b.dice([{"face": 1}])


def test_ledger_has_one_line_per_seat():
    part = b.ledger(["Lives", "Gold"], NAMES, [[3, 10], [0, 4], [2, 0]], turn=2, out=[1],
                    notes=["Captain", "", ""])
    assert part["rows"][0] == {"seat": 0, "name": "Anne", "values": [3, 10], "note": "Captain"}
    assert "note" not in part["rows"][1]
    assert part["turn"] == [2] and part["out"] == [1]
    with pytest.raises(ValueError):
        b.ledger(["Lives"], NAMES, [[1], [2]])
    with pytest.raises(ValueError):
        b.ledger(["Lives"], NAMES, [[1], [2], [3, 4]])


def test_ballots_count_only():
    assert b.ballots(2, 5) == {"part": "ballots", "title": "Ballots", "cast": 2, "total": 5}
    with pytest.raises(ValueError):
        b.ballots(6, 5)


def test_words_are_never_cut_and_never_other_than_words():
    long = "Calico Jack passes the Seven of Cutlasses to Anne Bonny across the table"
    assert b.log([long])["lines"] == [long]
    assert b.headline(long)["text"] == long
    with pytest.raises(TypeError):
        b.text(42)


def test_log_keeps_the_newest():
    assert b.log([str(n) for n in range(30)], keep=3)["lines"] == ["27", "28", "29"]


def test_result_words_its_title():
    assert b.result([0, 2], NAMES)["title"] == "Anne & Calico win!"
    assert b.result([1], NAMES)["title"] == "Bonny wins!"
    assert b.result([], NAMES)["title"] == "Nobody wins"


def test_group_holds_parts_only():
    part = b.group(b.text("hi"), b.tally([("Anne", 2)]), title="Votes", layout="row")
    assert [p["part"] for p in part["parts"]] == ["text", "tally"]
    with pytest.raises(TypeError):
        b.group({"part": "nonsense"})


def test_checked_refuses_what_is_not_a_board():
    with pytest.raises(TypeError, match="list of board parts"):
        b.checked({"part": "text"}, "a game")
    with pytest.raises(TypeError):
        b.checked([{"part": "card", "face": object()}], "a game")
    with pytest.raises(TypeError):
        b.checked([{"lines": []}], "a game")


def test_the_default_board_comes_from_the_summary():
    match = Match.create(GAME, 3, seed="fixed", names=NAMES)
    parts = match.board()
    assert parts == b.checked(parts, "toy")
    assert all(p["part"] in b.PARTS for p in parts)
    assert match.panel(0) == []


def test_board_and_panel_refuse_the_wrong_viewer():
    match = Match.create(GAME, 3, seed="fixed", names=NAMES)
    with pytest.raises(ValueError, match="public"):
        match.board(match.view(0))
    with pytest.raises(ValueError, match="seat 0"):
        match.panel(0, match.view(1))
    assert match.board(match.view(PUBLIC)) == match.board()


@pytest.mark.parametrize("game_id", companion.games.ids())
def test_every_game_has_a_board_that_is_json(game_id):
    game = companion.games.get(game_id)
    seats = min(max(game.spec.min_seats, 4), game.spec.max_seats)
    match = Match.create(game, seats, seed="boards")
    rng = random.Random(7)
    for _ in range(40):
        acting = match.acting()
        if not acting:
            break
        json.dumps(match.board())
        for seat in range(seats):
            json.dumps(match.panel(seat))
        seat = rng.choice(acting)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert match.board()
