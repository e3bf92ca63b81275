"""Booty Dice: roll for the gold or die trying (rulebook ``002_3b482a2b0c670524.txt``).

Every piece of information in Booty Dice is public: the dice, the holds, each pirate's
Lives, Shields and Doubloons, and the two supplies. The companion keeps the books and
the turn: the roller rolls up to three times (holding dice between rolls), then the
companion resolves the dice in the dice-roll-card order, asking the roller only for the
target of each Cutlass and each Doubloon of a Jolly Roger's steal.

Rulings (``RULINGS.md``, B1-B7) and the options that switch them:

- B1 ``combos_consume``: the dice that make a Mutiny, a Shipwreck or Blackbeard's Curse
  are used up by it (off: they also count as single dice).
- B2 ``order``: ``"card"`` resolves Doubloon, X, Jolly Roger, Cutlass, Walk the Plank,
  Shield, Mutiny, Shipwreck, Curse; ``"combos_first"`` resolves the combos first.
- B3 ``finite_supplies``: the Buried Treasure (100 minus 5 per pirate) and the War Chest
  (30 Shields) run dry (off: they never do).
- B4 the roller picks every Cutlass target and every stolen Doubloon (no option: this
  is the rulebook's own wording).
- B5 ``plunder``: a pirate the roller's Cutlass, Mutiny or Curse eliminates hands all
  their Doubloons to the roller (off: they go back to the Buried Treasure).
- B6 ``win_at_once``: the roller wins the moment they hold 25 Doubloons (off: only if
  they still hold 25 when their dice are all resolved). The last pirate alive always
  wins at once.
- B7 ``dice``: ``"companion"`` rolls the dice; ``"table"`` has the roller enter the
  faces of the real dice one die at a time.

Details the rulebook leaves open, decided here: ``first_seat`` (1-based) goes first; a
roller who dies walking the plank resolves nothing more; an eliminated pirate's Shields
go back to the War Chest; the Curse takes Lives before Doubloons (its card's order); a
choice with a single possible target is made by the companion; the hold of one die may
be changed at most twice between two rolls (so a turn always ends).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.rules import (CHANCE, Action, Actor, Context, Game, Result, State,
                                    Viewer)
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected, OptionError

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
#: How often one die's hold may change between two rolls: enough to hold a die and
#: change one's mind, and a bound that makes every turn finite (random play included).
HOLD_CHANGES = 2

#: The six faces, in the order of the dice roll card; a rolled ``k`` (1-6) is FACES[k-1].
FACES = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
FACE_NAMES = {"doubloon": "Doubloon", "x": "X Marks the Spot", "jolly": "Jolly Roger",
              "cutlass": "Cutlass", "plank": "Walk the Plank", "shield": "Shield"}
#: Names that fit an OLED choice label, and one-character codes for a dice line.
FACE_LABELS = {"doubloon": "Doubloon", "x": "X Marks", "jolly": "Jolly Rgr",
               "cutlass": "Cutlass", "plank": "Plank", "shield": "Shield"}
FACE_CODES = {"doubloon": "$", "x": "X", "jolly": "J", "cutlass": "C", "plank": "P",
              "shield": "S"}
#: Effects in the seed's DICE ROLLS order (B2); steals are one per stolen Doubloon.
SINGLE_ORDER = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
COMBO_ORDER = ("mutiny", "shipwreck", "curse")
#: Causes of death that are the roller's doing, and so earn Captain's Plunder (B5).
PLUNDER_CAUSES = ("cutlass", "mutiny", "curse")

#: What a view copies: plain values, then flat lists.
VIEW_SCALARS = ("seats", "treasure", "war_chest", "locker", "turn", "roller", "phase",
                "rolls", "winner", "reason")
VIEW_LISTS = ("lives", "shields", "doubloons", "dice", "held")

#: Steps of a turn.
ROLLING = "rolling"        # some dice await their faces (chance, or entry at the table)
DECIDING = "deciding"      # the roller holds dice, rolls again or stops
TARGETING = "targeting"    # resolution waits for the roller to pick a pirate
OVER = "over"

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


# -- the game ----------------------------------------------------------------------------

class BootyDice(Game):
    """The rules of Booty Dice over plain JSON state (see the module docstring)."""

    spec = SPEC
    action_types = frozenset({"dice", "enter", "hold", "roll", "stop", "attack", "steal"})
    has_secrets = False

    # -- setup and flow -------------------------------------------------------------
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
            "phase": ROLLING,
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

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """Roll the dice that are not held, when the companion does the rolling."""
        if state["phase"] != ROLLING or state["options"]["dice"] != "companion":
            return None
        count = state["dice"].count(None)
        return {"type": "dice", "faces": [FACES[k - 1] for k in chance.roll(6, count)]}

    def acting(self, state: State) -> list[Actor]:
        """Only the roller ever acts (chance rolls the companion's dice)."""
        if state["phase"] == OVER:
            return []
        if state["phase"] == ROLLING and state["options"]["dice"] == "companion":
            return []
        return [state["roller"]]

    def step(self, state: State) -> str:
        return state["phase"]

    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """The roller's choices: a face to enter, holds/roll/stop, or a target."""
        if actor not in self.acting(state):
            return []
        phase = state["phase"]
        if phase == ROLLING:
            return [{"type": "enter", "face": face} for face in FACES]
        if phase == DECIDING:
            return _deciding_actions(state)
        kind = "attack" if state["queue"][0]["kind"] == "cutlass" else "steal"
        return [{"type": kind, "seat": seat} for seat in _targets(state)]

    # -- moves ------------------------------------------------------------------------
    def move_dice(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the faces of the dice that were rolled, in die order."""
        if actor != CHANCE:
            raise ActionRejected("not_chance", "only the companion's dice roll themselves")
        for face in action["faces"]:
            _fill_die(state, face)
        _after_roll(state)

    def move_enter(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The table rolled: the roller enters the face of the next rolled die."""
        _fill_die(state, action["face"])
        if None not in state["dice"]:
            _after_roll(state)

    def move_hold(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Hold a die (keep it out of the next roll), or release it."""
        index = action["die"] - 1
        state["held"][index] = not state["held"][index]
        state["changes"][index] += 1

    def move_roll(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Roll again every die that is not held."""
        state["dice"] = [face if held else None
                         for face, held in zip(state["dice"], state["held"])]
        state["rolls"] += 1
        state["phase"] = ROLLING

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

    # -- the end ----------------------------------------------------------------------
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

    # -- views --------------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything is public: every viewer gets the same allow-listed copy."""
        out: dict[str, Any] = {key: state[key] for key in VIEW_SCALARS}
        for key in VIEW_LISTS:
            out[key] = list(state[key])
        # Events and queued effects are flat dicts of plain values: one level suffices
        # (and a view is built often enough for deepcopy to show in profiles).
        for key in ("queue", "events"):
            out[key] = [dict(item) for item in state[key]]
        last = state["last_roll"]
        out["last_roll"] = {"seat": last["seat"], "dice": list(last["dice"])} if last else None
        out["options"] = dict(state["options"])
        out["alive"] = [lives > 0 for lives in state["lives"]]
        return out

    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen: see :func:`seat_display`."""
        return seat_display(view, seat)

    # -- the table display ---------------------------------------------------------
    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """Whose turn, the standings and the supplies, from the public view."""
        state, names = view["state"], view["names"]
        roller = state["roller"]
        if view.get("result"):
            headline = view["result"]["reason"] or "Game over"
        else:
            headline = f"{names[roller]} is rolling (roll {state['rolls']} of {MAX_ROLLS})"
        lines = [f"{names[s]}: {state['lives'][s]} lives, {state['shields'][s]} shields"
                 + ("" if state["alive"][s] else " (out)") for s in range(state["seats"])]
        treasure = "endless" if state["treasure"] is None else state["treasure"]
        chest = "endless" if state["war_chest"] is None else state["war_chest"]
        lines.append(f"Buried Treasure {treasure}, War Chest {chest}")
        return {"headline": headline, "turn": [] if view.get("result") else [roller],
                "scores": list(state["doubloons"]), "score_label": "Doubloons",
                "lines": lines}

    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Nothing is hidden, so there is nothing to draw again: an unchanged copy
        (through JSON, which is exact for this plain state and faster than deepcopy)."""
        return json.loads(json.dumps(state))

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

    def describe(self, action: Action, names: list[str]) -> str:
        """A short label of an action for a log line."""
        kind = action["type"]
        if kind == "dice":
            return "rolled " + " ".join(FACE_CODES[f] for f in action["faces"])
        if kind == "enter":
            return f"entered {FACE_NAMES[action['face']]}"
        if kind == "hold":
            return f"hold/release die {action['die']}"
        if kind in ("attack", "steal"):
            word = "attack" if kind == "attack" else "steal from"
            return f"{word} {names[action['seat']]}"
        return {"roll": "roll again", "stop": "stop and resolve"}.get(kind, kind)


# -- turn helpers ----------------------------------------------------------------------

def _start_turn(state: State, roller: int) -> None:
    """A fresh turn: all six dice are rolled (or entered) at once."""
    state["roller"] = roller
    state["turn"] += 1
    state["dice"] = [None] * DICE
    state["held"] = [False] * DICE
    state["changes"] = [0] * DICE
    state["rolls"] = 1
    state["queue"] = []
    state["phase"] = ROLLING


def _fill_die(state: State, face: str) -> None:
    if face not in FACES:
        raise ActionRejected("bad_face", f"a Booty Die has no face {face!r}")
    state["dice"][state["dice"].index(None)] = face


def _after_roll(state: State) -> None:
    """All dice show a face: decide, or resolve after the third roll."""
    state["changes"] = [0] * DICE
    if state["rolls"] >= MAX_ROLLS:
        _begin_resolution(state)
    else:
        state["phase"] = DECIDING


def _deciding_actions(state: State) -> list[Action]:
    actions: list[Action] = [
        {"type": "hold", "die": index + 1} for index in range(DICE)
        if state["changes"][index] < HOLD_CHANGES]
    if not all(state["held"]):
        actions.append({"type": "roll"})
    actions.append({"type": "stop"})
    return actions


def _next_alive(state: State, seat: int) -> int:
    """The next pirate clockwise (seat order) who still has Lives."""
    seats = state["seats"]
    for step in range(1, seats + 1):
        other = (seat + step) % seats
        if state["lives"][other] > 0:
            return other
    return seat


def _end_turn(state: State) -> None:
    roller = state["roller"]
    if not state["options"]["win_at_once"] and state["doubloons"][roller] >= WIN_DOUBLOONS:
        _win(state, roller, f"{WIN_DOUBLOONS} Doubloons")
        return
    _start_turn(state, _next_alive(state, roller))


# -- resolution ------------------------------------------------------------------------

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


def _targets(state: State) -> list[int]:
    """Who the effect at the head of the queue may hit (cutlass or steal)."""
    roller, kind = state["roller"], state["queue"][0]["kind"]
    return [seat for seat in range(state["seats"])
            if seat != roller and state["lives"][seat] > 0
            and (kind == "cutlass" or state["doubloons"][seat] > 0)]


def _advance(state: State) -> None:
    """Resolve effects until one needs the roller's pick, the game ends or the turn does.

    A pick with a single possible pirate is made here; with none it lapses."""
    while state["queue"] and state["phase"] != OVER:
        effect = state["queue"][0]
        if effect["kind"] in ("cutlass", "steal"):
            targets = _targets(state)
            if len(targets) > 1:
                state["phase"] = TARGETING
                return
            state["queue"].pop(0)
            if targets:
                (_cutlass if effect["kind"] == "cutlass" else _steal)(state, targets[0])
            else:
                _event(state, "lapse", state["roller"], effect=effect["kind"])
        else:
            state["queue"].pop(0)
            EFFECTS[effect["kind"]](state, effect)
        if state["lives"][state["roller"]] == 0:
            # A roller who walked the plank to death resolves nothing more.
            state["queue"] = []
    if state["phase"] != OVER:
        _end_turn(state)


def _event(state: State, kind: str, seat: int, **more: Any) -> None:
    state["events"].append({"kind": kind, "seat": seat, **more})


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
    if state["lives"][seat] == 0:
        _eliminate(state, seat, cause)


def _eliminate(state: State, seat: int, cause: str) -> None:
    """A pirate is out: Captain's Plunder (B5) or back to the Buried Treasure."""
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
    alive = [s for s in range(state["seats"]) if state["lives"][s] > 0]
    if len(alive) == 1 and state["phase"] != OVER:
        _win(state, alive[0], "last pirate alive")


def _win(state: State, seat: int, reason: str) -> None:
    state["winner"] = seat
    state["reason"] = reason
    state["phase"] = OVER
    state["queue"] = []
    _event(state, "win", seat, reason=reason)


def _others(state: State) -> list[int]:
    """Every other pirate still alive, clockwise from the roller's left."""
    seats, roller = state["seats"], state["roller"]
    order = [(roller + step) % seats for step in range(1, seats)]
    return [seat for seat in order if state["lives"][seat] > 0]


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
        if state["phase"] == OVER:
            return
        _lose_lives(state, seat, effect["n"], "mutiny")


def _shipwreck(state: State, effect: dict[str, Any]) -> None:
    for seat in _others(state):
        _pay(state, seat, effect["n"])


def _curse(state: State, effect: dict[str, Any]) -> None:
    """Lives first, then Doubloons (the card's order): a victim it kills is plundered."""
    for seat in _others(state):
        if state["phase"] == OVER:
            return
        _lose_lives(state, seat, CURSE_LIVES, "curse")
        if state["lives"][seat] > 0:
            _pay(state, seat, CURSE_DOUBLOONS)


#: The effects that need no pick, by kind.
EFFECTS = {"doubloon": _doubloon, "x": _x, "plank": _plank, "shield": _shield,
           "mutiny": _mutiny, "shipwreck": _shipwreck, "curse": _curse}


# -- views and display -----------------------------------------------------------------

def dice_line(view: dict[str, Any]) -> str:
    """The six dice in 21 characters: ``[C]`` is held, ``?`` awaits its face."""
    cells = []
    for face, held in zip(view["dice"], view["held"]):
        code = FACE_CODES[face] if face else "?"
        cells.append(f"[{code}]" if held else f" {code} ")
    return "".join(cells)


def stats(view: dict[str, Any], seat: int) -> str:
    """``L10 S0 $5``: a pirate's Lives, Shields and Doubloons."""
    if view["lives"][seat] == 0:
        return "out"
    return f"L{view['lives'][seat]} S{view['shields'][seat]} ${view['doubloons'][seat]}"


def event_text(event: dict[str, Any], names: list[str]) -> str:
    """One resolution event as a short sentence."""
    who, n, kind = names[event["seat"]], event.get("n", 0), event["kind"]
    texts = {
        "take": f"{who} takes {n} gold",
        "pay": f"{who} pays {n} gold",
        "steal": f"{who} steals {n} from {names[event.get('source', 0)]}",
        "shield_lost": f"{who} loses a Shield",
        "life": f"{who} loses {n} {'Life' if n == 1 else 'Lives'}",
        "shield": f"{who} takes {n} {'Shield' if n == 1 else 'Shields'}",
        "out": f"{who} is out",
        "lapse": f"{who}: {event.get('effect', '')} lapses",
        "win": f"{who} wins!",
    }
    return texts[kind]


def _choice_label(action: Action, view: dict[str, Any], names: list[str]) -> str:
    kind = action["type"]
    if kind == "enter":
        return f"Enter {FACE_LABELS[action['face']]}"
    if kind == "hold":
        index = action["die"] - 1
        verb = "Free" if view["held"][index] else "Hold"
        return f"{verb} {action['die']} {FACE_LABELS[view['dice'][index]]}"
    if kind == "roll":
        free = view["held"].count(False)
        return f"Roll {free} {'die' if free == 1 else 'dice'}"
    if kind == "stop":
        return "Stop & resolve"
    word = "Attack" if kind == "attack" else "Steal"
    return f"{word} {names[action['seat']]}"[:18]


def _roller_hint(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase == ROLLING:
        return f"Enter die {view['dice'].index(None) + 1}"
    if phase == DECIDING:
        return "Hold, roll or stop"
    if view["queue"] and view["queue"][0]["kind"] == "cutlass":
        return "Cutlass: who?"
    return "Jolly Roger: whose $?"


def _watcher_hint(view: dict[str, Any], names: list[str]) -> str:
    """What a pirate who is not rolling reads: the roller's pick, or the latest event."""
    if view["phase"] == TARGETING:
        return "Picking a target"
    events = view["events"]
    return event_text(events[-1], names)[:21] if events else ""


def seat_display(view: dict[str, Any], seat: int) -> Display:
    """The seat's screen from its engine view (everything in it is public).

    The roller sees the dice, the roll count and their choices; another pirate sees
    whose turn it is, the dice and their own Lives/Shields/Doubloons. Holding select
    shows every pirate's standing."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    summary = tuple(f"{names[s][:12]} {stats(state, s)}" for s in range(state["seats"]))
    if state["phase"] == OVER:
        return Display(title="Game over", led="off", private=summary, lines=(
            f"Winner: {names[state['winner']]}"[:21], state["reason"][:21],
            f"You {stats(state, seat)}"[:21]))
    roller = state["roller"]
    if seat == roller:
        title = f"Your turn {state['rolls']}/{MAX_ROLLS}"
        lines = (dice_line(state), f"You {stats(state, seat)}"[:21], _roller_hint(state))
    else:
        title = f"{names[roller]}'s turn"[:20]
        lines = (dice_line(state), f"You {stats(state, seat)}"[:21], _watcher_hint(state, names))
    choices = tuple(Choice(_choice_label(a, state, names), a) for a in legal)
    return Display(title=title[:20], lines=lines, choices=choices, private=summary,
                   led="on" if legal else "off")


GAME = BootyDice()
