"""MIT Mutiny's board and panels: the table shows every public fact (the map, the loot
mat, the ledgers, the decisions, the battle with both sums, the cup draws) in full words,
from the public view only; a phone's panel shows that seat's secrets and nobody else's;
the end opens every secret and says where each pirate's Infamy came from.

Matches use table dice and physical islands (every roll exact) unless a test needs the
map; the helpers are those of tests/games/mit_mutiny_helpers.py.
"""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

from companion.engine import PUBLIC, Match
from companion.games.mit_mutiny import GAME
from companion.games.mit_mutiny.words import STEP_NAMES, blow_by_blow
from tests.games.mit_mutiny_helpers import (
    FM,
    QM,
    SCOUT,
    TABLE,
    D,
    M,
    assign,
    decide,
    done_buying,
    enter,
    give_cards,
    island,
    no_peek,
    quiet_round,
    seat_of,
    st,
    to_decisions,
)

NAMES = ["Anne Bonny", "Calico Jack Rackham", "Mary Read", "Blackbeard"]


def new(captain: int = 0, seed: int = 1, **options: Any) -> Match:
    """A named match whose setup roll made ``captain`` the first Captain."""
    match = Match.create(GAME, 4, {**TABLE, **options}, seed=seed, names=NAMES)
    enter(match, {s: [6, 6] if s == captain else [1, 1 + s % 3] for s in range(4)})
    return match


def parts(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every part, groups opened, cards of card rows included."""
    for part in items:
        yield part
        yield from parts(part.get("parts", []))
        yield from parts(part.get("items", []) if part["part"] == "cards" else [])


def find(board: list[dict[str, Any]], kind: str, title: str = "") -> list[dict[str, Any]]:
    return [p for p in parts(board) if p["part"] == kind and title in p.get("title", "")]


#: Fields of a part that are not shown as words (the kind of part, colours, layout).
NOT_SHOWN = {"part", "kind", "state", "tone", "tones", "layout"}


def words(value: Any) -> Iterator[str]:
    """Every string a board shows (titles, labels, lines, names, values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_SHOWN:
                yield from words(item)
    elif isinstance(value, list):
        for item in value:
            yield from words(item)


def facts(board: list[dict[str, Any]], title: str = "") -> dict[str, Any]:
    return {label: value for part in find(board, "facts", title)
            for label, value in part["items"]}


def pirates(board: list[dict[str, Any]]) -> dict[str, Any]:
    """The pirates' ledger (Rum, crew dice, cards, islands, Cannons, Infamy so far)."""
    return find(board, "group", "The pirates")[0]["parts"][0]


def lines(board: list[dict[str, Any]], title: str) -> list[str]:
    return [line for part in find(board, "text", title) for line in part["lines"]]


def battle_with_a_cannon() -> Match:
    """Scout 3 and First Mate 1 mutiny, 10 v 16; 1's Cannon makes it 16 v 16; the tie
    is rolled again and the Captain's side wins 32 v 5 (the test of the battle record
    in tests/games/test_mit_mutiny_cards.py); the Captain keeps his share and buys next."""
    match = new(stack="cannon")
    give_cards(match, {1: 1})
    to_decisions(match, loot=(2, 1, 0, 0), take="sugar", shares={0: [1, 1, 0, 0]},
                 dice={0: [1, 1], 1: [2, 2], 2: [3, 3, 8], 3: [3, 3]})
    decide(match, scout=M, fm=M)
    match.apply(1, {"type": "play", "card": "cannon"})
    enter(match, {1: [6]})
    enter(match, {0: [6, 6], 1: [1, 1, 1], 2: [6, 6, 8], 3: [1, 1]})
    return match


# -- the battle ----------------------------------------------------------------------------

def test_a_battle_on_the_board_shows_both_sums_both_sides_dice_and_the_winner():
    match = battle_with_a_cannon()
    board = match.board()
    battle = find(board, "group", "The battle of round 2")
    assert len(battle) == 1
    assert facts(battle[0]["parts"], "The sums") == {
        "Mutiny": 5, "The Captain's side": 32, "Ties": 1, "Winner": "The Captain's side"}
    sides = {g["title"]: g for g in find(battle[0]["parts"], "group")}
    mutineers, captains = sides["The mutineers: 5"], sides["The Captain's side: 32"]
    assert [(d["title"], d["faces"]) for d in mutineers["parts"]] == [
        ("Calico Jack Rackham: 3", [1, 1, 1]), ("Blackbeard: 2", [1, 1])]
    assert [(d["title"], d["faces"], d["tones"]) for d in captains["parts"]] == [
        ("Anne Bonny (Captain): 12", [6, 6], ["", ""]),
        ("Mary Read: 20", [6, 6, 8], ["", "", "black"])]
    assert lines(board, "Blow by blow") == [
        "Calico Jack Rackham and Blackbeard mutiny; the cups are lifted: mutiny 10 against "
        "16 for the Captain",
        "Anne Bonny passes",  # no card in hand: a public count, so the pass is made for her
        "Calico Jack Rackham plays Cannon: adds 6",
        "Mary Read, Blackbeard, Anne Bonny and Calico Jack Rackham pass",
        "The cards are done: mutiny 16 against 16 for the Captain - a tie",
        "Every die is rolled again: Anne Bonny 6 and 6; Calico Jack Rackham 1, 1 and 1; "
        "Mary Read 6, 6 and d8 8; Blackbeard 1 and 1",
        "Anne Bonny, Calico Jack Rackham, Mary Read and Blackbeard pass",
        "The cards are done: mutiny 5 against 32 for the Captain",
        "Captain Anne Bonny's side wins and the Captain takes the island",
        "The defenders keep their shares: Anne Bonny 1 Sugar and 1 Orange"]
    # The sums are public: the same on the table as in the public view.
    assert match.step() == "buy" and match.view(PUBLIC)["state"]["sums"] == {M: 5, D: 32}
    done_buying(match)
    assert lines(match.board(), "Last round's battle") == [
        "Round 2: mutiny 5 against 32 for the Captain. Captain Anne Bonny's side wins and "
        "the Captain takes the island."]


def test_a_won_mutiny_shows_the_new_captain_and_every_cup_draw():
    match = new(cup_draws="companion")
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar", shares={0: [1, 2, 1, 1]},
                 dice={0: [1, 1], 1: [3, 3], 2: [2, 2, 8], 3: [6, 5]})
    decide(match, scout=M, qm=M, fm=D)
    board = match.board()
    assert facts(board, "The sums") == {"Mutiny": 23, "The Captain's side": 8,
                                        "Winner": "The mutineers", "New Captain": "Mary Read"}
    cup = st(match)["cup"]
    drawn = ", ".join(f"{n}. {NAMES[seat]} {kind.capitalize()}"
                      for n, (seat, kind) in enumerate(cup["draws"], 1))
    told = lines(board, "The cup draws")
    assert told[0] == ("In the cup: 1 Sugar, 2 Orange, 1 Gold and 1 Plantain, drawn in turn "
                       "by Mary Read and Blackbeard")
    assert told[1].startswith("Mary Read drew ") and told[2].startswith("Blackbeard drew ")
    assert told[3] == f"In order: {drawn}"
    crew = pirates(board)["rows"]
    assert [row.get("note") for row in crew] == ["defends", "First Mate, defends",
                                                 "Captain, mutinies", "Scout, mutinies"]


def told(match: Match) -> list[str]:
    """The last battle blow by blow, from the public view (a battle that ends with
    nobody able to buy is over before the board could show it: the next round begins)."""
    state = match.view(PUBLIC)["state"]
    return blow_by_blow(state, NAMES, state["battle"])


def test_each_battle_card_and_a_roll_off_are_told_with_what_they_did():
    match = new(stack="quick_reload")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 5]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "quick_reload"})
    assert match.board()[0]["text"] == ("Round 2 - The battle: Quick Reload: Blackbeard "
                                        "picks the dice to re-roll")
    match.apply(3, {"type": "reroll", "dice": [[6, 1]]})
    enter(match, {3: [6]})
    assert "Blackbeard plays Quick Reload: re-rolls 1, now 6" in told(match)

    match = new(stack="drunken_madness")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [6, 6]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "drunken_madness"})
    match.apply(3, {"type": "target", "seat": 2})
    assert "Blackbeard plays Drunken Madness: Mary Read loses 6" in told(match)

    match = new(stack="perfect_storm")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [1, 1]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "perfect_storm"})
    enter(match, {0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [6, 6]})
    assert ("Blackbeard plays Perfect Storm: every die is rolled again: Anne Bonny 1 and 1;"
            " Calico Jack Rackham 1 and 1; Mary Read 1, 1 and d8 1; Blackbeard 6 and 6"
            ) in told(match)

    match = new()
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [2, 2, 2], 3: [3, 3]})
    decide(match, scout=M, qm=M)
    assert match.board()[0]["text"] == (
        "Round 1 - The battle: a roll-off for Captain: waiting for Mary Read and Blackbeard"
        " to enter their dice")
    enter(match, {2: [4], 3: [4]})
    enter(match, {2: [2], 3: [5]})
    story = told(match)
    assert story[-3:-1] == ["Roll-off for Captain: Mary Read 4 and Blackbeard 4",
                           "Roll-off for Captain: Mary Read 2 and Blackbeard 5"]
    assert story[-1] == ("The mutineers win: Blackbeard, the strongest mutineer, becomes "
                        "Captain and takes the island")


def test_table_dice_and_table_cup_show_who_the_table_waits_for():
    match = new(cup_draws="table")
    assign(match, 1, 2)
    match.apply(seat_of(match, SCOUT), {"type": "count", "kind": "sugar", "n": 2})
    for kind in ("orange", "gold", "plantain"):
        match.apply(seat_of(match, SCOUT), {"type": "count", "kind": kind, "n": 0})
    assert match.board()[0]["text"] == (
        "Round 1 - Dividing the loot: Captain Anne Bonny shares out the island's loot on "
        "the loot mat")
    match.apply(0, {"type": "give", "kind": "sugar", "seat": 2})
    enter(match, {0: [6, 6], 1: [6, 6]})
    board = match.board()
    assert board[0]["text"] == ("Round 1 - Rallying the crew: waiting for Mary Read and "
                                "Blackbeard to enter their dice")
    cups = find(board, "group", "Crew dice under the cups")[0]
    assert [(d["title"], d["faces"], d["hidden"]) for d in cups["parts"]] == [
        ("Anne Bonny, rolled", [None, None], "2 dice under the cup"),
        ("Calico Jack Rackham, rolled", [None, None], "2 dice under the cup"),
        ("Mary Read, rolling", [None] * 3, "3 dice under the cup, the black one a d8"),
        ("Blackbeard, rolling", [None, None], "2 dice under the cup")]


# -- what the rules make public ------------------------------------------------------------

def test_the_map_shows_twelve_spaces_the_looked_at_islands_and_the_island_in_play():
    match = Match.create(GAME, 4, {"islands": "deck"}, seed=4, names=NAMES)
    captain = st(match)["captain"]
    others = [s for s in range(4) if s != captain]
    assign(match, others[0], others[1])
    scout = seat_of(match, SCOUT)
    down = match.view(PUBLIC)["state"]["map"]["face_down"]
    first = down.index(True)
    match.apply(scout, {"type": "look", "space": first})
    board = match.board()
    spaces = find(board, "grid")[0]
    assert (spaces["rows"], spaces["cols"]) == (1, 12) and len(spaces["cells"]) == 12
    assert all(card["down"] and card["back"] == "Island" for card in spaces["cells"])
    assert spaces["cells"][first]["state"] == "held"
    assert facts(board, "")["The Scout is looking at"] == f"space {first + 1}"
    assert facts(board)["Face down"] == 12 and facts(board)["Left to raid"] == 12
    second = down.index(True, first + 1)
    match.apply(scout, {"type": "look", "space": second})
    match.apply(scout, {"type": "choose", "space": second})
    island = st(match)["island"]
    board = match.board()
    cells = find(board, "grid")[0]["cells"]
    assert cells[second]["face"] == island["name"] and not cells[second]["down"]
    assert sum(1 for cell in cells if cell["down"]) == 11
    assert facts(board)["In play"] == f"{island['name']} on space {second + 1}"
    # The other island the Scout saw stays face down, marked as seen by him.
    assert facts(board)["Looked at"] == f"space {first + 1} by {NAMES[scout]}"
    here = find(board, "group", "the island in play")[0]
    assert here["title"] == f"{island['name']} (space {second + 1}), the island in play"


def test_the_loot_mat_the_ledgers_and_the_supply_are_on_the_board():
    match = new()
    to_decisions(match, loot=(3, 1, 0, 2), take="plantain",
                 shares={0: [1, 0, 0, 0], 2: [2, 1, 0, 0], 3: [0, 0, 0, 1]})
    board = match.board()
    mat = find(board, "ledger", "The loot mat")[0]
    assert mat["columns"] == ["Sugar", "Orange", "Gold", "Plantain"]
    assert [row["values"] for row in mat["rows"]] == [[1, 0, 0, 0], [0, 0, 0, 0],
                                                     [2, 1, 0, 0], [0, 0, 0, 1]]
    assert facts(board)["The Scout took"] == "a Plantain (Blackbeard)"
    ledger = pirates(board)
    assert ledger["columns"] == ["Rum", "Crew dice (red + green)", "Cards in hand",
                                  "Islands", "Cannons fired", "Infamy so far"]
    assert ledger["rows"][2]["values"] == [2, "2 + 0", 0, 0, 0, 1]
    assert [row.get("note") for row in ledger["rows"]] == [
        "Captain, defends", "First Mate, deciding", "Quarter Master, deciding",
        "Scout, deciding"]
    assert facts(board)["Printed on the card"] == "3 Sugar, 1 Orange and 2 Plantain"
    loot = find(board, "ledger", "Loot cubes on each player mat")[0]
    assert loot["rows"][3]["values"] == [0, 0, 0, 1]
    assert facts(board, "The supply and the bank") == {
        "Rum": 25, "Green crew dice": 10, "Mystery cards": 26,
        "Sugar": 22, "Orange": 24, "Gold": 25, "Plantain": 23}


def test_public_decisions_show_as_they_are_made_and_a_secret_ballot_only_as_a_count():
    match = new()
    to_decisions(match)
    match.apply(seat_of(match, SCOUT), {"type": "decide", "choice": M})
    ledger = pirates(match.board())
    notes = [row.get("note") for row in ledger["rows"]]
    assert notes == ["Captain, defends", "First Mate, deciding", "Quarter Master, deciding",
                     "Scout, mutinies"]
    assert ledger["turn"] == [2]  # the Quarter Master decides next

    hidden = new(ballot="secret")
    to_decisions(hidden)
    hidden.apply(seat_of(hidden, SCOUT), {"type": "ballot", "choice": M})
    board = hidden.board()
    box = find(board, "ballots")[0]
    assert (box["cast"], box["total"]) == (1, 3)
    assert board[0]["text"] == (
        "Round 1 - Mutiny or defend, by secret ballot: 1 of 3 ballots in from the Scout, the "
        "Quarter Master and the First Mate")
    assert "mutinies" not in json.dumps(board)


def holds_the_public_ledger(board: list[dict[str, Any]], state: dict[str, Any]) -> None:
    """Each pirate's public ledger, the supply and the map's count are on the board as
    the public view has them."""
    rows = pirates(board)["rows"]
    loot = find(board, "ledger", "Loot cubes on each player mat")[0]["rows"]
    for seat, pirate in enumerate(state["pirates"]):
        assert rows[seat]["values"] == [
            pirate["rum"], f"{pirate['red']} + {pirate['green']}", pirate["cards"],
            len(pirate["islands"]), pirate["cannons"], state["infamy"]["total"][seat]]
        assert loot[seat]["values"] == pirate["loot"]
    supply = facts(board, "The supply and the bank")
    assert [supply["Rum"], supply["Green crew dice"], supply["Mystery cards"]] == [
        state["supply"]["rum"], state["supply"]["green"], state["supply"]["deck"]]
    assert [supply[k] for k in ("Sugar", "Orange", "Gold", "Plantain")] == \
        state["supply"]["bank"]
    if state["map"] is not None:
        cells = find(board, "grid")[0]["cells"]
        assert [bool(c and c["down"]) for c in cells] == state["map"]["face_down"]


def test_every_step_is_named_in_full_words_and_the_headline_says_it():
    assert set(STEP_NAMES) == set(GAME.steps) | {"over"}
    rng = random.Random(2)
    for seed, options in ((1, {}), (2, TABLE), (3, {"ballot": "secret", "cup_draws": "table"})):
        match = Match.create(GAME, 4, options, seed=seed, names=NAMES)
        while not match.is_over:
            board = match.board()
            step, headline = match.step(), board[0]["text"]
            assert board[0]["part"] == "headline"
            where = f"Round {st(match)['round']} - " if st(match)["round"] else ""
            assert headline.startswith(where + STEP_NAMES[step])
            assert not set(words(board)) & set(GAME.steps), "a step id on the board"
            holds_the_public_ledger(board, match.view(PUBLIC)["state"])
            actor, action = rng.choice([(a, act) for a in match.acting()
                                        for act in match.legal_actions(a)])
            match.apply(actor, action)


def test_nothing_on_the_board_is_cut():
    """Every seat name, island name and card name appears whole wherever it begins."""
    match = Match.create(GAME, 4, {"stack": "drunken_madness,perfect_storm"}, seed=5,
                         names=NAMES)
    whole = NAMES + ["Drunken Madness", "Perfect Storm", "Dead Man's Cay", "Isla de Muerta"]
    rng = random.Random(5)
    while not match.is_over:
        for text in words([match.board(), *[match.panel(s) for s in range(4)]]):
            for name in whole:
                if name[:6] in text:
                    assert name in text, f"{name!r} cut in {text!r}"
        actor, action = rng.choice([(a, act) for a in match.acting()
                                    for act in match.legal_actions(a)])
        match.apply(actor, action)


# -- secrets -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed,options", [(6, {}), (7, {"ballot": "secret"}), (8, TABLE)])
def test_the_board_depends_only_on_the_public_and_a_panel_only_on_its_seat(seed, options):
    """Everything hidden drawn again (other hands, other cups, the face-down islands,
    ballots): the board stays the same, and so does each seat's own panel."""
    match = Match.create(GAME, 4, {**options, "stack": "quick_reload,cannon"}, seed=seed,
                         names=NAMES)
    rng = random.Random(seed)
    while not match.is_over:
        assert match.redealt(PUBLIC, random.Random(rng.random())).board() == match.board()
        for seat in range(4):
            twin = match.redealt(seat, random.Random(rng.random()))
            assert twin.panel(seat) == match.panel(seat)
        actor, action = rng.choice([(a, act) for a in match.acting()
                                    for act in match.legal_actions(a)])
        match.apply(actor, action)


def test_a_hand_and_the_dice_under_the_cups_stay_off_the_board_and_other_panels():
    match = new(stack="quick_reload")
    give_cards(match, {2: 1})
    to_decisions(match, dice={0: [3, 4], 1: [5, 5], 2: [2, 6, 7], 3: [1, 6]})
    board = match.board()
    assert "Quick Reload" not in json.dumps(board)
    assert all(d["faces"] == [None] * len(d["faces"])
               for d in find(board, "dice"))  # every cup still down
    mine = match.panel(2)
    assert find(mine, "cards", "Your hand")[0]["items"][0]["face"] == "Quick Reload"
    assert find(mine, "card")[0]["detail"] == "Battle: re-roll any of your own dice"
    dice = find(mine, "dice")[0]
    assert (dice["title"], dice["faces"], dice["tones"]) == (
        "Your dice under the cup: 15", [2, 6, 7], ["", "", "black"])
    for seat in (0, 1, 3):
        panel = match.panel(seat)
        assert "Quick Reload" not in json.dumps(panel)
        assert find(panel, "cards", "Your hand")[0]["empty"] == "No cards in hand"
        assert [d["faces"] for d in find(panel, "dice")] == [
            st(match)["dice"][seat] and [f for _, f in st(match)["dice"][seat]]]


def test_dice_entered_under_the_cup_show_on_their_owners_panel_only():
    match = new()
    assign(match, 1, 2)
    island(match, loot=(0, 0, 1, 0))
    match.apply(2, {"type": "enter", "face": 5})
    match.apply(2, {"type": "enter", "face": 3})
    entered = find(match.panel(2), "dice", "Your dice as entered")[0]
    assert (entered["faces"], entered["tones"]) == ([5, 3, None], ["", "", "black"])
    # The others see only their own dice still to enter.
    for seat in (0, 1, 3):
        (theirs,) = find(match.panel(seat), "dice")
        assert theirs["faces"] == [None, None]
        assert theirs["hidden"] == "Roll under your cup, then enter each die"
    cups = find(match.board(), "group", "Crew dice under the cups")[0]["parts"]
    assert cups[2]["faces"] == [None, None, None] and cups[2]["title"] == "Mary Read, rolling"


def test_the_first_mates_peek_shows_on_his_panel_only():
    match = new()
    assign(match, 1, 2)
    island(match, loot=(0, 0, 1, 0))
    enter(match, {0: [4, 5], 1: [1, 2], 2: [3, 3, 7], 3: [6, 6]})
    match.apply(seat_of(match, FM), {"type": "peek", "seat": 3})
    peek = find(match.panel(1), "dice", "Under Blackbeard's cup")
    assert [(d["title"], d["faces"]) for d in peek] == [
        ("Under Blackbeard's cup (your peek): 12", [6, 6])]
    assert not any("peek" in json.dumps(match.panel(s)) for s in (0, 2, 3))
    assert "peek" not in json.dumps(match.board()[1:])


def test_the_scouts_panel_holds_the_islands_he_looked_at_and_the_secret_ballots():
    match = Match.create(GAME, 4, {"ballot": "secret"}, seed=4, names=NAMES)
    captain = st(match)["captain"]
    others = [s for s in range(4) if s != captain]
    assign(match, others[0], others[1])
    scout = seat_of(match, SCOUT)
    down = [i for i, d in enumerate(match.view(PUBLIC)["state"]["map"]["face_down"]) if d]
    match.apply(scout, {"type": "look", "space": down[0]})
    seen = find(match.panel(scout), "cards", "Face-down islands you have looked at")[0]
    name = match.view(scout)["state"]["me"]["islands_seen"][0]["name"]
    assert seen["items"][0]["face"] == name and seen["items"][0]["label"] == \
        f"Space {down[0] + 1}"
    assert name not in json.dumps(match.board())
    assert all(name not in json.dumps(match.panel(s)) for s in others if s != scout)
    match.apply(scout, {"type": "look", "space": down[1]})
    match.apply(scout, {"type": "choose", "space": down[1]})
    while match.step() in ("take", "divide"):
        actor = match.acting()[0]
        match.apply(actor, match.legal_actions(actor)[0])
    if match.step() == "peek":
        no_peek(match)
    for role, choice in ((SCOUT, M), (QM, D), (FM, M)):
        match.apply(seat_of(match, role), {"type": "ballot", "choice": choice})
    assert lines(match.panel(seat_of(match, FM)), "Your secret ballot") == [
        "You voted to mutiny"]
    told = lines(match.panel(scout), "The secret ballots (you decide last)")
    assert told == [f"{NAMES[seat_of(match, role)]}: {word}"
                    for role, word in sorted(((SCOUT, "mutiny"), (QM, "defend"),
                                              (FM, "mutiny")),
                                             key=lambda rw: seat_of(match, rw[0]))]
    assert "secret ballots (you decide last)" not in json.dumps(match.board()).lower()


# -- the end -------------------------------------------------------------------------------

def test_the_end_gives_each_pirates_infamy_sources_and_opens_every_secret():
    match = new(stack="quick_reload")
    give_cards(match, {2: 1})  # round 1: Mary Read buys Quick Reload and keeps it
    for _ in range(11):
        quiet_round(match)
        done_buying(match)
    assert match.is_over
    board = match.board()
    assert board[0]["text"] == ("The match is over: Anne Bonny wins with 13 Infamy")
    result = find(board, "result")[0]
    assert result["title"] == "Anne Bonny wins with 13 Infamy!"
    assert result["scores"] == [13, 1, 1, 1]
    assert result["lines"][0] == ("Anne Bonny: 12 islands (12), shared Notorious Drunk with "
                                  "2 Rum (1) = 13 Infamy")
    assert result["lines"][1] == ("Calico Jack Rackham: 0 islands (0), shared Notorious "
                                  "Drunk with 2 Rum (1) = 1 Infamy")
    final = find(board, "group", "The final Infamy")[0]["parts"][0]
    assert final["columns"] == ["Islands", "Fierceness in Battle", "Notorious Drunk",
                                "Infamy cards", "Total"]
    assert final["rows"][0]["values"] == [12, 0, 1, 0, 13] and final["winners"] == [0]
    assert lines(board, "Opened at the end") == [
        "Left in Mary Read's hand: Quick Reload",
        "In the last round First Mate Calico Jack Rackham did not peek.",
        "25 mystery cards were never bought."]
    # The last round had no battle: its roll is opened now.
    last = find(board, "group", "the last roll, never revealed")[0]["parts"]
    assert [d["faces"] for d in last] == [[1, 1], [1, 1], [1, 1, 1], [1, 1]]
