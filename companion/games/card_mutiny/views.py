"""What each viewer may see of a Card Mutiny match, and the re-deal that proves it.

A face-down card is ``"down"`` in every view, a card turned back face down too. The
public history (``log``) says what was turned up and, with the option
``history_names_places`` (on by default), where, as everyone at a real table saw it: so
a card it names at a place that has not changed since is known to the whole table, and
the re-deal keeps it there. A peek is shown to the peeker alone, until their turn ends.
Rulings: see docs/games/card-mutiny.md, "What the history tells".
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Mapping

from companion.engine import PUBLIC, RedealFailed, State, Viewer, clone
from companion.games.card_mutiny import holdings
from companion.games.card_mutiny.data import (
    CARD_VIEWS,
    CELLS,
    CODES,
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


#: Events whose cards turned back face down in the places they name.
TURNED_BACK = ("no_match", "turned_back")


def named_places(events: Iterable[Mapping[str, Any]],
                 known: dict[int, str] | None = None) -> dict[int, str]:
    """What the public history tells of the grid, event by event, oldest first: each
    card a miss (or a try the turn's end left open) turned back face down, by its
    place (card kinds), until an event names a card taken from that place (it is
    refilled) or a Storm reshuffles the row. ``known`` (updated in place and returned)
    is what earlier events told: a bot's memory folds in each new event, the re-deal
    the whole log. Events without places (``history_names_places`` off) tell only a
    Storm's row, which forgets what was known there."""
    known = {} if known is None else known
    for event in events:
        if event["kind"] == "storm":
            for k in [k for k in known if k // SIZE == event["row"]]:
                del known[k]
        elif event["kind"] in TURNED_BACK and "cells" in event:
            known.update(zip(event["cells"], event["cards"], strict=True))
        else:
            for k in event.get("cells", ()):
                known.pop(k, None)
    return known


def known_places(state: State, viewer: Viewer) -> dict[int, str]:
    """The face-down grid cards ``viewer`` knows, place -> card code: those the public
    history names where they still lie (everyone), then the ones the viewer is peeking
    at (the peeker alone). Grid mode, with a grid dealt."""
    down = set(holdings.face_down_cells(state))
    known = {k: CODES[kind] for k, kind in named_places(state["log"]).items() if k in down}
    if viewer != PUBLIC and viewer == state["turn"]:
        known.update((k, state["grid"][k]) for k in state["peeks"])
    return known


def draw_again(state: State, keep: Mapping[int, str], rng: random.Random) -> State:
    """``state`` (in place, and returned) with every face-down card of the grid and the
    stack drawn again by ``rng``, except the places in ``keep`` (place -> card code, in
    the order to honour them), which get that card while the cards drawn hold one: a
    card they cannot (a bot's memory of a card long gone) is let go.

    Sorted before the shuffle: the draw depends on ``keep`` and ``rng`` alone, never on
    where the hidden cards really lie (a bot's fence)."""
    places = list(state["grid"])
    down = holdings.face_down_cells(state)
    pool = sorted([places[k] for k in down] + list(state["stack"]))
    kept: dict[int, str] = {}
    for k, code in keep.items():
        if k in down and k not in kept and code in pool:
            pool.remove(code)
            kept[k] = code
    rng.shuffle(pool)
    for k in down:
        places[k] = kept[k] if k in kept else pool.pop()
    state["grid"], state["stack"] = "".join(places), "".join(pool)
    return state


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with every face-down card (grid and stack) drawn again,
    except the cards ``viewer`` knows: the cards the public history names where they
    still lie (``known_places``) and those the viewer is peeking at right now.

    Cards mode keeps no hidden card (the companion only counts what everyone counts),
    and before the deal or after the end nothing lies face down: the copy is then the
    state itself, and rightly so. A grid whose hidden cards cannot be drawn again
    (a place missing, a peek at a card that is not face down, a history naming a card
    that is not where it says) raises RedealFailed."""
    twin = clone(state)
    if not is_grid(state) or state["step"] in (DEAL, OVER):
        return twin
    grid = state["grid"]
    if not isinstance(grid, str) or len(grid) != CELLS:
        raise RedealFailed(f"card-mutiny: no grid of {CELLS} places to draw again")
    peeking = viewer != PUBLIC and viewer == state["turn"]
    if peeking and not set(state["peeks"]) <= set(holdings.face_down_cells(state)):
        raise RedealFailed("card-mutiny: a peek at a card that is not face down")
    keep = known_places(state, viewer)
    if any(grid[k] != code for k, code in keep.items()):
        raise RedealFailed("card-mutiny: the history names a card that is not there")
    return draw_again(twin, keep, rng)
