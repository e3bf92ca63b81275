"""Card Mutiny's constants, card catalogue, spec and options (rulings: see
docs/games/card-mutiny.md)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.engine import GameSpec, Option, timer_option
from companion.errors import OptionError

# -- constants ---------------------------------------------------------------------------

GAME_ID = "card-mutiny"
#: The grid is SIZE x SIZE places; place k is row k // SIZE, column k % SIZE.
SIZE = 7
CELLS = SIZE * SIZE
ROW_NAMES = "ABCDEFG"
MAP_SET = 3
PARROT_PEEKS = 1
SPYGLASS_PEEKS = 3
DUDS = 8
#: How many public events the state keeps (a Kraken at six seats makes eight).
LOG_LENGTH = 16
#: Most cards an accident (cards mode) may report at once.
MAX_ACCIDENT = 6

#: Steps of a match (``state["step"]``).
DEAL = "deal"          # chance shuffles and deals (grid) / draws the first player
FLIP = "flip"          # the active player flips a card (grid) or enters one (cards)
TARGET = "target"      # a Mutiny with a choice of Captains: the revealer picks one
STORM = "storm"        # Storm: the revealer picks a row
SHUFFLE = "shuffle"    # chance reshuffles that row's face-down cards
PEEK = "peek"          # Parrot / Spyglass: the revealer peeks
LOOK = "look"          # grid: the turn's cards stay up until the player ends the turn
OVER = "over"


@dataclass(frozen=True)
class CardKind:
    """One kind of card in the catalogue."""

    kind: str
    #: One character per card in the state's grid and stack strings.
    code: str
    name: str
    category: str
    value: int
    count: int


#: The 120 cards (the rulebook's catalogue; the split of gems, duds and events is
#: the companion's, see the docs). The Rock and dud counts are the defaults; the
#: ``rocks`` option moves duds between them.
CATALOGUE: tuple[CardKind, ...] = (
    CardKind("gold", "G", "Gold coin", "coin", 300, 16),
    CardKind("silver", "S", "Silver coin", "coin", 200, 36),
    CardKind("copper", "C", "Copper coin", "coin", 100, 36),
    CardKind("map", "M", "Treasure Map", "map", 0, 9),
    CardKind("diamond", "D", "Diamond", "gem", 600, 1),
    CardKind("ruby", "R", "Ruby", "gem", 500, 1),
    CardKind("sapphire", "A", "Sapphire", "gem", 400, 1),
    CardKind("emerald", "E", "Emerald", "gem", 300, 1),
    CardKind("pearl", "P", "Pearl", "gem", 200, 1),
    CardKind("rock", "K", "Rock", "dud", 0, 2),
    CardKind("dud", "U", "Dud", "dud", 0, 6),
    CardKind("mutiny", "X", "Mutiny", "mutiny", 0, 4),
    CardKind("storm", "W", "Storm", "event", 0, 1),
    CardKind("parrot", "Y", "Parrot", "event", 0, 1),
    CardKind("kraken", "Q", "Kraken", "event", 0, 1),
    CardKind("shore_leave", "L", "Shore Leave", "event", 0, 1),
    CardKind("plank", "N", "Plank", "event", 0, 1),
    CardKind("spyglass", "Z", "Spyglass", "event", 0, 1),
)
KINDS: dict[str, CardKind] = {c.kind: c for c in CATALOGUE}
CODES: dict[str, str] = {c.kind: c.code for c in CATALOGUE}
ORDER: dict[str, int] = {c.kind: i for i, c in enumerate(CATALOGUE)}
KIND_OF: dict[str, str] = {c.code: c.kind for c in CATALOGUE}
#: A grid place without a card (taken this turn, or the stack ran out).
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
GEMS = tuple(c.kind for c in CATALOGUE if c.category == "gem")
EVENTS = tuple(c.kind for c in CATALOGUE if c.category == "event")
#: Cards mode: the kinds a seat enters from its first menu; gems and events sit one
#: menu down.
TOP_KINDS = ("gold", "silver", "copper", "map", "rock", "dud", "mutiny")

# -- spec and options --------------------------------------------------------------------

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
        timer_option("turn_seconds", "each turn (when it runs out the table says so; "
                     "nothing is flipped for the player)"),
        Option("captain_mutiny", "ignored",
               "F6: 'ignored' - a Mutiny a Captain reveals is ignored, tied or not; "
               "'tied_pick' - a Captain tied with others turns it on one of them",
               choices=("ignored", "tied_pick")),
        Option("history_names_places", True,
               "the history says where each card turned up lay (Silver coin at A1), as "
               "everyone at a real table saw; off: only which cards, a pure memory game"),
        Option("first_seat", 0, "the seat (1-based) who goes first; 0 draws at random",
               minimum=0, maximum=6),
        Option("stacked_deal", "",
               "for tests and teaching: the deal order (grid row by row from A1, then the "
               "stack from the top) as kinds like 'gold*2 silver rock'; fewer than 120 "
               "cards play a short game with only those cards; empty: shuffle all 120"),
    ),
    summary="Flip cards on a 7x7 grid, match coins, chain, dodge Mutinies: the richest "
            "pirate is Captain, the most gold at the end wins.",
    rules=2,
)


# -- the deck ----------------------------------------------------------------------------

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
    """``B4`` for row B (the second), column 4."""
    return f"{ROW_NAMES[cell // SIZE]}{cell % SIZE + 1}"


def card_view(kind: str) -> dict[str, Any]:
    """A face-up card as every view shows it (a fresh copy)."""
    return dict(CARD_VIEWS[kind])
