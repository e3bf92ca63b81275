"""Card Mutiny: a pirate memory game on a 7x7 grid (rulebook ``001_647efb54c47ea945.txt``).

Players take turns flipping face-down cards of a 7x7 grid, matching coins in pairs
(and chaining matches), collecting gems, revealing three Treasure Maps in a row, and
suffering duds, Mutinies and events. The richest player is the Captain, the target of
every Mutiny. When the stack is empty and every card has been flipped, the most gold
(Treasure Map sets counted at the end) wins.

Two modes (option ``mode``):

- ``grid`` (default; the cards were never published): the companion shuffles the 120
  cards (a chance action) and deals a virtual grid and stack. Face-down cards are hidden
  from every view; face-up cards are public. The active player flips a card of the
  cursor's row or moves the cursor to the next row up or down (with 12 face-down cards
  or fewer, every card is listed straight away).
- ``cards``: real cards on the table. The active player enters the kind of each card
  they turn up; the companion keeps the chests, the Captain, the Mutinies, the events it
  can apply and the score, and counts the cards in the grid and the stack (to know how
  many to refill and when the game ends). No positions are tracked.

Rulings (``RULINGS.md``, F1-F5) and the options that switch them:

- F1 ``coin_score``: ``"per_card"`` - every coin counts its value (a gold pair is 600);
  ``"per_pair"`` - a pair counts its value once (each coin card is half its value).
  Gems need no match (the rulebook's own rule).
- F2 ``map_set_value``: three Treasure Maps revealed in a row are a set worth 1000 gold,
  counted at the end only (never for the Captain).
- F3 ``rocks``: 2 of the 8 duds are Rocks, which stay face up in the grid for the rest of
  the game; the other duds are discarded.
- F4 ``mutiny``: ``"crew"`` - every player except the targeted Captain and the other tied
  Captains, starting with the revealer and going clockwise, takes the most valuable coin
  or gem left in the Captain's chest; ``"revealer"`` - only the revealer takes one.
- F5 ``events``: one each of Storm (the revealer picks a row; its face-down cards are
  reshuffled), Parrot (peek at one face-down card), Kraken (everyone discards their
  lowest coin), Shore Leave (take another turn), Plank (discard your lowest coin),
  Spyglass (peek at three face-down cards). Off: event cards do nothing (discard, end).

Memory stays a memory game: a card turned back face down shows face down in every view;
no view keeps where a face-down card was seen; the public log names the cards turned up
but never where they lie. A peek is shown to the peeker only, until their turn ends.
"""
from __future__ import annotations

import pickle
import random
import re
from dataclasses import dataclass
from typing import Any

from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.rules import (CHANCE, Action, Actor, Context, Game, Result, State,
                                    Viewer)
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected, OptionError

# -- constants ---------------------------------------------------------------------------

GAME_ID = "card-mutiny"
#: The grid is SIZE x SIZE cells; cell k is row k // SIZE, column k % SIZE.
SIZE = 7
CELLS = SIZE * SIZE
ROW_NAMES = "ABCDEFG"
#: Up to this many candidate cells are listed one by one; with more, the list holds
#: the cells of the cursor's row and the moves of the cursor to the next row up/down.
DIRECT_LIST = 12
#: Cursor moves per turn (twice round the grid); after that the list only holds the
#: cursor row's cells, so every turn stays finite even under random play.
MAX_MOVES = 2 * SIZE
#: "Back" out of a sub-menu (cards mode) at most this often per turn, for the same
#: reason.
MAX_BACKS = 1
MAP_SET = 3
PARROT_PEEKS = 1
SPYGLASS_PEEKS = 3
DUDS = 8
#: How many public log entries the state keeps.
LOG_LENGTH = 6
#: Most cards an accident (cards mode) may report at once.
MAX_ACCIDENT = 6


@dataclass(frozen=True)
class CardKind:
    """One kind of card in the catalogue."""

    kind: str
    #: One character per card in the state's grid and stack strings.
    code: str
    name: str
    short: str
    category: str
    value: int
    count: int


#: The 120 cards (rulebook card catalogue; Rocks/duds per F3, events per F5). The Rock
#: and dud counts shown are the defaults; the ``rocks`` option moves duds between them.
CATALOGUE: tuple[CardKind, ...] = (
    CardKind("gold", "G", "Gold coin", "Gold", "coin", 300, 16),
    CardKind("silver", "S", "Silver coin", "Silver", "coin", 200, 36),
    CardKind("copper", "C", "Copper coin", "Copper", "coin", 100, 36),
    CardKind("map", "M", "Treasure Map", "Map", "map", 0, 9),
    CardKind("diamond", "D", "Diamond", "Diamond", "gem", 600, 1),
    CardKind("ruby", "R", "Ruby", "Ruby", "gem", 500, 1),
    CardKind("sapphire", "A", "Sapphire", "Sapphire", "gem", 400, 1),
    CardKind("emerald", "E", "Emerald", "Emerald", "gem", 300, 1),
    CardKind("pearl", "P", "Pearl", "Pearl", "gem", 200, 1),
    CardKind("rock", "K", "Rock", "Rock", "dud", 0, 2),
    CardKind("dud", "U", "Dud", "Dud", "dud", 0, 6),
    CardKind("mutiny", "X", "Mutiny", "Mutiny", "mutiny", 0, 4),
    CardKind("storm", "W", "Storm", "Storm", "event", 0, 1),
    CardKind("parrot", "Y", "Parrot", "Parrot", "event", 0, 1),
    CardKind("kraken", "Q", "Kraken", "Kraken", "event", 0, 1),
    CardKind("shore_leave", "L", "Shore Leave", "ShoreLv", "event", 0, 1),
    CardKind("plank", "N", "Plank", "Plank", "event", 0, 1),
    CardKind("spyglass", "Z", "Spyglass", "Spyglass", "event", 0, 1),
)
KINDS: dict[str, CardKind] = {c.kind: c for c in CATALOGUE}
CODES: dict[str, str] = {c.kind: c.code for c in CATALOGUE}
ORDER: dict[str, int] = {c.kind: i for i, c in enumerate(CATALOGUE)}
KIND_OF: dict[str, str] = {c.code: c.kind for c in CATALOGUE}
#: A grid cell without a card (taken this turn, or the stack ran out).
NO_CARD = "."
#: Gold per chest card: F1 per card, or per pair (a coin card is half its value).
VALUES: dict[str, dict[str, int]] = {
    "per_card": {c.kind: c.value for c in CATALOGUE},
    "per_pair": {c.kind: c.value // 2 if c.category == "coin" else c.value
                 for c in CATALOGUE},
}
#: A face-up card as every view shows it.
CARD_VIEWS: dict[str, dict[str, Any]] = {
    c.kind: {"kind": c.kind, "name": c.name, "category": c.category, "value": c.value}
    for c in CATALOGUE
}
DECK_SIZE = sum(c.count for c in CATALOGUE)
COINS = tuple(c.kind for c in CATALOGUE if c.category == "coin")
GEMS = tuple(c.kind for c in CATALOGUE if c.category == "gem")
EVENTS = tuple(c.kind for c in CATALOGUE if c.category == "event")
#: What each event does, for screens and the log.
EVENT_TEXT = {
    "storm": "a row's face-down cards are reshuffled",
    "parrot": "peek at one card",
    "kraken": "everyone discards their lowest coin",
    "shore_leave": "take another turn",
    "plank": "discard your lowest coin",
    "spyglass": "peek at three cards",
}
#: Cards mode: the first menu lists these kinds directly and these groups as sub-menus.
TOP_KINDS = ("gold", "silver", "copper", "map", "rock", "dud", "mutiny")
GROUPS = {"gem": GEMS, "event": EVENTS}

#: Phases of a match (``step``).
DEAL = "deal"          # chance shuffles and deals (grid) / draws the first player
FLIP = "flip"          # the active player flips (grid: row, then card) or enters a card
TARGET = "target"      # Mutiny with tied Captains: the revealer picks the target
STORM = "storm"        # Storm: the revealer picks a row
SHUFFLE = "shuffle"    # chance reshuffles that row's face-down cards
PEEK = "peek"          # Parrot / Spyglass: the revealer peeks
LOOK = "look"          # grid: the turn's cards stay up until the player ends the turn
OVER = "over"

SPEC = GameSpec(
    GAME_ID, "Card Mutiny", 2, 6,
    (
        Option("mode", "grid",
               "'grid': the companion deals a virtual 7x7 grid; 'cards': real cards on "
               "the table, the active player enters each card turned up",
               choices=("grid", "cards")),
        Option("coin_score", "per_card",
               "F1: 'per_card' - each coin counts its value (a gold pair is 600); "
               "'per_pair' - a matched pair counts its value once",
               choices=("per_card", "per_pair")),
        Option("map_set_value", 1000,
               "F2: gold a set of three Treasure Maps is worth at the end",
               minimum=0, maximum=10000),
        Option("rocks", 2, "F3: how many of the 8 duds are Rocks (they stay in the grid)",
               minimum=0, maximum=DUDS),
        Option("mutiny", "crew",
               "F4: 'crew' - every non-Captain, from the revealer on, takes the best coin "
               "or gem of the Captain's chest; 'revealer' - only the revealer takes one",
               choices=("crew", "revealer")),
        Option("events", True,
               "F5: Storm, Parrot, Kraken, Shore Leave, Plank, Spyglass take effect "
               "(off: an event card is discarded with no effect)"),
        Option("first_seat", 0, "the seat (1-based) who goes first; 0 draws at random",
               minimum=0, maximum=6),
        Option("stacked_deal", "",
               "for tests and teaching: the deal order (grid row by row from A1, then the "
               "stack from the top) as kinds like 'gold*2 silver rock'; fewer than 120 "
               "cards play a short game with only those cards; empty: shuffle all 120"),
    ),
    summary="Flip cards on a 7x7 grid, match coins, chain, dodge Mutinies: the richest "
            "pirate is Captain, the most gold at the end wins.",
)


# -- the catalogue and the deck ----------------------------------------------------------

def deck_counts(options: dict[str, Any]) -> dict[str, int]:
    """How many cards of each kind the full deck has, with the ``rocks`` option (F3)."""
    counts = {c.kind: c.count for c in CATALOGUE}
    counts["rock"] = options["rocks"]
    counts["dud"] = DUDS - options["rocks"]
    return counts


def full_deck(options: dict[str, Any]) -> list[str]:
    """The 120 cards in catalogue order."""
    return [kind for kind, n in deck_counts(options).items() for _ in range(n)]


def parse_deal(text: str, options: dict[str, Any]) -> list[str] | None:
    """The ``stacked_deal`` option as a list of kinds (None when empty), checked
    against the catalogue: a kind may not appear more often than the deck holds it."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        return None
    counts = deck_counts(options)
    cards: list[str] = []
    for token in tokens:
        kind, _, times = token.partition("*")
        if kind not in counts:
            raise OptionError("bad_option", f"stacked_deal: no card kind {kind!r}")
        if times and not (times.isdigit() and int(times) > 0):
            raise OptionError("bad_option", f"stacked_deal: bad count in {token!r}")
        cards += [kind] * (int(times) if times else 1)
    for kind, limit in counts.items():
        if cards.count(kind) > limit:
            raise OptionError("bad_option",
                              f"stacked_deal: more than {limit} {kind} cards")
    return cards


def cell_name(cell: int) -> str:
    """``B4`` for row 2 (B), column 4."""
    return f"{ROW_NAMES[cell // SIZE]}{cell % SIZE + 1}"


def card_view(kind: str) -> dict[str, Any]:
    """A face-up card as every view shows it (a fresh copy)."""
    return dict(CARD_VIEWS[kind])


def _values(state: State) -> dict[str, int]:
    """Gold per chest card under the F1 option."""
    return VALUES[state["options"]["coin_score"]]


def _card_value(state: State, kind: str) -> int:
    return VALUES[state["options"]["coin_score"]][kind]


def _golds(state: State) -> list[int]:
    """Each player's gold: coins and gems in the chest (maps never count here)."""
    values = _values(state)
    return [sum(values[kind] * n for kind, n in chest.items())
            for chest in state["chests"]]


def _captains(state: State, golds: list[int] | None = None) -> list[int]:
    """The richest players (maps not counted); tied players are all Captains."""
    golds = _golds(state) if golds is None else golds
    best = max(golds)
    return [s for s, g in enumerate(golds) if g == best]


def _scores(state: State, golds: list[int] | None = None) -> list[int]:
    """Final gold: chests plus every Treasure Map set (F2)."""
    golds = _golds(state) if golds is None else golds
    per_set = state["options"]["map_set_value"]
    return [g + n * per_set for g, n in zip(golds, state["map_sets"])]


def _add(pile: dict[str, int], kind: str, n: int = 1) -> None:
    """Cards into a pile (a chest, the discard pile): a count per kind, kept in
    catalogue order (coins, maps, gems ...) so a view can copy it as it is."""
    if kind in pile:
        pile[kind] += n
        return
    pile[kind] = n
    ordered = sorted(pile.items(), key=lambda item: ORDER[item[0]])
    pile.clear()
    pile.update(ordered)


def _remove(pile: dict[str, int], kind: str) -> None:
    pile[kind] -= 1
    if not pile[kind]:
        del pile[kind]


def _pile_view(pile: dict[str, int]) -> dict[str, int]:
    return dict(pile)


def _clockwise(state: State, start: int) -> list[int]:
    """Every seat, starting with ``start`` and going clockwise (seat order)."""
    n = state["seats"]
    return [(start + i) % n for i in range(n)]


# -- the grid (grid mode) and the counts (cards mode) ----------------------------------

def _is_grid(state: State) -> bool:
    return state["options"]["mode"] == "grid"


def _kind_at(state: State, cell: int) -> str | None:
    """Grid mode: the kind of the card in ``cell`` (None: no card)."""
    code = state["grid"][cell]
    return None if code == NO_CARD else KIND_OF[code]


def _put(state: State, cell: int, kind: str | None) -> None:
    """Grid mode: place a card (None: take it away) in ``cell``."""
    code = NO_CARD if kind is None else CODES[kind]
    grid = state["grid"]
    state["grid"] = grid[:cell] + code + grid[cell + 1:]


def _face_down_cells(state: State) -> list[int]:
    """Grid mode: cells holding a face-down card."""
    grid = state["grid"]
    cells = [k for k in range(CELLS) if grid[k] != NO_CARD]
    up = state["open"] + state["rocks"]
    return [k for k in cells if k not in up] if up else cells


def _face_down_count(state: State) -> int:
    """Face-down cards in the grid (not the stack)."""
    if _is_grid(state):
        up = len(state["open"]) + len(state["rocks"])
        return CELLS - state["grid"].count(NO_CARD) - up
    return state["grid_down"]


def _stack_size(state: State) -> int:
    return len(state["stack"]) if _is_grid(state) else state["stack"]


def _hidden_counts(state: State) -> dict[str, int]:
    """Face-down cards still in play (grid and stack) per kind."""
    if not _is_grid(state):
        return dict(state["hidden"])
    counts: dict[str, int] = {}
    grid = state["grid"]
    for code in [grid[k] for k in _face_down_cells(state)] + list(state["stack"]):
        kind = KIND_OF[code]
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _collectible(counts: dict[str, int]) -> bool:
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


def _game_done(state: State) -> bool:
    """The stack is empty and every card has been flipped (none face down), or the
    cards still face down can never be taken (only with a short stacked deal)."""
    return _stack_size(state) == 0 and not _collectible(_hidden_counts(state))


def _rows_with(cells: list[int]) -> list[int]:
    return sorted({k // SIZE for k in cells})


def _pick_actions(state: State, kind: str, cells: list[int]) -> list[Action]:
    """Choosing a cell among ``cells`` (``kind`` "flip" or "peek"): every cell when
    few; else the cells of the cursor's row, and moving the cursor to the next row
    above or below that has a candidate (wrapping round)."""
    if len(cells) <= DIRECT_LIST:
        return [{"type": kind, "cell": k} for k in cells]
    row = state["row"]
    acts: list[Action] = [{"type": kind, "cell": k} for k in cells if k // SIZE == row]
    if acts and state["moves"] >= MAX_MOVES:
        return acts
    others = [r for r in _rows_with(cells) if r != row]
    if others:
        below = next((r for r in others if r > row), others[0])
        above = next((r for r in reversed(others) if r < row), others[-1])
        acts.append({"type": "row", "row": below})
        if above != below:
            acts.append({"type": "row", "row": above})
    return acts


def _peek_candidates(state: State) -> list[int]:
    return [k for k in _face_down_cells(state) if k not in state["peeks"]]


def _storm_rows(state: State) -> list[int]:
    """Rows with at least two face-down cards (a reshuffle there changes something)."""
    cells = _face_down_cells(state)
    return [r for r in range(SIZE) if sum(1 for k in cells if k // SIZE == r) >= 2]


def clone(state: State) -> State:
    """A deep copy of plain data (a pickle round trip is much faster than deepcopy)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def _log(state: State, text: str) -> None:
    state["log"].append(text)
    del state["log"][:-LOG_LENGTH]


# -- the game ----------------------------------------------------------------------------

class CardMutiny(Game):
    """The rules of Card Mutiny over plain JSON state (see the module docstring)."""

    spec = SPEC
    action_types = frozenset({
        "deal", "row", "back", "flip", "menu", "reveal", "accident", "target",
        "storm_row", "storm_shuffle", "peek", "end_turn",
    })

    # -- setup and flow -------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Nothing dealt yet: the deal (and the first player) is the first chance
        action."""
        if options["first_seat"] > seats:
            raise OptionError(
                "bad_option", f"option 'first_seat' must be at most {seats} ({seats} seats)")
        deal = parse_deal(options["stacked_deal"], options)
        return {
            "seats": seats,
            "options": dict(options),
            "deal": deal,
            "phase": DEAL,
            "turn": 0,
            "turns": 0,
            # grid mode: 49 card codes row by row (NO_CARD: no card); cards: None.
            "grid": None,
            # grid mode: a string of card codes, top first; cards mode: how many cards.
            "stack": "" if options["mode"] == "grid" else 0,
            # grid mode: cells of Rocks; cards mode: unused.
            "rocks": [],
            # the turn's face-up cards awaiting a match: cells (grid) or kinds (cards).
            "open": [],
            # cards mode counts: face-down per kind (grid + stack), face-down in the
            # grid, grid places waiting for a refill, Rocks face up.
            "hidden": {},
            "grid_down": 0,
            "empty": 0,
            "rocks_up": 0,
            # cells emptied this turn, with what was taken (grid mode): [cell, kind].
            "taken": [],
            # per seat, how many cards of each kind (public: see the docs).
            "chests": [{} for _ in range(seats)],
            "map_sets": [0] * seats,
            "discard": {},
            # grid mode: the cursor's row (public; it stays where it is between turns).
            "row": 0,
            "moves": 0,
            "menu": None,
            "backs": 0,
            "accident": False,
            "extra_turn": False,
            "peeks": [],
            "peeks_left": 0,
            "storm_row": None,
            "log": [],
        }

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """The deal (grid: the shuffled deck; both: the first player) and a Storm's
        reshuffle of one row."""
        if state["phase"] == DEAL:
            first = state["options"]["first_seat"] - 1
            if first < 0:
                first = chance.choice(range(state["seats"]))
            action: Action = {"type": "deal", "first": first}
            if _is_grid(state):
                deck = state["deal"] or chance.shuffle(full_deck(state["options"]))
                action["cards"] = list(deck)
            return action
        if state["phase"] == SHUFFLE:
            n = sum(1 for k in _face_down_cells(state) if k // SIZE == state["storm_row"])
            return {"type": "storm_shuffle", "order": chance.shuffle(range(n))}
        return None

    def acting(self, state: State) -> list[Actor]:
        """Only the active player acts (chance deals and reshuffles)."""
        if state["phase"] in (DEAL, SHUFFLE, OVER):
            return []
        return [state["turn"]]

    def step(self, state: State) -> str:
        return state["phase"]

    # -- legal actions --------------------------------------------------------------
    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now (none unless it is their turn)."""
        if actor not in self.acting(state):
            return []
        phase = state["phase"]
        if phase == FLIP:
            if _is_grid(state):
                return _pick_actions(state, "flip", _face_down_cells(state))
            return _entry_actions(state)
        if phase == PEEK:
            return _pick_actions(state, "peek", _peek_candidates(state))
        if phase == TARGET:
            return [{"type": "target", "seat": s} for s in _captains(state)]
        if phase == STORM:
            return [{"type": "storm_row", "row": r} for r in _storm_rows(state)]
        return [{"type": "end_turn"}]

    # -- moves: chance --------------------------------------------------------------
    @staticmethod
    def _chance_only(actor: Actor) -> None:
        if actor != CHANCE:
            raise ActionRejected("chance_only", "only the companion's chance does that")

    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Grid: the first 49 cards fill the grid row by row, the rest is the stack.
        Cards: the companion only counts the real cards."""
        self._chance_only(actor)
        if _is_grid(state):
            codes = "".join(CODES[kind] for kind in action["cards"])
            state["grid"] = codes[:CELLS].ljust(CELLS, NO_CARD)
            state["stack"] = codes[CELLS:]
        else:
            counts = deck_counts(state["options"])
            if state["deal"] is not None:
                counts = {k: state["deal"].count(k) for k in counts}
            total = sum(counts.values())
            state["hidden"] = {k: n for k, n in counts.items() if n}
            state["grid_down"] = min(CELLS, total)
            state["stack"] = total - state["grid_down"]
            state["empty"] = CELLS - state["grid_down"]
        state["deal"] = None
        state["turn"] = action["first"]
        state["phase"] = FLIP
        _log(state, f"{ctx.names[state['turn']]} goes first")
        if _game_done(state):
            state["phase"] = OVER

    def move_storm_shuffle(self, state: State, actor: Actor, action: Action,
                           ctx: Context) -> None:
        """The Storm's row: its face-down cards change places (nobody sees how)."""
        self._chance_only(actor)
        row = state["storm_row"]
        cells = [k for k in _face_down_cells(state) if k // SIZE == row]
        kinds = [_kind_at(state, k) for k in cells]
        for k, j in zip(cells, action["order"]):
            _put(state, k, kinds[j])
        state["storm_row"] = None
        self._turn_ends(state, ctx)

    # -- moves: choosing a cell (grid mode) ---------------------------------------
    def move_row(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The cursor moves to another row."""
        state["row"] = action["row"]
        state["moves"] += 1

    def move_back(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Cards mode: back out of a sub-menu to the first menu."""
        state["menu"] = None
        state["backs"] += 1

    def move_flip(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Turn a face-down card up: everyone sees it."""
        cell = action["cell"]
        state["row"] = cell // SIZE
        ctx.reveal()
        self._turned_up(state, _kind_at(state, cell), cell, ctx)

    def move_peek(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Parrot / Spyglass: the peeker alone sees the card (everyone sees where)."""
        state["row"] = action["cell"] // SIZE
        state["peeks"].append(action["cell"])
        state["peeks_left"] -= 1
        ctx.reveal()
        if state["peeks_left"] == 0 or not _peek_candidates(state):
            state["phase"] = LOOK

    # -- moves: entering real cards (cards mode) ----------------------------------
    def move_menu(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["menu"] = action["group"]

    def move_reveal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The active player turned up a real card of this kind."""
        kind = action["kind"]
        state["menu"] = None
        state["hidden"][kind] -= 1
        if not state["hidden"][kind]:
            del state["hidden"][kind]
        state["grid_down"] -= 1
        self._turned_up(state, kind, None, ctx)

    def move_accident(self, state: State, actor: Actor, action: Action,
                      ctx: Context) -> None:
        """Several cards were revealed by accident: they are replaced from the stack,
        then shuffled into it (the turn goes on; nothing changes hands)."""
        n = action["cards"]
        state["menu"] = None
        state["accident"] = True
        replaced = min(n, state["stack"])
        state["grid_down"] += replaced - n
        state["empty"] += n - replaced
        state["stack"] += n - replaced
        _log(state, f"{n} cards flipped by accident: replace them from the stack, "
                    "then shuffle them into it")
        if state["grid_down"] == 0:
            self._turn_ends(state, ctx)

    # -- moves: what a card asks for ----------------------------------------------
    def move_target(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Tied Captains: the revealer names the Captain the Mutiny targets."""
        self._mutiny(state, actor, action["seat"], ctx)
        self._turn_ends(state, ctx)

    def move_storm_row(self, state: State, actor: Actor, action: Action,
                       ctx: Context) -> None:
        state["storm_row"] = action["row"]
        state["phase"] = SHUFFLE
        _log(state, f"Storm on row {ROW_NAMES[action['row']]}: its cards reshuffled")

    def move_end_turn(self, state: State, actor: Actor, action: Action,
                      ctx: Context) -> None:
        self._finish_turn(state, ctx)

    # -- a card turned up -----------------------------------------------------------
    def _turned_up(self, state: State, kind: str, cell: int | None, ctx: Context) -> None:
        """Resolve a card turned up by the active player (``cell`` None: cards mode)."""
        category = KINDS[kind].category
        if category == "coin":
            self._coin(state, kind, cell, ctx)
        elif category == "map":
            self._map(state, kind, cell, ctx)
        else:
            self._special(state, kind, cell, ctx)

    def _open_kinds(self, state: State) -> list[str]:
        if _is_grid(state):
            return [_kind_at(state, k) for k in state["open"]]
        return list(state["open"])

    def _coin(self, state: State, kind: str, cell: int | None, ctx: Context) -> None:
        """First coin: try to match it. Same coin: a pair to the chest, and the chain
        goes on. Anything else open: no match, the turn ends."""
        opened = self._open_kinds(state)
        seat = state["turn"]
        if not opened:
            self._open(state, kind, cell)
            self._carry_on(state, ctx)
        elif opened == [kind]:
            self._take_open(state)
            self._take(state, kind, cell)
            _add(state["chests"][seat], kind, 2)
            gained = 2 * _card_value(state, kind)
            _log(state, f"{ctx.names[seat]}: pair of {KINDS[kind].short} +{gained}")
            self._carry_on(state, ctx)
        else:
            self._open(state, kind, cell)
            self._no_match(state, ctx)

    def _map(self, state: State, kind: str, cell: int | None, ctx: Context) -> None:
        """Maps in a row: the third makes a set; a set ends the turn (no chaining)."""
        opened = self._open_kinds(state)
        self._open(state, kind, cell)
        if any(k != "map" for k in opened):
            self._no_match(state, ctx)
            return
        if len(opened) + 1 < MAP_SET:
            self._carry_on(state, ctx)
            return
        seat = state["turn"]
        self._take_open(state)
        state["map_sets"][seat] += 1
        _log(state, f"{ctx.names[seat]}: Treasure Map set! "
                    f"({state['options']['map_set_value']} at the end)")
        self._turn_ends(state, ctx)

    def _special(self, state: State, kind: str, cell: int | None, ctx: Context) -> None:
        """Gems go to the chest; Rocks stay; duds, Mutinies and events are discarded.
        Each ends the turn (after what the card asks for)."""
        card = KINDS[kind]
        seat = state["turn"]
        name = ctx.names[seat]
        if kind == "rock":
            self._keep_rock(state, cell)
            _log(state, f"{name}: a Rock - it stays in the grid")
        elif card.category == "gem":
            self._take(state, kind, cell)
            _add(state["chests"][seat], kind)
            _log(state, f"{name}: {card.name} +{card.value}")
        else:
            self._take(state, kind, cell)
            _add(state["discard"], kind)
            if card.category == "mutiny":
                self._mutiny_revealed(state, ctx)
                return
            if card.category == "event":
                self._event(state, kind, ctx)
                return
            _log(state, f"{name}: a dud")
        self._turn_ends(state, ctx)

    # -- where cards go -------------------------------------------------------------
    def _open(self, state: State, kind: str, cell: int | None) -> None:
        state["open"].append(cell if _is_grid(state) else kind)

    def _take(self, state: State, kind: str, cell: int | None) -> None:
        """A card leaves the grid (its place waits for the refill)."""
        if _is_grid(state):
            _put(state, cell, None)
            state["taken"].append([cell, kind])
        else:
            state["empty"] += 1

    def _take_open(self, state: State) -> None:
        """The open cards (a matched coin, the maps of a set) leave the grid."""
        for item in state["open"]:
            if _is_grid(state):
                self._take(state, _kind_at(state, item), item)
            else:
                self._take(state, item, None)
        state["open"] = []

    def _keep_rock(self, state: State, cell: int | None) -> None:
        if _is_grid(state):
            state["rocks"].append(cell)
        else:
            state["rocks_up"] += 1

    # -- Mutiny (F4) ------------------------------------------------------------------
    def _mutiny_revealed(self, state: State, ctx: Context) -> None:
        """A Captain's own Mutiny is ignored; a single Captain is the target; tied
        Captains: the revealer chooses."""
        seat = state["turn"]
        captains = _captains(state)
        if seat in captains:
            _log(state, f"{ctx.names[seat]}: Mutiny ignored - a Captain revealed it")
            self._turn_ends(state, ctx)
        elif len(captains) == 1:
            self._mutiny(state, seat, captains[0], ctx)
            self._turn_ends(state, ctx)
        else:
            state["phase"] = TARGET
            _log(state, f"{ctx.names[seat]}: Mutiny! Captains are tied: pick one")

    def _mutiny(self, state: State, revealer: int, target: int, ctx: Context) -> None:
        """Each taker (F4), from the revealer on, takes the best card of the chest."""
        captains = _captains(state)
        if state["options"]["mutiny"] == "revealer":
            takers = [revealer]
        else:
            takers = [s for s in _clockwise(state, revealer) if s not in captains]
        chest = state["chests"][target]
        took = []
        for seat in takers:
            if not chest:
                break
            # Equal values: the gem goes first (it is safe from Kraken and Plank).
            best = max(chest, key=lambda k: (_card_value(state, k),
                                             KINDS[k].category == "gem"))
            _remove(chest, best)
            _add(state["chests"][seat], best)
            took.append(f"{ctx.names[seat][:8]} {KINDS[best].short}")
        _log(state, f"Mutiny on {ctx.names[target]}: " + (", ".join(took) or "nothing"))

    # -- events (F5) --------------------------------------------------------------
    def _event(self, state: State, kind: str, ctx: Context) -> None:
        seat = state["turn"]
        name = ctx.names[seat]
        card = KINDS[kind]
        if not state["options"]["events"]:
            _log(state, f"{name}: {card.name} (events off: no effect)")
            self._turn_ends(state, ctx)
            return
        _log(state, f"{name}: {card.name} - {EVENT_TEXT[kind]}")
        if kind == "kraken":
            for s in _clockwise(state, seat):
                self._lose_lowest_coin(state, s)
        elif kind == "plank":
            self._lose_lowest_coin(state, seat)
        elif kind == "shore_leave":
            state["extra_turn"] = True
        elif _is_grid(state) and kind == "storm" and _storm_rows(state):
            state["phase"] = STORM
            return
        elif _is_grid(state) and kind in ("parrot", "spyglass") and _peek_candidates(state):
            state["peeks_left"] = PARROT_PEEKS if kind == "parrot" else SPYGLASS_PEEKS
            state["phase"] = PEEK
            return
        # Cards mode: Storm, Parrot and Spyglass happen with the real cards.
        self._turn_ends(state, ctx)

    def _lose_lowest_coin(self, state: State, seat: int) -> None:
        coins = [k for k in state["chests"][seat] if KINDS[k].category == "coin"]
        if coins:
            lowest = min(coins, key=lambda k: _card_value(state, k))
            _remove(state["chests"][seat], lowest)
            _add(state["discard"], lowest)

    # -- the end of a turn ------------------------------------------------------------
    def _carry_on(self, state: State, ctx: Context) -> None:
        """Flip again (a first coin, a chain, maps in a row), if a card is left."""
        if _face_down_count(state) == 0:
            self._turn_ends(state, ctx)
        else:
            state["phase"] = FLIP

    def _no_match(self, state: State, ctx: Context) -> None:
        shown = "/".join(KINDS[k].short for k in self._open_kinds(state))
        _log(state, f"{ctx.names[state['turn']]}: {shown} - no match")
        self._turn_ends(state, ctx)

    def _turn_ends(self, state: State, ctx: Context) -> None:
        """Grid: cards that will turn back face down (and peeks) stay up until the
        player ends the turn, so the table can see them. Otherwise (and in cards mode)
        the turn ends at once."""
        state["menu"] = None
        if _is_grid(state) and (state["open"] or state["peeks"]):
            state["phase"] = LOOK
        else:
            self._finish_turn(state, ctx)

    def _finish_turn(self, state: State, ctx: Context) -> None:
        """Unmatched cards turn back face down, the grid is refilled from the stack,
        and the next player (or the same, after Shore Leave) takes a turn."""
        self._turn_back_and_refill(state, ctx)
        state.update(moves=0, menu=None, backs=0, accident=False, peeks=[],
                     peeks_left=0, taken=[])
        state["turns"] += 1
        if _game_done(state):
            state["phase"] = OVER
            _log(state, "Game over")
            return
        if state["extra_turn"]:
            state["extra_turn"] = False
            _log(state, f"{ctx.names[state['turn']]} takes another turn (Shore Leave)")
        else:
            state["turn"] = (state["turn"] + 1) % state["seats"]
        state["phase"] = FLIP

    @staticmethod
    def _turn_back_and_refill(state: State, ctx: Context) -> None:
        if _is_grid(state):
            state["open"] = []
            grid, stack = list(state["grid"]), state["stack"]
            for k in range(CELLS):
                if grid[k] == NO_CARD and stack:
                    grid[k], stack = stack[0], stack[1:]
            state["grid"], state["stack"] = "".join(grid), stack
            return
        for kind in state["open"]:
            state["hidden"][kind] = state["hidden"].get(kind, 0) + 1
        state["grid_down"] += len(state["open"])
        state["open"] = []
        n = min(state["empty"], state["stack"])
        if n:
            state["grid_down"] += n
            state["stack"] -= n
            state["empty"] -= n
            _log(state, f"Refill {n} from the stack")

    # -- result -----------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        """Gold (coins and gems) plus the Treasure Map sets; the most wins, ties share."""
        if state["phase"] != OVER:
            return None
        seats = range(state["seats"])
        golds = _golds(state)
        scores = _scores(state, golds)
        best = max(scores)
        winners = [s for s in seats if scores[s] == best]
        details = {"gold": golds,
                   "map_sets": list(state["map_sets"])}
        return Result(winners, scores, "The stack is empty and every card was flipped",
                      details)

    # -- views ------------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """The public table (face-up cards only), plus the viewer's own peeks."""
        out = _public_view(state)
        if isinstance(viewer, int):
            out["me"] = _seat_view(state, viewer)
        return out

    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen: public lines, the choices, the seat's peeks as private."""
        return seat_display(view, seat)

    # -- re-deal (for the contract tests) -----------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Every face-down card (grid and stack) drawn again, except the cards the
        viewer is peeking at right now."""
        twin = clone(state)
        if not _is_grid(state) or state["phase"] in (DEAL, OVER):
            return twin
        keep = set(state["peeks"]) if viewer == state["turn"] else set()
        cells = [k for k in _face_down_cells(state) if k not in keep]
        grid = list(twin["grid"])
        pool = [grid[k] for k in cells] + list(twin["stack"])
        rng.shuffle(pool)
        for k in cells:
            grid[k] = pool.pop()
        twin["grid"], twin["stack"] = "".join(grid), "".join(pool)
        return twin

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound random play stays far below: a memory game has no hard one (two
        players can miss forever), so this is generous."""
        return 60_000

    def describe(self, action: Action, names: list[str]) -> str:
        """A short label of an action for a screen or a log line (never an identity
        of a face-down card, never where a card turned back down lies)."""
        return _describe(action, names)


# -- views and display -------------------------------------------------------------------

def _face_up(kind: str, how: str) -> dict[str, Any]:
    return {**CARD_VIEWS[kind], "state": how}


def _grid_view(state: State) -> list[list[Any]] | None:
    """The 7x7 grid, row by row: each cell "down" (a face-down card), None (no card),
    or a face-up card with its ``state``: "open" (turned up this turn), "rock", "taken"
    (taken this turn, its place waits for the refill) or, once the game is over,
    "left" (a card nobody could take)."""
    if not _is_grid(state) or state["grid"] is None:
        return None
    grid = state["grid"]
    over = state["phase"] == OVER
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
    if _is_grid(state):
        return [{"cell": cell_name(k), "index": k, "card": card_view(_kind_at(state, k))}
                for k in state["open"]]
    return [{"cell": None, "index": None, "card": card_view(k)} for k in state["open"]]


def _public_view(state: State) -> dict[str, Any]:
    options = state["options"]
    dealt = state["phase"] != DEAL
    golds = _golds(state)
    peeking = None
    if state["phase"] in (PEEK, LOOK) and (state["peeks"] or state["peeks_left"]):
        peeking = {"seat": state["turn"], "left": state["peeks_left"],
                   "cells": [cell_name(k) for k in state["peeks"]],
                   "indexes": list(state["peeks"])}
    return {
        "mode": options["mode"],
        "map_set_value": options["map_set_value"],
        "phase": state["phase"],
        "turn": state["turn"] if dealt else None,
        "turns": state["turns"],
        "row": state["row"],
        "menu": state["menu"],
        "grid": _grid_view(state),
        "stack": _stack_size(state),
        "face_down": _face_down_count(state) if dealt else 0,
        "to_refill": (state["grid"].count(NO_CARD) if _is_grid(state)
                      and state["grid"] is not None else state["empty"]),
        "rocks_up": len(state["rocks"]) if _is_grid(state) else state["rocks_up"],
        "open": _open_view(state),
        "chests": [_pile_view(chest) for chest in state["chests"]],
        "gold": golds,
        "map_sets": list(state["map_sets"]),
        "scores": _scores(state, golds),
        "captains": _captains(state, golds),
        "discard": _pile_view(state["discard"]),
        "extra_turn": state["extra_turn"],
        "peeking": peeking,
        "storm_rows": [ROW_NAMES[r] for r in _storm_rows(state)]
        if state["phase"] == STORM else [],
        "moves_left": MAX_MOVES - state["moves"],
        "backs_left": MAX_BACKS - state["backs"],
        "accident_used": state["accident"],
        "log": list(state["log"]),
    }


def _seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees: the cards it is peeking at (until its turn ends)."""
    peeks = []
    if seat == state["turn"] and state["phase"] in (PEEK, LOOK):
        peeks = [{"cell": cell_name(k), "index": k, "card": card_view(_kind_at(state, k))}
                 for k in state["peeks"]]
    return {"seat": seat, "peeks": peeks}


def _entry_actions(state: State) -> list[Action]:
    """Cards mode: what the player may enter - a kind still face down somewhere, a
    sub-menu (gems, events, accident), or a kind of the chosen sub-menu."""
    hidden = state["hidden"]
    menu = state["menu"]
    if menu is None:
        acts: list[Action] = [{"type": "reveal", "kind": k} for k in TOP_KINDS
                              if hidden.get(k)]
        acts += [{"type": "menu", "group": g} for g, kinds in GROUPS.items()
                 if any(hidden.get(k) for k in kinds)]
        if not state["accident"] and state["grid_down"] >= 2:
            acts.append({"type": "menu", "group": "accident"})
        return acts
    if menu == "accident":
        top = min(MAX_ACCIDENT, state["grid_down"])
        acts = [{"type": "accident", "cards": n} for n in range(2, top + 1)]
    else:
        acts = [{"type": "reveal", "kind": k} for k in GROUPS[menu] if hidden.get(k)]
    if state["backs"] < MAX_BACKS:
        acts.append({"type": "back"})
    return acts


def _name(names: list[str], seat: Any, width: int) -> str:
    if type(seat) is not int or not 0 <= seat < len(names):
        return "?"
    return names[seat][:width]


def _describe(action: Action, names: list[str]) -> str:
    kind = action["type"]
    if kind == "deal":
        what = "cards dealt" if "cards" in action else "cards counted"
        return f"{what}; {_name(names, action.get('first'), 20)} goes first"
    if kind in ("flip", "peek"):
        return f"{kind} {cell_name(action['cell'])}"
    if kind in ("row", "storm_row"):
        prefix = "storm on " if kind == "storm_row" else ""
        return f"{prefix}row {ROW_NAMES[action['row']]}"
    if kind == "reveal":
        return f"turned up {KINDS[action['kind']].name}"
    if kind == "menu":
        return f"{action['group']} menu"
    if kind == "accident":
        return f"{action['cards']} cards flipped by accident"
    if kind == "target":
        return f"Mutiny against {_name(names, action['seat'], 20)}"
    if kind == "storm_shuffle":
        return "the row is reshuffled"
    return kind.replace("_", " ")


def _label(action: Action, view: dict[str, Any], names: list[str]) -> str:
    """A choice label of at most 18 characters."""
    kind = action["type"]
    if kind == "row":
        grid = view["grid"] or []
        row = action["row"]
        down = sum(1 for c in grid[row] if c == "down") if grid else 0
        return f"Go to row {ROW_NAMES[row]} ({down})"
    if kind in ("flip", "peek"):
        return f"{kind.capitalize()} {cell_name(action['cell'])}"
    if kind == "reveal":
        card = KINDS[action["kind"]]
        return f"{card.name} {card.value}"[:18] if card.value else card.name[:18]
    if kind == "menu":
        return {"gem": "Gem...", "event": "Event...", "accident": "Accident..."}[
            action["group"]]
    if kind == "accident":
        return f"{action['cards']} cards by accdnt"
    if kind == "target":
        return f"Mutiny on {_name(names, action['seat'], 8)}"
    if kind == "storm_row":
        return f"Storm row {ROW_NAMES[action['row']]}"
    if kind == "end_turn":
        return "End turn"
    return "Back"


MENU_PROMPTS = {"gem": "Which gem?", "event": "Which event?",
                "accident": "How many revealed?"}


def _status(view: dict[str, Any], names: list[str], mine: bool) -> str:
    """What the table is at, in 21 characters."""
    phase = view["phase"]
    who = "You" if mine else _name(names, view["turn"], 8)
    if phase == OVER:
        best = max(view["scores"])
        tops = [s for s, v in enumerate(view["scores"]) if v == best]
        return ("Win: " + ",".join(_name(names, s, 6) for s in tops))[:21]
    if phase == DEAL:
        return "Dealing..."
    if phase == TARGET:
        return f"{who}: pick Mutiny target"[:21]
    if phase == STORM:
        return f"{who}: pick Storm row"[:21]
    if phase == PEEK:
        return f"{who}: peek {view['peeking']['left']} more"[:21]
    if phase == LOOK:
        return "Look, then end turn" if mine else f"{who}: turn ending"[:21]
    if mine and view["menu"] is not None:
        return MENU_PROMPTS[view["menu"]]
    opened = view["open"]
    if opened:
        kinds = [o["card"]["kind"] for o in opened]
        if kinds[0] == "map":
            return f"Maps {len(kinds)}/3: flip again"
        return f"Match the {KINDS[kinds[0]].short}"
    if not mine:
        return f"{who} flips"[:21]
    return "Flip a card" if view["mode"] == "grid" else "Enter card turned up"


def seat_display(view: dict[str, Any], seat: int) -> Display:
    """A seat's OLED/phone model, from that seat's view only."""
    st, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    mine = st["turn"] == seat
    if st["phase"] == OVER:
        title = "Game over"
    elif mine:
        title = "Your turn"
    else:
        title = f"{_name(names, st['turn'], 13)}'s turn"
    me = f"You {st['gold'][seat]}g"
    if st["map_sets"][seat]:
        me += f" {st['map_sets'][seat]}map"
    if seat in st["captains"]:
        me += " Captain" if len(me) <= 13 else " Capt"
    lines = (me[:21], _status(st, names, mine),
             f"Stack {st['stack']} down {st['face_down']}")
    peeks = st["me"]["peeks"]
    private = tuple(f"{p['cell']}: {p['card']['name']}" for p in peeks)
    choices = tuple(Choice(_label(a, st, names), a) for a in legal)
    return Display(title=title[:20], lines=lines, choices=choices, private=private,
                   led="on" if legal else "off")


GAME = CardMutiny()
