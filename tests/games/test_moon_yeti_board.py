"""Moon Yeti's board and panel (companion/games/moon_yeti/board.py): the board is built from
the public view alone and holds every public fact - roles, round, ballots in (a count
only), each revealed ballot and change, the innocent and the guilty - the ending names
the Mutineer and opens every secret, each seat's panel holds its own secrets and nobody
else's, and every word is whole.

The time is typed (``time_source="typed"``) so a test can make a chosen role the Mutineer.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.engine import PUBLIC, Match
from companion.engine import board as b
from companion.games.moon_yeti import CHAPLAIN, GAME, HELMSMAN, JUROR, NAVIGATOR, ROLES, WAIT
from companion.games.moon_yeti import board as tabletop
from tests.games.moon_yeti_helpers import cast, ready_all
from tests.games.whole_words import check_whole, vocabulary

NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Drake", "Kidd"]


def state(match: Match) -> dict:
    return match.snapshot()["state"]


def start(seats: int = 4, mutineer: str = HELMSMAN, seed: int = 3, **options):
    """A match in round 1 whose Mutineer holds ``mutineer``; ``r`` maps a role's first
    letter to its seat (``J``: the jurors)."""
    options.setdefault("time_source", "typed")
    match = Match.create(GAME, seats, options, seed=seed, names=NAMES[:seats])
    st = state(match)
    if st["options"]["mode"] == "clock":
        match.apply(0, {"type": "declare", "minute": st["cards"][ROLES.index(mutineer)][0]})
    roles = state(match)["roles"]
    r = {role[0]: roles.index(role) for role in ROLES}
    r["J"] = [s for s, role in enumerate(roles) if role == JUROR]
    return match, r


def decline_until(match: Match, step: str) -> None:
    while not match.is_over and match.step() != step:
        seat = match.acting()[0]
        match.apply(seat, {"type": "decline"})


def flat(parts: list[dict]) -> list[dict]:
    """Every part, groups opened and grid places that are parts included."""
    out = []
    for part in parts:
        out.append(part)
        out += flat(part.get("parts", []) + part.get("items", []) if part["part"] != "facts"
                    else [])
        out += flat([c for c in part.get("cells", []) if isinstance(c, dict)])
    return out


def found(parts: list[dict], kind: str) -> list[dict]:
    return [p for p in flat(parts) if p["part"] == kind]


def one(parts: list[dict], kind: str) -> dict:
    hits = found(parts, kind)
    assert len(hits) == 1, f"{len(hits)} {kind} parts"
    return hits[0]


def words(parts: list[dict]) -> str:
    return json.dumps(parts)


def ledger_line(board: list[dict], seat: int) -> dict:
    """A seat's line of the revealed ballots."""
    return one(board, "ledger")["rows"][seat]


def crew(board: list[dict], seat: int) -> dict:
    """A seat on the crew list: its role and note."""
    return one(board, "seats")["people"][seat]


def card_minutes(grid: dict) -> list[int]:
    return [int(c["face"] if isinstance(c, dict) else c) for c in grid["cells"]]


def to_guilt_vote(mutineer: str = HELMSMAN, seats: int = 4, **options):
    """Round 1 played: everyone votes the Boatswain innocent (he votes the Chaplain)."""
    match, r = start(seats, mutineer, **options)
    ready_all(match)
    ballots = {s: [r["B"]] for s in range(seats)}
    ballots[r["B"]] = [r["C"]]
    ballots[r["H"]] = [r["B"], None]
    cast(match, ballots)
    decline_until(match, "discuss2")
    return match, r


# -- the board, from the public view -------------------------------------------------------

def test_the_board_is_built_from_the_public_view_and_shows_the_roles_and_the_round():
    match, r = start()
    board = match.board()
    assert board == GAME.board(match.view(PUBLIC))
    people = one(board, "seats")["people"]
    assert [p["role"] for p in people] == state(match)["roles"]
    assert [p["name"] for p in people] == NAMES[:4]
    assert not found(board, "ledger")  # no ballot revealed yet
    facts = dict(one(board, "facts")["items"])
    assert facts["Round"] == "1 of 2"
    assert facts["Time declared"] == f":{state(match)['minute']:02d}"
    assert facts["Ready to vote"] == "0 of 4"
    assert one(board, "headline")["text"] == "Round 1: looking for evidence"
    match.apply(r["N"], {"type": "ready"})
    board = match.board()
    assert dict(one(board, "facts")["items"])["Ready to vote"] == "1 of 4"
    assert crew(board, r["N"])["note"] == "ready to vote"


def test_secrets_redrawn_leave_the_board_as_it_was():
    match, r = start(seats=5)
    for seed in range(3):
        assert match.redealt(PUBLIC, random.Random(seed)).board() == match.board()


def test_a_search_or_a_confession_changes_nothing_on_the_board():
    match, r = start()
    before = match.board()
    match.apply(r["B"], {"type": "search", "target": r["H"]})
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    assert match.board() == before


def test_a_vote_shows_the_ballots_in_as_the_public_view_counts_them_and_nothing_else():
    match, r = start(seats=5)
    ready_all(match)
    board = match.board()
    box = one(board, "ballots")
    assert box == {"part": "ballots", "title": "Innocence vote: ballots in", "cast": 0,
                   "total": 6}  # four role holders, one juror, the Helmsman's Trust
    match.apply(r["H"], {"type": "vote", "target": r["B"]})
    vote = match.view(PUBLIC)["state"]["vote1"]
    box = one(match.board(), "ballots")
    assert (box["cast"], box["total"]) == (vote["ballots_in"], vote["ballots_total"]) == (1, 6)
    assert "done" not in box  # who has voted is not the table's to see
    assert not found(match.board(), "tally")


def test_the_innocence_result_names_the_innocent_and_each_ballot():
    match, r = to_guilt_vote()
    board = match.board()
    innocence = one(board, "tally")
    assert innocence["title"] == "Innocence vote"
    assert innocence["note"] == f"Declared innocent: {NAMES[r['B']]}"
    assert innocence["rows"] == [[NAMES[r["B"]], 3], [NAMES[r["C"]], 1]]
    assert one(board, "ledger")["columns"] == ["Innocence vote"]
    assert ledger_line(board, r["H"])["values"][0] == f"{NAMES[r['B']]}, no second vote"
    assert ledger_line(board, r["B"])["values"][0] == NAMES[r["C"]]
    assert crew(board, r["B"])["note"] == "declared innocent"
    assert f"Declared innocent: {NAMES[r['B']]}" in one(board, "log")["lines"]
    assert dict(one(board, "facts")["items"])["Round"] == "2 of 2"


def test_a_tied_innocence_vote_says_nobody_was_declared_innocent():
    match, r = start()
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["B"]], r["H"]: [r["N"], r["C"]],
                 r["N"]: [r["B"]]})
    decline_until(match, "discuss2")
    assert one(match.board(), "tally")["note"] == "A tie: nobody was declared innocent"
    assert "A tie: nobody was declared innocent" in one(match.board(), "log")["lines"]


def test_dead_reckoning_shows_the_moved_vote_and_where_it_was_cast():
    match, r = start()
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["B"]], r["H"]: [r["B"], None],
                 r["N"]: [r["B"]]})
    assert match.step() == "reckon"
    board = match.board()
    assert one(board, "headline")["text"] == \
        f"The Navigator may move a vote: {NAMES[r['N']]}"
    assert [p["seat"] for p in one(board, "seats")["people"] if p.get("turn")] == [r["N"]]
    match.apply(r["N"], {"type": "reckon", "seat": r["C"], "index": 0, "target": r["H"]})
    board = match.board()
    assert ledger_line(board, r["C"])["values"][0] == \
        f"{NAMES[r['H']]} (cast for {NAMES[r['B']]})"
    assert (f"Dead Reckoning: {NAMES[r['C']]}'s vote moved from {NAMES[r['B']]} to "
            f"{NAMES[r['H']]}") in one(board, "log")["lines"]


def test_condemn_and_the_guilt_vote_count_and_a_waiting_boatswain_shows_only_at_reveal():
    match, r = to_guilt_vote()
    match.apply(r["H"], {"type": "condemn", "target": r["B"]})
    assert dict(one(match.board(), "facts")["items"])["Condemned (two guilt votes)"] == \
        NAMES[r["B"]]
    ready_all(match)
    waiting, voting = match.fork(), match.fork()
    cast(waiting, {r["B"]: [WAIT, WAIT]})
    cast(voting, {r["B"]: [r["H"], None]})
    # Bosun Knows Best is secret until the reveal: the two boards are the same (Y6).
    assert waiting.board() == voting.board()
    assert one(waiting.board(), "ballots")["cast"] == 2
    cast(waiting, {r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["H"]]})
    assert waiting.step() == "bosun"
    board = waiting.board()
    assert ledger_line(board, r["B"])["values"][1] == "votes last"
    assert one(board, "headline")["text"] == \
        f"The Boatswain votes last: {NAMES[r['B']]}"
    assert "The Boatswain waited to vote last (Bosun Knows Best)" in \
        one(board, "log")["lines"]
    guilt = [t for t in found(board, "tally") if t["title"] == "Guilt vote"][0]
    assert guilt["note"] == "Not decided yet: the vote changes come first"


def test_the_ending_names_the_mutineer_opens_every_card_and_tells_the_chaplains_side():
    match, r = to_guilt_vote(mutineer=NAVIGATOR)
    ready_all(match)
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["H"]]})
    decline_until(match, "over")
    board = match.board()
    mutineer = NAMES[r["N"]]
    end = one(board, "result")
    assert end["title"] == f"The Mutineer {mutineer} wins!"
    assert f"The Mutineer was {mutineer}, the Navigator." in end["lines"]
    assert f"Found guilty: {NAMES[r['H']]}" in one(board, "log")["lines"]
    assert one(board, "headline")["text"] == \
        f"The Mutineer is revealed: {mutineer}, the Navigator"
    assert "the Mutineer" in crew(board, r["N"])["note"]
    assert crew(board, r["N"])["winner"]
    # Every card's 15 numbers, under its holder's name.
    cards = state(match)["cards"]
    grids = {g["title"]: card_minutes(g) for g in found(board, "grid")}
    for role, seat in (("Boatswain", r["B"]), ("Chaplain", r["C"]), ("Helmsman", r["H"])):
        assert grids[f"{NAMES[seat]}, the {role}"] == cards[ROLES.index(role)]
    minute = state(match)["minute"]
    assert grids[f"{mutineer}, the Navigator: the Mutineer (:{minute:02d} is on it)"] == \
        cards[ROLES.index(NAVIGATOR)]
    # Every ballot of both votes.
    assert one(board, "ledger")["columns"] == ["Innocence vote", "Guilt vote"]
    assert ledger_line(board, r["H"])["values"] == [f"{NAMES[r['B']]}, no second vote",
                                                    NAMES[r["C"]]]
    assert ledger_line(board, r["B"])["values"] == [NAMES[r["C"]], NAMES[r["H"]]]
    # The story comes first at the end: the result right under the headline and facts.
    assert [p["part"] for p in board[:3]] == ["headline", "facts", "result"]


def test_the_chaplain_who_took_the_mutineers_confession_is_named_on_his_side():
    match, r = start(mutineer=HELMSMAN)
    match.apply(r["B"], {"type": "search", "target": r["N"]})
    match.apply(r["C"], {"type": "confess", "target": r["H"]})
    ready_all(match)
    # The Mutineer is declared innocent: he and the Chaplain win at once.
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["B"], None],
                 r["N"]: [r["H"]]})
    decline_until(match, "over")
    board = match.board()
    mutineer, chaplain = NAMES[r["H"]], NAMES[r["C"]]
    end = one(board, "result")
    assert end["title"] == f"The Mutineer {mutineer} and the Chaplain {chaplain} win!"
    assert sorted(end["winners"]) == sorted([r["H"], r["C"]])
    assert (f"The Chaplain, {chaplain}, took the Mutineer's confession ({mutineer}) and "
            "sided with him.") in end["lines"]
    assert (f"The Boatswain, {NAMES[r['B']]}, searched {NAMES[r['N']]}'s cabin: not the "
            "Mutineer's.") in end["lines"]
    assert "The Mutineer was declared innocent." in end["lines"]
    assert "sided with the Mutineer" in crew(board, r["C"])["note"]


def test_the_crew_wins_when_the_mutineer_is_found_guilty_and_the_title_names_him():
    match, r = to_guilt_vote(mutineer=HELMSMAN)
    ready_all(match)
    cast(match, {r["B"]: [r["H"]], r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["H"]]})
    decline_until(match, "over")
    end = one(match.board(), "result")
    assert end["title"] == f"The crew wins: the Mutineer {NAMES[r['H']]} was found guilty!"
    assert f"The Chaplain, {NAMES[r['C']]}, took no confession and stayed with the crew." \
        in end["lines"]


@pytest.mark.parametrize("confessed", [None, "H"])
def test_a_chaplain_who_is_the_mutineer_is_never_said_to_stay_with_the_crew(confessed):
    match, r = start(mutineer=CHAPLAIN)
    if confessed:
        match.apply(r["C"], {"type": "confess", "target": r[confessed]})
    ready_all(match)
    cast(match, {s: [r["C"] if s == r["B"] else r["B"]] for s in range(4) if s != r["H"]}
         | {r["H"]: [r["B"], None]})
    decline_until(match, "discuss2")
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"]], r["N"]: [r["C"]]})
    decline_until(match, "over")
    lines = one(match.board(), "result")["lines"]
    took = f"{NAMES[r[confessed]]}'s confession" if confessed else "no confession"
    # It used to read "took no confession and stayed with the crew".
    assert f"The Chaplain, {NAMES[r['C']]}, was the Mutineer himself and took {took}." \
        in lines
    assert not any("stayed with the crew" in line for line in lines)


def test_aces_mode_shows_the_ace_of_spades_and_opens_every_ace_at_the_end():
    match, r = start(mode="aces", seed=5)
    assert dict(one(match.board(), "facts")["items"])["The Mutineer"] == \
        "holds the ace of spades"
    ready_all(match)
    mutineer = state(match)["mutineer"]
    others = [r[k] for k in "BCN" if r[k] != mutineer and r[k] != r["H"]]
    cast(match, {s: [mutineer if s != mutineer else others[0]] for s in range(4)
                 if s != r["H"]} | {r["H"]: [mutineer if r["H"] != mutineer else others[0],
                                             None]})
    decline_until(match, "over")
    board = match.board()
    aces = {c["label"]: c["face"] for c in one(board, "cards")["items"]}
    for seat in range(4):
        role = state(match)["roles"][seat]
        suit = state(match)["aces"][ROLES.index(role)]
        mark = ": the Mutineer" if seat == mutineer else ""
        assert aces[f"{NAMES[seat]}, the {role}{mark}"] == f"Ace of {suit}"
    assert f"{NAMES[mutineer]} held the ace of spades." in one(board, "result")["lines"]


# -- a seat's panel ------------------------------------------------------------------------

def test_a_role_holders_panel_shows_its_card_as_a_grid_and_whether_it_is_the_mutineer():
    match, r = start(mutineer=HELMSMAN)
    cards = state(match)["cards"]
    for seat in range(4):
        role = state(match)["roles"][seat]
        panel = match.panel(seat)
        grid = one(panel, "grid")
        assert (grid["rows"], grid["cols"]) == (3, 5)
        assert card_minutes(grid) == cards[ROLES.index(role)]
        assert grid["title"].startswith(f"Your card as the {role}")
        told = one(panel, "text")
        assert ("YOU ARE THE MUTINEER" in told["lines"][0]) == (seat == r["H"])
        # Nobody else's card.
        for other in range(4):
            if other != seat:
                assert not set(cards[ROLES.index(state(match)["roles"][other])]) & \
                    set(card_minutes(grid))


def test_the_declared_minute_stands_out_on_the_mutineers_card():
    match, r = start(mutineer=HELMSMAN)
    minute = state(match)["minute"]
    assert one(match.panel(r["H"]), "grid")["title"] == \
        f"Your card as the Helmsman (:{minute:02d} is on it)"
    assert one(match.panel(r["B"]), "grid")["title"] == "Your card as the Boatswain"


def test_the_search_and_the_confession_show_on_their_own_panels_only():
    match, r = start(mutineer=HELMSMAN)
    match.apply(r["B"], {"type": "search", "target": r["H"]})
    match.apply(r["C"], {"type": "confess", "target": r["N"]})
    searched = NAMES[r["H"]]
    boatswain = match.panel(r["B"])
    assert f"{searched} IS the Mutineer!" in words(boatswain)
    grids = found(boatswain, "grid")
    assert card_minutes(grids[1]) == state(match)["cards"][ROLES.index(HELMSMAN)]
    assert grids[1]["title"] == f"{searched}'s card (:{state(match)['minute']:02d} is on it)"
    chaplain = match.panel(r["C"])
    assert f"{NAMES[r['N']]} is not the Mutineer." in words(chaplain)
    target = match.panel(r["N"])
    assert f"The Chaplain, {NAMES[r['C']]}, took your confession" in words(target)
    for seat in (r["H"], r["N"]):
        assert "Cabin Search" not in words(match.panel(seat))
    assert "Your Confession" not in words(match.panel(r["H"]))


def test_a_jurors_panel_has_no_card_and_its_ballots_are_its_own():
    match, r = start(seats=5)
    juror = r["J"][0]
    panel = match.panel(juror)
    assert not found(panel, "grid")
    assert one(panel, "text")["lines"] == \
        ["You are a Juror: no card, never the Mutineer; you vote once in each vote."]
    ready_all(match)
    match.apply(juror, {"type": "vote", "target": r["C"]})
    assert dict(one(match.panel(juror), "facts")["items"]) == \
        {"Innocence vote (sealed)": NAMES[r["C"]]}
    for seat in range(5):
        if seat != juror:
            assert not found(match.panel(seat), "facts")


# -- every word whole, nothing private, the story only grows ------------------------------

HERE = Path(tabletop.__file__)
SOURCES = [HERE, HERE.with_name("show.py"), HERE.with_name("data.py"), Path(b.__file__)]
VOCABULARY = vocabulary(SOURCES, NAMES)




def _check_whole(parts: list[dict]) -> None:
    check_whole(parts, VOCABULARY)


@pytest.mark.parametrize("seed", range(6))
def test_random_play_keeps_words_whole_secrets_off_the_board_and_the_story_growing(seed):
    rng = random.Random(seed)
    seats = 4 + seed % 3
    options = {"mode": "aces" if seed % 2 else "clock", "time_source": "typed"}
    match = Match.create(GAME, seats, options, seed=seed, names=NAMES[:seats])
    story: list[str] = []
    while not match.is_over:
        board = match.board()
        _check_whole(board)
        assert not found(board, "result") and "Mutineer was" not in words(board)
        assert not found(board, "grid")  # no card of 15 numbers before the end
        assert match.redealt(PUBLIC, rng).board() == board
        lines = one(board, "log")["lines"]
        assert lines[:len(story)] == story
        story = lines
        for seat in range(seats):
            panel = match.panel(seat)
            _check_whole(panel)
            assert match.redealt(seat, rng).panel(seat) == panel
        actor = match.acting()[0]
        match.apply(actor, rng.choice(match.legal_actions(actor)))
    board = match.board()
    _check_whole(board)
    assert NAMES[state(match)["mutineer"]] in one(board, "result")["title"]
    assert one(board, "log")["lines"][:len(story)] == story
