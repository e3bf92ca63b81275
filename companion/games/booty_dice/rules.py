"""Booty Dice's rules: setup, the steps of a turn, the moves, the resolution of the
dice, the result, and what each viewer may see.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from collections import Counter
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
from companion.errors import ActionRejected, OptionError
from companion.games import kit
from companion.games.booty_dice import board, howto, show, views
from companion.games.booty_dice.data import (
    COMBO_ORDER,
    COMBO_SIZE,
    CURSE_DOUBLOONS,
    CURSE_LIVES,
    DECIDING,
    DICE,
    DIE_DOUBLOONS,
    FACES,
    HOLD_CHANGES,
    MAX_ROLLS,
    OVER,
    PLUNDER_CAUSES,
    ROLLING,
    SHIPWRECK_BASE,
    SINGLE_ORDER,
    SPEC,
    START_DOUBLOONS,
    START_LIVES,
    TARGETING,
    TOTAL_DOUBLOONS,
    WAR_CHEST,
    WIN_DOUBLOONS,
)

#: Resolved turns kept before the latest one (``state["earlier"]``), so the table's
#: story of the last turns survives the next turn's resolution.
EARLIER_TURNS = 3


# -- who acts in each step, and what they may do -----------------------------------------

def _the_roller(state: State) -> list[Actor]:
    return [state["roller"]]


#: The host's turn timer (option ``turn_seconds``): one per turn, over all its steps; its
#: end only shows (docs/games/booty-dice.md, "Timers").
_TURN_TIMER = Timed("turn_seconds", span="turn", lap=lambda state: state["turn"])


def _who_rolls(state: State) -> list[Actor]:
    """Chance rolls the companion's dice; with table dice the roller enters the faces."""
    return [CHANCE] if state["options"]["dice"] == "companion" else [state["roller"]]


def _roll_dice(state: State, chance: Chance) -> Action:
    """Chance: a face for every die that is not held."""
    count = state["dice"].count(None)
    return {"type": "dice", "faces": [FACES[k - 1] for k in chance.roll(6, count)]}


def _faces(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"face": face} for face in FACES]


def _holds(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"die": index + 1} for index in range(DICE)
            if state["changes"][index] < HOLD_CHANGES]


def _free_dice_to_roll(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [] if all(state["held"]) else [{}]


def _cutlass_targets(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in _targets(state)] if _head(state) == "cutlass" else []


def _steal_targets(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in _targets(state)] if _head(state) == "steal" else []


# -- the game ----------------------------------------------------------------------------

class BootyDice(Game):
    """The rules of Booty Dice over plain JSON state (see the module docstring)."""

    spec = SPEC
    has_secrets = False
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        ROLLING: Step(who=_who_rolls, moves={"enter": _faces}, chance={"dice": _roll_dice},
                      timed=_TURN_TIMER),
        DECIDING: Step(who=_the_roller, moves={"hold": _holds, "roll": _free_dice_to_roll,
                                               "stop": always}, timed=_TURN_TIMER),
        TARGETING: Step(who=_the_roller, moves={"attack": _cutlass_targets,
                                                "steal": _steal_targets}, timed=_TURN_TIMER),
    }

    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Every pirate with 5 Doubloons and 10 Lives; the first roll is due."""
        first = options["first_seat"] - 1
        if first >= seats:
            raise OptionError("bad_option",
                              f"option 'first_seat' must be at most {seats} for {seats} seats")
        finite = options["finite_supplies"]
        state: State = {
            "seats": seats,
            "options": dict(options),
            "lives": [START_LIVES] * seats,
            "shields": [0] * seats,
            "doubloons": [START_DOUBLOONS] * seats,
            # None: an endless supply (finite_supplies off).
            "treasure": TOTAL_DOUBLOONS - START_DOUBLOONS * seats if finite else None,
            "war_chest": WAR_CHEST if finite else None,
            "locker": 0,
            "turn": 0,
            "roller": first,
            "step": ROLLING,
            "dice": [None] * DICE,
            "held": [False] * DICE,
            "changes": [0] * DICE,
            "rolls": 0,
            "queue": [],
            "events": [],
            # The final dice of the latest resolution and their roller, kept after the
            # turn passes so the table can check what was resolved.
            "last_roll": None,
            # The turns resolved before it: {"seat", "dice", "events"}, oldest first.
            "earlier": [],
            "winner": None,
            # Why the winner won: a key of show.WINS ("" while nobody has).
            "reason": "",
        }
        _start_turn(state, first)
        return state

    # -- moves ------------------------------------------------------------------------
    def move_dice(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the faces of the dice that were rolled, in die order."""
        for face in action["faces"]:
            _fill_die(state, face)
        _after_roll(state)

    def move_enter(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The table rolled: the roller enters the face of the next rolled die."""
        _fill_die(state, action["face"])
        if None not in state["dice"]:
            _after_roll(state)

    def move_hold(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Hold a die (keep it out of the next roll), or free it."""
        index = action["die"] - 1
        state["held"][index] = not state["held"][index]
        state["changes"][index] += 1

    def move_roll(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Roll again every die that is not held."""
        state["dice"] = [face if held else None
                         for face, held in zip(state["dice"], state["held"], strict=True)]
        state["rolls"] += 1
        state["step"] = ROLLING

    def move_stop(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Stop rolling and resolve the dice."""
        _begin_resolution(state)

    def move_attack(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A Cutlass strikes the chosen pirate."""
        state["queue"].pop(0)
        _cutlass(state, action["seat"])
        _advance(state)

    def move_steal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A Jolly Roger takes one Doubloon from the chosen pirate."""
        state["queue"].pop(0)
        _steal(state, action["seat"])
        _advance(state)

    def result(self, state: State) -> Result | None:
        """The winner (first to 25 Doubloons, or last alive); scores are Doubloons."""
        if state["winner"] is None:
            return None
        return Result(
            winners=[state["winner"]],
            scores=list(state["doubloons"]),
            reason=show.WINS[state["reason"]],
            details={"lives": list(state["lives"]), "shields": list(state["shields"])},
        )

    def bot_score(self, state: State, seat: int) -> float:
        """A bot's guess at ``seat``'s chance from the table as it stands: its share of
        the pirates' standing, each standing Doubloons toward 25 and Lives left (a
        pirate who is out has none)."""
        def standing(s: int) -> float:
            if state["lives"][s] <= 0:
                return 0.0
            gold = min(state["doubloons"][s], WIN_DOUBLOONS) / WIN_DOUBLOONS
            return 0.2 + 0.6 * gold + 0.2 * state["lives"][s] / START_LIVES
        total = sum(standing(s) for s in range(state["seats"]))
        return standing(seat) / total if total else 0.0

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound on one match's actions.

        A turn holds at most 18 dice entries (3 chance rolls with the companion),
        2 re-rolls and a stop, 2 x 12 hold changes and 12 picks (six Jolly Rogers).
        Any final roll holding a Walk the Plank costs someone a Life (p >= 0.66 even for
        random play), and at most 10 per pirate can go, so 100 turns per pirate is a
        bound no real or random game comes near.
        """
        per_turn = DICE * MAX_ROLLS + MAX_ROLLS + 2 * DICE * HOLD_CHANGES + 2 * DICE
        return 100 * seats * per_turn


# -- a turn ------------------------------------------------------------------------------

def _start_turn(state: State, roller: int) -> None:
    """A fresh turn: all six dice are rolled (or entered) at once."""
    state["roller"] = roller
    state["turn"] += 1
    state["dice"] = [None] * DICE
    state["held"] = [False] * DICE
    state["changes"] = [0] * DICE
    state["rolls"] = 1
    state["queue"] = []
    state["step"] = ROLLING


def _fill_die(state: State, face: str) -> None:
    # Listed entries are checked by the engine; this guards recorded chance outcomes.
    if face not in FACES:
        raise ActionRejected("bad_face", f"a Booty Die has no face {face!r}")
    state["dice"][state["dice"].index(None)] = face


def _after_roll(state: State) -> None:
    """All dice show a face: decide, or resolve after the third roll."""
    state["changes"] = [0] * DICE
    if state["rolls"] >= MAX_ROLLS:
        _begin_resolution(state)
    else:
        state["step"] = DECIDING


def _alive(state: State, seat: int) -> bool:
    return state["lives"][seat] > 0


def _others(state: State) -> list[int]:
    """Every other pirate still alive, clockwise from the roller's left."""
    return [seat for seat in kit.clockwise(state["seats"], state["roller"])
            if _alive(state, seat)]


def _end_turn(state: State) -> None:
    roller = state["roller"]
    if not state["options"]["win_at_once"] and state["doubloons"][roller] >= WIN_DOUBLOONS:
        _win(state, roller, "doubloons")
        return
    _start_turn(state, kit.next_seat(state["seats"], roller,
                                     skip=lambda seat: not _alive(state, seat)))


# -- resolution --------------------------------------------------------------------------

def resolution_queue(dice: list[str], consume: bool, order: str) -> list[dict[str, Any]]:
    """The effects of a final roll, in resolution order (B1, B2).

    A Jolly Roger becomes two ``steal`` effects (one per Doubloon, so the roller can
    split them); a Mutiny carries the Lives each other pirate loses, a Shipwreck the
    Doubloons each gives.
    """
    counts = Counter(dice)
    combos: list[dict[str, Any]] = []
    singles = Counter(counts)
    if all(counts[face] == 1 for face in FACES):
        combos.append({"kind": "curse"})
        if consume:
            singles = Counter()
    else:
        if counts["plank"] >= COMBO_SIZE:
            combos.append({"kind": "mutiny", "n": 1 + counts["plank"] - COMBO_SIZE})
            if consume:
                singles["plank"] = 0
        if counts["x"] >= COMBO_SIZE:
            combos.append({"kind": "shipwreck",
                           "n": SHIPWRECK_BASE + counts["x"] - COMBO_SIZE})
            if consume:
                singles["x"] = 0
    single_effects: list[dict[str, Any]] = []
    for face in SINGLE_ORDER:
        if face == "jolly":
            single_effects += [{"kind": "steal"}] * (DIE_DOUBLOONS * singles[face])
        else:
            single_effects += [{"kind": face}] * singles[face]
    combos.sort(key=lambda effect: COMBO_ORDER.index(effect["kind"]))
    if order == "combos_first":
        return combos + single_effects
    return single_effects + combos


def _begin_resolution(state: State) -> None:
    state["queue"] = resolution_queue(state["dice"], state["options"]["combos_consume"],
                                      state["options"]["order"])
    last = state["last_roll"]
    if last is not None:
        state["earlier"] = (state["earlier"] + [{**last, "events": state["events"]}]
                            )[-EARLIER_TURNS:]
    state["events"] = []
    state["last_roll"] = {"seat": state["roller"], "dice": list(state["dice"])}
    _advance(state)


def _head(state: State) -> str | None:
    """The kind of the effect resolving now (None when the queue is empty)."""
    return state["queue"][0]["kind"] if state["queue"] else None


def _targets(state: State) -> list[int]:
    """Who the effect at the head of the queue may hit: any other living pirate for a
    Cutlass, one who still has a Doubloon for a steal."""
    steal = _head(state) == "steal"
    return [seat for seat in range(state["seats"])
            if seat != state["roller"] and _alive(state, seat)
            and not (steal and state["doubloons"][seat] == 0)]


def _advance(state: State) -> None:
    """Resolve effects until one needs the roller's pick, the game ends or the turn does.

    A pick with a single possible pirate is made here; with none it lapses."""
    while state["queue"] and state["step"] != OVER:
        kind: str = state["queue"][0]["kind"]  # the head's kind (_head), the queue not empty
        if kind in ("cutlass", "steal"):
            targets = _targets(state)
            if len(targets) > 1:
                state["step"] = TARGETING
                return
            state["queue"].pop(0)
            if targets:
                (_cutlass if kind == "cutlass" else _steal)(state, targets[0])
            else:
                _event(state, "lapse", state["roller"], effect=kind)
        else:
            EFFECTS[kind](state, state["queue"].pop(0))
        if not _alive(state, state["roller"]):
            # B8: a roller who loses their last Life is out at once; the rest of their
            # dice do nothing.
            state["queue"] = []
    if state["step"] != OVER:
        _end_turn(state)


def _event(state: State, kind: str, seat: int, **more: Any) -> None:
    kit.log_event(state["events"], kind, seat=seat, **more)


def _take_from(state: State, supply: str, wanted: int) -> int:
    """Take up to ``wanted`` from a supply; an endless one (None) always has enough."""
    if state[supply] is None:
        return wanted
    got = min(wanted, state[supply])
    state[supply] -= got
    return got


def _give_to(state: State, supply: str, amount: int) -> None:
    if state[supply] is not None:
        state[supply] += amount


def _pay(state: State, seat: int, amount: int) -> None:
    """A pirate gives Doubloons to the Buried Treasure: as many as they have (B3)."""
    paid = min(amount, state["doubloons"][seat])
    state["doubloons"][seat] -= paid
    _give_to(state, "treasure", paid)
    _event(state, "pay", seat, n=paid)


def _gain(state: State, amount: int) -> None:
    """The roller gains Doubloons; maybe that wins at once (B6)."""
    roller = state["roller"]
    state["doubloons"][roller] += amount
    if state["options"]["win_at_once"] and state["doubloons"][roller] >= WIN_DOUBLOONS:
        _win(state, roller, "doubloons")


def _lose_lives(state: State, seat: int, amount: int, cause: str) -> None:
    """Lives go to Davey Jones' Locker; at 0 the pirate is out."""
    lost = min(amount, state["lives"][seat])
    state["lives"][seat] -= lost
    state["locker"] += lost
    _event(state, "life", seat, n=lost, cause=cause)
    if not _alive(state, seat):
        _eliminate(state, seat, cause)


def _eliminate(state: State, seat: int, cause: str) -> None:
    """A pirate is out: Captain's Plunder (B5) or back to the Buried Treasure; their
    Shields go back to the War Chest."""
    roller = state["roller"]
    gold, state["doubloons"][seat] = state["doubloons"][seat], 0
    _give_to(state, "war_chest", state["shields"][seat])
    state["shields"][seat] = 0
    plundered = state["options"]["plunder"] and cause in PLUNDER_CAUSES and seat != roller
    _event(state, "out", seat, n=gold, to=roller if plundered else None)
    if plundered:
        _gain(state, gold)
    else:
        _give_to(state, "treasure", gold)
    alive = [s for s in range(state["seats"]) if _alive(state, s)]
    if len(alive) == 1 and state["step"] != OVER:
        _win(state, alive[0], "last_alive")


def _win(state: State, seat: int, reason: str) -> None:
    state["winner"] = seat
    state["reason"] = reason
    state["step"] = OVER
    state["queue"] = []
    _event(state, "win", seat, reason=reason)


def _doubloon(state: State, effect: dict[str, Any]) -> None:
    got = _take_from(state, "treasure", DIE_DOUBLOONS)
    _event(state, "take", state["roller"], n=got)
    _gain(state, got)


def _x(state: State, effect: dict[str, Any]) -> None:
    _pay(state, state["roller"], DIE_DOUBLOONS)


def _steal(state: State, victim: int) -> None:
    state["doubloons"][victim] -= 1
    _event(state, "steal", state["roller"], n=1, source=victim)
    _gain(state, 1)


def _cutlass(state: State, victim: int) -> None:
    """A Shield absorbs the blow (and goes back to the War Chest), else a Life goes."""
    if state["shields"][victim] > 0:
        state["shields"][victim] -= 1
        _give_to(state, "war_chest", 1)
        _event(state, "shield_lost", victim, n=1)
    else:
        _lose_lives(state, victim, 1, "cutlass")


def _plank(state: State, effect: dict[str, Any]) -> None:
    _lose_lives(state, state["roller"], 1, "plank")


def _shield(state: State, effect: dict[str, Any]) -> None:
    got = _take_from(state, "war_chest", 1)
    state["shields"][state["roller"]] += got
    _event(state, "shield", state["roller"], n=got)


def _mutiny(state: State, effect: dict[str, Any]) -> None:
    """Every other pirate loses Lives; Shields do not help."""
    for seat in _others(state):
        if state["step"] == OVER:
            return
        _lose_lives(state, seat, effect["n"], "mutiny")


def _shipwreck(state: State, effect: dict[str, Any]) -> None:
    for seat in _others(state):
        _pay(state, seat, effect["n"])


def _curse(state: State, effect: dict[str, Any]) -> None:
    """B9: Lives first, then Doubloons, so a pirate it kills is plundered whole (B5)."""
    for seat in _others(state):
        if state["step"] == OVER:
            return
        _lose_lives(state, seat, CURSE_LIVES, "curse")
        if _alive(state, seat):
            _pay(state, seat, CURSE_DOUBLOONS)


#: The effects that need no pick, by kind.
EFFECTS = {"doubloon": _doubloon, "x": _x, "plank": _plank, "shield": _shield,
           "mutiny": _mutiny, "shipwreck": _shipwreck, "curse": _curse}


GAME = BootyDice()
