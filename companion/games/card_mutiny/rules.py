"""Card Mutiny's rules: setup, the steps, the moves and the result.

The state keeps no sentences: what happened is a list of structured events
(``state["log"]``) that :mod:`companion.games.card_mutiny.show` words for each screen.
Every change of a chest has its event, with its cause. Rulings: see
docs/games/card-mutiny.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import (
    CHANCE,
    Action,
    Actor,
    Chance,
    Context,
    Game,
    Parts,
    Result,
    State,
    Step,
    Timed,
    always,
)
from companion.errors import OptionError
from companion.games import kit
from companion.games.card_mutiny import board, holdings, howto, show, views
from companion.games.card_mutiny.data import (
    CELLS,
    CODES,
    DEAL,
    EVENTS,
    FLIP,
    GEMS,
    KINDS,
    LOG_LENGTH,
    LOOK,
    MAP_SET,
    MAX_ACCIDENT,
    NO_CARD,
    OVER,
    PARROT_PEEKS,
    PEEK,
    SHUFFLE,
    SIZE,
    SPEC,
    SPYGLASS_PEEKS,
    STORM,
    TARGET,
    TOP_KINDS,
    deck_counts,
    full_deck,
    parse_deal,
)
from companion.games.card_mutiny.holdings import is_grid

#: Cards mode: the order in which the kinds a player may enter are listed.
ENTRY_ORDER = TOP_KINDS + GEMS + EVENTS


# -- who acts and what they may do -------------------------------------------------------

def _active(state: State) -> list[Actor]:
    return [state["turn"]]


#: The host's turn timer (option ``turn_seconds``): one per turn, over all its steps; its
#: end only shows (docs/games/card-mutiny.md, "Timers").
_TURN_TIMER = Timed("turn_seconds", span="turn", lap=lambda state: state["turns"])


def _chance(state: State) -> list[Actor]:
    return [CHANCE]


def _flips(state: State, seat: Actor) -> list[dict[str, Any]]:
    """Grid mode: any face-down card of the grid."""
    if not is_grid(state):
        return []
    return [{"cell": k} for k in holdings.face_down_cells(state)]


def _reveals(state: State, seat: Actor) -> list[dict[str, Any]]:
    """Cards mode: any kind that can still be face down (a 17th gold coin cannot)."""
    if is_grid(state):
        return []
    return [{"kind": k} for k in ENTRY_ORDER if state["hidden"].get(k)]


def _accidents(state: State, seat: Actor) -> list[dict[str, Any]]:
    """Cards mode, once a turn: how many cards (2 or more) were revealed by accident."""
    if is_grid(state) or state["accident"] or state["grid_down"] < 2:
        return []
    return [{"cards": n} for n in range(2, min(MAX_ACCIDENT, state["grid_down"]) + 1)]


def _peeks(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"cell": k} for k in holdings.peek_candidates(state)]


def mutiny_targets(state: State) -> list[int]:
    """The Captains a Mutiny the active player reveals may target (never themself)."""
    return [s for s in holdings.captains(state) if s != state["turn"]]


def _targets(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in mutiny_targets(state)]


def _storm_rows(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"row": r} for r in holdings.storm_rows(state)]


def _deal(state: State, chance: Chance) -> Action:
    """The first player (unless the option names one) and, in grid mode, the deck."""
    first = state["options"]["first_seat"] - 1
    if first < 0:
        first = chance.choice(range(state["seats"]))
    action: Action = {"type": "deal", "first": first}
    if is_grid(state):
        action["cards"] = list(state["deal"] or chance.shuffle(full_deck(state["options"])))
    return action


def _reshuffle(state: State, chance: Chance) -> Action:
    """A new order for the face-down cards of the Storm's row."""
    n = sum(1 for k in holdings.face_down_cells(state) if k // SIZE == state["storm_row"])
    return {"type": "storm_shuffle", "order": chance.shuffle(range(n))}


def _log(state: State, kind: str, **fields: Any) -> dict[str, Any]:
    """One public event; the state keeps the last LOG_LENGTH."""
    event = kit.log_event(state["log"], kind, **fields)
    del state["log"][:-LOG_LENGTH]
    return event


def _places(state: State, cells: list[Any]) -> dict[str, Any]:
    """An event's ``cells``: where the cards it names lay in the grid, as the whole
    table saw them turned up (option ``history_names_places``; grid mode only, so
    ``cells`` is read only there)."""
    if not is_grid(state) or not state["options"]["history_names_places"]:
        return {}
    return {"cells": list(cells)}


def _unfinished(kinds: list[str]) -> bool:
    """Whether the cards face up make a try still open (one coin, or maps short of a
    set) rather than a miss: a miss's cards are already named by its ``no_match``."""
    return len(kinds) == 1 or all(kind == "map" for kind in kinds)


# -- the game ----------------------------------------------------------------------------

class CardMutiny(Game):
    """The rules of Card Mutiny over plain JSON state (see the package docstring)."""

    spec = SPEC
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        DEAL: Step(who=_chance, chance={"deal": _deal}),
        FLIP: Step(who=_active, moves={"flip": _flips, "reveal": _reveals,
                                       "accident": _accidents}, timed=_TURN_TIMER),
        TARGET: Step(who=_active, moves={"target": _targets}, timed=_TURN_TIMER),
        STORM: Step(who=_active, moves={"storm_row": _storm_rows}, timed=_TURN_TIMER),
        SHUFFLE: Step(who=_chance, chance={"storm_shuffle": _reshuffle}),
        PEEK: Step(who=_active, moves={"peek": _peeks}, timed=_TURN_TIMER),
        LOOK: Step(who=_active, moves={"end_turn": always}, timed=_TURN_TIMER),
    }

    # -- setup ------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Nothing dealt yet: the deal (and the first player) is the first chance
        action."""
        if options["first_seat"] > seats:
            raise OptionError(
                "bad_option", f"option 'first_seat' must be at most {seats} ({seats} seats)")
        return {
            "seats": seats,
            "options": dict(options),
            "deal": parse_deal(options["stacked_deal"], options),
            "step": DEAL,
            "turn": 0,
            "turns": 0,
            # grid mode: 49 card codes row by row (NO_CARD: no card); cards: None.
            "grid": None,
            # grid mode: a string of card codes, top first; cards mode: how many cards.
            "stack": "" if options["mode"] == "grid" else 0,
            # grid mode: places of the Rocks face up.
            "rocks": [],
            # the turn's face-up cards awaiting a match: places (grid) or kinds (cards).
            "open": [],
            # cards mode counts: face-down per kind (grid + stack), face-down in the
            # grid, grid places waiting for a refill, Rocks face up.
            "hidden": {},
            "grid_down": 0,
            "empty": 0,
            "rocks_up": 0,
            # places emptied this turn, with what was taken (grid mode): [cell, kind].
            "taken": [],
            # per seat, how many cards of each kind (public: see the docs).
            "chests": [{} for _ in range(seats)],
            "map_sets": [0] * seats,
            "discard": {},
            "accident": False,
            "extra_turn": False,
            "peeks": [],
            "peeks_left": 0,
            "storm_row": None,
            "log": [],
        }

    # -- moves: chance ----------------------------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Grid: the first 49 cards fill the grid row by row, the rest is the stack.
        Cards: the companion only counts the real cards."""
        if is_grid(state):
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
        state["step"] = FLIP
        _log(state, "first", seat=state["turn"])
        if holdings.game_done(state):
            state["step"] = OVER

    def move_storm_shuffle(self, state: State, actor: Actor, action: Action,
                           ctx: Context) -> None:
        """The Storm's row: its face-down cards change places (nobody sees how)."""
        row = state["storm_row"]
        cells = [k for k in holdings.face_down_cells(state) if k // SIZE == row]
        kinds = [holdings.kind_at(state, k) for k in cells]
        for k, j in zip(cells, action["order"], strict=True):
            holdings.put(state, k, kinds[j])
        state["storm_row"] = None
        self._turn_ends(state)

    # -- moves: turning cards up ------------------------------------------------------
    def move_flip(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Grid mode: turn a face-down card up; everyone sees it."""
        cell = action["cell"]
        ctx.reveal()
        self._turned_up(state, holdings.card_at(state, cell), cell)

    def move_reveal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Cards mode: the active player turned up a real card of this kind."""
        kind = action["kind"]
        holdings.remove(state["hidden"], kind)
        state["grid_down"] -= 1
        self._turned_up(state, kind, None)

    def move_peek(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Parrot / Spyglass: the peeker alone sees the card (everyone sees where)."""
        state["peeks"].append(action["cell"])
        state["peeks_left"] -= 1
        ctx.reveal()
        if state["peeks_left"] == 0 or not holdings.peek_candidates(state):
            state["step"] = LOOK

    def move_accident(self, state: State, actor: Actor, action: Action,
                      ctx: Context) -> None:
        """Cards mode: several cards were revealed by accident. They are replaced from
        the stack, then shuffled into it; the turn goes on and nothing changes hands."""
        n = action["cards"]
        state["accident"] = True
        replaced = min(n, state["stack"])
        state["grid_down"] += replaced - n
        state["empty"] += n - replaced
        state["stack"] += n - replaced
        _log(state, "accident", seat=state["turn"], n=n)
        if state["grid_down"] == 0:
            self._turn_ends(state)

    # -- moves: what a card asks for --------------------------------------------------
    def move_target(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A choice of Captains: the revealer names the one the Mutiny targets."""
        self._mutiny(state, state["turn"], action["seat"])
        self._turn_ends(state)

    def move_storm_row(self, state: State, actor: Actor, action: Action,
                       ctx: Context) -> None:
        state["storm_row"] = action["row"]
        state["step"] = SHUFFLE
        _log(state, "storm", seat=state["turn"], row=action["row"])

    def move_end_turn(self, state: State, actor: Actor, action: Action,
                      ctx: Context) -> None:
        self._finish_turn(state)

    # -- a card turned up -------------------------------------------------------------
    def _turned_up(self, state: State, kind: str, cell: int | None) -> None:
        """Resolve a card the active player turned up (``cell`` None: cards mode)."""
        category = KINDS[kind].category
        if category == "coin":
            self._coin(state, kind, cell)
        elif category == "map":
            self._map(state, kind, cell)
        else:
            self._special(state, kind, cell)

    def _open_kinds(self, state: State) -> list[str]:
        if is_grid(state):
            return [holdings.card_at(state, k) for k in state["open"]]
        return list(state["open"])

    def _coin(self, state: State, kind: str, cell: int | None) -> None:
        """First coin: try to match it. Same coin: a pair to the chest, and the chain
        goes on. Anything else open: no match, the turn ends."""
        opened = self._open_kinds(state)
        seat = state["turn"]
        if not opened:
            self._open(state, kind, cell)
            self._carry_on(state)
        elif opened == [kind]:
            where = _places(state, [*state["open"], cell])
            self._take_open(state)
            self._take(state, kind, cell)
            holdings.add(state["chests"][seat], kind, 2)
            _log(state, "pair", seat=seat, card=kind,
                 gold=2 * holdings.card_value(state, kind), **where)
            self._carry_on(state)
        else:
            self._open(state, kind, cell)
            self._no_match(state)

    def _map(self, state: State, kind: str, cell: int | None) -> None:
        """Maps in a row: the third makes a set; a set ends the turn (no chaining)."""
        opened = self._open_kinds(state)
        self._open(state, kind, cell)
        if any(k != "map" for k in opened):
            self._no_match(state)
            return
        if len(opened) + 1 < MAP_SET:
            self._carry_on(state)
            return
        seat = state["turn"]
        where = _places(state, state["open"])
        self._take_open(state)
        state["map_sets"][seat] += 1
        _log(state, "map_set", seat=seat, gold=state["options"]["map_set_value"], **where)
        self._turn_ends(state)

    def _special(self, state: State, kind: str, cell: int | None) -> None:
        """Gems go to the chest; Rocks stay; duds, Mutinies and events are discarded.
        Each ends the turn (after what the card asks for)."""
        card = KINDS[kind]
        seat = state["turn"]
        where = _places(state, [cell])
        if kind == "rock":
            self._keep_rock(state, cell)
            _log(state, "rock", seat=seat, **where)
        elif card.category == "gem":
            self._take(state, kind, cell)
            holdings.add(state["chests"][seat], kind)
            _log(state, "gem", seat=seat, card=kind, gold=holdings.card_value(state, kind),
                 **where)
        else:
            self._take(state, kind, cell)
            holdings.add(state["discard"], kind)
            if card.category == "mutiny":
                self._mutiny_revealed(state, where)
                return
            if card.category == "event":
                self._event(state, kind, where)
                return
            _log(state, "dud", seat=seat, **where)
        self._turn_ends(state)

    # -- where cards go ---------------------------------------------------------------
    def _open(self, state: State, kind: str, cell: int | None) -> None:
        state["open"].append(cell if is_grid(state) else kind)

    def _take(self, state: State, kind: str, cell: int | None) -> None:
        """A card leaves the grid (its place waits for the refill)."""
        if is_grid(state):
            assert cell is not None, "in grid mode every card has its place"
            holdings.put(state, cell, None)
            state["taken"].append([cell, kind])
        else:
            state["empty"] += 1

    def _take_open(self, state: State) -> None:
        """The open cards (a matched coin, the maps of a set) leave the grid."""
        for item in state["open"]:
            if is_grid(state):
                self._take(state, holdings.card_at(state, item), item)
            else:
                self._take(state, item, None)
        state["open"] = []

    def _keep_rock(self, state: State, cell: int | None) -> None:
        if is_grid(state):
            state["rocks"].append(cell)
        else:
            state["rocks_up"] += 1

    # -- Mutiny (F4, F6) --------------------------------------------------------------
    def _mutiny_revealed(self, state: State, where: dict[str, Any]) -> None:
        """A Captain's own Mutiny is ignored (F6; with ``tied_pick`` a tied Captain's
        turns on another Captain); one possible target is the target; with several,
        the revealer chooses. ``where``: the card's place, for the history."""
        seat = state["turn"]
        targets = mutiny_targets(state)
        own = seat in holdings.captains(state)
        if not targets or (own and state["options"]["captain_mutiny"] == "ignored"):
            _log(state, "mutiny_ignored", seat=seat, **where)
            self._turn_ends(state)
        elif len(targets) == 1:
            self._mutiny(state, seat, targets[0], where)
            self._turn_ends(state)
        else:
            state["step"] = TARGET
            _log(state, "mutiny_choice", seat=seat, **where)

    def _mutiny(self, state: State, revealer: int, target: int,
                where: dict[str, Any] | None = None) -> None:
        """Each taker (F4), from the revealer on, takes the best card of the chest
        (``where``: the Mutiny card's place, when no ``mutiny_choice`` named it)."""
        captains = holdings.captains(state)
        if state["options"]["mutiny"] == "revealer":
            takers = [revealer]
        else:
            takers = [s for s in kit.clockwise(state["seats"], revealer, include_start=True)
                      if s == revealer or s not in captains]
        event = _log(state, "mutiny", by=revealer, target=target, n=0, **(where or {}))
        chest = state["chests"][target]
        for seat in takers:
            if not chest:
                break
            # Equal values: the gem goes first (it is safe from Kraken and Plank).
            best = max(chest, key=lambda k: (holdings.card_value(state, k),
                                             KINDS[k].category == "gem"))
            holdings.remove(chest, best)
            holdings.add(state["chests"][seat], best)
            event["n"] += 1
            _log(state, "take", seat=seat, target=target, card=best,
                 gold=holdings.card_value(state, best))

    # -- events (F5) ------------------------------------------------------------------
    def _event(self, state: State, kind: str, where: dict[str, Any]) -> None:
        seat = state["turn"]
        if not state["options"]["events"]:
            _log(state, "event_off", seat=seat, card=kind, **where)
            self._turn_ends(state)
            return
        _log(state, "event", seat=seat, card=kind, **where)
        if kind == "kraken":
            for other in kit.clockwise(state["seats"], seat, include_start=True):
                self._lose_lowest_coin(state, other, kind)
        elif kind == "plank":
            self._lose_lowest_coin(state, seat, kind)
        elif kind == "shore_leave":
            state["extra_turn"] = True
        elif is_grid(state) and kind == "storm" and holdings.storm_rows(state):
            state["step"] = STORM
            return
        elif is_grid(state) and kind in ("parrot", "spyglass") and holdings.peek_candidates(state):
            state["peeks_left"] = PARROT_PEEKS if kind == "parrot" else SPYGLASS_PEEKS
            state["step"] = PEEK
            return
        # Cards mode: Storm, Parrot and Spyglass happen with the real cards.
        self._turn_ends(state)

    def _lose_lowest_coin(self, state: State, seat: int, cause: str) -> None:
        coins = [k for k in state["chests"][seat] if KINDS[k].category == "coin"]
        if coins:
            lowest = min(coins, key=lambda k: holdings.card_value(state, k))
            holdings.remove(state["chests"][seat], lowest)
            holdings.add(state["discard"], lowest)
            _log(state, "lose", seat=seat, card=lowest, cause=cause,
                 gold=holdings.card_value(state, lowest))

    # -- the end of a turn ------------------------------------------------------------
    def _carry_on(self, state: State) -> None:
        """Flip again (a first coin, a chain, maps in a row), if a card is left."""
        if holdings.face_down_count(state) == 0:
            self._turn_ends(state)
        else:
            state["step"] = FLIP

    def _no_match(self, state: State) -> None:
        _log(state, "no_match", seat=state["turn"], cards=self._open_kinds(state),
             **_places(state, state["open"]))
        self._turn_ends(state)

    def _turn_ends(self, state: State) -> None:
        """Grid: cards that will turn back face down (and peeks) stay up until the
        player ends the turn, so the table can see them. Otherwise (and in cards mode)
        the turn ends at once."""
        if is_grid(state) and (state["open"] or state["peeks"]):
            state["step"] = LOOK
        else:
            self._finish_turn(state)

    def _finish_turn(self, state: State) -> None:
        """Unmatched cards turn back face down, the grid is refilled from the stack,
        and the next player (or the same, after Shore Leave) takes a turn."""
        # A try left open (a coin, maps) by a card that ended the turn: the history
        # names the cards turning back where they lie, as a miss's no_match does.
        where = _places(state, state["open"])
        kinds = self._open_kinds(state)
        if where and kinds and _unfinished(kinds):
            _log(state, "turned_back", seat=state["turn"], cards=kinds, **where)
        self._turn_back_and_refill(state)
        state.update(accident=False, peeks=[], peeks_left=0, taken=[])
        state["turns"] += 1
        if holdings.game_done(state):
            state["step"] = OVER
            _log(state, "over")
            return
        if state["extra_turn"]:
            state["extra_turn"] = False
            _log(state, "extra_turn", seat=state["turn"])
        else:
            state["turn"] = kit.next_seat(state["seats"], state["turn"])
        state["step"] = FLIP

    @staticmethod
    def _turn_back_and_refill(state: State) -> None:
        if is_grid(state):
            state["open"] = []
            grid, stack = list(state["grid"]), state["stack"]
            for k in range(CELLS):
                if grid[k] == NO_CARD and stack:
                    grid[k], stack = stack[0], stack[1:]
            state["grid"], state["stack"] = "".join(grid), stack
            return
        for kind in state["open"]:
            holdings.add(state["hidden"], kind)
        state["grid_down"] += len(state["open"])
        state["open"] = []
        n = min(state["empty"], state["stack"])
        if n:
            state["grid_down"] += n
            state["stack"] -= n
            state["empty"] -= n
            _log(state, "refill", n=n)

    # -- result -----------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        """Gold (coins and gems) plus the Treasure Map sets; the most wins, ties share."""
        if state["step"] != OVER:
            return None
        gold = holdings.golds(state)
        final = holdings.scores(state, gold)
        best = max(final)
        winners = [s for s, v in enumerate(final) if v == best]
        return Result(winners, final, "The stack is empty and every card was flipped",
                      {"gold": gold, "map_sets": list(state["map_sets"])})

    # -- for bots (docs/bots.md) --------------------------------------------------------
    def bot_score(self, state: State, seat: int) -> float:
        """A bot's guess at ``seat``'s chance: its share of the gold the table holds
        now (each seat counting 200 more, so an empty table is even)."""
        final = [value + 200 for value in holdings.scores(state)]
        return final[seat] / sum(final)

    def bot_remember(self, memory: dict[str, Any], view: dict[str, Any], seat: int) -> None:
        """Grid mode: where each card turned up (or peeked at) lies, as a careful player
        remembers it once it is face down again, also after the history has let it go
        (the history keeps the last events only, and names no places with the option
        ``history_names_places`` off). The events since the last look are read as the
        re-deal reads the history (``views.named_places``: a place emptied forgets its
        card, a Storm its row), then the grid and the peeks as they are now."""
        grid = view["state"]["grid"]
        if grid is None:
            return
        seen: dict[int, str] = memory.setdefault("seen", {})
        log = [dict(event) for event in view["state"]["log"]]
        earlier = memory.get("log", [])
        fresh = next((log[n:] for n in range(len(log), -1, -1)
                      if earlier[len(earlier) - n:] == log[:n]), log) if earlier else log
        views.named_places(fresh, seen)
        for k, place in enumerate(cell for row in grid for cell in row):
            if place is None or (isinstance(place, dict) and place["state"] == "taken"):
                seen.pop(k, None)
            elif isinstance(place, dict):
                seen[k] = place["kind"]
        for peek in view["state"]["me"]["peeks"]:
            seen[peek["index"]] = peek["card"]["kind"]
        memory["log"] = log

    def bot_recall(self, state: State, seat: int, memory: dict[str, Any],
                   rng: Any) -> State:
        """A re-dealt grid drawn again (``views.draw_again``) keeping what the re-deal
        kept (the history's places, the seat's peeks), then every remembered face-down
        card where it was seen (a memory the cards left cannot hold is let go)."""
        seen = memory.get("seen")
        if not seen or not is_grid(state) or state["step"] in (DEAL, OVER):
            return state
        keep = views.known_places(state, seat)
        for k, kind in sorted(seen.items()):
            keep.setdefault(k, CODES[kind])
        return views.draw_again(state, keep, rng)

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound random play stays far below: a memory game has no hard one (two
        players can miss forever), so this is generous."""
        return 60_000


GAME = CardMutiny()
