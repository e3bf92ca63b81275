"""MIT Mutiny's test helpers: a match at a chosen first Captain and the moves of each phase
of a round, shared by the rule tests (tests/games/test_mit_mutiny_*.py) and the board's.

Most tests use table dice (each pirate enters the faces of their real dice) and physical
islands (the Scout enters the island's cubes), so every roll and every island is exact.
Seats are numbered clockwise. Loot lists are (sugar, orange, gold, plantain).
"""
from __future__ import annotations

from companion.engine import Match
from companion.games.mit_mutiny import GAME
from companion.games.mit_mutiny.cards import KINDS

TABLE = {"dice": "table", "islands": "physical"}
M, D = "mutiny", "defend"
CAPTAIN, FM, QM, SCOUT = "captain", "first_mate", "quarter_master", "scout"


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
    for kind, n in zip(KINDS, loot, strict=True):
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


def finish_quiet_round(match: Match) -> None:
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
