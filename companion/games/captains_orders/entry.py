"""Cards mode, the round's end: which ranks a player may enter for their hand.

The companion never saw the real cards, so it offers only entries that can still be
right: a player's first entry is their lowest card, the others are no lower, and the
hands still to be entered must remain completable from what the deck still holds.
Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from companion.engine import State
from companion.games.captains_orders.data import RANKS


def entry_ranks(state: State, seat: int) -> list[int]:
    """Ranks ``seat`` may enter next. An honest entry always passes (the real hands
    complete it), and a next entry always exists, so entering never gets stuck whatever
    was entered before."""
    entries = state["entries"]
    mine = entries[seat]
    candidates = range(mine[0] if mine else 1, len(RANKS) + 1)
    reserve = state["reserve"]
    if reserve is not None and reserve["seat"] == seat:
        # The receiver of a declared card: rare, so each entry is tried in full.
        return [rank for rank in candidates
                if completable(state, entries[:seat] + [mine + [rank]] + entries[seat + 1:])]
    counts = _counts(state, entries)
    if counts is None:
        return []
    supply, demand, left = counts
    out = []
    floor = mine[0] if mine else 1
    for rank in candidates:
        # The same counts with ``rank`` entered: one card fewer in the deck, one fewer
        # to enter; a first entry also raises the seat's floor from 1 to ``rank``.
        trial_supply, trial_demand = list(supply), list(demand)
        trial_supply[rank] -= 1
        trial_demand[floor] -= left[seat]
        trial_demand[rank if not mine else floor] += left[seat] - 1
        if left[seat] > 0 and fits(trial_supply, trial_demand):
            out.append(rank)
    return out


def completable(state: State, entries: list[list[int]]) -> bool:
    """Whether the hands can still be completed from what the deck holds."""
    counts = _counts(state, entries)
    return counts is not None and fits(counts[0], counts[1])


def _counts(state: State, entries: list[list[int]]
            ) -> tuple[list[int], list[int], list[int]] | None:
    """What completing the hands takes: the cards of each rank the deck still holds
    (not played as orders, not entered), the cards still to enter by lowest rank
    allowed, and per seat how many are left (None: the entries cannot be right).

    Each seat needs cards no lower than its lowest. In the first phase every hand may
    yet be needed in full. A declared card passed face down is in its receiver's hand:
    held back for them, no lower than their lowest, and among their cards if they
    enter all of them."""
    supply = list(range(len(RANKS) + 1))  # supply[r]: r copies of rank r
    for rank in state["played"]:
        supply[rank] -= 1
    for hand in entries:
        for rank in hand:
            supply[rank] -= 1
    first_phase = max(state["need"]) <= 1
    reserve = state["reserve"]
    demand = [0] * (len(RANKS) + 1)
    lefts = []
    for seat, hand in enumerate(entries):
        size = len(state["hands"][seat])
        left = (size if first_phase else state["need"][seat]) - len(hand)
        if left < 0:
            return None
        if reserve is not None and seat == reserve["seat"]:
            rank = reserve["rank"]
            if (hand and hand[0] > rank) or (rank not in hand and len(hand) == size):
                return None
            if rank not in hand and left > 0:
                supply[rank] -= 1
                left -= 1
        demand[hand[0] if hand else 1] += left
        lefts.append(left)
    return supply, demand, lefts


def fits(supply: list[int], demand: list[int]) -> bool:
    """Whether cards can meet needs on nested rank ranges: ``demand[r]`` cards of rank
    ``r`` or higher from ``supply[r]`` cards of rank ``r``. They can exactly when, for
    every rank, the needs from that rank up are no more than the cards from that rank
    up (Hall's condition)."""
    if min(supply) < 0:
        return False
    needed = held = 0
    for rank in range(len(RANKS), 0, -1):
        needed += demand[rank]
        held += supply[rank]
        if needed > held:
            return False
    return True
