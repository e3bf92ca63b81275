"""Captain's Orders: what each viewer may know, built from an allow-list, and the
re-deal that proves it.

The public (the table display, the host) sees every move without the card of a
face-down one, and every hand's size; a seat adds its own hand (phones mode) and the
cards of the hidden moves it took part in.

The re-deal, for the contract tests: every card a viewer has not seen, drawn again.

The round is replayed from a fresh deal. Each physical card is a *cell*: a rank the
viewer knows (its own cards, every order played face up, the cards it passed, gave,
received or discarded), or one still to be drawn, with the lowest rank it may be (a
followed card is at least the order's rank). Each move of the round takes a cell from
its player's hand, chosen at random among the cells that can be that card; the ranks
of the cells still undrawn are drawn at the end.

A random choice can lead into a dead end (a card wanted face up later was spent), so
the replay searches: it keeps, at each move, the choices it has not tried, and goes
back to the latest one when it is stuck. The real round is one of the answers, so the
search always ends with one; choices that differ only in which of two alike cells was
taken are tried once. Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

import bisect
import random
from typing import Any, cast

from companion.engine import RedealFailed, State, Viewer, clone
from companion.games.captains_orders.data import FACE_UP, HIDDEN_KINDS, PHONES, RANKS, sees
from companion.games.captains_orders.entry import fits


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "card"}


def public_view(state: State) -> dict[str, Any]:
    """Everything the table may know: no card in a hand, no card moved face down."""
    options = state["options"]
    emptied = state["emptied"]
    public_emptied = None
    if emptied is not None:
        how = state["events"][emptied["event"]]
        public_emptied = {"seat": emptied["seat"], "how": how["kind"], "to": how.get("to"),
                          "rank": how.get("rank")}
    # Built fresh (no list or dict of the state is shared) and by hand: views are made
    # many times a step, and a generic deep copy costs more than the rest together.
    ending, last = state["ending"], state["last_round"]
    return {
        "mode": options["mode"],
        "seats": state["seats"],
        "round": state["round"],
        "dealer": state["dealer"],
        "step": state["step"],
        "turn": state["turn"],
        "order": dict(state["order"]) if state["order"] else None,
        "sizes": [len(hand) for hand in state["hands"]],
        "discards": len(state["discards"]),
        "out_of_play": len(state["undealt"]),
        "played": list(state["played"]),
        "pending": dict(state["pending"]) if state["pending"] else None,
        "emptied": public_emptied,
        "ending": dict(ending) if ending else None,
        "events": [_public_event(e) for e in state["events"]],
        "entries": [list(e) for e in state["entries"]] if state["entries"] else None,
        "need": list(state["need"]) if state["need"] else None,
        "wins": list(state["wins"]),
        "target": options["wins"],
        "rules": {"shared_victory": options["shared_victory"],
                  "empty_ends_round": options["empty_ends_round"],
                  "stuck_discovers": options["stuck_discovers"]},
        "history": [dict(h, winners=list(h["winners"])) for h in state["history"]],
        "last_round": _copy_round(last) if last else None,
        "ready": list(state["ready"]),
        "winners": list(state["winners"]) if state["winners"] is not None else None,
        "end": state["end"],
    }


def _copy_round(last: dict[str, Any]) -> dict[str, Any]:
    """A copy of a round's summary (by hand: faster than a generic deep copy)."""
    return dict(last, hands=[list(h) for h in last["hands"]], points=list(last["points"]),
                captains=list(last["captains"]), ending=dict(last["ending"]),
                winners=list(last["winners"]))


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its hand (phones) and the cards of the hidden moves it
    took part in."""
    return {
        "seat": seat,
        "hand": list(state["hands"][seat]) if state["options"]["mode"] == PHONES else None,
        "log": [dict(e) for e in state["events"]
                if e["kind"] in HIDDEN_KINDS and sees(seat, e)],
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public record (hand sizes included), plus the viewer's own hand and the
    hidden moves it took part in."""
    out = public_view(state)
    if isinstance(viewer, int):
        out["me"] = seat_view(state, viewer)
    return out


# -- the re-deal -------------------------------------------------------------------------

#: Steps of the search before it gives up: far more than any round needs (most replays
#: never go back at all; it only bounds the search if a state could not be replayed).
SEARCH_LIMIT = 20_000


def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with every card ``viewer`` cannot see drawn again: its own
    hand, the moves it saw and every public move stay as they are.

    A state with nothing hidden comes back as it is: in cards mode the companion knows
    no card at all, and between rounds every hand is revealed or gone. Raises
    :class:`RedealFailed` if the round cannot be replayed: a state reached by play always
    can be (the real round is one way), so that is a bug, never a silent pass."""
    if state["options"]["mode"] != PHONES or state["dealt"] is None:
        return clone(state)
    world = _search(state, viewer, rng)
    return _twin(state, world, rng)


class _World:
    """A replay in the making: the cells, where each one is, what each can still be."""

    def __init__(self) -> None:
        self.rank: list[int | None] = []  # per cell: its rank, or None while undrawn
        self.floor: list[int] = []        # per cell: the lowest rank it may be drawn as
        self.pool = [0, *RANKS]           # pool[r]: copies of rank r no cell holds yet
        self.demand = [0] * (len(RANKS) + 1)  # demand[f]: undrawn cells of floor f
        self.hands: list[list[int]] = []
        self.dealt: list[list[int]] = []
        self.undealt: list[int] = []
        self.discards: list[int] = []
        self.moved: dict[int, int] = {}   # event index -> the cell it moved

    def new(self, rank: int | None) -> int:
        self.rank.append(rank)
        self.floor.append(1)
        if rank is None:
            self.demand[1] += 1
        else:
            self.pool[rank] -= 1
        return len(self.rank) - 1

    def copy(self) -> "_World":
        twin = _World.__new__(_World)
        twin.__dict__ = clone(self.__dict__)
        return twin

    def change(self, cell: int, rank: int | None, least: int) -> tuple[str, int] | None:
        """What taking ``cell`` as a card of ``rank`` (or, with no rank, of ``least`` or
        higher) changes: ``("keep", 0)``, ``("pin", rank)`` or ``("raise", floor)``;
        None when the cell cannot be that card or the rest could then not be drawn."""
        held, floor = self.rank[cell], self.floor[cell]
        if held is not None:
            ok = held == rank if rank is not None else held >= least
            return ("keep", 0) if ok else None
        if rank is None and floor >= least:
            return ("keep", 0)
        pool, demand = list(self.pool), list(self.demand)
        demand[floor] -= 1
        if rank is not None:
            if rank < floor or pool[rank] <= 0:
                return None
            pool[rank] -= 1
            change = ("pin", rank)
        else:
            demand[least] += 1
            change = ("raise", least)
        return change if fits(pool, demand) else None

    def apply(self, cell: int, change: tuple[str, int]) -> None:
        kind, value = change
        if kind == "keep":
            return
        self.demand[self.floor[cell]] -= 1
        if kind == "pin":
            self.rank[cell] = value
            self.pool[value] -= 1
        else:
            self.floor[cell] = value
            self.demand[value] += 1


def _start(state: State, viewer: Viewer) -> _World:
    """The deal: the viewer's own cards as dealt, every other card undrawn."""
    world = _World()
    for seat, hand in enumerate(state["dealt"]):
        cells = [world.new(rank if seat == viewer else None) for rank in hand]
        world.hands.append(cells)
        world.dealt.append(list(cells))
    world.undealt = [world.new(None) for _ in state["undealt"]]
    return world


def _card_moves(state: State) -> list[tuple[int, dict[str, Any]]]:
    """The moves of the round that take a card from a hand, with their indexes."""
    return [(index, event) for index, event in enumerate(state["events"])
            if event["kind"] in FACE_UP or event["kind"] in HIDDEN_KINDS]


def _choices(world: _World, event: dict[str, Any], viewer: Viewer,
             rng: random.Random) -> list[tuple[int, tuple[str, int]]]:
    """The cells of the mover's hand that can be the card this move took, in random
    order, one per kind of cell (two cells alike lead to the same replays)."""
    if event["kind"] in FACE_UP:
        rank, least = event["rank"], 0
    elif sees(viewer, event):
        rank, least = event["card"], 0
    else:
        rank, least = None, event.get("order", 1)
    cells = list(world.hands[event["seat"]])
    rng.shuffle(cells)
    seen, out = set(), []
    for cell in cells:
        held = world.rank[cell]
        kind = (held, None) if held is not None else (None, world.floor[cell])
        if kind in seen:
            continue
        seen.add(kind)
        change = world.change(cell, rank, least)
        if change is not None:
            out.append((cell, change))
    return out


def _move(world: _World, index: int, event: dict[str, Any], cell: int,
          change: tuple[str, int]) -> None:
    world.apply(cell, change)
    world.hands[event["seat"]].remove(cell)
    if event["kind"] in HIDDEN_KINDS:
        world.moved[index] = cell
        where = world.discards if event["kind"] == "discard" else world.hands[event["to"]]
        where.append(cell)


def _search(state: State, viewer: Viewer, rng: random.Random) -> _World:
    """Replay every card move, going back to the latest untried choice when stuck."""
    moves = _card_moves(state)
    world = _start(state, viewer)
    # The choice points: (position, the world before that move, choices left to try).
    stack: list[tuple[int, _World, list[tuple[int, tuple[str, int]]]]] = []
    position = steps = 0
    while position < len(moves):
        steps += 1
        if steps > SEARCH_LIMIT:
            raise RedealFailed(f"captains-orders: no replay of round {state['round']} "
                               f"for {viewer!r} within {SEARCH_LIMIT} steps")
        index, event = moves[position]
        choices = _choices(world, event, viewer, rng)
        if not choices:
            while stack and not stack[-1][2]:
                stack.pop()
            if not stack:
                raise RedealFailed(f"captains-orders: round {state['round']} cannot be "
                                   f"replayed for {viewer!r}")
            position, before, left = stack[-1]
            index, event = moves[position]
            world = before.copy()
            choices = [left.pop(0)]
        elif len(choices) > 1:
            stack.append((position, world.copy(), choices[1:]))
        _move(world, index, event, *choices[0])
        position += 1
    return world


def _twin(state: State, world: _World, rng: random.Random) -> State:
    """The state with the replay's cards: the undrawn cells drawn from what is left,
    the most constrained first (each draw then leaves the others a way to be drawn)."""
    ranks = list(world.rank)
    pool = [rank for rank in RANKS for _ in range(world.pool[rank])]  # in rank order
    for cell in sorted((c for c, r in enumerate(ranks) if r is None),
                       key=lambda c: -world.floor[c]):
        lowest = bisect.bisect_left(pool, world.floor[cell])
        ranks[cell] = pool.pop(rng.randrange(lowest, len(pool)))
    drawn = cast("list[int]", ranks)  # every cell has its rank now
    twin = clone(state)
    twin["hands"] = [sorted(drawn[c] for c in cells) for cells in world.hands]
    twin["dealt"] = [sorted(drawn[c] for c in cells) for cells in world.dealt]
    twin["undealt"] = sorted(drawn[c] for c in world.undealt)
    twin["discards"] = sorted(drawn[c] for c in world.discards)
    for index, cell in world.moved.items():
        twin["events"][index]["card"] = drawn[cell]
    return twin
