"""MIT Mutiny: every phase of the rulebook and rulings M1-M7, checked on exact matches.

Most tests use table dice (each pirate enters the faces of their real dice) and physical
islands (the Scout enters the island's cubes), so every roll and every island is exact.
Seats are numbered clockwise. Loot lists are (sugar, orange, gold, plantain).
"""
from __future__ import annotations

import json
import random

import pytest

from companion.engine import CHANCE, PUBLIC, Journal, Match
from companion.engine.display import menu
from companion.errors import ConfigError, OptionError
from companion.games.mit_mutiny import GAME
from companion.games.mit_mutiny import cards as data_module
from companion.games.mit_mutiny.battle import battle_usable, madness_targets
from companion.games.mit_mutiny.cards import KINDS, check_data, dealt, load_data
from companion.games.mit_mutiny.data import award, infamy
from companion.games.mit_mutiny.flow import press_targets
from tests.engine.contract import rejected

TABLE = {"dice": "table", "islands": "physical"}
M, D = "mutiny", "defend"
CAPTAIN, FM, QM, SCOUT = "captain", "first_mate", "quarter_master", "scout"


# -- helpers ------------------------------------------------------------------------------

def st(match: Match) -> dict:
    return match.snapshot()["state"]


def new(captain: int = 0, seed: int = 1, **options) -> Match:
    """A match whose setup roll made ``captain`` the first Captain."""
    match = Match.create(GAME, 4, {**TABLE, **options}, seed=seed)
    enter(match, {s: [6, 6] if s == captain else [1, 1 + s % 3] for s in range(4)})
    assert st(match)["captain"] == captain and match.step() == "roles"
    return match


def enter(match: Match, faces: dict[int, list[int]]) -> None:
    for seat, values in faces.items():
        for face in values:
            match.apply(seat, {"type": "enter", "face": face})


def seat_of(match: Match, role: str) -> int:
    return st(match)["roles"].index(role)


def assign(match: Match, fm: int, qm: int) -> None:
    captain = st(match)["captain"]
    match.apply(captain, {"type": "assign", "role": FM, "seat": fm})
    match.apply(captain, {"type": "assign", "role": QM, "seat": qm})


def island(match: Match, loot=(0, 0, 0, 0), take: str | None = None) -> None:
    scout = seat_of(match, SCOUT)
    for kind, n in zip(KINDS, loot):
        match.apply(scout, {"type": "count", "kind": kind, "n": n})
    if take is not None:
        match.apply(scout, {"type": "take", "kind": take})


def divide(match: Match, shares: dict[int, list[int]]) -> None:
    """The Captain gives out the cubes, kind by kind (the order the companion asks)."""
    captain = st(match)["captain"]
    for k, kind in enumerate(KINDS):
        for seat, share in shares.items():
            for _ in range(share[k]):
                match.apply(captain, {"type": "give", "kind": kind, "seat": seat})


def ones(match: Match) -> dict[int, list[int]]:
    """Every waiting die showing 1."""
    need = st(match)["roll"]["need"]
    return {s: [1] * len(need[s]) for s in range(4) if need[s]}


def no_peek(match: Match) -> None:
    match.apply(seat_of(match, FM), {"type": "no_peek"})


def decide(match: Match, scout: str = D, qm: str = D, fm: str = D,
           final: str | None = None) -> None:
    """M6: Scout, Quarter Master, First Mate (in turn, or by secret ballot), then the
    Scout again."""
    kind = "ballot" if match.step() == "ballot" else "decide"
    for role, choice in ((SCOUT, scout), (QM, qm), (FM, fm)):
        match.apply(seat_of(match, role), {"type": kind, "choice": choice})
    match.apply(seat_of(match, SCOUT), {"type": "final", "choice": final or scout})


def pass_window(match: Match) -> None:
    while match.step() == "window":
        match.apply(match.acting()[0], {"type": "pass"})


def done_buying(match: Match) -> None:
    while match.step() == "buy":
        match.apply(match.acting()[0], {"type": "done"})


def to_decisions(match: Match, fm: int = 1, qm: int = 2, loot=(0, 0, 0, 0),
                 take: str | None = None, shares: dict | None = None,
                 dice: dict | None = None) -> None:
    """Phases 1-4 of a round: roles, island, division, rally (no peek)."""
    assign(match, fm, qm)
    island(match, loot, take)
    if shares:
        divide(match, shares)
    enter(match, dice if dice is not None else ones(match))
    no_peek(match)


def quiet_round(match: Match, fm: int = 1, qm: int = 2, loot=(0, 0, 0, 0),
                take: str | None = None, shares: dict | None = None) -> None:
    """A round where everyone defends (no battle); buying is left open."""
    to_decisions(match, fm, qm, loot, take, shares)
    decide(match)


def total_cubes(state: dict) -> list[int]:
    """Every cube in the game by kind: the bank, the pirates, the island, the shares,
    the cup. Always 25 of each."""
    totals = list(state["bank"])
    for k in range(4):
        totals[k] += sum(loot[k] for loot in state["loot"])
        totals[k] += state["on_island"][k]
        totals[k] += sum(share[k] for share in state["shares"])
        if state["cup"] and not state["cup"]["done"]:
            totals[k] += state["cup"]["cubes"][k]
    return totals


def give_cards(match: Match, counts: dict[int, int]) -> None:
    """A quiet round (Captain 0, Scout 3) in which each seat of ``counts`` gets S+G+P
    that many times and buys that many mystery cards."""
    total = sum(counts.values())
    to_decisions(match, loot=(total + 1, 0, total, total), take="sugar",
                 shares={s: [n, 0, n, n] for s, n in counts.items()})
    decide(match)
    while match.step() == "buy":
        buyer = match.acting()[0]
        for _ in range(counts.get(buyer, 0)):
            match.apply(buyer, {"type": "buy", "item": "card"})
        match.apply(buyer, {"type": "done"})


def buy_turn(match: Match, seat: int) -> None:
    """Let the buyers before ``seat`` be done."""
    while match.acting() != [seat]:
        assert match.step() == "buy"
        match.apply(match.acting()[0], {"type": "done"})


# -- options, data and the deal ----------------------------------------------------------

def test_options_default_to_the_rulings_and_refuse_odd_values():
    match = Match.create(GAME, 4, seed=1)
    assert match.options == {"dice": "companion", "islands": "deck", "ballot": "public",
                             "cup_draws": "companion", "card_window": "until_all_pass",
                             "crew_needs_rum": True, "stack": "", "buying_seconds": 0}
    for bad in ({"ballot": "shouted"}, {"crew_needs_rum": 1}, {"stack": "Cannon!"},
                {"colour": "red"}):
        with pytest.raises(OptionError):
            Match.create(GAME, 4, bad, seed=1)
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"stack": "kraken"}, seed=1)  # no such card in the data
    with pytest.raises(OptionError):
        Match.create(GAME, 4, {"stack": ",".join(["peg_leg"] * 2)}, seed=1)  # only one
    for seats in (3, 5):
        with pytest.raises(OptionError):
            Match.create(GAME, seats, seed=1)


def test_the_default_data_is_the_rulebooks_materials():
    data = load_data()
    assert len(data["islands"]) == 12
    counts = {c["id"]: c["count"] for c in data["cards"]}
    assert counts == {"cannon": 13, "buried_treasure": 3, "drunken_madness": 3,
                      "quick_reload": 2, "stow_away": 2, "peg_leg": 1, "press_gang": 1,
                      "perfect_storm": 1}
    assert sum(counts.values()) == 26


def test_the_deal_lays_twelve_islands_and_shuffles_26_cards_then_everyone_starts_equal():
    match = Match.create(GAME, 4, seed=3)
    state = st(match)
    assert sorted(s for s in state["spaces"] if s is not None) == list(range(12))
    assert len(state["deck"]) == 26 and state["islands_total"] == 12
    assert state["rum"] == [2] * 4 and state["red"] == [2] * 4 and state["green"] == [0] * 4
    assert state["rum_supply"] == 33 - 8 and state["green_supply"] == 10
    assert state["bank"] == [25] * 4
    # The setup roll (companion dice) has already made someone Captain.
    assert match.step() == "roles" and state["captain"] is not None
    roll = state["setup_rolls"][-1]
    assert sum(roll[state["captain"]]) == max(sum(r) for r in roll if r)
    decks = {tuple(st(Match.create(GAME, 4, seed=s))["deck"]) for s in range(5)}
    assert len(decks) == 5


def test_the_stack_option_puts_cards_on_top_of_the_deck():
    match = Match.create(GAME, 4, {"stack": "peg_leg, perfect_storm"}, seed=3)
    deck = st(match)["deck"]
    assert deck[:2] == ["peg_leg", "perfect_storm"] and len(deck) == 26
    assert deck.count("peg_leg") == 1


@pytest.mark.parametrize("text,message", [
    ('[[island]]\nname = "A"\ngold = -1\n', "'gold' must be a whole number from 0 to 6"),
    ('[[island]]\nname = "A"\ngold = true\n', "'gold' must be a whole number"),
    ('[[island]]\nname = "A"\n', "at least one loot cube"),
    ('[[island]]\nname = "A"\ngold = 1\nrum = 2\n', "unknown field 'rum'"),
    ('[[island]]\nname = "A"\ngold = 1\n[[island]]\nname = "A"\nsugar = 1\n',
     "'A' is used twice"),
    ('[[island]]\nname = "A"\ngold = 1\n[[card]]\nid = "x"\nname = "X"\ncount = 1\n'
     'effect = "teleport"\n', "'effect' must be one of"),
    ('[[island]]\nname = "A"\ngold = 1\n[[card]]\nid = "x"\nname = "X"\ncount = 1\n'
     'effect = "cannon"\nloot = 2\n', "unknown field 'loot'"),
    ('[[island]]\nname = "A"\ngold = 1\n', "needs at least one card"),
    ('[treasure]\n', "unknown section 'treasure'"),
    ('[[island]\n', "not valid TOML"),
])
def test_a_broken_data_file_is_refused_with_a_clear_message(tmp_path, text, message):
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_data(path)
    assert message in str(info.value)


def test_too_many_islands_are_refused():
    raw = {"island": [{"name": f"I{n}", "gold": 1} for n in range(13)],
           "card": [{"id": "c", "name": "C", "count": 1, "effect": "storm"}]}
    with pytest.raises(ConfigError, match="1 to 12"):
        check_data(raw)


def test_the_journal_alone_replays_a_match_even_after_the_data_file_changes(
        tmp_path, monkeypatch):
    with Journal(":memory:") as journal:
        match = Match.create(GAME, 4, seed=9, journal=journal)
        deal = journal.entries(match.id)[0]
        assert deal.actor == CHANCE and deal.action["type"] == "deal"
        assert len(deal.action["islands"]) == 12 and len(deal.action["deck"]) == 26
        assert all("loot" in i and "name" in i for i in deal.action["islands"])
        broken = tmp_path / "broken.toml"
        broken.write_text("[[island]]\n")
        monkeypatch.setattr(data_module, "DATA_FILE", broken)
        with pytest.raises(ConfigError):
            Match.create(GAME, 4, seed=9)  # a new deal reads the file ...
        again = journal.load(match.id, lambda _id: GAME)  # ... a replay does not
        assert again.snapshot() == match.snapshot()


# -- setup, roles, islands ----------------------------------------------------------------

def test_the_highest_setup_roll_is_the_first_captain_and_ties_roll_again():
    match = Match.create(GAME, 4, TABLE, seed=1)
    assert match.acting() == [0, 1, 2, 3]
    enter(match, {0: [6, 5], 1: [5, 6], 2: [1, 1], 3: [2, 2]})
    assert match.step() == "setup" and match.acting() == [0, 1]  # only the tied
    enter(match, {0: [2, 2], 1: [3, 1]})
    assert match.step() == "setup"
    enter(match, {0: [1, 1], 1: [4, 1]})
    state = st(match)
    assert state["captain"] == 1 and state["roles"][1] == CAPTAIN
    assert state["setup_rolls"] == [[[6, 5], [5, 6], [1, 1], [2, 2]],
                                    [[2, 2], [3, 1], None, None],
                                    [[1, 1], [4, 1], None, None]]


def test_the_captain_assigns_first_mate_then_quarter_master_and_the_scout_is_left():
    match = new(captain=2)
    assert match.acting() == [2]
    assert match.legal_actions(2) == [{"type": "assign", "role": FM, "seat": s}
                                      for s in (0, 1, 3)]
    assert rejected(match, 2, {"type": "assign", "role": CAPTAIN, "seat": 0}) == "bad_value"
    match.apply(2, {"type": "assign", "role": FM, "seat": 3})
    assert match.legal_actions(2) == [{"type": "assign", "role": QM, "seat": s}
                                      for s in (0, 1)]
    match.apply(2, {"type": "assign", "role": QM, "seat": 0})
    assert st(match)["roles"] == [QM, SCOUT, CAPTAIN, FM]
    assert match.view(PUBLIC)["state"]["roles"] == [QM, SCOUT, CAPTAIN, FM]


def test_the_scout_looks_at_two_face_down_islands_privately_and_picks_one():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)
    assert match.step() == "look" and match.acting() == [3]
    assert len(match.legal_actions(3)) == 12
    match.apply(3, {"type": "look", "space": 4})
    match.apply(3, {"type": "look", "space": 9})
    state = st(match)
    islands = dealt(state)["islands"]
    seen = match.view(3)["state"]["me"]["islands_seen"]
    assert [(s["space"], s["name"]) for s in seen] == [
        (4, islands[state["spaces"][4]]["name"]), (9, islands[state["spaces"][9]]["name"])]
    public = match.view(PUBLIC)["state"]
    assert public["map"]["looked"] == [4, 9] and public["map"]["seen"][3] == [4, 9]
    for viewer in (PUBLIC, 0, 1, 2):  # nobody else learns what is on them
        text = json.dumps(match.view(viewer)["state"])
        assert islands[state["spaces"][4]]["name"] not in text
        assert islands[state["spaces"][9]]["name"] not in text
    assert match.legal_actions(3) == [{"type": "choose", "space": 4},
                                      {"type": "choose", "space": 9}]
    chosen = islands[state["spaces"][9]]
    match.apply(3, {"type": "choose", "space": 9})
    state = st(match)
    assert state["island"]["name"] == chosen["name"]
    assert state["bank"] == [25 - n for n in chosen["loot"]]
    assert state["spaces"][9] is None and state["seen"][3] == [4]
    # The Scout still remembers island 4 (it stays face down).
    assert [s["space"] for s in match.view(3)["state"]["me"]["islands_seen"]] == [4]


def test_the_scout_takes_one_cube_and_the_captain_divides_the_rest_any_way():
    match = new()
    assign(match, 1, 2)
    island(match, (2, 1, 0, 3))
    assert match.legal_actions(3) == [{"type": "take", "kind": k}
                                      for k in ("sugar", "orange", "plantain")]
    match.apply(3, {"type": "take", "kind": "plantain"})
    state = st(match)
    assert state["loot"][3] == [0, 0, 0, 1] and state["on_island"] == [2, 1, 0, 2]
    assert match.step() == "divide" and match.acting() == [0]
    legal = match.legal_actions(0)
    assert {"type": "give", "kind": "sugar", "seat": 2} in legal
    assert {"type": "give_rest", "seat": 1} in legal and len(legal) == 8
    match.apply(0, {"type": "give", "kind": "sugar", "seat": 2})
    match.apply(0, {"type": "give", "kind": "sugar", "seat": 0})
    match.apply(0, {"type": "give_rest", "seat": 1})
    assert st(match)["shares"] == [[1, 0, 0, 0], [0, 1, 0, 2], [1, 0, 0, 0], [0, 0, 0, 0]]
    assert match.view(PUBLIC)["state"]["shares"][1] == [0, 1, 0, 2]
    assert match.step() == "rally"
    assert total_cubes(st(match)) == [25] * 4


def test_a_one_kind_island_gives_the_scout_his_cube_without_asking():
    match = new()
    assign(match, 1, 2)
    island(match, (0, 0, 3, 0))
    assert st(match)["loot"][3] == [0, 0, 1, 0] and match.step() == "divide"


def test_when_two_islands_are_left_the_scout_sees_both_and_the_last_is_forced():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    for _ in range(10):
        assign(match, 1, 2)
        first, second = match.legal_actions(3)[:2]
        match.apply(3, first)
        match.apply(3, second)
        match.apply(3, {"type": "choose", "space": first["space"]})
        _finish_quiet_round(match)
    assign(match, 1, 2)
    assert match.step() == "choose" and len(st(match)["looked"]) == 2
    assert len(match.view(3)["state"]["me"]["islands_seen"]) == 2
    match.apply(3, match.legal_actions(3)[0])
    _finish_quiet_round(match)
    assign(match, 1, 2)  # the last island turns up by itself
    assert st(match)["island"] is not None and match.step() not in ("look", "choose")
    _finish_quiet_round(match)
    assert match.is_over and st(match)["islands_done"] == 12
    names = st(match)["won"][0]
    assert sorted(names) == sorted(i["name"] for i in dealt(st(match))["islands"])


def _finish_quiet_round(match: Match) -> None:
    """From after the island is picked: take, give all to the Captain, all defend."""
    if match.step() == "take":
        match.apply(3, match.legal_actions(3)[0])
    if match.step() == "divide":
        rest = {"type": "give_rest", "seat": 0}
        match.apply(0, rest if rest in match.legal_actions(0) else match.legal_actions(0)[0])
    enter(match, ones(match))
    no_peek(match)
    decide(match)
    done_buying(match)


def test_physical_islands_take_the_scouts_entry_capped_by_the_bank():
    match = new()
    assign(match, 1, 2)
    assert match.legal_actions(3) == [{"type": "count", "kind": "sugar", "n": n}
                                      for n in range(7)]
    island(match, (0, 0, 6, 0))
    assert st(match)["island"] == {"name": "Island 1", "loot": [0, 0, 6, 0]}
    assert st(match)["bank"] == [25, 25, 19, 25]


# -- rally, peek, decisions -------------------------------------------------------------------

def test_each_pirate_sees_only_their_own_roll_and_the_quarter_master_adds_the_d8():
    match = new()
    assign(match, 1, 2)
    island(match)
    assert st(match)["roll"]["need"] == [[6, 6], [6, 6], [6, 6, 8], [6, 6]]
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 7)]
    enter(match, {2: [3, 4]})
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 9)]
    others = {v: match.view(v) for v in (PUBLIC, 0, 1, 3)}
    enter(match, {2: [7]})
    for viewer, before in others.items():
        after = match.view(viewer)
        assert after["state"]["rolling"]["done"][2] is True
        after["state"]["rolling"]["done"][2] = False
        assert after == before  # nothing else changed for anyone else
    enter(match, {0: [1, 2], 1: [5, 5], 3: [6, 6]})
    assert match.step() == "peek"
    for seat, dice in enumerate([[[6, 1], [6, 2]], [[6, 5], [6, 5]],
                                 [[6, 3], [6, 4], [8, 7]], [[6, 6], [6, 6]]]):
        assert match.view(seat)["state"]["me"]["dice"] == dice
    public = match.view(PUBLIC)["state"]
    assert public["dice"] is None and public["dice_count"] == [2, 2, 3, 2]
    assert "[8, 7]" not in json.dumps(match.view(0)["state"])


def test_the_first_mate_may_peek_at_one_roll_and_nobody_can_tell_whether_he_did():
    match = new()
    assign(match, 1, 2)
    island(match)
    enter(match, {0: [1, 2], 1: [5, 5], 2: [3, 4, 7], 3: [6, 6]})
    assert match.acting() == [1]
    assert match.legal_actions(1) == [{"type": "peek", "seat": s} for s in (0, 2, 3)] + [
        {"type": "no_peek"}]
    peeked, passed = match.fork(), match.fork()
    peeked.apply(1, {"type": "peek", "seat": 3})
    passed.apply(1, {"type": "no_peek"})
    assert peeked.view(1)["state"]["me"]["peek"] == {"seat": 3, "dice": [[6, 6], [6, 6]]}
    assert "peek" not in passed.view(1)["state"]["me"]
    for viewer in (PUBLIC, 0, 2, 3):
        assert peeked.view(viewer) == passed.view(viewer)
        assert viewer == PUBLIC or peeked.display(viewer) == passed.display(viewer)
    assert not peeked.can_undo  # undo would betray it too


def test_decisions_are_public_in_order_scout_qm_first_mate_then_the_scout_may_change():
    match = new()
    to_decisions(match)
    assert match.step() == "decide" and match.acting() == [3]
    assert rejected(match, 2, {"type": "decide", "choice": M}) == "not_your_turn"
    assert rejected(match, 0, {"type": "decide", "choice": D}) == "not_your_turn"
    match.apply(3, {"type": "decide", "choice": M})
    assert match.view(PUBLIC)["state"]["decisions"] == [D, None, None, M]
    assert match.acting() == [2]
    match.apply(2, {"type": "decide", "choice": D})
    match.apply(1, {"type": "decide", "choice": D})
    assert match.step() == "final" and match.acting() == [3]
    labels = [c.label for c in match.display(3).choices]
    assert labels == ["Keep: Mutiny", "Change: Defend"]
    match.apply(3, {"type": "final", "choice": D})
    state = st(match)
    assert state["decisions"] == [D, D, D, D] and state["changed"] is True
    assert state["battle"] == {"fought": False, "round": 1}


def test_all_defend_means_no_battle_no_reveal_and_everyone_takes_their_share():
    match = new()
    to_decisions(match, loot=(2, 1, 1, 1), take="sugar",
                 shares={0: [1, 0, 0, 0], 1: [0, 1, 0, 0], 2: [0, 0, 1, 1]},
                 dice={0: [1, 2], 1: [5, 5], 2: [3, 4, 7], 3: [6, 6]})
    decide(match)
    state = st(match)
    assert state["loot"] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    assert state["won"][0] == ["Island 1"] and state["captain"] == 0
    assert state["battle"] == {"fought": False, "round": 1}
    assert match.view(PUBLIC)["state"]["dice"] is None  # never shown
    assert state["dice"][1] == [[6, 5], [6, 5]]  # still under the cup, unseen
    assert match.view(1)["state"]["me"]["dice"] is None  # and no longer news
    # Nobody can afford anything, trade (3 cubes) or play a card: no buying turns.
    assert match.step() == "roles" and state["round"] == 2


def test_secret_ballot_hides_the_decisions_until_the_scout_has_had_the_last_word():
    match = new(ballot="secret")
    to_decisions(match)
    assert match.step() == "ballot" and sorted(match.acting()) == [1, 2, 3]
    match.apply(2, {"type": "ballot", "choice": M})
    views = {v: match.view(v) for v in (PUBLIC, 0, 1, 3)}
    assert views[PUBLIC]["state"]["ballot"]["ballots_in"] == 1
    assert views[PUBLIC]["state"]["decisions"] == [D, None, None, None]
    assert match.view(2)["state"]["ballot"]["mine"] == [M]
    match.apply(1, {"type": "ballot", "choice": D})
    match.apply(3, {"type": "ballot", "choice": D})
    assert match.step() == "final" and match.acting() == [3]
    assert match.view(3)["state"]["me"]["ballots"] == [None, D, M, D]
    assert "ballots" not in match.view(2)["state"]["me"]
    assert match.view(PUBLIC)["state"]["decisions"] == [D, None, None, None]
    match.apply(3, {"type": "final", "choice": M})
    state = st(match)
    assert state["decisions"] == [D, D, M, M] and state["revealed"]
    assert state["changed"] is None  # a secret change stays secret


def test_the_public_decision_is_a_move_in_the_open_and_only_a_secret_ballot_blinks():
    # The phone calls a blinking seat's turn a secret vote: the public, in-order decision
    # is lit as any move is.
    match = new()
    to_decisions(match)
    assert match.display(3).led == "on" and match.display(0).led == "off"
    match.apply(3, {"type": "decide", "choice": M})
    assert match.display(2).lines[1] == \
        "Scout: mutiny, Quarter Master: not yet, First Mate: not yet"
    assert match.display(2).short_lines[1] == "Scout mutiny, QM ?, FM ?"
    match.apply(2, {"type": "decide", "choice": D})
    match.apply(1, {"type": "decide", "choice": D})
    assert match.display(3).led == "on"  # the Scout's last word, in the open too
    secret = new(ballot="secret")
    to_decisions(secret)
    assert [secret.display(s).led for s in range(4)] == ["off", "blink", "blink", "blink"]
    assert secret.display(0).lines[1] == "0 of 3 ballots in"
    for seat in (1, 2, 3):
        secret.apply(seat, {"type": "ballot", "choice": D})
    assert secret.display(3).led == "blink"
    assert secret.display(0).lines[1] == ("Scout: secret, Quarter Master: secret, "
                                          "First Mate: secret; the Scout has the last word")


def test_the_phone_reads_the_round_role_and_stats_in_words_the_oled_in_short():
    match = new()
    to_decisions(match)
    shown = match.display(3)  # the Scout, in round 1
    captain = match.names[0]
    assert shown.title == "Mutiny or defend"  # it was "R1 Mutiny or defend"
    assert shown.lines[0] == f"Round 1: you are the Scout; {captain} is Captain"
    assert shown.short_lines[0] == "R1 You: Scout"
    assert match.display(0).lines[0] == "Round 1: you are the Captain"
    assert match.display(2).short_lines[0] == "R1 Quarter Master"  # 21 columns
    pirate = match.view(PUBLIC)["state"]["pirates"][3]
    crew = f"{pirate['crew']} crew {'die' if pirate['crew'] == 1 else 'dice'}"
    assert shown.lines[2].startswith(f"You have {pirate['rum']} Rum and {crew}; loot: ")
    # The OLED's stats fit its 21 columns (they were 24: "Rum # Crew # S# O# G# P#").
    assert shown.short_lines[2] == f"Rum{pirate['rum']} Crew{pirate['crew']} " + "".join(
        f"{code}{n}" for code, n in zip("SOGP", pirate["loot"]))
    assert all(len(line) <= 21 for line in shown.short_lines)


def test_the_scouts_pick_names_the_islands_loot_in_words():
    match = Match.create(GAME, 4, {"dice": "table"}, seed=4)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)
    match.apply(3, {"type": "look", "space": 4})
    match.apply(3, {"type": "look", "space": 9})
    pick = match.display(3).choices[0]
    seen = match.view(3)["state"]["me"]["islands_seen"][0]
    cubes = [f"{n} {kind}" for kind, n in
             zip(("Sugar", "Orange", "Gold", "Plantain"), seen["loot"]) if n]
    words = cubes[0] if len(cubes) == 1 else ", ".join(cubes[:-1]) + " and " + cubes[-1]
    # (It read "Pick Cayman Cove (S1 O1 G2 P3)", the OLED's codes.)
    assert pick.label == f"Pick {seen['name']} ({words}) on space 5"
    assert pick.short == "Space 5 " + "".join(
        f"{code}{n}" for code, n in zip("SOGP", seen["loot"]))


# -- the battle -------------------------------------------------------------------------------

def test_a_mutiny_won_makes_the_top_mutineer_captain_and_cup_draws_share_all_the_loot():
    match = new()
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar", shares={0: [1, 2, 1, 1]},
                 dice={0: [1, 1], 1: [3, 3], 2: [2, 2, 8], 3: [6, 5]})
    decide(match, scout=M, qm=M, fm=D)
    state = st(match)
    # Mutineers 11 + 12 = 23 beat 2 + 6 = 8; the QM's 12 beats the Scout's 11.
    assert state["battle"]["sums"] == {M: 23, D: 8}
    assert state["battle"]["winner"] == M and state["captain"] == 2
    assert state["roles"][2] == CAPTAIN and state["roles"][0] is None
    assert state["won"] == [[], [], ["Island 1"], []]
    # The five cubes of the mat went into the cup: the new Captain drew first.
    cup = state["cup"]
    assert cup["takers"] == [2, 3] and cup["start"] == [1, 2, 1, 1]
    assert sum(cup["got"][2]) == 3 and sum(cup["got"][3]) == 2
    assert [sum(loot) for loot in state["loot"]] == [0, 0, 3, 3]
    assert [a + b for a, b in zip(cup["got"][2], cup["got"][3])] == [1, 2, 1, 1]
    assert total_cubes(state) == [25] * 4
    assert match.step() == "buy" and state["buy_order"] == [2, 3, 0, 1]
    public = match.view(PUBLIC)["state"]
    assert public["dice"][2] == [[6, 2], [6, 2], [8, 8]] and public["sums"] == {M: 23, D: 8}


def test_a_mutiny_lost_keeps_the_captain_and_the_mutineers_shares_go_to_the_defenders():
    match = new()
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar",
                 shares={0: [1, 0, 0, 0], 1: [0, 1, 0, 0], 2: [0, 1, 1, 0], 3: [0, 0, 0, 1]},
                 dice={0: [6, 6], 1: [6, 6], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M, qm=M, fm=D)
    state = st(match)
    assert state["battle"]["sums"] == {M: 5, D: 24}
    assert state["battle"]["winner"] == D and state["captain"] == 0
    assert state["won"][0] == ["Island 1"]
    cup = state["cup"]
    assert cup["takers"] == [0, 1] and cup["start"] == [0, 1, 1, 1]
    assert sum(cup["got"][0]) == 2 and sum(cup["got"][1]) == 1
    assert state["loot"][2] == [0, 0, 0, 0] and state["loot"][3] == [1, 0, 0, 0]
    assert [sum(loot) for loot in state["loot"]] == [3, 2, 0, 1]
    assert total_cubes(state) == [25] * 4


def test_a_tie_rerolls_every_die_until_one_side_is_higher():
    match = new()
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [4, 3]})
    decide(match, scout=M)  # 7 v 2 + 2 + 3
    assert match.step() == "tie" and st(match)["battle"]["ties"] == 1
    assert sorted(match.acting()) == [0, 1, 2, 3]
    assert match.view(PUBLIC)["state"]["rolling"]["need"] == [[6, 6], [6, 6], [6, 6, 8],
                                                              [6, 6]]
    enter(match, {0: [2, 2], 1: [2, 2], 2: [1, 1, 2], 3: [6, 6]})  # 12 v 12 again
    assert match.step() == "tie" and st(match)["battle"]["ties"] == 2
    enter(match, {0: [6, 6], 1: [6, 6], 2: [6, 6, 8], 3: [1, 1]})
    state = st(match)
    assert state["battle"]["winner"] == D and state["battle"]["sums"] == {M: 2, D: 44}
    assert state["dice"][2] == [[6, 6], [6, 6], [8, 8]]


def test_tied_top_mutineers_roll_off_with_a_d6_again_and_again():
    match = new()
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [2, 2, 2], 3: [3, 3]})
    decide(match, scout=M, qm=M)
    assert match.step() == "rolloff" and sorted(match.acting()) == [2, 3]
    assert match.legal_actions(2) == [{"type": "enter", "face": f} for f in range(1, 7)]
    enter(match, {2: [4], 3: [4]})
    assert match.step() == "rolloff"
    enter(match, {2: [2], 3: [5]})
    state = st(match)
    assert state["rolloffs"] == [[None, None, 4, 4], [None, None, 2, 5]]
    assert state["captain"] == 3 and state["won"][3] == ["Island 1"]


def test_companion_dice_roll_everything_by_chance_and_journal_it():
    with Journal(":memory:") as journal:
        match = Match.create(GAME, 4, {"islands": "physical"}, seed=11, journal=journal)
        captain = st(match)["captain"]
        fm, qm = [s for s in range(4) if s != captain][:2]
        assign(match, fm, qm)
        island(match)
        entries = journal.entries(match.id)
        assert entries[-1].actor == CHANCE and entries[-1].action["type"] == "roll"
        assert match.step() == "peek"
        faces = entries[-1].action["faces"]
        assert [len(f) for f in faces] == [3 if s == qm else 2 for s in range(4)]
        assert all(1 <= f <= 6 for s in range(4) for f in faces[s][:2])
        assert 1 <= faces[qm][2] <= 8
        again = journal.load(match.id, lambda _id: GAME)
        assert again.snapshot() == match.snapshot()


# -- cup draws (M7) ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_companion_cup_draws_share_out_exactly_the_loot_that_was_there(seed):
    match = new(seed=seed, cup_draws="companion")
    to_decisions(match, loot=(3, 4, 2, 5), take="orange",
                 shares={0: [1, 1, 0, 2], 1: [1, 1, 1, 1], 2: [0, 1, 0, 1], 3: [1, 0, 1, 1]},
                 dice={0: [1, 1], 1: [6, 6], 2: [6, 6, 8], 3: [6, 6]})
    decide(match, scout=M, qm=M, fm=M)
    state = st(match)
    cup = state["cup"]
    assert cup["start"] == [3, 3, 2, 5] and cup["done"]
    got = cup["got"]
    assert [sum(got[s][k] for s in range(4)) for k in range(4)] == [3, 3, 2, 5]
    # 13 cubes drawn in turn by the new Captain (seat 2: 12 + 8 = 20), then 3, then 1.
    assert state["captain"] == 2 and cup["takers"] == [2, 3, 1]
    assert [sum(g) for g in got] == [0, 4, 5, 4]
    assert total_cubes(state) == [25] * 4


def test_cup_draws_differ_between_seeds():
    draws = set()
    for seed in range(6):
        match = new(seed=seed)
        to_decisions(match, loot=(3, 4, 2, 5), take="orange", shares={0: [3, 3, 2, 5]},
                     dice={0: [1, 1], 1: [6, 6], 2: [6, 6, 8], 3: [6, 6]})
        decide(match, scout=M, qm=M, fm=M)
        draws.add(json.dumps(st(match)["cup"]["got"]))
    assert len(draws) > 1


def test_table_cup_draws_are_entered_by_each_taker_in_turn():
    match = new(cup_draws="table")
    to_decisions(match, loot=(2, 2, 1, 1), take="sugar",
                 shares={2: [1, 2, 0, 0], 3: [0, 0, 1, 1]},
                 dice={0: [6, 6], 1: [6, 6], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M, qm=M)
    assert match.step() == "cup" and match.acting() == [0]
    assert match.legal_actions(0) == [{"type": "drew", "kind": k}
                                      for k in ("sugar", "orange", "gold", "plantain")]
    for seat, kind in ((0, "orange"), (1, "orange"), (0, "sugar")):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "drew", "kind": kind})
    assert match.legal_actions(1) == [{"type": "drew", "kind": "gold"},
                                      {"type": "drew", "kind": "plantain"}]
    match.apply(1, {"type": "drew", "kind": "gold"})
    # Only a plantain is left: it is seat 0's turn, and nothing else can come out.
    state = st(match)
    assert state["loot"][0] == [1, 1, 0, 1] and state["loot"][1] == [0, 1, 1, 0]
    assert state["cup"]["done"] and total_cubes(state) == [25] * 4


# -- the battle-card window (M4) and each mystery card --------------------------------------

def test_cannon_adds_a_d6_to_your_side_and_counts_for_fierceness():
    match = new(stack="cannon")
    give_cards(match, {1: 1})
    assert st(match)["hands"][1] == ["cannon"]
    assert match.view(0)["state"]["pirates"][1]["cards"] == 1
    assert match.view(0)["state"]["me"]["hand"] == []
    assert "hands" not in match.view(0)["state"] and "deck" not in match.view(0)["state"]
    assert match.view(1)["state"]["me"]["hand"] == ["cannon"]
    to_decisions(match, dice={0: [1, 1], 1: [2, 2], 2: [3, 3, 8], 3: [3, 3]})
    decide(match, scout=M, fm=M)  # mutiny 4 + 6 = 10 v defend 2 + 14 = 16
    assert match.step() == "window" and match.acting() == [1]  # 0 holds no card
    assert match.legal_actions(1) == [{"type": "play", "card": "cannon"}, {"type": "pass"}]
    match.apply(1, {"type": "play", "card": "cannon"})
    assert match.step() == "cannon" and match.acting() == [1]
    enter(match, {1: [6]})
    state = st(match)
    assert state["dice"][1] == [[6, 2], [6, 2], [6, 6]] and state["played"][1] == ["cannon"]
    # Nobody holds a card any more, so the window closed: 16 v 16 is a tie.
    assert state["battle"]["sums"] == {M: 16, D: 16} and match.step() == "tie"
    assert match.view(PUBLIC)["state"]["pirates"][1]["cannons"] == 1


def test_the_battle_keeps_every_public_fact_for_the_table():
    match = new(stack="cannon")
    give_cards(match, {1: 1})
    to_decisions(match, dice={0: [1, 1], 1: [2, 2], 2: [3, 3, 8], 3: [3, 3]})
    decide(match, scout=M, fm=M)
    match.apply(1, {"type": "play", "card": "cannon"})
    enter(match, {1: [6]})  # 16 v 16: every die is rolled again
    enter(match, {0: [6, 6], 1: [1, 1, 1], 2: [6, 6, 8], 3: [1, 1]})
    battle = match.view(PUBLIC)["state"]["battle"]
    kinds = [event["kind"] for event in battle["events"]]
    assert kinds == ["reveal", "pass", "play", "cannon"] + ["pass"] * 4 + [
        "sums", "rerolled"] + ["pass"] * 4 + ["sums", "won", "kept", "kept"]
    reveal = battle["events"][0]
    assert reveal["dice"] == [[[6, 1], [6, 1]], [[6, 2], [6, 2]],
                              [[6, 3], [6, 3], [8, 8]], [[6, 3], [6, 3]]]
    assert reveal["sums"] == {M: 10, D: 16} and reveal["decisions"] == [D, M, D, M]
    assert battle["events"][2] == {"kind": "play", "seat": 1, "card": "cannon"}
    assert battle["events"][3] == {"kind": "cannon", "seat": 1, "faces": [6]}
    assert battle["events"][8]["sums"] == {M: 16, D: 16}
    assert battle["events"][9]["dice"][1] == [[6, 1], [6, 1], [6, 1]]
    assert battle["events"][-3] == {"kind": "won", "side": D, "seat": 0, "old": 0}
    assert battle["winner"] == D and battle["ties"] == 1
    lines = match.summary()["lines"]
    assert "Seat 2's Cannon: 6" in lines and "Seat 1's side won" in lines


def test_buying_choices_are_grouped_into_menus_of_whole_decisions():
    match = new()
    quiet_round(match, loot=(3, 3, 3, 3), take="sugar", shares={0: [2, 3, 3, 3]})
    choices = match.display(0).choices
    assert [item.label for item in menu(choices)] == ["Buy", "Trade 3 for 1", "Done buying"]
    assert [item.label for item in menu(choices, ("Buy",))] == [
        "Buy a Rum (1 Sugar, 1 Orange)", "Buy a Mystery card (1 Sugar, 1 Gold, 1 Plantain)"]
    gets = [item.label for item in menu(choices, ("Trade 3 for 1",))]
    assert gets == ["Get a Sugar", "Get an Orange", "Get a Gold", "Get a Plantain"]
    trade = menu(choices, ("Trade 3 for 1", "Get an Orange"))[0]
    picked = choices[trade.index]
    assert picked.label == "Trade Sugar, Sugar, Orange for an Orange"
    assert picked.short == "Pay S+S+O"
    match.apply(0, picked.action)
    assert st(match)["loot"][0] == [0, 3, 3, 3]


def test_the_window_closes_only_when_all_four_pass_in_a_row():
    match = new(stack="cannon,cannon")
    give_cards(match, {1: 1, 3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M)
    assert match.acting() == [1]  # 0 holds no card: he passes by himself
    match.apply(1, {"type": "pass"})
    assert match.acting() == [3]  # so does 2
    match.apply(3, {"type": "play", "card": "cannon"})
    enter(match, {3: [6]})
    # The play broke the run of passes: seat 1 gets another turn.
    assert match.step() == "window" and match.acting() == [1]
    match.apply(1, {"type": "pass"})
    assert match.step() != "window" and st(match)["hands"][1] == ["cannon"]
    assert st(match)["battle"]["sums"] == {M: 8, D: 17}


def test_one_round_window_gives_each_pirate_a_single_turn():
    match = new(stack="cannon,cannon,cannon", card_window="one_round")
    give_cards(match, {1: 2, 3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, scout=M)
    assert match.acting() == [1]
    match.apply(1, {"type": "play", "card": "cannon"})
    enter(match, {1: [2]})
    assert match.acting() == [3]
    match.apply(3, {"type": "pass"})
    assert match.step() != "window"  # seat 1 does not get a second turn
    assert st(match)["hands"][1] == ["cannon"]


def test_quick_reload_rerolls_the_dice_you_mark():
    match = new(stack="quick_reload")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 5]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "quick_reload"})
    assert match.step() == "reload"
    # One whole decision: which of his dice (by kind and face) to roll again.
    assert match.legal_actions(3) == [{"type": "reroll", "dice": [[6, 1]]},
                                      {"type": "reroll", "dice": [[6, 5]]},
                                      {"type": "reroll", "dice": [[6, 1], [6, 5]]}]
    match.apply(3, {"type": "reroll", "dice": [[6, 1]]})
    assert match.step() == "reload_roll" and match.acting() == [3]
    enter(match, {3: [6]})
    state = st(match)
    assert state["dice"][3] == [[6, 6], [6, 5]]
    assert state["battle"]["sums"] == {M: 11, D: 17}


def test_drunken_madness_removes_the_targets_highest_die_a_d6_before_the_d8():
    match = new(stack="drunken_madness")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [6, 6]})
    decide(match, scout=M)  # 12 v 11 + 2 + 13 = 26
    match.apply(3, {"type": "play", "card": "drunken_madness"})
    assert match.step() == "madness"
    assert match.legal_actions(3) == [{"type": "target", "seat": s} for s in range(4)]
    match.apply(3, {"type": "target", "seat": 2})
    # The QM's d6 showing 6 and his d8 showing 6 tie: the d6 goes, the d8 stays.
    assert st(match)["dice"][2] == [[6, 1], [8, 6]]
    assert st(match)["battle"]["sums"] == {M: 12, D: 20}


def test_drunken_madness_needs_a_pirate_with_two_dice_and_hits_a_lone_one_at_once():
    match = new(stack="drunken_madness")
    state = st(match)
    state["dice"] = [[[6, 3]], [[6, 1]], [[8, 2]], [[6, 6]]]
    assert madness_targets(state) == [] and not battle_usable(state, "drunken_madness")
    state["dice"][1] = [[6, 1], [6, 4]]
    assert madness_targets(state) == [1] and battle_usable(state, "drunken_madness")


def test_the_perfect_storm_rerolls_every_die_of_every_pirate():
    match = new(stack="perfect_storm")
    give_cards(match, {3: 1})
    to_decisions(match, dice={0: [5, 6], 1: [1, 1], 2: [6, 1, 6], 3: [1, 1]})
    decide(match, scout=M)
    match.apply(3, {"type": "play", "card": "perfect_storm"})
    assert match.step() == "storm" and sorted(match.acting()) == [0, 1, 2, 3]
    enter(match, {0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [6, 6]})
    state = st(match)
    assert state["dice"] == [[[6, 1], [6, 1]], [[6, 1], [6, 1]],
                             [[6, 1], [6, 1], [8, 1]], [[6, 6], [6, 6]]]
    assert state["battle"]["winner"] == M and state["captain"] == 3


def test_stow_away_gives_a_green_crew_die_even_without_enough_rum():
    match = new(stack="stow_away")
    give_cards(match, {1: 1})
    quiet_round(match, loot=(1, 1, 2, 1), take="sugar", shares={1: [0, 1, 2, 1]})
    buy_turn(match, 1)
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(1)  # 2 Rum, 2 crew
    match.apply(1, {"type": "play", "card": "stow_away"})
    state = st(match)
    assert state["green"][1] == 1 and state["green_supply"] == 9 and state["rum"][1] == 2
    assert state["played"][1] == ["stow_away"]
    assert match.view(PUBLIC)["state"]["pirates"][1]["crew"] == 3


def test_press_gang_takes_a_crew_die_green_first_and_the_victim_keeps_one():
    match = new(stack="press_gang,stow_away")
    give_cards(match, {1: 1, 2: 1})
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "done"})
    match.apply(2, {"type": "play", "card": "stow_away"})
    done_buying(match)
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "play", "card": "press_gang"})
    assert match.step() == "press"
    assert match.legal_actions(1) == [{"type": "target", "seat": s} for s in (0, 2, 3)]
    match.apply(1, {"type": "target", "seat": 2})
    state = st(match)
    assert (state["red"][2], state["green"][2]) == (2, 0)
    assert (state["red"][1], state["green"][1]) == (2, 1)
    assert match.step() == "buy" and match.acting() == [1]


def test_press_gang_cannot_take_a_pirates_last_crew_die():
    state = st(new())
    state["red"] = [2, 1, 1, 1]
    assert press_targets(state, 1) == [0]
    state["red"] = [1, 1, 1, 1]
    assert press_targets(state, 1) == []


def test_buried_treasure_takes_three_cubes_of_your_choice_from_the_bank():
    match = new(stack="buried_treasure")
    give_cards(match, {2: 1})
    quiet_round(match)
    buy_turn(match, 2)
    before = st(match)["bank"]
    match.apply(2, {"type": "play", "card": "buried_treasure"})
    for kind in ("gold", "gold", "plantain"):
        assert match.step() == "treasure"
        match.apply(2, {"type": "loot", "kind": kind})
    state = st(match)
    assert match.step() == "buy" and state["loot"][2] == [0, 0, 2, 1]
    assert state["bank"] == [before[0], before[1], before[2] - 2, before[3] - 1]


def test_the_peg_leg_lies_face_up_and_is_worth_two_to_a_captain_one_otherwise():
    match = new(stack="peg_leg")
    give_cards(match, {1: 1})
    quiet_round(match)
    buy_turn(match, 1)
    match.apply(1, {"type": "play", "card": "peg_leg"})
    state = st(match)
    assert match.view(PUBLIC)["state"]["pirates"][1]["played"] == ["peg_leg"]
    assert infamy(state)["cards"] == [0, 1, 0, 0]
    state["captain"] = 1
    assert infamy(state)["cards"] == [0, 2, 0, 0]


def test_battle_cards_wait_for_a_battle_and_other_cards_for_your_buying_turn():
    match = new(stack="cannon,stow_away")
    give_cards(match, {1: 2})
    quiet_round(match)
    buy_turn(match, 1)
    plays = [a for a in match.legal_actions(1) if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "stow_away"}]
    done_buying(match)
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [1, 1, 1], 3: [1, 1]})
    decide(match, fm=M)
    assert match.legal_actions(1) == [{"type": "play", "card": "cannon"}, {"type": "pass"}]


# -- buying and its limits --------------------------------------------------------------------

def test_prices_are_the_mats_and_each_purchase_pays_the_bank():
    match = new()
    quiet_round(match, loot=(3, 3, 3, 3), take="sugar", shares={0: [2, 3, 3, 3]})
    legal = match.legal_actions(0)
    assert [a for a in legal if a["type"] != "trade"] == [
        {"type": "buy", "item": "rum"}, {"type": "buy", "item": "card"}, {"type": "done"}]
    assert {"type": "trade", "pay": ["sugar", "orange", "gold"], "get": "plantain"} in legal
    match.apply(0, {"type": "buy", "item": "rum"})  # 1 Sugar + 1 Orange
    assert st(match)["loot"][0] == [1, 2, 3, 3] and st(match)["rum"][0] == 3
    match.apply(0, {"type": "buy", "item": "crew"})  # 1 Orange + 2 Gold + 1 Plantain
    assert st(match)["loot"][0] == [1, 1, 1, 2] and st(match)["green"][0] == 1
    match.apply(0, {"type": "buy", "item": "card"})  # 1 Sugar + 1 Gold + 1 Plantain
    state = st(match)
    assert state["loot"][0] == [0, 1, 0, 1] and len(state["hands"][0]) == 1
    assert all(a["type"] != "trade" for a in match.legal_actions(0))  # two cubes left
    assert state["bank"] == [24, 24, 25, 24] and total_cubes(state) == [25] * 4
    assert state["rum_supply"] == 24 and state["green_supply"] == 9
    assert match.view(PUBLIC)["state"]["supply"] == {"rum": 24, "green": 9, "deck": 25,
                                                     "bank": [24, 24, 25, 24]}


def test_a_trade_pays_any_three_cubes_then_takes_one_from_the_bank():
    match = new()
    quiet_round(match, loot=(3, 0, 2, 0), take="sugar", shares={0: [2, 0, 2, 0]})
    trades = [a for a in match.legal_actions(0) if a["type"] == "trade"]
    # Any three of S2 G2, for any kind the bank holds once they are paid.
    assert [t["pay"] for t in trades[::4]] == [["sugar", "sugar", "gold"],
                                              ["sugar", "gold", "gold"]]
    assert len(trades) == 8
    match.apply(0, {"type": "trade", "pay": ["sugar", "gold", "gold"], "get": "orange"})
    state = st(match)
    assert state["loot"][0] == [1, 1, 0, 0] and match.step() == "buy"
    assert total_cubes(state) == [25] * 4


def test_a_trade_with_one_kind_of_cube_can_pay_only_that_kind():
    match = new()
    quiet_round(match, loot=(0, 0, 5, 0), shares={0: [0, 0, 4, 0]})  # the Scout: a gold
    trades = [a for a in match.legal_actions(0) if a["type"] == "trade"]
    assert {tuple(t["pay"]) for t in trades} == {("gold", "gold", "gold")}
    match.apply(0, {"type": "trade", "pay": ["gold"] * 3, "get": "sugar"})
    assert match.step() == "buy" and st(match)["loot"][0] == [1, 0, 1, 0]


def test_hiring_crew_needs_more_rum_than_crew_dice():
    match = new()
    quiet_round(match, loot=(3, 4, 5, 3), take="plantain", shares={0: [3, 4, 5, 2]})
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)  # 2 Rum, 2 crew
    match.apply(0, {"type": "buy", "item": "rum"})
    assert {"type": "buy", "item": "crew"} in match.legal_actions(0)  # 3 Rum > 2 crew
    match.apply(0, {"type": "buy", "item": "crew"})
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)  # 3 = 3
    match.apply(0, {"type": "buy", "item": "rum"})
    match.apply(0, {"type": "buy", "item": "crew"})
    assert st(match)["green"][0] == 2 and st(match)["rum"][0] == 4


def test_without_the_rum_rule_crew_needs_only_the_price():
    match = new(crew_needs_rum=False)
    quiet_round(match, loot=(0, 1, 2, 2), take="plantain", shares={0: [0, 1, 2, 1]})
    assert {"type": "buy", "item": "crew"} in match.legal_actions(0)


def _rich_round(match: Match, loot: tuple, take: str) -> None:
    """A round where the Captain (0, Scout 3) keeps all the island but the Scout's cube."""
    keep = [n - (kind == take) for kind, n in zip(KINDS, loot)]
    quiet_round(match, loot=loot, take=take, shares={0: keep})


def test_green_crew_runs_out_after_ten():
    match = new(crew_needs_rum=False)
    hired = []
    while st(match)["green_supply"]:
        _rich_round(match, (6, 6, 6, 6), take="sugar")
        count = 0
        while {"type": "buy", "item": "crew"} in match.legal_actions(0):
            match.apply(0, {"type": "buy", "item": "crew"})
            count += 1
        hired.append(count)
        if st(match)["green_supply"]:
            done_buying(match)
    state = st(match)
    assert hired == [3, 3, 3, 1] and state["green"][0] == 10
    assert state["loot"][0][1:] == [14, 4, 14]  # the price is there, the dice are not
    assert {"type": "buy", "item": "crew"} not in match.legal_actions(0)


def test_rum_runs_out_at_33_pieces_in_all():
    match = new()
    bought = []
    while st(match)["rum_supply"]:
        _rich_round(match, (6, 6, 1, 0), take="gold")  # the rest of the bank stays full
        count = 0
        while {"type": "buy", "item": "rum"} in match.legal_actions(0):
            match.apply(0, {"type": "buy", "item": "rum"})
            count += 1
        bought.append(count)
        if st(match)["rum_supply"]:
            done_buying(match)
    state = st(match)
    assert bought == [6, 6, 6, 6, 1] and sum(state["rum"]) == 33
    assert state["rum"] == [27, 2, 2, 2] and state["loot"][0][:2] == [5, 5]
    assert {"type": "buy", "item": "rum"} not in match.legal_actions(0)


def test_the_bank_stock_limits_islands_trades_and_buried_treasure():
    match = new(stack="buried_treasure")
    # Round 1: the Captain keeps S5 G6 P1 and buys the (stacked) Buried Treasure.
    quiet_round(match, loot=(6, 0, 6, 1), take="sugar", shares={0: [5, 0, 6, 1]})
    match.apply(0, {"type": "buy", "item": "card"})
    done_buying(match)
    # Rounds 2-4: six gold each from the bank (the Scout takes one).
    for _ in range(3):
        quiet_round(match, loot=(0, 0, 6, 0), shares={0: [0, 0, 5, 0]})
        done_buying(match)
    assert st(match)["bank"][2] == 25 - 6 + 1 - 18
    # Round 5: the Scout cannot enter more gold than the bank holds.
    assign(match, 1, 2)
    match.apply(3, {"type": "count", "kind": "sugar", "n": 0})
    match.apply(3, {"type": "count", "kind": "orange", "n": 0})
    assert match.legal_actions(3) == [{"type": "count", "kind": "gold", "n": n}
                                      for n in range(3)]
    match.apply(3, {"type": "count", "kind": "gold", "n": 2})
    match.apply(3, {"type": "count", "kind": "plantain", "n": 0})
    divide(match, {0: [0, 0, 1, 0]})
    enter(match, ones(match))
    no_peek(match)
    decide(match)
    assert st(match)["bank"][2] == 0
    gets = [a["get"] for a in match.legal_actions(0)
            if a["type"] == "trade" and a["pay"] == ["sugar"] * 3]
    assert gets == ["sugar", "orange", "plantain"]  # no gold left in the bank
    match.apply(0, {"type": "trade", "pay": ["sugar"] * 3, "get": "orange"})
    match.apply(0, {"type": "play", "card": "buried_treasure"})
    assert match.legal_actions(0) == [{"type": "loot", "kind": k}
                                      for k in ("sugar", "orange", "plantain")]
    assert total_cubes(st(match)) == [25] * 4


def test_the_mystery_deck_can_run_out(tmp_path, monkeypatch):
    small = tmp_path / "small.toml"
    small.write_text('[[island]]\nname = "A"\ngold = 1\n'
                     '[[card]]\nid = "cannon"\nname = "Cannon"\ncount = 2\n'
                     'effect = "cannon"\n')
    monkeypatch.setattr(data_module, "DATA_FILE", small)
    match = new()
    quiet_round(match, loot=(4, 0, 3, 3), take="sugar", shares={0: [3, 0, 3, 3]})
    match.apply(0, {"type": "buy", "item": "card"})
    match.apply(0, {"type": "buy", "item": "card"})
    assert st(match)["deck"] == [] and match.view(PUBLIC)["state"]["supply"]["deck"] == 0
    assert {"type": "buy", "item": "card"} not in match.legal_actions(0)


def test_a_deck_of_the_data_file_with_fewer_islands_ends_sooner(tmp_path, monkeypatch):
    small = tmp_path / "small.toml"
    small.write_text('[[island]]\nname = "Rich"\ngold = 6\n'
                     '[[card]]\nid = "cannon"\nname = "Cannon"\ncount = 2\n'
                     'effect = "cannon"\n')
    monkeypatch.setattr(data_module, "DATA_FILE", small)
    match = Match.create(GAME, 4, {"dice": "table"}, seed=2)
    enter(match, {0: [6, 6], 1: [1, 1], 2: [1, 2], 3: [2, 1]})
    assign(match, 1, 2)  # one island: it turns up at once; one kind: the Scout's gold
    state = st(match)
    assert state["island"]["name"] == "Rich" and state["loot"][3] == [0, 0, 1, 0]
    _finish_quiet_round(match)
    # Captain 0: the island; everyone has 2 Rum: all tie for Notorious Drunk.
    assert match.is_over and match.result().scores == [1 + 1, 1, 1, 1]


def test_buying_goes_clockwise_from_the_new_captain_after_a_mutiny():
    match = new()
    quiet_round(match, loot=(6, 6, 1, 0), take="gold",
                shares={0: [2, 1, 0, 0], 1: [1, 2, 0, 0], 2: [2, 1, 0, 0], 3: [1, 2, 0, 0]})
    done_buying(match)
    to_decisions(match, dice={0: [1, 1], 1: [1, 1], 2: [1, 1, 1], 3: [6, 6]})
    decide(match, scout=M)
    assert st(match)["captain"] == 3 and st(match)["buy_order"] == [3, 0, 1, 2]
    for seat in (3, 0, 1, 2):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "done"})
    assert match.step() == "roles" and match.acting() == [3] and st(match)["round"] == 3


# -- scoring ----------------------------------------------------------------------------------

def test_award_gives_the_full_prize_to_one_leader_and_one_each_to_tied_leaders():
    assert award([0, 3, 1, 2], 3) == [0, 3, 0, 0]
    assert award([2, 2, 1, 0], 3) == [1, 1, 0, 0]
    assert award([0, 0, 0, 0], 3) == [0, 0, 0, 0]  # nobody played a Cannon
    assert award([2, 2, 2, 2], 2) == [1, 1, 1, 1]


def test_a_full_game_scores_infamy_as_computed_by_hand():
    """Twelve islands, Captain 0 at first; roles FM 1, QM 2, Scout 3 under Captain 0.

    R1  1 buys two Cannons, 3 buys one.        R2  1 and 2 buy two Rum each.
    R3  0 buys the Peg-Leg and lays it.        R4  quiet.
    R5  3 and 1 mutiny; three Cannons tie it at 32; after the re-roll the mutineers
        win and 1 (24) beats 3 (17): Captain 1 takes island 5.
    R6-R10 quiet under 1.   R11 Scout 0 mutinies alone and wins: Captain 0.   R12 quiet.

    Infamy by hand:
      islands     0: R1-R4, R11, R12 = 6    1: R5-R10 = 6    2: 0    3: 0
      Fierceness  Cannons played 1: 2, 3: 1              -> 1 gets 3
      Drunk       Rum 0: 2, 1: 4, 2: 4, 3: 2             -> 1 and 2 tie: 1 each
      Peg-Leg     laid by 0, Captain at the end          -> 2
      total       0: 8    1: 10    2: 1    3: 0          -> 1 wins
    """
    match = new(stack="cannon,cannon,cannon,peg_leg")
    # R1: S+G+P twice to 1, once to 3 (with the Scout's sugar), and S G P to 0.
    to_decisions(match, loot=(5, 0, 4, 4), take="sugar",
                 shares={0: [1, 0, 1, 1], 1: [2, 0, 2, 2], 3: [1, 0, 1, 1]})
    decide(match)
    match.apply(0, {"type": "done"})
    match.apply(1, {"type": "buy", "item": "card"})
    match.apply(1, {"type": "buy", "item": "card"})
    match.apply(1, {"type": "done"})
    match.apply(3, {"type": "buy", "item": "card"})  # 2 had nothing: no turn
    match.apply(3, {"type": "done"})
    state = st(match)
    assert state["hands"][1] == ["cannon", "cannon"] and state["hands"][3] == ["cannon"]
    # R2: Rum for 1 and 2.
    quiet_round(match, loot=(5, 5, 0, 0), take="orange",
                shares={1: [2, 2, 0, 0], 2: [2, 2, 0, 0], 3: [1, 0, 0, 0]})
    match.apply(0, {"type": "done"})
    for seat in (1, 2):
        match.apply(seat, {"type": "buy", "item": "rum"})
        match.apply(seat, {"type": "buy", "item": "rum"})
        match.apply(seat, {"type": "done"})
    match.apply(3, {"type": "done"})
    # R3: 0 buys the Peg-Leg and lays it face up.
    quiet_round(match, loot=(0, 0, 1, 1), take="gold", shares={0: [0, 0, 0, 1]})
    match.apply(0, {"type": "buy", "item": "card"})
    match.apply(0, {"type": "play", "card": "peg_leg"})
    done_buying(match)
    # R4: quiet.
    quiet_round(match)
    done_buying(match)
    # R5: the battle.
    to_decisions(match, dice={0: [6, 6], 1: [1, 1], 2: [6, 6, 8], 3: [6, 6]})
    decide(match, scout=M, fm=M)  # 2 + 12 = 14 v 12 + 20 = 32
    for seat in (1, 3, 1):
        assert match.acting() == [seat]
        match.apply(seat, {"type": "play", "card": "cannon"})
        enter(match, {seat: [6]})
    assert match.step() == "tie" and st(match)["battle"]["sums"] == {M: 32, D: 32}
    enter(match, {0: [1, 1], 1: [6, 6, 6, 6], 2: [1, 1, 1], 3: [6, 6, 5]})
    state = st(match)
    assert state["battle"]["sums"] == {M: 41, D: 5} and state["captain"] == 1
    assert state["buy_order"] == [1, 2, 3, 0] and match.acting() == [3]  # 1, 2: nothing
    done_buying(match)
    # R6-R10: quiet under Captain 1 (FM 2, QM 3, Scout 0).
    for _ in range(5):
        quiet_round(match, fm=2, qm=3)
        done_buying(match)
    # R11: Scout 0 mutinies alone and wins: 12 v 2 + 2 + 3.
    to_decisions(match, fm=2, qm=3, dice={0: [6, 6], 1: [1, 1], 2: [1, 1], 3: [1, 1, 1]})
    decide(match, scout=M)
    assert st(match)["captain"] == 0
    done_buying(match)
    # R12: quiet under Captain 0.
    quiet_round(match)
    done_buying(match)
    assert match.is_over
    final = st(match)["final"]
    assert final["islands"] == [6, 6, 0, 0]
    assert final["cannons"] == [0, 2, 0, 1] and final["fierceness"] == [0, 3, 0, 0]
    assert final["rum"] == [2, 4, 4, 2] and final["drunk"] == [0, 1, 1, 0]
    assert final["cards"] == [2, 0, 0, 0]
    assert final["total"] == [8, 10, 1, 0]
    result = match.result()
    assert result.scores == [8, 10, 1, 0] and result.winners == [1]
    assert result.reason == "Most Infamy"
    for seat in range(4):
        display = match.display(seat)
        assert display.title == "Game over" and not display.choices


def test_tied_infamy_is_a_shared_victory():
    match = new()
    for _ in range(12):
        quiet_round(match)
        done_buying(match)
    result = match.result()
    # Captain 0: 12 islands; Rum all 2: everyone ties for Notorious Drunk (1 each).
    assert result.scores == [13, 1, 1, 1] and result.winners == [0]
    state = st(match)
    state["won"] = [["a"] * 6, ["b"] * 6, [], []]
    assert infamy(state)["winners"] == [0, 1]


# -- views, screens, re-deal ------------------------------------------------------------------

def test_hidden_things_never_reach_another_viewer():
    match = new(stack="cannon", ballot="secret")
    give_cards(match, {2: 1})
    to_decisions(match, dice={0: [3, 4], 1: [5, 5], 2: [2, 6, 7], 3: [1, 6]})
    match.apply(1, {"type": "ballot", "choice": M})
    for viewer in (PUBLIC, 0, 1, 3):
        state = match.view(viewer)["state"]
        assert "hand" not in json.dumps(state.get("me", {})) or state["me"]["hand"] == []
        assert state["dice"] is None and "[8, 7]" not in json.dumps(state)
        assert state["ballot"].get("mine", []) == ([M] if viewer == 1 else [])
        assert "cast" not in state["ballot"]
    assert match.view(2)["state"]["me"]["hand"] == ["cannon"]
    assert match.view(PUBLIC)["state"]["pirates"][2]["cards"] == 1


def test_screens_fit_the_oled_and_light_up_only_those_who_act():
    rng = random.Random(5)
    for seed, options in ((1, {}), (2, TABLE), (3, {"ballot": "secret", "cup_draws": "table"})):
        match = Match.create(GAME, 4, options, seed=seed)
        while not match.is_over:
            for seat in range(4):
                display = match.display(seat)
                # The screens fit the words; a hand-made short form fits 21 columns.
                assert display.title and len(display.lines) <= 3
                assert all(len(c.short) <= 21 for c in display.choices)
                assert (display.led != "off") == bool(display.choices)
                assert all(c.secret for c in display.choices if c.action["type"] == "play")
            choices = [(a, act) for a in match.acting() for act in match.legal_actions(a)]
            actor, action = rng.choice(choices)
            match.apply(actor, action)
        assert match.result() is not None


def test_redeal_redraws_what_a_viewer_cannot_see_and_keeps_its_view():
    match = new(stack="cannon", ballot="secret")
    give_cards(match, {1: 1})
    rng = random.Random(3)
    state = st(match)
    for viewer in (PUBLIC, 0, 1, 2, 3):
        changed = False
        for _ in range(10):
            twin = GAME.redeal(state, viewer, rng)
            assert GAME.view(twin, viewer) == GAME.view(state, viewer)
            changed |= twin != state
        assert changed
