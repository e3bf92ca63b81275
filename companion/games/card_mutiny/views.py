"""What each viewer may see of a Card Mutiny match, and the re-deal that proves it.

Memory stays a memory game: a face-down card is ``"down"`` in every view, a card turned
back face down shows face down, and nothing keeps where a card was seen. A peek is shown
to the peeker alone, until their turn ends. Rulings: see docs/games/card-mutiny.md.
"""
from __future__ import annotations

import random
from typing import Any

from companion.engine import PUBLIC, RedealFailed, State, Viewer, clone
from companion.games.card_mutiny import holdings
from companion.games.card_mutiny.data import (
    CARD_VIEWS,
    CELLS,
    DEAL,
    KIND_OF,
    LOOK,
    NO_CARD,
    OVER,
    PEEK,
    ROW_NAMES,
    SIZE,
    STORM,
    card_view,
    cell_name,
)
from companion.games.card_mutiny.holdings import is_grid


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public table (face-up cards only), plus a seat's own peeks."""
    out = _public_view(state)
    if isinstance(viewer, int):
        out["me"] = _seat_view(state, viewer)
    return out


def _face_up(kind: str, how: str) -> dict[str, Any]:
    return {**CARD_VIEWS[kind], "state": how}


def _grid_view(state: State) -> list[list[Any]] | None:
    """The 7x7 grid, row by row: each place "down" (a face-down card), None (no card),
    or a face-up card with its ``state``: "open" (turned up this turn), "rock", "taken"
    (taken this turn, its place waits for the refill) or, once the game is over,
    "left" (a card nobody could take)."""
    if not is_grid(state) or state["grid"] is None:
        return None
    grid = state["grid"]
    over = state["step"] == OVER
    cells: list[Any] = [None if code == NO_CARD else
                        _face_up(KIND_OF[code], "left") if over else "down"
                        for code in grid]
    for cell, kind in state["taken"]:
        cells[cell] = _face_up(kind, "taken")
    for cell in state["rocks"]:
        cells[cell] = _face_up(KIND_OF[grid[cell]], "rock")
    for cell in state["open"]:
        cells[cell] = _face_up(KIND_OF[grid[cell]], "open")
    return [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]


def _open_view(state: State) -> list[dict[str, Any]]:
    if is_grid(state):
        return [{"cell": cell_name(k), "index": k, "card": card_view(holdings.card_at(state, k))}
                for k in state["open"]]
    return [{"cell": None, "index": None, "card": card_view(k)} for k in state["open"]]


def _public_view(state: State) -> dict[str, Any]:
    options = state["options"]
    dealt = state["step"] != DEAL
    gold = holdings.golds(state)
    peeking = None
    if state["step"] in (PEEK, LOOK) and (state["peeks"] or state["peeks_left"]):
        peeking = {"seat": state["turn"], "left": state["peeks_left"],
                   "cells": [cell_name(k) for k in state["peeks"]],
                   "indexes": list(state["peeks"])}
    return {
        "mode": options["mode"],
        "map_set_value": options["map_set_value"],
        "phase": state["step"],
        "turn": state["turn"] if dealt else None,
        "turns": state["turns"],
        "grid": _grid_view(state),
        "stack": holdings.stack_size(state),
        "face_down": holdings.face_down_count(state) if dealt else 0,
        "to_refill": (state["grid"].count(NO_CARD) if is_grid(state)
                      and state["grid"] is not None else state["empty"]),
        "rocks_up": len(state["rocks"]) if is_grid(state) else state["rocks_up"],
        "open": _open_view(state),
        "chests": [dict(chest) for chest in state["chests"]],
        "gold": gold,
        "map_sets": list(state["map_sets"]),
        "scores": holdings.scores(state, gold),
        "captains": holdings.captains(state, gold),
        "discard": dict(state["discard"]),
        "discarded": sum(state["discard"].values()),
        "extra_turn": state["extra_turn"],
        "peeking": peeking,
        "storm_rows": [ROW_NAMES[r] for r in holdings.storm_rows(state)]
        if state["step"] == STORM else [],
        "accident_used": state["accident"],
        "log": [dict(event) for event in state["log"]],
    }


def _seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees: the cards it is peeking at (until its turn ends)."""
    peeks = []
    if seat == state["turn"] and state["step"] in (PEEK, LOOK):
        peeks = [{"cell": cell_name(k), "index": k,
                  "card": card_view(holdings.card_at(state, k))} for k in state["peeks"]]
    return {"seat": seat, "peeks": peeks}


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with every face-down card (grid and stack) drawn again,
    except the cards ``viewer`` is peeking at right now.

    Cards mode keeps no hidden card (the companion only counts what everyone counts),
    and before the deal or after the end nothing lies face down: the copy is then the
    state itself, and rightly so. A grid whose hidden cards cannot be drawn again
    (a place missing, a peek at a card that is not face down) raises RedealFailed."""
    twin = clone(state)
    if not is_grid(state) or state["step"] in (DEAL, OVER):
        return twin
    grid = state["grid"]
    if not isinstance(grid, str) or len(grid) != CELLS:
        raise RedealFailed(f"card-mutiny: no grid of {CELLS} places to draw again")
    down = holdings.face_down_cells(state)
    keep = set(state["peeks"]) if viewer != PUBLIC and viewer == state["turn"] else set()
    if not keep <= set(down):
        raise RedealFailed("card-mutiny: a peek at a card that is not face down")
    cells = [k for k in down if k not in keep]
    places = list(grid)
    # Sorted before the shuffle: the draw then depends on what the viewer knows and on
    # ``rng`` alone, never on where the hidden cards really lie (a bot's fence).
    pool = sorted([places[k] for k in cells] + list(state["stack"]))
    rng.shuffle(pool)
    for k in cells:
        places[k] = pool.pop()
    twin["grid"], twin["stack"] = "".join(places), "".join(pool)
    return twin
