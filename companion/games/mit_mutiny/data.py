"""Mutiny (``mit-mutiny``): the constants, the steps, the spec and its options, and the
small questions every module of the package asks of the state (who holds a role, the
dice sums, the public records, the final Infamy).

Rulings: see docs/games/mit-mutiny.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import GameSpec, Option, timer_option
from companion.games import kit
from companion.games.mit_mutiny.cards import KINDS, card_def, effect_of

State = dict[str, Any]

GAME_ID = "mit-mutiny"
#: Exactly four pirates; seats are numbered clockwise, so "clockwise" is seat + 1.
SEATS = 4
COLORS = ("Purple", "Red", "Blue", "Brown")
KIND_NAMES = ("Sugar", "Orange", "Gold", "Plantain")
KIND_CODES = ("S", "O", "G", "P")
#: Prices in cubes of (sugar, orange, gold, plantain), as printed on the player mat.
PRICES = {
    "rum": (1, 1, 0, 0),
    "crew": (0, 1, 2, 1),
    "card": (1, 0, 1, 1),
}
#: Three cubes of any kinds buy one cube from the bank.
TRADE_COST = 3
CUBES_PER_KIND = 25
#: M1: 33 Rum in all, 2 per pirate at the start; 2 red crew dice each, 10 green in the
#: supply; crew dice are d6 and the Quarter Master adds a d8.
RUM_TOTAL = 33
START_RUM = 2
START_RED = 2
GREEN_TOTAL = 10
CREW_DIE = 6
QM_DIE = 8
MAP_SPACES = 12

ISLAND_INFAMY = 1
FIERCE_INFAMY = 3
DRUNK_INFAMY = 2
#: Each pirate tied for Fierceness or Notorious Drunk gets this instead.
TIE_INFAMY = 1

CAPTAIN = "captain"
FIRST_MATE = "first_mate"
QUARTER_MASTER = "quarter_master"
SCOUT = "scout"
ROLE_NAMES = {CAPTAIN: "Captain", FIRST_MATE: "First Mate",
              QUARTER_MASTER: "Quarter Master", SCOUT: "Scout"}
#: The Captain hands these out in this order; the Scout card goes to the last pirate.
ASSIGNED = (FIRST_MATE, QUARTER_MASTER)
#: M6: the order of the mutiny-or-defend decisions (then the Scout may change).
VOTE_ORDER = (SCOUT, QUARTER_MASTER, FIRST_MATE)
MUTINY = "mutiny"
DEFEND = "defend"
#: Public events kept in the state for the table display (the battle keeps all of its).
LOG_SIZE = 6

# -- steps ---------------------------------------------------------------------------
DEAL = "deal"              # chance deals the islands and the mystery deck
SETUP = "setup"            # everyone rolls two dice; the highest is the first Captain
ROLES = "roles"            # 1: the Captain assigns First Mate, then Quarter Master
LOOK = "look"              # 2: the Scout looks at two face-down islands ...
CHOOSE = "choose"          # ... and picks one
ISLAND = "island"          # 2 (physical islands): the Scout enters the island's loot
TAKE = "take"              # 2: the Scout takes one cube from the island
DIVIDE = "divide"          # 3: the Captain gives out the cubes one at a time
RALLY = "rally"            # 4: everyone's crew dice (and the d8) are rolled, hidden
PEEK = "peek"              # 4: the First Mate may peek at one pirate's roll
DECIDE = "decide"          # 5: Scout, Quarter Master, First Mate decide in turn
BALLOT = "ballot"          # 5 (secret ballot): the three decide at once, secretly
FINAL = "final"            # 5: the Scout may change
WINDOW = "window"          # 6: the battle-card window (M4)
CANNON = "cannon"          # 6: a Cannon's die is rolled
RELOAD = "reload"          # 6: Quick Reload - pick the dice to re-roll ...
RELOAD_ROLL = "reload_roll"  # 6: ... which are rolled
MADNESS = "madness"        # 6: Drunken Madness - pick the pirate
STORM = "storm"            # 6: The Perfect Storm - every die is rolled again
TIE = "tie"                # 6: the sides tied - every die is rolled again
ROLLOFF = "rolloff"        # 6: tied top mutineers roll a d6 each for Captain
CUP = "cup"                # 6: cup draws of loot (M7)
BUY = "buy"                # 7: the buyer buys, trades, plays a card, or is done
TREASURE = "treasure"      # 7: Buried Treasure's cubes, one at a time
PRESS = "press"            # 7: Press-gang - pick the pirate
OVER = "over"
#: Steps where dice wait for faces (chance, or entered from the table).
ROLL_STEPS = (SETUP, RALLY, CANNON, RELOAD_ROLL, STORM, TIE, ROLLOFF)
BATTLE_STEPS = frozenset({WINDOW, CANNON, RELOAD, RELOAD_ROLL, MADNESS, STORM, TIE})
BUY_STEPS = frozenset({BUY, TREASURE, PRESS})


# -- spec and options ---------------------------------------------------------------------

SPEC = GameSpec(
    GAME_ID, "MIT Mutiny", SEATS, SEATS,
    (
        Option("dice", "companion",
               "who rolls: 'companion' - the companion rolls every die; 'table' - "
               "each pirate rolls real dice and enters them",
               choices=("companion", "table")),
        Option("islands", "deck",
               "M5: 'deck' - the companion deals the islands of the data file; "
               "'physical' - real island cards: the Scout enters the chosen one's loot",
               choices=("deck", "physical")),
        Option("ballot", "public",
               "M6: 'public' - Scout, Quarter Master, First Mate decide in the open, in "
               "turn; 'secret' - they decide secretly and all are revealed together",
               choices=("public", "secret")),
        Option("cup_draws", "companion",
               "M7: 'companion' - the companion draws the loot cups at random; "
               "'table' - pirates draw from a real cup and enter each cube",
               choices=("companion", "table")),
        Option("card_window", "until_all_pass",
               "M4: 'until_all_pass' - battle cards until all four pass in a row; "
               "'one_round' - one turn each per window",
               choices=("until_all_pass", "one_round")),
        Option("crew_needs_rum", True,
               "M2: hiring a crew die needs more Rum than crew dice"),
        timer_option("buying_seconds", "each pirate's buying (when it runs out that "
                     "pirate is done buying and the next one buys)"),
        Option("stack", "",
               "mystery card ids, comma-separated, put on top of the deck in this order "
               "(teaching and tests); empty: a fully shuffled deck"),
    ),
    summary="Four pirates, one ship: raid twelve islands, share (or grab) the loot, "
            "mutiny against the Captain, and buy Rum, Crew and Mystery cards.",
    # 2: a trade and a Quick Reload are one whole decision each.
    rules=2,
)


# -- questions asked of the state -------------------------------------------------------

def seat_of(state: State, role: str) -> int | None:
    """The seat holding ``role`` this round, or None."""
    roles = state["roles"]
    return roles.index(role) if role in roles else None


def clockwise(first: int, seats: list[int] | None = None) -> list[int]:
    """``seats`` (default: all) in clockwise order starting from ``first``."""
    order = kit.clockwise(SEATS, first, include_start=True)
    return order if seats is None else [s for s in order if s in seats]


def crew(state: State, seat: int) -> int:
    """A pirate's crew dice (red and green)."""
    return state["red"][seat] + state["green"][seat]


def side_sums(state: State) -> dict[str, int]:
    """The battle total of each side: mutineers, and the Captain's side."""
    sums = {MUTINY: 0, DEFEND: 0}
    for seat in range(SEATS):
        sums[state["decisions"][seat]] += sum(face for _, face in state["dice"][seat])
    return sums


def dice_total(dice: list[list[int]]) -> int:
    return sum(face for _, face in dice)


def kind_index(kind: str) -> int:
    return KINDS.index(kind)


def all_dice(state: State) -> list[list[list[int]]]:
    """A copy of every pirate's battle dice, ``[sides, face]`` each."""
    return [[list(die) for die in dice] for dice in state["dice"]]


# -- the public records -----------------------------------------------------------------

def log(state: State, kind: str, **fields: Any) -> None:
    """A public event for the table display (only what everyone may know). Values are
    plain data: the log is copied with the state on every action."""
    kit.log_event(state["log"], kind, round=state["round"], **fields)
    del state["log"][:-LOG_SIZE]


def record(state: State, kind: str, **fields: Any) -> None:
    """A public fact of the battle under way, kept in full (every die, card, re-roll
    and draw) so the whole battle can be shown again."""
    kit.log_event(state["battle"]["events"], kind, **fields)


# -- scoring ------------------------------------------------------------------------

def award(values: list[int], points: int, minimum: int = 1) -> list[int]:
    """The most ``values`` (at least ``minimum``) earns ``points``; pirates tied for
    the most earn TIE_INFAMY each."""
    top = max(values)
    if top < minimum:
        return [0] * len(values)
    leaders = [s for s, v in enumerate(values) if v == top]
    each = points if len(leaders) == 1 else TIE_INFAMY
    return [each if s in leaders else 0 for s in range(len(values))]


def infamy(state: State) -> dict[str, Any]:
    """The final Infamy of every pirate, item by item."""
    islands = [ISLAND_INFAMY * len(won) for won in state["won"]]
    cannons = list(state["cannons"])
    fierce = award(cannons, FIERCE_INFAMY)
    drunk = award(state["rum"], DRUNK_INFAMY)
    cards = []
    for seat, played in enumerate(state["played"]):
        key = "captain_infamy" if seat == state["captain"] else "infamy"
        cards.append(sum(card_def(state, c)[key] for c in played
                         if effect_of(state, c) == "infamy"))
    total = [sum(parts) for parts in zip(islands, fierce, drunk, cards, strict=True)]
    best = max(total)
    return {"islands": islands, "cannons": cannons, "fierceness": fierce,
            "rum": list(state["rum"]), "drunk": drunk, "cards": cards, "total": total,
            "winners": [s for s in range(SEATS) if total[s] == best]}
