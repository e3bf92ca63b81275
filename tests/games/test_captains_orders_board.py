"""Captain's Orders' board and panel (companion/games/captains_orders/board.py): built from
the public view alone, it holds the standing order and its owner, hand sizes, every move
as the table sees it (who passed to whom, never the card), the round's reveal (every
hand, the accusation or declaration, right or wrong) until the next round's first move,
and the round wins; a seat's panel holds its own hand as cards and nothing of another's.

The deck is stacked (six cards to seat 1, six to seat 2 ...); the last seat deals round 1,
so seat 1 (Anne) plays first. Calico Jack holds the only 1: the Captain.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import PUBLIC, Match
from companion.engine import board as b
from companion.games.captains_orders import GAME
from companion.games.captains_orders import board as tabletop
from tests.games.captains_orders_helpers import TYPICAL_ROUND, A, B, C, D
from tests.games.whole_words import check_whole, vocabulary

NAMES = ["Anne", "Bonny", "Calico Jack", "Drake", "Edward Teach", "Flint", "Mary Read"]
ANNE, BONNY, CALICO, DRAKE = range(4)


def new(rounds: int = 2, **options) -> Match:
    deck = ",".join(str(r) for hand in (A, B, C, D) for r in hand)
    stack = "/".join([deck] * rounds)
    return Match.create(GAME, 4, {"first_dealer": 4, "stack": stack, **options}, seed=1,
                        names=NAMES[:4])


def play(match: Match, moves) -> None:
    for seat, action in moves:
        match.apply(seat, action)


def hands(match: Match) -> list[list[int]]:
    return match.snapshot()["state"]["hands"]


def flat(parts: list[dict]) -> list[dict]:
    out = []
    for part in parts:
        out.append(part)
        if part["part"] in ("group", "cards"):
            out += flat(part.get("parts", []) + part.get("items", []))
    return out


def found(parts: list[dict], kind: str, title: str | None = None) -> list[dict]:
    return [p for p in flat(parts) if p["part"] == kind
            and (title is None or p.get("title") == title)]


def one(parts: list[dict], kind: str, title: str | None = None) -> dict:
    hits = found(parts, kind, title)
    assert len(hits) == 1, f"{len(hits)} {kind} parts titled {title!r}"
    return hits[0]


def facts(parts: list[dict]) -> dict:
    return dict(found(parts, "facts")[0]["items"])


def ranks(cards: dict) -> list:
    return [card["face"] and int(card["face"]) for card in cards["items"]]


# -- the board, from the public view -------------------------------------------------------

def test_the_board_is_built_from_the_public_view_and_redealt_hands_change_nothing():
    match = new()
    play(match, TYPICAL_ROUND[:5])
    board = match.board()
    assert board == GAME.board(match.view(PUBLIC))
    for seed in range(3):
        assert match.redealt(PUBLIC, random.Random(seed)).board() == board


def test_the_standing_order_lies_face_up_with_its_owner_and_the_hand_sizes_follow():
    match = new()
    board = match.board()
    assert facts(board)["Standing order"] == "none"
    assert one(board, "cards", "The standing order")["empty"] == "No order on the table"
    assert one(board, "headline")["text"] == "Round 1: Anne's turn"
    play(match, TYPICAL_ROUND[:1])
    board = match.board()
    order = one(board, "cards", "The standing order")["items"]
    assert order == [b.card("7", kind="order", label="Anne's order", state="open", seat=ANNE)]
    assert facts(board)["Standing order"] == "7, Anne's"
    ledger = one(board, "ledger")
    assert ledger["columns"] == ["Cards in hand", "Round wins"]
    assert [row["values"] for row in ledger["rows"]] == [[5, 0], [6, 0], [6, 0], [6, 0]]
    assert ledger["rows"][ANNE]["note"] == "owns the order 7"
    assert ledger["rows"][DRAKE]["note"] == "dealer"
    assert ledger["turn"] == [BONNY]
    assert one(board, "log")["lines"] == ["Round 1: Drake dealt", "Anne orders 7"]
    play(match, TYPICAL_ROUND[1:2])
    assert one(match.board(), "log")["lines"][-1] == \
        "Bonny followed the order 7: a card face down to Anne"


def test_a_pass_names_who_passed_to_whom_and_never_the_card():
    match = new()
    play(match, TYPICAL_ROUND[:4])
    other = match.fork()
    match.apply(BONNY, {"type": "pass", "rank": 3, "to": CALICO})
    other.apply(BONNY, {"type": "pass", "rank": 4, "to": CALICO})
    assert match.board() == other.board()
    board = match.board()
    assert one(board, "text")["lines"] == [
        "Bonny passed a card face down to Calico Jack: Calico Jack discards a card face "
        "down"]
    assert one(board, "log")["lines"][-2:] == ["Anne's order 7 came back",
                                               "Bonny passed a card face down to Calico Jack"]
    match.apply(CALICO, {"type": "discard", "rank": 10})
    assert facts(match.board())["Discarded face down"] == 1
    assert one(match.board(), "log")["lines"][-1] == "Calico Jack discarded a card face down"


def test_orders_played_stay_face_up_and_a_belay_replaces_the_order():
    match = new()
    play(match, TYPICAL_ROUND[:11])
    board = match.board()
    assert ranks(one(board, "cards", "The standing order")) == [5]
    assert ranks(one(board, "cards", "Orders played this round")) == [7, 6]
    assert "Anne belays with 5" in one(board, "log")["lines"]


def test_the_reveal_shows_every_hand_and_whether_the_accusation_was_right():
    match = new()
    play(match, TYPICAL_ROUND[:-1])
    at_reveal = [list(h) for h in hands(match)]
    play(match, TYPICAL_ROUND[-1:])
    board = match.board()
    reveal = one(board, "group", "Round 1: the reveal")
    shown = [ranks(c) for c in found(reveal["parts"], "cards")]
    assert shown == at_reveal
    assert one(reveal["parts"], "group", "Every hand")["layout"] == "row"
    story = one(reveal["parts"], "text")["lines"]
    assert story[0] == "Calico Jack accused Anne of being the Captain: wrong."
    assert story[1] == "The Captain was Calico Jack, holding a 1."
    winners = match.snapshot()["state"]["last_round"]["winners"]
    assert story[-1] == f"{' and '.join(NAMES[s] for s in winners)} " \
        f"{'win' if len(winners) > 1 else 'wins'} round 1."
    captain = found(reveal["parts"], "cards")[CALICO]
    assert captain["title"].startswith("Calico Jack, Captain, ")
    assert [c.get("state") for c in captain["items"]][0] == "open"
    assert one(board, "log")["lines"] == tabletop.ending_words(
        match.view(PUBLIC)["state"]["last_round"], NAMES[:4])


def test_a_right_declaration_is_told_with_its_card():
    last = {"winners": [CALICO], "captains": [CALICO], "lowest": 9, "round": 1,
            "reason": "captain_emptied",
            "ending": {"kind": "declare", "seat": CALICO, "declared": True, "card": 1}}
    assert tabletop.ending_words(last, NAMES) == [
        "Calico Jack emptied their hand and declared Captain with a 1: right.",
        "The Captain was Calico Jack, holding a 9.",
        "A Captain emptied their hand and declared.",
        "Calico Jack wins round 1."]


def test_the_round_result_stays_until_the_next_rounds_first_move():
    match = new()
    play(match, TYPICAL_ROUND)
    assert one(match.board(), "headline")["text"].startswith("Round 1 is over: ")
    for seat in range(match.seats):  # every seat has seen the reveal: the next round
        match.apply(seat, {"type": "next_round"})
    board = match.board()
    assert one(board, "group", "Round 1: the reveal")
    assert facts(board)["Round"] == 2
    assert one(board, "log")["lines"] == ["Round 2: Anne dealt"]
    match.apply(BONNY, {"type": "play", "rank": 3})  # Anne dealt: Bonny plays first
    board = match.board()
    assert not found(board, "group", "Round 1: every hand")
    assert ranks(one(board, "cards", "The standing order")) == [3]
    assert list(facts(found(board, "facts", "The rounds")))[0] == "Round 1"


def test_the_end_names_the_winners_with_the_round_wins():
    match = new(rounds=1, wins=1)
    play(match, TYPICAL_ROUND)
    assert match.is_over
    board = match.board()
    end = one(board, "result")
    winners = match.result().winners
    assert end["winners"] == winners and end["scores"] == match.result().scores
    # (These said "1 round wins" before: one round win, in words.)
    assert end["lines"][0] in ("First to 1 round win.",
                               f"{len(winners)} players reached 1 round win together.")
    assert end["lines"][1].startswith("Round 1: ")
    assert one(board, "ledger")["winners"] == winners
    assert one(board, "group", "Round 1: the reveal")


def test_the_end_headline_names_the_winner_not_the_target():
    match = new(rounds=1, wins=1)
    play(match, TYPICAL_ROUND)
    winners = match.result().winners
    said = [match.names[w] for w in winners]
    expected = (f"{said[0]} wins the match with 1 round win" if len(said) == 1 else
                f"{' and '.join(said)} share the victory with 1 round win each")
    assert one(match.board(), "headline")["text"] == expected
    assert match.summary()["headline"] == expected  # it used to say "First to 1 round wins"
    assert match.result().reason == "First to 1 round win"  # the why stays the reason


# -- a seat's panel ------------------------------------------------------------------------

def test_the_panel_holds_the_seats_hand_as_cards_and_its_own_face_down_moves():
    match = new()
    play(match, TYPICAL_ROUND[:6])
    for seat in range(4):
        panel = match.panel(seat)
        assert ranks(one(panel, "cards", "Your hand")) == hands(match)[seat]
    assert one(match.panel(BONNY), "log")["lines"][-1] == "You gave a 3 to Calico Jack"
    calico = one(match.panel(CALICO), "log")["lines"]
    assert calico[-2:] == ["You got a 3 from Bonny", "You discarded a 10"]
    assert not any("Bonny" in line or "a 3" in line
                   for line in one(match.panel(DRAKE), "log")["lines"])


def test_cards_mode_has_no_hand_on_the_panel_and_no_cards_out_of_play():
    match = Match.create(GAME, 4, {"mode": "cards", "first_dealer": 4}, seed=1,
                         names=NAMES[:4])
    assert match.panel(ANNE) == []
    assert "Out of play (not dealt)" not in facts(match.board())


# -- every word whole ----------------------------------------------------------------------

SOURCES = [Path(tabletop.__file__), Path(tabletop.__file__).with_name("show.py"),
           Path(b.__file__)]
VOCABULARY = vocabulary(SOURCES, NAMES)




def _check_whole(parts: list[dict]) -> None:
    check_whole(parts, VOCABULARY)


@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_words_whole_and_hands_off_the_board(seed):
    rng = random.Random(seed)
    seats = 4 + seed
    mode = "cards" if seed % 2 else "phones"
    match = Match.create(GAME, seats, {"mode": mode, "wins": 1}, seed=seed,
                         names=NAMES[:seats])
    for _ in range(300):
        if match.is_over:
            break
        board = match.board()
        _check_whole(board)
        assert match.redealt(PUBLIC, rng).board() == board
        for seat in range(seats):
            panel = match.panel(seat)
            _check_whole(panel)
            assert match.redealt(seat, rng).panel(seat) == panel
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
    _check_whole(match.board())
