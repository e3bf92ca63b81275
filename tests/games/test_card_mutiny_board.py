"""Card Mutiny's board and panel (companion/games/card_mutiny/board.py): the grid's 49
places, every public fact the rules make visible, nothing a seat alone may know, the
end-of-match story, and every word whole.

Stacked deals (option ``stacked_deal``) fill the grid row by row from A1, then the
stack; a short one plays a short game with only those cards.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.engine import PUBLIC, Match
from companion.engine import board as b
from companion.games.card_mutiny import CATALOGUE, GAME
from companion.games.card_mutiny import board as tabletop
from companion.games.card_mutiny.show import log_lines
from tests.games.whole_words import check_whole, vocabulary

NAMES = ["Anne", "Bonny", "Drake"]
ROWS = "ABCDEFG"
CELL_NAMES = {f"{r}{c}" for r in ROWS for c in range(1, 8)}
CARD_NAMES = {kind.name for kind in CATALOGUE}


def new(deal: str = "", seats: int = 3, **options) -> Match:
    opts = {"stacked_deal": deal, "first_seat": 1, **options}
    return Match.create(GAME, seats, opts, seed=7, names=NAMES[:seats])


def idx(name: str) -> int:
    return ROWS.index(name[0]) * 7 + int(name[1:]) - 1


def flip(match: Match, *names: str, kind: str = "flip") -> None:
    for name in names:
        match.apply(match.acting()[0], {"type": kind, "cell": idx(name)})


def end_turn(match: Match) -> None:
    match.apply(match.acting()[0], {"type": "end_turn"})


def flat(board: list[dict]) -> list[dict]:
    """Every part of a board, groups opened."""
    out = []
    for part in board:
        out.append(part)
        out += flat(part.get("parts", []))
    return out


def parts(match: Match, kind: str) -> list[dict]:
    return [p for p in flat(match.board()) if p["part"] == kind]


def one(match: Match, kind: str) -> dict:
    found = parts(match, kind)
    assert len(found) == 1, f"{len(found)} {kind} parts"
    return found[0]


def said(match: Match) -> list[str]:
    """Every line of the board's text parts."""
    return [line for part in parts(match, "text") for line in part["lines"]]


def place(match: Match, name: str) -> dict | None:
    return one(match, "grid")["cells"][idx(name)]


def words(match: Match) -> str:
    """Every word on the board, as one text."""
    return json.dumps(match.board())


# -- the grid ---------------------------------------------------------------------------

def test_the_grid_has_49_places_named_by_row_and_column_all_face_down_after_the_deal():
    match = new()
    grid = one(match, "grid")
    assert len(grid["cells"]) == 49 and grid["rows"] == grid["cols"] == 7
    assert grid["row_names"] == list(ROWS)
    assert grid["col_names"] == [str(n) for n in range(1, 8)]
    assert all(cell["down"] for cell in grid["cells"])
    assert [cell["label"] for cell in grid["cells"]][:8] == ["A1", "A2", "A3", "A4", "A5",
                                                               "A6", "A7", "B1"]


def test_the_board_is_built_from_the_public_view_alone():
    match = new()
    flip(match, "A1")
    assert match.board() == GAME.board(match.view(PUBLIC))
    # Every face-down card drawn again: nothing on the board changes.
    for seed in range(3):
        assert match.redealt(PUBLIC, random.Random(seed)).board() == match.board()


def test_a_flipped_coin_lies_face_up_in_its_place_and_the_headline_says_what_to_do():
    match = new("copper silver gold gold")
    flip(match, "A1")
    assert place(match, "A1") == {"part": "card", "face": "Copper coin", "down": False,
                                  "value": 100, "kind": "copper", "label": "A1",
                                  "state": "open"}
    assert place(match, "A2")["down"]
    assert one(match, "headline")["text"] == \
        "Anne flipped a Copper coin at A1: flip another card to match it"


def test_a_miss_says_both_cards_and_waits_for_the_end_of_the_turn():
    match = new("silver copper gold gold")
    flip(match, "A1", "A2")
    assert one(match, "headline")["text"] == (
        "Anne flipped a Silver coin at A1, then a Copper coin at A2: no match, they turn "
        "back face down when Anne ends the turn")
    assert [place(match, n)["state"] for n in ("A1", "A2")] == ["open", "open"]
    end_turn(match)
    assert place(match, "A1")["down"] and place(match, "A2")["down"]
    assert one(match, "headline")["text"] == "Bonny's turn: flip a card"
    assert "Anne: Silver coin at A1 / Copper coin at A2, no match" in one(match, "log")["lines"]


def test_maps_in_a_row_say_how_many_of_three():
    match = new("map map gold gold map")
    flip(match, "A1", "A2")
    assert one(match, "headline")["text"] == \
        "Anne has 2 of 3 Treasure Maps face up: flip another card to make a set"


def test_taken_cards_and_rocks_keep_their_places_and_the_counts_follow():
    match = new("gold gold rock dud copper silver copper silver", rocks=1)
    flip(match, "A1", "A2")
    assert [place(match, n)["state"] for n in ("A1", "A2")] == ["taken", "taken"]
    flip(match, "A3")                     # a Rock ends the turn and stays
    assert place(match, "A3")["state"] == "rock" and place(match, "A3")["face"] == "Rock"
    assert place(match, "A1") is None     # no stack left to refill the place
    flip(match, "A4")                     # Bonny: a dud, discarded
    facts = dict(one(match, "facts")["items"])
    assert facts == {"Stack": 0, "Face down in the grid": 4, "Discard pile": 1,
                     "Rocks": 1, "Empty places": 44, "Turns played": 2}
    assert "Discard pile: 1 Dud" in said(match)


def test_the_chests_gold_and_the_captain_are_on_the_ledger():
    match = new("gold gold ruby silver copper silver copper")
    flip(match, "A1", "A2", "A3")         # Anne: a gold pair, then the Ruby
    ledger = one(match, "ledger")
    assert ledger["columns"] == ["Gold", "Map sets"]
    anne, bonny = ledger["rows"][:2]
    assert anne["values"] == [1100, 0] and anne["note"] == "Captain"
    assert bonny["values"] == [0, 0] and "note" not in bonny
    assert ledger["turn"] == [1]
    assert "Captain: Anne (1100 gold)" in said(match)
    chests = [p for p in parts(match, "text") if p.get("title") == "Chests"]
    assert chests[0]["lines"] == ["Anne: 2 Gold coins, 1 Ruby", "Bonny: empty",
                                  "Drake: empty"]


def test_everyone_is_captain_at_the_start():
    match = new()
    assert "Everyone is Captain (all tied at 0 gold)" in said(match)
    assert not any("note" in row for row in one(match, "ledger")["rows"])


def test_a_mutiny_with_a_choice_of_captains_names_the_decision():
    match = new("copper copper silver gold copper copper mutiny silver gold")
    flip(match, "A1", "A2", "A3", "A4")   # Anne: a Copper pair, then a miss
    end_turn(match)
    flip(match, "A5", "A6", "A3", "A4")   # Bonny: the same
    end_turn(match)
    assert "Captains: Anne and Bonny (200 gold)" in said(match)
    flip(match, "A7")                     # Drake: a Mutiny, two Captains to choose from
    assert match.step() == "target"
    assert one(match, "headline")["text"] == \
        "Drake revealed a Mutiny and picks which Captain it targets"


def test_a_storm_names_the_rows_it_may_hit():
    match = new("storm gold silver copper gold silver copper gold silver copper "
                "gold silver copper gold silver copper")
    flip(match, "A1")
    assert match.step() == "storm"
    assert one(match, "headline")["text"] == \
        "Anne revealed a Storm and picks the row to reshuffle: row A, B or C"
    assert "The Storm may hit row A, B or C (rows with two or more face-down cards)" \
        in said(match)


# -- peeks: where is public, what is not -------------------------------------------------

def test_a_peek_shows_where_on_the_board_and_what_on_the_peekers_panel_only():
    match = new("spyglass gold silver copper map gold")
    flip(match, "A1")
    flip(match, "A3", kind="peek")
    assert place(match, "A3") == {"part": "card", "down": True, "back": "Peek",
                                  "label": "A3"}
    assert one(match, "headline")["text"] == "Anne is peeking: 2 more cards to pick"
    assert "Anne is peeking at A3: only they see what lies there" \
        in said(match)
    assert "Silver coin" not in words(match)
    assert match.redealt(PUBLIC, random.Random(1)).board() == match.board()
    panel = match.panel(0)
    assert panel[0]["title"] == "Your peeks: only you see these"
    assert panel[0]["items"] == [{"part": "card", "face": "Silver coin", "down": False,
                                  "value": 200, "kind": "silver", "label": "A3"}]
    assert match.panel(1) == [] and match.panel(2) == []
    flip(match, "A5", "A6", kind="peek")
    assert one(match, "headline")["text"] == \
        "Anne peeked at A3, A5 and A6 and ends the turn"
    end_turn(match)
    assert match.panel(0) == [] and place(match, "A3") == {"part": "card", "down": True,
                                                           "label": "A3"}


def test_no_panel_for_a_seat_that_knows_nothing_alone():
    match = new()
    assert [match.panel(seat) for seat in range(3)] == [[], [], []]


# -- the end ------------------------------------------------------------------------------

def test_the_end_opens_the_cards_left_and_tells_each_pirates_score():
    match = new("gold gold map map map silver silver silver silver copper", seats=2)
    flip(match, "A1", "A2", "A3", "A4", "A5")     # Anne: 600 + a map set
    flip(match, "A6", "A7", "B1", "B2", "B3")     # Bonny: 800, and a lone Copper
    end_turn(match)
    assert match.is_over
    result = one(match, "result")
    assert result["title"] == "Anne wins!" and result["winners"] == [0]
    assert result["scores"] == [1600, 800] and result["score_label"] == "Final gold"
    assert result["lines"] == [
        "The stack is empty and every card was flipped",
        "Anne: 600 gold in the chest + 1 Treasure Map set worth 1000 = 1600 gold",
        "Bonny: 800 gold in the chest = 800 gold",
        "Left in the grid, never taken: Copper coin (B3)"]
    assert place(match, "B3")["state"] == "left" and place(match, "B3")["face"] == "Copper coin"
    ledger = one(match, "ledger")
    assert ledger["columns"] == ["Gold", "Map sets", "Final gold"]
    assert ledger["rows"][0]["values"] == [600, 1, 1600]
    assert "Anne: 2 Gold coins" in said(match)
    assert ledger["winners"] == [0] and "turn" not in ledger
    assert not any("note" in row for row in ledger["rows"])   # no Captain any more
    assert one(match, "headline")["text"] == \
        "Game over: the stack is empty and every card was flipped"


# -- cards mode ---------------------------------------------------------------------------

def test_cards_mode_shows_the_cards_turned_up_instead_of_a_grid():
    match = new(mode="cards")
    assert parts(match, "grid") == []
    assert one(match, "cards")["empty"] == \
        "Real cards lie on the table: nothing turned up this turn yet"
    match.apply(0, {"type": "reveal", "kind": "silver"})
    assert one(match, "cards")["items"] == [{"part": "card", "face": "Silver coin",
                                             "down": False, "value": 200,
                                             "kind": "silver", "state": "open"}]
    assert one(match, "headline")["text"] == \
        "Anne flipped a Silver coin: flip another card to match it"


# -- whole words, whatever happens ---------------------------------------------------------

#: Every word the board may say comes from these (the engine's part defaults too).
SOURCES = [Path(tabletop.__file__), Path(tabletop.__file__).with_name("show.py"),
           Path(b.__file__)]
VOCABULARY = vocabulary(SOURCES, NAMES, [tabletop.count_of(2, name) for name in CARD_NAMES],
                        CARD_NAMES)




def _check_whole(board: list[dict]) -> None:
    check_whole(board, VOCABULARY, re.compile(r"[A-Za-z]+\d*"),
                frozenset(CELL_NAMES) | frozenset(ROWS))
    for grid in (p for p in flat(board) if p["part"] == "grid"):
        assert len(grid["cells"]) == 49
        for cell in grid["cells"]:
            assert cell is None or cell["label"] in CELL_NAMES
            assert cell is None or cell["down"] or cell["face"] in CARD_NAMES


@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_49_places_whole_words_and_nothing_hidden(seed):
    rng = random.Random(seed)
    match = Match.create(GAME, 3, {}, seed=seed, names=NAMES)
    for _ in range(120):
        if match.is_over:
            break
        board = match.board()
        _check_whole(board)
        assert sum(p["part"] == "grid" for p in flat(board)) == 1
        assert [p["lines"] for p in flat(board) if p["part"] == "log"] == \
            [log_lines(match.view(PUBLIC))]
        assert match.redealt(PUBLIC, rng).board() == board
        for seat in range(3):
            assert match.redealt(seat, rng).panel(seat) == match.panel(seat)
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
