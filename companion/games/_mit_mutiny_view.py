"""What each viewer of a Mutiny (``mit-mutiny``) match sees, each seat's screen, and
the re-deal of everything a viewer cannot see (for the contract tests).

Public at a real table, so in every view: the roles and the Captain; each pirate's
Rum, crew dice (red and green), loot cubes (they sit on the player mat), the number of
cards in hand, the cards played (face up) and the islands won; the supplies (Rum, green
crew, the mystery deck's size, the bank's cubes); which map spaces are still face down
and which a Scout has looked at; the face-up island, the Captain's division, the
decisions (public ballot), and every die once the battle reveals them.

Secret, in the owner's view only (``me``): the cards in hand, the pirate's own hidden
roll (and, for the First Mate, the roll he peeked at), the islands the pirate has looked
at while they lie face down, and the pirate's secret ballot (and, for the Scout
deciding last in a secret ballot, the other two ballots).
"""
from __future__ import annotations

import functools
import random
from typing import Any

from companion.engine import votes
from companion.engine.display import Choice, Display
from companion.engine.match import clone
from companion.engine.rules import Action, Viewer
from companion.games._mit_mutiny_core import (
    BALLOT, BATTLE_STEPS, BUY_STEPS, CANNON, CHOOSE, COLORS, CUP, DECIDE, DEFEND, DIVIDE,
    FINAL, FIRST_MATE, ISLAND, KIND_NAMES, LOOK, MADNESS, MUTINY, OVER, PEEK, PRESS,
    RALLY, RELOAD, RELOAD_ROLL, ROLE_SHORT, ROLES, ROLL_STEPS, ROLLOFF,
    SCOUT, SEATS, SETUP, STORM, TAKE, TIE, TREASURE, VOTE_ORDER, WINDOW, State,
    dealt, dice_total, kind_index, loot_text, seat_of, side_sums,
)

#: Option values every view shows (the stack of a teaching deck stays out of views).
VIEW_OPTIONS = ("dice", "islands", "ballot", "cup_draws", "card_window", "crew_needs_rum")
#: Copied as they are: plain values or public records.
PLAIN = ("step", "round", "islands_total", "islands_done", "captain", "scout_took",
         "peeked", "vote_turn", "changed", "revealed", "buyer", "treasure_left")
#: Action types whose label is a secret (a card in hand, a hidden roll, a peek, a
#: secret ballot, an island only the Scout has seen).
SECRET_TYPES = frozenset({"play", "peek", "no_peek", "ballot", "choose"})
#: Steps of a round before its rally (the last round's dice are no longer news).
BEFORE_RALLY = frozenset({ROLES, LOOK, CHOOSE, ISLAND, TAKE, DIVIDE})


# -- views ----------------------------------------------------------------------------------

def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public record, plus ``me`` (the viewer's own secrets) for a seat."""
    out = public_view(state)
    if state["vote"] is not None:
        out["ballot"] = votes.vote_view(state["vote"], viewer)
    if isinstance(viewer, int):
        out["me"] = seat_view(state, viewer)
    return out


def public_view(state: State) -> dict[str, Any]:
    """Everything the whole table may know (see the module docstring)."""
    out: dict[str, Any] = {key: state[key] for key in PLAIN}
    out.update(_records(state))
    out["options"] = {key: state["options"][key] for key in VIEW_OPTIONS}
    out["pirates"] = [_pirate(state, s) for s in range(SEATS)]
    out["supply"] = {"rum": state["rum_supply"], "green": state["green_supply"],
                     "deck": len(state["deck"]), "bank": list(state["bank"])}
    # Card names by id (the deck list is public; hands are not).
    out["cards"] = dict(_card_names(state["data"]))
    out["map"] = _map(state)
    out["rolling"] = _rolling(state)
    revealed = state["revealed"]
    out["dice"] = [[list(die) for die in dice] for dice in state["dice"]] if revealed else None
    out["dice_count"] = [len(d) for d in state["dice"]]
    out["sums"] = side_sums(state) if revealed else None
    out["ballot"] = None
    return out


def _records(state: State) -> dict[str, Any]:
    """Copies of the public records (by their known shapes: a view is built often)."""
    island, battle, cup = state["island"], state["battle"], state["cup"]
    window, effect, trade = state["window"], state["effect"], state["trade"]
    if battle is not None and battle.get("sums") is not None:
        battle = dict(battle, sums=dict(battle["sums"]))
    if cup is not None:
        cup = dict(cup, cubes=list(cup["cubes"]), takers=list(cup["takers"]),
                   start=list(cup["start"]), got=[list(g) for g in cup["got"]])
    return {
        "roles": list(state["roles"]),
        "on_island": list(state["on_island"]),
        "entry": list(state["entry"]),
        "shares": [list(share) for share in state["shares"]],
        "setup_rolls": [[list(r) if r is not None else None for r in roll]
                        for roll in state["setup_rolls"]],
        "rolloffs": [list(r) for r in state["rolloffs"]],
        "decisions": list(state["decisions"]),
        "window": dict(window) if window is not None else None,
        "marks": list(state["marks"]),
        "effect": dict(effect) if effect is not None else None,
        "battle": dict(battle) if battle is not None else None,
        "cup": cup,
        "buy_order": list(state["buy_order"]),
        "trade": {"paid": list(trade["paid"])} if trade is not None else None,
        "log": [dict(event) for event in state["log"]],
        "final": clone(state["final"]) if state["final"] is not None else None,
        "island": dict(island, loot=list(island["loot"])) if island is not None else None,
    }


@functools.lru_cache(maxsize=16)
def _card_names(data: str) -> tuple[tuple[str, str], ...]:
    """``(id, name)`` pairs of the dealt cards, cached per match data."""
    return tuple((cid, card["name"]) for cid, card in dealt({"data": data})["cards"].items())


def _pirate(state: State, seat: int) -> dict[str, Any]:
    """One pirate's public ledger."""
    red, green = state["red"][seat], state["green"][seat]
    return {
        "color": COLORS[seat], "rum": state["rum"][seat], "red": red, "green": green,
        "crew": red + green, "loot": list(state["loot"][seat]),
        "cards": len(state["hands"][seat]), "played": list(state["played"][seat]),
        "cannons": state["cannons"][seat], "islands": list(state["won"][seat]),
    }


def _map(state: State) -> dict[str, Any] | None:
    """Which spaces still hold a face-down island, and who has looked at which."""
    if state["spaces"] is None:
        return None
    return {"face_down": [island is not None for island in state["spaces"]],
            "seen": [list(seen) for seen in state["seen"]], "looked": list(state["looked"])}


def _rolling(state: State) -> dict[str, Any] | None:
    """Dice waiting for faces: a hidden rally shows only who is done."""
    roll = state["roll"]
    if roll is None:
        return None
    done = [len(roll["got"][s]) == len(roll["need"][s]) for s in range(SEATS)]
    if state["step"] == RALLY:
        return {"count": [len(n) for n in roll["need"]], "done": done}
    return {"need": [list(n) for n in roll["need"]], "got": [list(g) for g in roll["got"]],
            "done": done}


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows."""
    me: dict[str, Any] = {"seat": seat, "role": state["roles"][seat], "color": COLORS[seat],
                          "hand": list(state["hands"][seat])}
    # The pirate's own hidden roll, from the rally to the end of the round (the
    # previous round's cup stays down until the next rally, unlooked at).
    hidden = not state["revealed"] and state["step"] not in BEFORE_RALLY
    me["dice"] = [list(d) for d in state["dice"][seat]] if hidden and state["dice"][seat] \
        else None
    roll = state["roll"]
    if state["step"] == RALLY and roll is not None:
        me["entering"] = {"need": list(roll["need"][seat]), "got": list(roll["got"][seat])}
    if seat == seat_of(state, FIRST_MATE) and state["peek"] is not None:
        target = state["peek"]
        me["peek"] = {"seat": target, "dice": [list(d) for d in state["dice"][target]]}
    if state["spaces"] is not None:
        islands = dealt(state)["islands"]
        me["islands_seen"] = [{"space": i, "name": islands[state["spaces"][i]]["name"],
                               "loot": list(islands[state["spaces"][i]]["loot"])}
                              for i in state["seen"][seat] if state["spaces"][i] is not None]
    vote = state["vote"]
    if vote is not None and state["step"] == FINAL and seat == seat_of(state, SCOUT):
        me["ballots"] = [b[0] if b else None for b in vote["cast"]]
    return me


# -- display --------------------------------------------------------------------------------

def display(view_: dict[str, Any], seat: int) -> Display:
    """The seat's screen from its engine view: public lines, secret choices, private
    details (held select, or the phone)."""
    state, names = view_["state"], view_["names"]
    legal = view_.get("you", {}).get("legal", [])
    choices = tuple(Choice(label(a, state, names, legal), a,
                           secret=_secret_choice(a, state)) for a in legal)
    if not legal:
        led = "off"
    else:
        led = "blink" if state["step"] in (DECIDE, BALLOT, FINAL) else "on"
    lines = [line[:21] for line in _lines(state, names, seat)[:3]]
    return Display(title=title(state)[:20], lines=tuple(lines), choices=choices,
                   private=tuple(line[:21] for line in private_lines(state, names)),
                   led=led)


def _secret_choice(action: Action, state: dict[str, Any]) -> bool:
    kind = action["type"]
    if kind == "enter":
        return state["step"] == RALLY
    if kind == "final":
        return state["options"]["ballot"] == "secret"
    return kind in SECRET_TYPES


TITLES = {
    SETUP: "Roll for Captain", ROLES: "Assign roles", LOOK: "Pick an island",
    CHOOSE: "Pick an island", ISLAND: "Enter island loot", TAKE: "Scout takes loot",
    DIVIDE: "Divide the loot", RALLY: "Rally crew", PEEK: "First Mate peek",
    DECIDE: "Mutiny or defend", BALLOT: "Mutiny or defend", FINAL: "Mutiny or defend",
    WINDOW: "Battle", CANNON: "Battle: Cannon", RELOAD: "Battle: Reload",
    RELOAD_ROLL: "Battle: Reload", MADNESS: "Battle: Madness", STORM: "Battle: Storm",
    TIE: "Tie! Re-roll", ROLLOFF: "Roll-off", CUP: "Cup draws", "buy": "Buying",
    "pay": "Trade: pay 3", "receive": "Trade: get 1", TREASURE: "Buried Treasure",
    PRESS: "Press-gang",
    OVER: "Game over", "deal": "MIT Mutiny",
}


def title(state: dict[str, Any]) -> str:
    text = TITLES[state["step"]]
    if state["round"] and state["step"] != OVER:
        return f"R{state['round']} {text}"
    return text


def _name(names: list[str], seat: Any, width: int = 8) -> str:
    return names[seat][:width] if isinstance(seat, int) else "-"


def _role_line(state: dict[str, Any], names: list[str], seat: int) -> str:
    role = state["roles"][seat]
    if role == "captain":
        return "You are the Captain"
    captain = state["captain"]
    if captain is None:
        return f"You: {state['pirates'][seat]['color']}"
    return f"You:{ROLE_SHORT[role]} Capt:{_name(names, captain, 7)}"


def _stats(state: dict[str, Any], seat: int) -> str:
    pirate = state["pirates"][seat]
    return f"R{pirate['rum']} C{pirate['crew']} {loot_text(pirate['loot']).replace(' ', '')}"


def _lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    step = state["step"]
    if step == OVER:
        return _end_lines(state, names, seat)
    first = _role_line(state, names, seat)
    return [first, *_status(state, names, seat), _stats(state, seat)][:3]


def _status(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    """One line (two in battle) saying what the table is doing."""
    step = state["step"]
    if step in ROLL_STEPS:
        return [_roll_status(state, names)]
    if step == ROLES:
        return [f"{_name(names, state['captain'])} assigns roles"]
    if step in (LOOK, CHOOSE, ISLAND):
        scout = state["roles"].index(SCOUT)
        verb = "enters loot" if step == ISLAND else "picks island"
        return [f"Scout {_name(names, scout)} {verb}"]
    if step in (TAKE, DIVIDE):
        island = state["island"]
        return [f"{island['name'][:10]} {loot_text(state['on_island']).replace(' ', '')}"]
    if step == PEEK:
        return ["First Mate may peek"]
    if step in (DECIDE, FINAL):
        return [_decision_line(state)]
    if step == BALLOT:
        ballot = state["ballot"]
        return [f"Ballots {ballot['ballots_in']}/{ballot['ballots_total']}"]
    if step in BATTLE_STEPS:
        return _battle_lines(state, names)
    if step == CUP:
        cup = state["cup"]
        taker = cup["takers"][cup["next"] % len(cup["takers"])]
        return [f"{_name(names, taker)} draws a cube"]
    if step in BUY_STEPS:
        return [f"{_name(names, state['buyer'])} is buying"]
    return [""]


def _roll_status(state: dict[str, Any], names: list[str]) -> str:
    step = state["step"]
    if state["options"]["dice"] == "table":
        waiting = [s for s, done in enumerate(state["rolling"]["done"]) if not done]
        return "Enter dice: " + ",".join(_name(names, s, 3) for s in waiting)
    return {SETUP: "Rolling for Captain", ROLLOFF: "Roll-off for Captain"}.get(step,
                                                                            "Rolling dice")


def _decision_line(state: dict[str, Any]) -> str:
    """``S:M Q:D F:?``: the decisions so far, in voting order."""
    cells = []
    for role in VOTE_ORDER:
        seat = state["roles"].index(role)
        choice = state["decisions"][seat]
        mark = {MUTINY: "M", DEFEND: "D"}.get(choice, "?")
        cells.append(f"{ROLE_SHORT[role][0]}:{mark}")
    return " ".join(cells) + (" Scout?" if state["step"] == FINAL else "")


def _battle_lines(state: dict[str, Any], names: list[str]) -> list[str]:
    sums = state["sums"]
    first = f"Mutiny {sums[MUTINY]} v {sums[DEFEND]} Capt"
    window = state["window"]
    if state["step"] == WINDOW and window is not None:
        return [first, f"Cards: {_name(names, window['turn'])}'s turn"]
    return [first, "Resolving a card"]


def _end_lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    final = state["final"]
    won = "You WIN!" if seat in final["winners"] else "You lose"
    who = ",".join(_name(names, s, 6) for s in final["winners"])
    return [f"{won} Infamy {final['total'][seat]}", f"Best: {who}",
            " ".join(str(t) for t in final["total"])]


def _dice_text(dice: list[list[int]]) -> str:
    cells = [f"d8:{face}" if sides == 8 else str(face) for sides, face in dice]
    return f"{' '.join(cells)} ={dice_total(dice)}"


def _card_name(state: dict[str, Any], card: str) -> str:
    return state["cards"][card]


def private_lines(state: dict[str, Any], names: list[str]) -> list[str]:
    """The seat's secrets first, then its full ledger."""
    me = state.get("me")
    if me is None:
        return []
    out: list[str] = []
    if me.get("dice"):
        out.append("Dice " + _dice_text(me["dice"]))
    entering = me.get("entering")
    if entering and entering["got"]:
        out.append("Entered " + " ".join(map(str, entering["got"])))
    if me.get("peek"):
        out.append(f"Peek {_name(names, me['peek']['seat'], 6)} "
                   + _dice_text(me["peek"]["dice"]))
    if me.get("ballots"):
        out += [f"{_name(names, s, 8)}: {b}" for s, b in enumerate(me["ballots"]) if b]
    mine = (state.get("ballot") or {}).get("mine")
    if mine:
        out.append(f"Your ballot: {mine[0]}")
    out += _hand_lines(state, me["hand"])
    for seen in me.get("islands_seen", []):
        out.append(f"{seen['space'] + 1}:{seen['name'][:10]} "
                   + loot_text(seen["loot"]).replace(" ", ""))
    pirate = state["pirates"][me["seat"]]
    out.append("Loot " + loot_text(pirate["loot"]))
    out.append(f"Rum {pirate['rum']} Crew {pirate['red']}r+{pirate['green']}g")
    out.append(f"Islands {len(pirate['islands'])} Cannons {pirate['cannons']}")
    return out


def _hand_lines(state: dict[str, Any], hand: list[str]) -> list[str]:
    if not hand:
        return ["Hand: no cards"]
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return ["Hand:"] + [f" {n}x {_card_name(state, c)}" for c, n in counts.items()]


# -- choice labels and log lines ---------------------------------------------------------------

def label(action: Action, state: dict[str, Any], names: list[str],
          legal: list[Action] | None = None) -> str:
    """A choice label of at most 18 characters."""
    kind = action["type"]
    text = _label_text(action, state, names, legal or [])
    return text[:18] if kind != "enter" else text


def _label_text(action: Action, state: dict[str, Any], names: list[str],
                legal: list[Action]) -> str:
    kind = action["type"]
    seat = action.get("seat")
    if kind == "enter":
        sides = sum(1 for a in legal if a["type"] == "enter") or 6
        return f"d{sides} shows {action['face']}"
    if kind == "assign":
        return f"{ROLE_SHORT[action['role']]}: {_name(names, seat, 9)}"
    if kind == "look":
        return f"Look at space {action['space'] + 1}"
    if kind == "choose":
        return _choose_label(action, state)
    if kind == "count":
        return f"{KIND_NAMES[kind_index(action['kind'])]}: {action['n']}"
    if kind in ("take", "loot"):
        return f"Take {KIND_NAMES[kind_index(action['kind'])]}"
    if kind == "give":
        return f"{KIND_NAMES[kind_index(action['kind'])]}>{_name(names, seat, 10)}"
    if kind == "give_rest":
        return f"All rest>{_name(names, seat, 9)}"
    if kind == "target":
        word = "Madness" if state["step"] == MADNESS else "Press"
        return f"{word}: {_name(names, seat, 9)}"
    if kind == "mark":
        return f"Re-roll d{action['sides']} {action['face']}"
    if kind == "reroll":
        return f"Roll {len(state['marks'])} marked"
    if kind == "play":
        return f"Play {_card_name(state, action['card'])}"
    return _simple_label(action, state, names)


def _choose_label(action: Action, state: dict[str, Any]) -> str:
    space = action["space"]
    for seen in state.get("me", {}).get("islands_seen", []):
        if seen["space"] == space:
            cubes = loot_text(seen["loot"]).replace(" ", "")
            return f"{space + 1}:{seen['name'][:6]} {cubes}"
    return f"Pick space {space + 1}"


def _simple_label(action: Action, state: dict[str, Any], names: list[str]) -> str:
    kind = action["type"]
    choice = action.get("choice")
    if kind in ("decide", "ballot"):
        return "Mutiny! Yarr!" if choice == MUTINY else "Defend Captain"
    if kind == "final":
        me = state.get("me", {})
        current = state["decisions"][me.get("seat", 0)]
        if state["options"]["ballot"] == "secret":
            mine = (state.get("ballot") or {}).get("mine") or [None]
            current = mine[0]
        verb = "Keep" if choice == current else "Change"
        return f"{verb}: {'Mutiny' if choice == MUTINY else 'Defend'}"
    if kind == "peek":
        return f"Peek at {_name(names, action['seat'], 10)}"
    if kind == "buy":
        return {"rum": "Rum (S+O)", "crew": "Crew (O+2G+P)",
                "card": "Card (S+G+P)"}[action["item"]]
    if kind == "trade":
        return "Trade 3 for 1"
    if kind == "receive":
        return f"Get {KIND_NAMES[kind_index(action['kind'])]}"
    if kind == "pay":
        return f"Pay {KIND_NAMES[kind_index(action['kind'])]}"
    if kind == "drew":
        return f"Drew {KIND_NAMES[kind_index(action['kind'])]}"
    return {"no_peek": "No peek", "pass": "Pass", "done": "Done buying"}.get(kind, kind)


def describe(action: Action, names: list[str]) -> str:
    """A short log line of an action. Hidden moves say only what the table saw."""
    kind = action["type"]
    seat = action.get("seat")
    texts = {
        "deal": "islands and mystery cards dealt",
        "roll": "dice rolled", "enter": "a die entered", "cup": "cup drawn",
        "assign": f"{ROLE_SHORT.get(action.get('role'), '')} to {_name(names, seat, 20)}",
        "look": f"the Scout looks at space {action.get('space', 0) + 1}",
        "choose": f"the Scout picks space {action.get('space', 0) + 1}",
        "count": f"{action.get('kind')}: {action.get('n')}",
        "take": f"the Scout takes {action.get('kind')}",
        "give": f"{action.get('kind')} to {_name(names, seat, 20)}",
        "give_rest": f"the rest to {_name(names, seat, 20)}",
        "peek": "the First Mate decided", "no_peek": "the First Mate decided",
        "decide": f"{action.get('choice')}", "ballot": "a secret ballot",
        "final": "the Scout's last word", "pass": "pass",
        "target": f"at {_name(names, seat, 20)}",
        "mark": f"mark a d{action.get('sides')} showing {action.get('face')}",
        "reroll": "re-roll the marked dice", "drew": f"drew {action.get('kind')}",
        "buy": f"buy {action.get('item')}", "trade": "trade 3 for 1",
        "receive": f"get {action.get('kind')}",
        "pay": f"pay {action.get('kind')}", "loot": f"take {action.get('kind')}",
        "done": "done buying", "play": "play a card",
    }
    return texts.get(kind, kind.replace("_", " "))



# -- re-deal (for the contract tests) -----------------------------------------------------

def redeal_islands(twin: State, viewer: Viewer, rng: random.Random) -> None:
    if twin["spaces"] is None:
        return
    known = set(twin["seen"][viewer]) if isinstance(viewer, int) else set()
    hidden = [i for i, island in enumerate(twin["spaces"])
              if island is not None and i not in known]
    contents = [twin["spaces"][i] for i in hidden]
    rng.shuffle(contents)
    for space, island in zip(hidden, contents):
        twin["spaces"][space] = island


def redeal_cards(twin: State, viewer: Viewer, rng: random.Random) -> None:
    others = [s for s in range(SEATS) if s != viewer]
    pool = list(twin["deck"])
    for seat in others:
        pool += twin["hands"][seat]
    rng.shuffle(pool)
    for seat in others:
        count = len(twin["hands"][seat])
        twin["hands"][seat], pool = pool[:count], pool[count:]
    twin["deck"] = pool


def redeal_dice(twin: State, viewer: Viewer, rng: random.Random) -> None:
    """Hidden rolls (before the reveal, or never revealed) of the pirates the viewer
    cannot see: all but its own and the one its First Mate peek showed."""
    if twin["revealed"]:
        return
    known = {viewer}
    if viewer == seat_of(twin, FIRST_MATE) and twin["peek"] is not None:
        known.add(twin["peek"])
    for seat in range(SEATS):
        if seat in known:
            continue
        for die in twin["dice"][seat]:
            die[1] = rng.randint(1, die[0])
        roll = twin["roll"]
        if twin["step"] == RALLY and roll is not None:
            roll["got"][seat] = [rng.randint(1, sides)
                                 for sides in roll["need"][seat][:len(roll["got"][seat])]]
