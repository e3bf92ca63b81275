"""Booty Dice: roll for the gold or die trying.

Every piece of information in Booty Dice is public: the dice, the holds, each pirate's
Lives, Shields and Doubloons, and the two supplies. On a turn the roller rolls six dice
up to three times, holding dice between rolls, then the dice resolve in the order of the
dice roll card: Doubloon, X Marks the Spot, Jolly Roger, Cutlass, Walk the Plank, Shield,
then the combos Mutiny (three or more Planks), Shipwreck (three or more X's) and
Blackbeard's Curse (one of each face). The roller picks the target of each Cutlass and
the victim of each Doubloon a Jolly Roger steals. The first pirate to hold 25 Doubloons,
or the last one alive, wins.

Rulings (B1-B9 and the details the rulebook leaves open), each with the option that
switches it: see docs/games/booty-dice.md.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.match import clone
from companion.engine.rules import CHANCE, Action, Actor, Context, Game, Result, State, Step, Viewer, always
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected, OptionError
from companion.games import kit

# -- constants ---------------------------------------------------------------------------

GAME_ID = "booty-dice"
DICE = 6
MAX_ROLLS = 3
START_LIVES = 10
START_DOUBLOONS = 5
TOTAL_DOUBLOONS = 100
WAR_CHEST = 30
WIN_DOUBLOONS = 25
#: Doubloons a single Doubloon / X / Jolly Roger die moves.
DIE_DOUBLOONS = 2
#: Walk the Plank / X Marks the Spot dice that make a Mutiny / a Shipwreck.
COMBO_SIZE = 3
SHIPWRECK_BASE = 3
CURSE_LIVES = 2
CURSE_DOUBLOONS = 5
#: How often one die's hold may change between two rolls. Holding is a real decision
#: (the table sees every hold and the journal keeps it), so this is a rule of ours, not
#: a menu limit: twice lets a roller hold a die and change their mind, and it keeps
#: every turn finite, so a match has a bound on its actions even under random play.
HOLD_CHANGES = 2

#: The six faces, in the order of the dice roll card; a rolled ``k`` (1-6) is FACES[k-1].
FACES = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
FACE_NAMES = {"doubloon": "Doubloon", "x": "X Marks the Spot", "jolly": "Jolly Roger",
              "cutlass": "Cutlass", "plank": "Walk the Plank", "shield": "Shield"}
#: Hand-made forms for a 21-column screen, and one-character codes for the dice line.
FACE_SHORT = {**FACE_NAMES, "x": "X Marks", "plank": "Plank"}
FACE_CODES = {"doubloon": "$", "x": "X", "jolly": "J", "cutlass": "C", "plank": "P",
              "shield": "S"}
#: Effects in the dice roll card's order (B2); a Jolly Roger steals one Doubloon at a time.
SINGLE_ORDER = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
COMBO_ORDER = ("mutiny", "shipwreck", "curse")
#: Causes of death that are the roller's doing, and so earn Captain's Plunder (B5).
PLUNDER_CAUSES = ("cutlass", "mutiny", "curse")

#: The steps of a turn, kept in ``state["step"]``.
ROLLING = "rolling"        # some dice await their faces (chance, or entry at the table)
DECIDING = "deciding"      # the roller holds dice, rolls again or stops
TARGETING = "targeting"    # resolution waits for the roller to pick a pirate
OVER = "over"              # not a step of the table below: nobody acts

#: What a view copies: plain values, then flat lists.
VIEW_SCALARS = ("seats", "treasure", "war_chest", "locker", "turn", "roller", "step",
                "rolls", "winner", "reason")
VIEW_LISTS = ("lives", "shields", "doubloons", "dice", "held")

# -- spec and options --------------------------------------------------------------------

#: Rules version 1: the recorded actions are the same as ever (only the name of the step
#: in the state changed, and states are rebuilt from actions), so old journals replay.
SPEC = GameSpec(
    GAME_ID, "Booty Dice", 2, 6,
    (
        Option("dice", "companion", "who rolls: the companion, or the table (entered)",
               choices=("companion", "table")),
        Option("first_seat", 1, "the seat (1-based) of the pirate who goes first",
               minimum=1, maximum=6),
        Option("combos_consume", True, "combo dice are used up by their combo (B1)"),
        Option("order", "card", "resolution order: the card's, or combos first (B2)",
               choices=("card", "combos_first")),
        Option("finite_supplies", True, "Buried Treasure and War Chest can run dry (B3)"),
        Option("plunder", True, "Captain's Plunder: the roller takes a victim's gold (B5)"),
        Option("win_at_once", True, "25 Doubloons win the moment they are held (B6)"),
    ),
    summary="Roll six pirate dice up to three times; first to 25 Doubloons or last "
            "pirate alive wins.",
)


# -- who acts in each step, and what they may do -----------------------------------------

def _the_roller(state: State) -> list[Actor]:
    return [state["roller"]]


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
    steps = {
        ROLLING: Step(who=_who_rolls, moves={"enter": _faces}, chance={"dice": _roll_dice}),
        DECIDING: Step(who=_the_roller, moves={"hold": _holds, "roll": _free_dice_to_roll,
                                               "stop": always}),
        TARGETING: Step(who=_the_roller, moves={"attack": _cutlass_targets,
                                                "steal": _steal_targets}),
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
            "winner": None,
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
                         for face, held in zip(state["dice"], state["held"])]
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
            reason=state["reason"],
            details={"lives": list(state["lives"]), "shields": list(state["shields"])},
        )

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

    # -- what each viewer may see -----------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything is public: every viewer gets the same allow-listed copy."""
        out: dict[str, Any] = {key: state[key] for key in VIEW_SCALARS}
        for key in VIEW_LISTS:
            out[key] = list(state[key])
        # Events and queued effects are flat dicts of plain values: one level suffices
        # (and a view is built often enough for a deep copy to show in profiles).
        for key in ("queue", "events"):
            out[key] = [dict(item) for item in state[key]]
        last = state["last_roll"]
        out["last_roll"] = {"seat": last["seat"], "dice": list(last["dice"])} if last else None
        out["options"] = dict(state["options"])
        out["alive"] = [lives > 0 for lives in state["lives"]]
        return out

    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Nothing is hidden, so nothing is drawn again: an unchanged copy."""
        return clone(state)

    # -- what a seat and the table show -----------------------------------------------
    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen: see :func:`seat_display`."""
        return seat_display(view, seat)

    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """Whose turn, the standings and the supplies, from the public view."""
        state, names = view["state"], view["names"]
        roller = state["roller"]
        if view.get("result"):
            headline = view["result"]["reason"] or "Game over"
        else:
            headline = f"{names[roller]} is rolling (roll {state['rolls']} of {MAX_ROLLS})"
        lines = [f"{names[s]}: {kit.plural(state['lives'][s], 'Life', 'Lives')}, "
                 f"{kit.plural(state['shields'][s], 'Shield')}"
                 + ("" if state["alive"][s] else " (out)") for s in range(state["seats"])]
        treasure = "endless" if state["treasure"] is None else state["treasure"]
        chest = "endless" if state["war_chest"] is None else state["war_chest"]
        lines.append(f"Buried Treasure {treasure}, War Chest {chest}")
        return {"headline": headline, "turn": [] if view.get("result") else [roller],
                "scores": list(state["doubloons"]), "score_label": "Doubloons",
                "lines": lines}

    def describe(self, action: Action, names: list[str]) -> str:
        """An action in words, for a log line."""
        kind = action["type"]
        if kind == "dice":
            return "rolled " + " ".join(FACE_CODES[f] for f in action["faces"])
        if kind == "enter":
            return f"entered {FACE_NAMES[action['face']]}"
        if kind == "hold":
            return f"hold or free die {action['die']}"
        if kind == "attack":
            return f"attack {kit.seat_name(names, action['seat'])}"
        if kind == "steal":
            return f"steal from {kit.seat_name(names, action['seat'])}"
        return {"roll": "roll again", "stop": "stop and resolve"}.get(kind, kind)


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
        _win(state, roller, f"{WIN_DOUBLOONS} Doubloons")
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
        kind = _head(state)
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
        _win(state, roller, f"{WIN_DOUBLOONS} Doubloons")


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
        _win(state, alive[0], "last pirate alive")


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


# -- what a seat shows -------------------------------------------------------------------

def _out(event: dict[str, Any], names: list[str]) -> str:
    who = kit.seat_name(names, event["seat"])
    if event["to"] is None:
        return f"{who} is out"
    return f"{who} is out: {kit.seat_name(names, event['to'])} takes {event['n']}"


def _lapse(event: dict[str, Any], names: list[str]) -> str:
    what = "Cutlass finds nobody" if event["effect"] == "cutlass" else "steal finds no gold"
    return f"{kit.seat_name(names, event['seat'])}'s {what}"


#: Resolution events in words (``kit.word``): the roller's take, payments, steals ...
EVENT_TEXTS: dict[str, Any] = {
    "take": "{seat} takes {n} Doubloon{s}",
    "pay": "{seat} pays {n} Doubloon{s}",
    "steal": "{seat} steals a Doubloon from {source}",
    "shield_lost": "{seat} loses a Shield",
    "life": lambda e, names: f"{kit.seat_name(names, e['seat'])} loses "
                             + kit.plural(e["n"], "Life", "Lives"),
    "shield": "{seat} takes {n} Shield{s}",
    "out": _out,
    "lapse": _lapse,
    "win": "{seat} wins!",
}


def event_text(event: dict[str, Any], names: list[str]) -> str:
    """One resolution event in words."""
    return kit.word(event, names, EVENT_TEXTS)


def dice_line(view: dict[str, Any]) -> str:
    """The six dice in 18 columns: ``[C]`` is held, ``?`` awaits its face."""
    cells = []
    for face, held in zip(view["dice"], view["held"]):
        code = FACE_CODES[face] if face else "?"
        cells.append(f"[{code}]" if held else f" {code} ")
    return "".join(cells)


def stats(view: dict[str, Any], seat: int) -> str:
    """``L10 S0 $5``: a pirate's Lives, Shields and Doubloons, made for a small screen."""
    if view["lives"][seat] == 0:
        return "out"
    return f"L{view['lives'][seat]} S{view['shields'][seat]} ${view['doubloons'][seat]}"


def choice(action: Action, view: dict[str, Any], names: list[str]) -> Choice:
    """One of the roller's decisions in full words (and a short form where the face or
    the name would not fit a 21-column screen)."""
    kind = action["type"]
    if kind == "enter":
        die, face = view["dice"].index(None) + 1, action["face"]
        return Choice(f"Die {die} shows {FACE_NAMES[face]}", action,
                      short=f"Die {die}: {FACE_SHORT[face]}")
    if kind == "hold":
        die = action["die"]
        verb = "Free" if view["held"][die - 1] else "Hold"
        face = view["dice"][die - 1]
        return Choice(f"{verb} die {die} ({FACE_NAMES[face]})", action,
                      short=f"{verb} {die} {FACE_SHORT[face]}")
    if kind == "roll":
        free = view["held"].count(False)
        return Choice(f"Roll {kit.plural(free, 'die', 'dice')}", action)
    if kind == "stop":
        return Choice("Stop and resolve", action)
    name = kit.seat_name(names, action["seat"])
    if kind == "attack":
        return Choice(f"Attack {name}", action)
    return Choice(f"Steal a Doubloon from {name}", action, short=f"Rob {name}")


def _roller_hint(view: dict[str, Any]) -> str:
    step = view["step"]
    if step == ROLLING:
        return f"Enter die {view['dice'].index(None) + 1}"
    if step == DECIDING:
        return "Hold, roll or stop"
    if _head(view) == "cutlass":
        return "Cutlass: attack whom?"
    return "Jolly Roger: rob whom?"


def _watcher_hint(view: dict[str, Any], names: list[str]) -> str:
    """What a pirate who is not rolling reads: the roller's pick, or the latest event."""
    if view["step"] == TARGETING:
        return "Picking a target"
    events = view["events"]
    return event_text(events[-1], names) if events else ""


def seat_display(view: dict[str, Any], seat: int) -> Display:
    """The seat's screen from its engine view (everything in it is public).

    The roller sees the dice, the roll count and their choices, all at one menu level:
    grouping the holds would cost presses (docs/games/booty-dice.md counts them).
    Another pirate sees whose turn it is, the dice and their own Lives, Shields and
    Doubloons. Holding select shows every pirate's standing."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    standings = tuple(f"{kit.seat_name(names, s)} {stats(state, s)}"
                      for s in range(state["seats"]))
    mine = f"You {stats(state, seat)}"
    if state["step"] == OVER:
        return Display(title="Game over", private=standings, lines=(
            f"Winner: {kit.seat_name(names, state['winner'])}", state["reason"], mine))
    roller = state["roller"]
    if seat == roller:
        title = f"Your roll {state['rolls']} of {MAX_ROLLS}"
        hint = _roller_hint(state)
    else:
        title = f"{kit.seat_name(names, roller)}'s turn"
        hint = _watcher_hint(state, names)
    return Display(title=title, lines=(dice_line(state), mine, hint),
                   choices=tuple(choice(action, state, names) for action in legal),
                   private=standings, led="on" if legal else "off")


GAME = BootyDice()
