"""What the table holds, asked of the state: the grid, the counts, chests and Captains
(the rules and the views ask it; the board reads only views).

Grid mode keeps the 49 places and the stack as strings of card codes; cards mode keeps
only counts (the companion never knows where a real card lies). Rulings: see
docs/games/card-mutiny.md.
"""
from __future__ import annotations

from companion.engine import State
from companion.games.card_mutiny.data import (
    CELLS,
    CODES,
    KIND_OF,
    KINDS,
    MAP_SET,
    NO_CARD,
    ORDER,
    SIZE,
    VALUES,
)


def is_grid(state: State) -> bool:
    return state["options"]["mode"] == "grid"


# -- chests and the Captain --------------------------------------------------------------

def card_value(state: State, kind: str) -> int:
    """Gold one chest card of ``kind`` is worth under the F1 option."""
    return VALUES[state["options"]["coin_score"]][kind]


def golds(state: State) -> list[int]:
    """Each player's gold: coins and gems in the chest (maps never count here)."""
    values = VALUES[state["options"]["coin_score"]]
    return [sum(values[kind] * n for kind, n in chest.items())
            for chest in state["chests"]]


def captains(state: State, gold: list[int] | None = None) -> list[int]:
    """The richest players (maps not counted); tied players are all Captains."""
    gold = golds(state) if gold is None else gold
    best = max(gold)
    return [s for s, g in enumerate(gold) if g == best]


def scores(state: State, gold: list[int] | None = None) -> list[int]:
    """Final gold: chests plus every Treasure Map set (F2)."""
    gold = golds(state) if gold is None else gold
    per_set = state["options"]["map_set_value"]
    return [g + n * per_set for g, n in zip(gold, state["map_sets"], strict=True)]


def add(pile: dict[str, int], kind: str, n: int = 1) -> None:
    """Cards into a pile (a chest, the discard pile): a count per kind, kept in
    catalogue order (coins, maps, gems ...) so a view can copy it as it is."""
    if kind in pile:
        pile[kind] += n
        return
    pile[kind] = n
    ordered = sorted(pile.items(), key=lambda item: ORDER[item[0]])
    pile.clear()
    pile.update(ordered)


def remove(pile: dict[str, int], kind: str) -> None:
    pile[kind] -= 1
    if not pile[kind]:
        del pile[kind]


# -- the grid (grid mode) ----------------------------------------------------------------

def kind_at(state: State, cell: int) -> str | None:
    """Grid mode: the kind of the card in ``cell`` (None: no card)."""
    code = state["grid"][cell]
    return None if code == NO_CARD else KIND_OF[code]


def card_at(state: State, cell: int) -> str:
    """Grid mode: the kind of the card in ``cell``, a place known to hold one (an open
    card, one peeked at or turned up)."""
    kind = kind_at(state, cell)
    if kind is None:
        raise ValueError(f"place {cell} holds no card")
    return kind


def put(state: State, cell: int, kind: str | None) -> None:
    """Grid mode: place a card (None: take it away) in ``cell``."""
    code = NO_CARD if kind is None else CODES[kind]
    grid = state["grid"]
    state["grid"] = grid[:cell] + code + grid[cell + 1:]


def face_down_cells(state: State) -> list[int]:
    """Grid mode: places holding a face-down card."""
    grid = state["grid"]
    up = set(state["open"]) | set(state["rocks"])
    return [k for k in range(CELLS) if grid[k] != NO_CARD and k not in up]


def peek_candidates(state: State) -> list[int]:
    """Face-down places the peeker has not looked at this turn."""
    return [k for k in face_down_cells(state) if k not in state["peeks"]]


def storm_rows(state: State) -> list[int]:
    """Rows with at least two face-down cards (a reshuffle there changes something)."""
    cells = face_down_cells(state)
    return [r for r in range(SIZE) if sum(1 for k in cells if k // SIZE == r) >= 2]


# -- counts (both modes) -----------------------------------------------------------------

def face_down_count(state: State) -> int:
    """Face-down cards in the grid (not the stack)."""
    if is_grid(state):
        up = len(state["open"]) + len(state["rocks"])
        return CELLS - state["grid"].count(NO_CARD) - up
    return state["grid_down"]


def stack_size(state: State) -> int:
    return len(state["stack"]) if is_grid(state) else state["stack"]


def hidden_counts(state: State) -> dict[str, int]:
    """Face-down cards still in play (grid and stack) per kind."""
    if not is_grid(state):
        return dict(state["hidden"])
    counts: dict[str, int] = {}
    grid = state["grid"]
    for code in [grid[k] for k in face_down_cells(state)] + list(state["stack"]):
        kind = KIND_OF[code]
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def collectible(counts: dict[str, int]) -> bool:
    """Whether flipping can still take a card out: any card that is not a coin or map
    leaves (or, a Rock, turns up) when flipped; coins need a pair, maps a set."""
    for kind, n in counts.items():
        category = KINDS[kind].category
        if n and category not in ("coin", "map"):
            return True
        if category == "coin" and n >= 2:
            return True
        if category == "map" and n >= MAP_SET:
            return True
    return False


def game_done(state: State) -> bool:
    """The stack is empty and every card has been flipped (none face down), or the
    cards still face down can never be taken (only with a short stacked deal)."""
    return stack_size(state) == 0 and not collectible(hidden_counts(state))
