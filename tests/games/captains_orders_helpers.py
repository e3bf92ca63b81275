"""Captain's Orders' test helpers: the standard hands, a match dealt from a stacked deck, and
the moves of a turn, shared by the rule tests (tests/games/test_captains_orders_*.py).

Most tests stack the deck (the ``stack`` option): six cards to seat 1, six to seat 2 ...
and the last seat deals round 1, so seat 1 (index 0) plays first. The standard hands:
seat 3 holds the only 1, so it is the Captain.
"""
from __future__ import annotations

from companion.engine import Match
from companion.games.captains_orders import GAME

A = [2, 5, 6, 7, 8, 9]
B = [3, 4, 5, 6, 7, 8]
C = [1, 9, 9, 10, 10, 10]   # the Captain: the only 1
D = [4, 6, 7, 8, 9, 10]
#: Two Captains (the two 2s) and no 1 in play.
A2 = [2, 5, 6, 7, 8, 9]
C2 = [2, 9, 9, 10, 10, 10]
#: A Captain at seat 1, and three Mutineers with the same 45 points.
LOW = [1, 2, 3, 3, 4, 4]
TIE = [5, 6, 7, 8, 9, 10]
#: Seat 1 rich, seat 4 the Captain.
RICH = [9, 9, 10, 10, 10, 10]
POOR = [2, 3, 4, 5, 6, 7]
CAPT4 = [1, 8, 8, 8, 9, 9]


def deck(*hands: list[int]) -> str:
    return ",".join(str(rank) for hand in hands for rank in hand)


def new(*rounds: tuple[list[int], ...], seats: int = 4, **options) -> Match:
    """A match whose round ``k`` deals ``rounds[k]`` (one hand per seat)."""
    stack = "/".join(deck(*hands) for hands in rounds)
    return Match.create(GAME, seats, {"first_dealer": seats, "stack": stack, **options},
                        seed=1)


def cards(seats: int = 4, **options) -> Match:
    return Match.create(GAME, seats, {"mode": "cards", "first_dealer": seats, **options},
                        seed=1)


def st(match: Match) -> dict:
    return match.snapshot()["state"]


def hand(match: Match, seat: int) -> list:
    return st(match)["hands"][seat]


def turn(match: Match) -> int:
    return st(match)["turn"]


def play(match: Match, seat: int, rank: int) -> None:
    match.apply(seat, {"type": "play", "rank": rank})


def pass_card(match: Match, seat: int, rank: int, to: int, discard: int | None = None) -> None:
    match.apply(seat, {"type": "pass", "rank": rank, "to": to})
    if discard is not None:
        match.apply(to, {"type": "discard", "rank": discard})


def ask(match: Match, seat: int, target: int, give: int, discard: int) -> None:
    match.apply(seat, {"type": "ask", "target": target})
    match.apply(target, {"type": "give", "rank": give})
    match.apply(seat, {"type": "discard", "rank": discard})


def accuse(match: Match, seat: int, target: int) -> None:
    match.apply(seat, {"type": "accuse", "target": target})


#: A typical round of the standard hands, one whole decision per entry: an order followed
#: round the table, a pass and its discard, an ask, a give and a discard, an order
#: belayed and followed, then a (wrong) discovery.
TYPICAL_ROUND = [
    (0, {"type": "play", "rank": 7}), (1, {"type": "follow", "rank": 8}),
    (2, {"type": "follow", "rank": 9}), (3, {"type": "follow", "rank": 10}),
    (1, {"type": "pass", "rank": 3, "to": 2}), (2, {"type": "discard", "rank": 10}),
    (2, {"type": "ask", "target": 3}), (3, {"type": "give", "rank": 4}),
    (2, {"type": "discard", "rank": 9}), (3, {"type": "play", "rank": 6}),
    (0, {"type": "belay", "rank": 5}), (1, {"type": "follow", "rank": 7}),
    (2, {"type": "accuse", "target": 0}),
]


#: Who passes to whom while hands are emptied: seat 1 is never passed to again, so it
#: runs out first.
ONWARD = {0: 1, 1: 2, 2: 3, 3: 1}


def next_round(match: Match, first: int = 0) -> None:
    """Every seat says it has seen the reveal (``first`` first): the next round starts."""
    seats = match.seats
    for seat in [(first + step) % seats for step in range(seats)]:
        match.apply(seat, {"type": "next_round"})


def run_down(match: Match) -> None:
    """Phones: every player passes their highest card on and the receiver discards it
    at once, until seat 1 holds one card (everyone else too) and it is seat 1's turn."""
    while not (turn(match) == 0 and len(hand(match, 0)) == 1):
        seat = turn(match)
        rank = max(hand(match, seat))
        pass_card(match, seat, rank, ONWARD[seat], discard=rank)


def last(match: Match) -> dict:
    return st(match)["last_round"]
