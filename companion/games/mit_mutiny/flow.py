"""The flow of a round of Mutiny outside the battle: the deal, rolls, roles, islands,
the Scout's cube, the division, the rally, and buying (phase 7). Each helper changes
the state in place and moves it to the next step; forced choices are made here, from
public facts only (see docs/games/mit-mutiny.md, "forced choices")."""
from __future__ import annotations

import re

from companion.engine import Action, Chance, Context
from companion.errors import OptionError
from companion.games.mit_mutiny.cards import KINDS, card_def, dealt, effect_of, load_data
from companion.games.mit_mutiny.data import (
    BUY,
    CAPTAIN,
    CHOOSE,
    CREW_DIE,
    DIVIDE,
    ISLAND,
    LOOK,
    MAP_SPACES,
    OVER,
    PRESS,
    PRICES,
    QM_DIE,
    QUARTER_MASTER,
    RALLY,
    ROLES,
    SCOUT,
    SEATS,
    SETUP,
    START_RED,
    TAKE,
    TRADE_COST,
    TREASURE,
    State,
    clockwise,
    crew,
    infamy,
    log,
    seat_of,
)

_STACK_ID = re.compile(r"^[a-z][a-z_]{0,23}$")


def parse_stack(text: str) -> list[str]:
    """The card ids of the ``stack`` option, in order (checked for form only: whether
    they exist is checked against the data when the deck is dealt)."""
    ids = [part.strip() for part in text.split(",") if part.strip()]
    for card in ids:
        if not _STACK_ID.match(card):
            raise OptionError("bad_option", f"option 'stack': {card!r} is not a card id")
    return ids


# -- the deal and rolls ---------------------------------------------------------------------

def draw_deal(state: State, chance: Chance) -> Action:
    """Chance: read the data file, stack and shuffle the mystery deck, lay out the
    islands (M3, M5)."""
    options = state["options"]
    data = load_data()
    pool = [card["id"] for card in data["cards"] for _ in range(card["count"])]
    top: list[str] = []
    for card in parse_stack(options["stack"]):
        if card not in pool:
            raise OptionError("bad_option", f"option 'stack': no {card!r} card is left"
                              " in the deck (see cards.toml)")
        pool.remove(card)
        top.append(card)
    islands = spaces = None
    if options["islands"] == "deck":
        islands = [dict(i) for i in data["islands"]]
        spaces = chance.shuffle(list(range(len(islands)))
                                + [None] * (MAP_SPACES - len(islands)))
    cards = [dict(card) for card in data["cards"]]
    return {"type": "deal", "islands": islands, "spaces": spaces, "cards": cards,
            "deck": top + chance.shuffle(pool)}


def draw_roll(state: State, chance: Chance) -> Action:
    """Chance: every die waiting for a face (``dice`` "companion")."""
    need = state["roll"]["need"]
    return {"type": "roll",
            "faces": [[chance.roll(sides)[0] for sides in need[s]] for s in range(SEATS)]}


def start_roll(state: State, step: str, need: list[list[int]]) -> None:
    """Dice wait for faces: a chance roll next, or the owners enter them."""
    state["step"] = step
    state["roll"] = {"need": need, "got": [[] for _ in range(SEATS)]}


def after_setup_roll(state: State, need: list[list[int]], faces: list[list[int]]) -> None:
    """M8: the highest roll is the first Captain; a tie for highest rolls again."""
    rolled = [s for s in range(SEATS) if need[s]]
    state["setup_rolls"].append([list(faces[s]) if need[s] else None
                                 for s in range(SEATS)])
    best = max(sum(faces[s]) for s in rolled)
    top = [s for s in rolled if sum(faces[s]) == best]
    if len(top) > 1:
        start_roll(state, SETUP, [[CREW_DIE] * START_RED if s in top else []
                                  for s in range(SEATS)])
        return
    state["captain"] = top[0]
    log(state, "captain", seat=top[0])
    start_round(state)


# -- rounds, islands, loot --------------------------------------------------------------------

def start_round(state: State) -> None:
    """A new round: the Captain keeps his card, every other role is handed out again."""
    state["round"] += 1
    captain = state["captain"]
    state["roles"] = [CAPTAIN if s == captain else None for s in range(SEATS)]
    # The last battle (dice, decisions, sums, cup) stays on the table until the
    # next round replaces it, as the real dice stay on the mats.
    state.update({
        "looked": [], "island": None, "on_island": [0] * len(KINDS), "scout_took": None,
        "entry": [], "roll": None, "peek": None, "peeked": False, "vote_turn": 0,
        "vote": None, "window": None, "effect": None, "buy_order": [],
        "buyer": None, "treasure_left": 0, "step": ROLES,
    })


def start_island(state: State, ctx: Context) -> None:
    """Phase 2: the Scout looks at two face-down islands (or enters the real one)."""
    if state["options"]["islands"] == "physical":
        state["step"] = ISLAND
        return
    down = [i for i, island in enumerate(state["spaces"]) if island is not None]
    if len(down) == 1:  # the last island: nothing to choose
        reveal_island(state, down[0])
        return
    state["step"] = LOOK
    if len(down) == 2:  # only two left: the Scout sees both
        for space in down:
            look(state, space)
        ctx.reveal()
        state["step"] = CHOOSE


def look(state: State, space: int) -> None:
    state["looked"].append(space)
    seen = state["seen"][seat_of(state, SCOUT)]
    if space not in seen:
        seen.append(space)
        seen.sort()


def reveal_island(state: State, space: int) -> None:
    """The chosen island goes face up; its loot comes from the bank."""
    island = dealt(state)["islands"][state["spaces"][space]]
    state["spaces"][space] = None
    for seen in state["seen"]:
        if space in seen:
            seen.remove(space)
    state["island"] = {"name": island["name"], "loot": list(island["loot"]),
                       "space": space}
    place_loot(state, island["loot"])


def place_loot(state: State, printed: list[int]) -> None:
    """Put the island's cubes on it, as far as the bank has them; the Scout takes one."""
    placed = [min(n, state["bank"][k]) for k, n in enumerate(printed)]
    for k, n in enumerate(placed):
        state["bank"][k] -= n
    state["on_island"] = placed
    log(state, "island", name=state["island"]["name"], loot=list(placed))
    kinds = [k for k, n in enumerate(placed) if n > 0]
    if len(kinds) > 1:
        state["step"] = TAKE
    elif kinds:  # one kind only: the Scout's pick is forced
        scout_takes(state, kinds[0])
    else:
        start_rally(state)


def scout_takes(state: State, k: int) -> None:
    scout = seat_of(state, SCOUT)
    state["on_island"][k] -= 1
    state["loot"][scout][k] += 1
    state["scout_took"] = KINDS[k]
    log(state, "take", seat=scout, cube=KINDS[k])
    if sum(state["on_island"]) == 0:
        start_rally(state)
    else:
        state["step"] = DIVIDE


def next_cube(state: State) -> int:
    """The kind of the next cube the Captain gives out (sugar first, plantain last)."""
    return next(k for k, n in enumerate(state["on_island"]) if n > 0)


def divided(state: State) -> None:
    log(state, "divided", shares=[list(share) for share in state["shares"]])
    start_rally(state)


def start_rally(state: State) -> None:
    """Phase 4: every pirate's crew dice, and the Quarter Master's d8, are rolled."""
    state["dice"] = [[] for _ in range(SEATS)]
    state["revealed"] = False
    need = [[CREW_DIE] * crew(state, s) + ([QM_DIE] if state["roles"][s] == QUARTER_MASTER
                                           else [])
            for s in range(SEATS)]
    start_roll(state, RALLY, need)


def add(into: list[int], more: list[int]) -> None:
    for k, n in enumerate(more):
        into[k] += n


def conquer(state: State, seat: int) -> None:
    state["won"][seat].append(state["island"]["name"])
    state["islands_done"] += 1


def no_battle(state: State) -> None:
    """All defend: no battle, no reveal; each takes his share; the Captain the island."""
    state["battle"] = {"fought": False, "round": state["round"]}
    shares = state["shares"]
    for seat in range(SEATS):
        add(state["loot"][seat], shares[seat])
    conquer(state, state["captain"])
    log(state, "no_battle", seat=state["captain"], shares=[list(s) for s in shares])
    state["shares"] = [[0] * len(KINDS) for _ in range(SEATS)]
    start_buying(state)


# -- buying (phase 7) ---------------------------------------------------------------------------

def start_buying(state: State) -> None:
    """Phase 7: from the Captain (the new one after a mutiny), clockwise."""
    state["buy_order"] = clockwise(state["captain"])
    state["step"] = BUY
    next_buyer(state, 0)


def next_buyer(state: State, position: int) -> None:
    """The next pirate in the buying order who can do anything at all; after the last,
    the next round (or the end). A pirate who can afford nothing, holds fewer than
    three cubes and no card is passed over: all of that is public."""
    order = state["buy_order"]
    for seat in order[position:]:
        if state["hands"][seat] or sum(state["loot"][seat]) >= TRADE_COST or any(
                can_buy(state, seat, item) for item in PRICES):
            state["buyer"] = seat
            return
    state["buyer"] = None
    if state["islands_done"] >= state["islands_total"]:
        finish(state)
    else:
        start_round(state)


def can_pay(state: State, seat: int, price: tuple[int, ...]) -> bool:
    return all(have >= cost for have, cost in zip(state["loot"][seat], price, strict=True))


def can_buy(state: State, seat: int, item: str) -> bool:
    """The price, and the supply: 33 Rum, 10 green crew (M2: more Rum than crew
    dice, checked before the hire), the mystery deck."""
    if not can_pay(state, seat, PRICES[item]):
        return False
    if item == "rum":
        return state["rum_supply"] > 0
    if item == "crew":
        rum_ok = (not state["options"]["crew_needs_rum"]
                  or state["rum"][seat] > crew(state, seat))
        return state["green_supply"] > 0 and rum_ok
    return bool(state["deck"])


def pay_price(state: State, seat: int, price: tuple[int, ...] | list[int]) -> None:
    for k, cost in enumerate(price):
        state["loot"][seat][k] -= cost
        state["bank"][k] += cost


def buy_usable(state: State, seat: int, card: str) -> bool:
    """Whether a card that is not a battle card can do anything now."""
    effect = effect_of(state, card)
    if effect == "stowaway":
        return state["green_supply"] > 0
    if effect == "pressgang":
        return bool(press_targets(state, seat))
    if effect == "treasure":
        return sum(state["bank"]) > 0
    return True  # infamy: laid face up


def press_targets(state: State, seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat and crew(state, s) >= 2]


def play_buying_card(state: State, seat: int, card: str) -> None:
    definition = card_def(state, card)
    effect = definition["effect"]
    if effect == "stowaway":
        count = min(definition["crew"], state["green_supply"])
        state["green_supply"] -= count
        state["green"][seat] += count
        log(state, "stowaway", seat=seat, n=count)
    elif effect == "pressgang":
        state["effect"] = {"seat": seat, "card": card}
        state["step"] = PRESS
        target = only(press_targets(state, seat))
        if target is not None:  # a single pirate with two crew dice or more
            press_gang(state, seat, target)
    elif effect == "treasure":
        state["effect"] = {"seat": seat, "card": card}
        state["treasure_left"] = definition["loot"]
        state["step"] = TREASURE
        settle_treasure(state)


def press_gang(state: State, seat: int, target: int) -> None:
    """Take crew dice (green first) from the target, who keeps at least one."""
    count = min(card_def(state, state["effect"]["card"])["crew"], crew(state, target) - 1)
    for _ in range(count):
        colour = "green" if state["green"][target] > 0 else "red"
        state[colour][target] -= 1
        state[colour][seat] += 1
    log(state, "press", seat=seat, target=target, n=count)
    state["effect"] = None
    state["step"] = BUY


def trade(state: State, seat: int, pay: list[str], get: str) -> None:
    """Three cubes to the bank, then the one cube they buy from it."""
    for kind in pay:
        state["loot"][seat][KINDS.index(kind)] -= 1
        state["bank"][KINDS.index(kind)] += 1
    state["bank"][KINDS.index(get)] -= 1
    state["loot"][seat][KINDS.index(get)] += 1
    log(state, "trade", seat=seat, pay=list(pay), cube=get)


def treasure_cube(state: State, seat: int, k: int) -> None:
    state["bank"][k] -= 1
    state["loot"][seat][k] += 1
    state["treasure_left"] -= 1
    log(state, "treasure", seat=seat, cube=KINDS[k])
    if state["treasure_left"] == 0 or sum(state["bank"]) == 0:
        state["treasure_left"] = 0
        state["effect"] = None
        state["step"] = BUY
    else:
        settle_treasure(state)


def settle_treasure(state: State) -> None:
    """A single kind left in the bank: Buried Treasure's next cube is forced."""
    kind = only([k for k in range(len(KINDS)) if state["bank"][k]])
    if kind is not None:
        treasure_cube(state, state["buyer"], kind)


def only(options: list[int]) -> int | None:
    return options[0] if len(options) == 1 else None


def finish(state: State) -> None:
    state["final"] = infamy(state)
    state["step"] = OVER
    state["buyer"] = None
    log(state, "end", winners=list(state["final"]["winners"]))
