"""What a Mutiny seat shows: its screen (title, public lines, grouped choices, private
details); the words it shares with the table are in ``words``.

Everything here is built from an engine view (a seat's own, or the public one), never
from the state; text is never cut here (each screen fits what it is given).
"""
from __future__ import annotations

from typing import Any

from companion.engine import Action, Choice, Display
from companion.games import kit
from companion.games.mit_mutiny.data import (
    BALLOT,
    BATTLE_STEPS,
    BUY_STEPS,
    CANNON,
    CHOOSE,
    CUP,
    DECIDE,
    DEFEND,
    DIVIDE,
    FINAL,
    ISLAND,
    KIND_CODES,
    KIND_NAMES,
    LOOK,
    MADNESS,
    MUTINY,
    OVER,
    PEEK,
    PRESS,
    PRICES,
    RALLY,
    RELOAD,
    RELOAD_ROLL,
    ROLE_NAMES,
    ROLES,
    ROLL_STEPS,
    ROLLOFF,
    SCOUT,
    SETUP,
    STORM,
    TAKE,
    TIE,
    TREASURE,
    VOTE_ORDER,
    WINDOW,
    dice_total,
    kind_index,
)
from companion.games.mit_mutiny.words import (
    ITEMS,
    a_cube,
    and_list,
    cubes,
    faces_words,
    kind_name,
    loot_text,
)

View = dict[str, Any]

TITLES = {
    SETUP: "Roll for Captain", ROLES: "Assign roles", LOOK: "Pick an island",
    CHOOSE: "Pick an island", ISLAND: "Enter island loot", TAKE: "Scout takes loot",
    DIVIDE: "Divide the loot", RALLY: "Rally crew", PEEK: "First Mate peek",
    DECIDE: "Mutiny or defend", BALLOT: "Mutiny or defend", FINAL: "Mutiny or defend",
    WINDOW: "Battle", CANNON: "Battle: Cannon", RELOAD: "Battle: Reload",
    RELOAD_ROLL: "Battle: Reload", MADNESS: "Battle: Madness", STORM: "Battle: Storm",
    TIE: "Tie! Re-roll", ROLLOFF: "Roll-off", CUP: "Cup draws", "buy": "Buying",
    TREASURE: "Buried Treasure", PRESS: "Press-gang", OVER: "Game over",
    "deal": "MIT Mutiny",
}
#: Choices whose words are a secret (a card in hand, a peek, a secret ballot, an
#: island only the Scout has seen).
SECRET_TYPES = frozenset({"play", "peek", "no_peek", "ballot", "choose"})


def price_text(item: str) -> str:
    """``1 Orange, 2 Gold, 1 Plantain``: a price on the mat."""
    return ", ".join(f"{n} {name}" for name, n in zip(KIND_NAMES, PRICES[item], strict=True) if n)


def dice_text(dice: list[list[int]]) -> str:
    cells = [f"d8:{face}" if sides == 8 else str(face) for sides, face in dice]
    return f"{' '.join(cells)} ={dice_total(dice)}"


# -- the seat's screen ----------------------------------------------------------------------

def display(view: View, seat: int) -> Display:
    """The seat's screen from its engine view: public lines (in full words for the
    phone, in short forms for the OLED), grouped choices, private details (held
    select, or the phone)."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    choices = tuple(choice(a, state, names, legal) for a in legal)
    pairs = _lines(state, names, seat)
    return Display(title=title(state), lines=tuple(full for full, _ in pairs),
                   short_lines=tuple(short for _, short in pairs), choices=choices,
                   private=tuple(private_lines(state, names)),
                   short_private=tuple(private_lines(state, names, short=True)),
                   led=_led(state, legal))


def _led(state: View, legal: list[Action]) -> str:
    """On when the seat has something to do; blinking only for a secret ballot (the
    public decision is made in the open, in turn, like any other move)."""
    if not legal:
        return "off"
    secret = state["step"] == BALLOT or (
        state["step"] == FINAL and state["options"]["ballot"] == "secret")
    return "blink" if secret else "on"


def title(state: View) -> str:
    """The step in words; the round is on the first line (the title has no room)."""
    return TITLES[state["step"]]


#: A line in full words (the phone) and its short form (a 21-column screen).
Line = tuple[str, str]


def _lines(state: View, names: list[str], seat: int) -> list[Line]:
    if state["step"] == OVER:
        return _end_lines(state, names, seat)
    return [_role_line(state, names, seat), *_status(state, names, seat),
            _stats(state, seat)][:3]


def _role_line(state: View, names: list[str], seat: int) -> Line:
    role, rnd, captain = state["roles"][seat], state["round"], state["captain"]
    when, short_when = (f"Round {rnd}: ", f"R{rnd} ") if rnd else ("", "")
    if role == "captain":
        return _sentence(f"{when}you are the Captain"), f"{short_when}You are Captain"
    if captain is None:
        color = state["pirates"][seat]["color"]
        return f"You are the {color} pirate", f"You: {color}"
    mine = ROLE_NAMES.get(role, "")
    full = (f"{when}you are the {mine}" if mine else f"{when}you have no role yet")
    short = f"{short_when}You: {mine or 'no role yet'}"
    if len(short) > 21:
        short = f"{short_when}{mine or 'No role yet'}"
    return _sentence(f"{full}; {kit.seat_name(names, captain)} is Captain"), short


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _stats(state: View, seat: int) -> Line:
    pirate = state["pirates"][seat]
    crew = kit.plural(pirate["crew"], "crew die", "crew dice")
    codes = "".join(f"{code}{n}" for code, n in zip(KIND_CODES, pirate["loot"], strict=True))
    return (f"You have {pirate['rum']} Rum and {crew}; loot: {cubes(pirate['loot'], 'none')}",
            f"Rum{pirate['rum']} Crew{pirate['crew']} {codes}")


def _same(text: str) -> Line:
    return text, text


def _status(state: View, names: list[str], seat: int) -> list[Line]:
    """One line (two in battle) saying what the table is doing: in the second person on
    the screen of the seat doing it (its own screen already says "you are the Scout")."""
    step = state["step"]
    if step in ROLL_STEPS:
        return [_same(_roll_status(state, names, seat))]
    if step == ROLES:
        return [_same(_doing(names, state["captain"], seat, "assigns roles", "assign roles"))]
    if step in (LOOK, CHOOSE, ISLAND):
        return [_scout_status(step, state["roles"].index(SCOUT), names, seat)]
    if step in (TAKE, DIVIDE):
        island, left = state["island"]["name"], state["on_island"]
        return [(f"Left on {island}: {cubes(left, 'no loot')}",
                 f"{island}: {loot_text(left)}")]
    if step == PEEK:
        return [_same("First Mate may peek")]
    if step in (DECIDE, FINAL):
        return [_decision_line(state)]
    if step == BALLOT:
        ballot = state["ballot"]
        return [(f"{ballot['ballots_in']} of {ballot['ballots_total']} ballots in",
                 f"Ballots {ballot['ballots_in']}/{ballot['ballots_total']}")]
    if step in BATTLE_STEPS:
        return _battle_lines(state, names, seat)
    if step == CUP:
        cup = state["cup"]
        taker = cup["takers"][cup["next"] % len(cup["takers"])]
        return [_same(_doing(names, taker, seat, "draws a cube", "draw a cube"))]
    if step in BUY_STEPS:
        return [_same(_doing(names, state["buyer"], seat, "is buying", "are buying"))]
    return [_same("")]


def _doing(names: list[str], actor: int, seat: int, they: str, you: str) -> str:
    """``Anne assigns roles`` on the others' screens, ``You assign roles`` on Anne's."""
    return f"You {you}" if actor == seat else f"{kit.seat_name(names, actor)} {they}"


def _scout_status(step: str, scout: int, names: list[str], seat: int) -> Line:
    if scout == seat:
        return {LOOK: ("You look at two islands", "You look"),
                CHOOSE: ("You pick the island to raid", "You pick"),
                ISLAND: ("You enter the island's loot", "You enter loot")}[step]
    name = kit.seat_name(names, scout)
    return {LOOK: (f"Scout {name} looks at two islands", f"Scout {name} looks"),
            CHOOSE: (f"Scout {name} picks the island to raid", f"Scout {name} picks"),
            ISLAND: (f"Scout {name} enters the island's loot", f"{name} enters loot")}[step]


def _roll_status(state: View, names: list[str], seat: int) -> str:
    if state["options"]["dice"] == "table":
        waiting = [s for s, done in enumerate(state["rolling"]["done"]) if not done]
        # (This seat among them is "you": "Enter dice: you and Anne".)
        return "Enter dice: " + kit.name_list(kit.names_seen_by(names, seat), waiting)
    return {SETUP: "Rolling for Captain",
            ROLLOFF: "Roll-off for Captain"}.get(state["step"], "Rolling dice")


#: The deciding roles on a small screen.
ROLE_SHORT = {SCOUT: "Scout", "quarter_master": "QM", "first_mate": "FM"}


def _decision_line(state: View) -> Line:
    """The decisions so far, in voting order: ``Scout: mutiny, Quarter Master: defend,
    First Mate: not yet`` (``Scout mutiny, QM defend, FM ?`` on the OLED). At the
    Scout's last word after a secret ballot the others' ballots are still secret."""
    last = state["step"] == FINAL
    unknown = "secret" if last and state["options"]["ballot"] == "secret" else "not yet"
    full, short = [], []
    for role in VOTE_ORDER:
        choice_ = state["decisions"][state["roles"].index(role)]
        full.append(f"{ROLE_NAMES[role]}: {choice_ or unknown}")
        short.append(f"{ROLE_SHORT[role]} {choice_ or '?'}")
    return (", ".join(full) + ("; the Scout has the last word" if last else ""),
            ", ".join(short) + (" (Scout's last word)" if last else ""))


def _battle_lines(state: View, names: list[str], seat: int) -> list[Line]:
    sums = state["sums"]
    first = (f"Mutiny {sums[MUTINY]} against {sums[DEFEND]} for the Captain",
             f"Mutiny {sums[MUTINY]} v {sums[DEFEND]} Captain")
    window = state["window"]
    if state["step"] == WINDOW and window is not None:
        if window["turn"] == seat:
            return [first, ("Battle cards: you may play one or pass", "Cards: your turn")]
        who = kit.seat_name(names, window["turn"])
        return [first, (f"Battle cards: {who} may play one or pass", f"Cards: {who}'s turn")]
    return [first, _same("Resolving a card")]


def _end_lines(state: View, names: list[str], seat: int) -> list[Line]:
    final = state["final"]
    won, mine = seat in final["winners"], final["total"][seat]
    best = kit.name_list(names, final["winners"])
    return [(f"You win with {mine} Infamy!" if won else f"You lose, with {mine} Infamy",
             f"{'You win!' if won else 'You lose'} Infamy {mine}"),
            (f"Most Infamy: {best}", f"Best: {best}"),
            ("Infamy: " + ", ".join(f"{kit.seat_name(names, s)} {t}"
                                    for s, t in enumerate(final["total"])),
             " ".join(str(t) for t in final["total"]))]


def _dice(dice: list[list[int]], short: bool) -> str:
    """``4 3 d8:8 =15`` on the seat's screen, ``4, 3 and d8 8 (15 in all)`` on the phone."""
    return dice_text(dice) if short else f"{faces_words(dice)} ({dice_total(dice)} in all)"


def private_lines(state: View, names: list[str], *, short: bool = False) -> list[str]:
    """The seat's secrets first, then its full ledger: in full words for the phone
    (``Your loot: 1 Sugar and 2 Gold``), ``short`` for the seat's screen (``Loot S1 O0
    G2 P0``)."""
    me = state.get("me")
    if me is None:
        return []
    out: list[str] = []
    if me.get("dice"):
        out.append(("Your dice " if short else "Your dice: ") + _dice(me["dice"], short))
    entering = me.get("entering")
    if entering and entering["got"]:
        out.append("Entered " + " ".join(map(str, entering["got"])) if short
                   else "You entered " + and_list([str(n) for n in entering["got"]]))
    if me.get("peek"):
        out.append(f"Peek at {kit.seat_name(names, me['peek']['seat'])}: "
                   + _dice(me["peek"]["dice"], short))
    if me.get("ballots"):
        out += [f"{kit.seat_name(names, s)}: {b}" for s, b in enumerate(me["ballots"]) if b]
    mine = (state.get("ballot") or {}).get("mine")
    if mine:
        out.append(f"Your ballot: {mine[0]}")
    out += _hand_lines(state, me["hand"])
    pirate = state["pirates"][me["seat"]]
    if short:
        out += [f"Space {seen['space'] + 1}: {seen['name']} {loot_text(seen['loot'])}"
                for seen in me.get("islands_seen", [])]
        out.append("Loot " + loot_text(pirate["loot"]))
        out.append(f"Rum {pirate['rum']} Crew {pirate['red']} red + {pirate['green']} green")
        out.append(f"Islands {len(pirate['islands'])} Cannons {pirate['cannons']}")
        return out
    out += [f"Space {seen['space'] + 1}: {seen['name']}, {cubes(seen['loot'], 'no loot')}"
            for seen in me.get("islands_seen", [])]
    out.append("Your loot: " + cubes(pirate["loot"], "none"))
    out.append(f"{pirate['rum']} Rum; crew dice: {pirate['red']} red and {pirate['green']} green")
    out.append(f"{kit.plural(len(pirate['islands']), 'island')} and "
               f"{kit.plural(pirate['cannons'], 'Cannon')}")
    return out


def _hand_lines(state: View, hand: list[str]) -> list[str]:
    if not hand:
        return ["Hand: no cards"]
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return ["Hand:"] + [f" {n}x {state['cards'][c]}" for c, n in counts.items()]


# -- choices --------------------------------------------------------------------------------

def choice(action: Action, state: View, names: list[str], legal: list[Action]) -> Choice:
    """One whole decision: its words, its menu group, and a short form for the OLED."""
    label, group, short = _words(action, state, names, legal)
    return Choice(label, action, secret=_secret(action, state), group=group, short=short)


def _secret(action: Action, state: View) -> bool:
    kind = action["type"]
    if kind == "enter":
        return state["step"] == RALLY
    if kind == "final":
        return state["options"]["ballot"] == "secret"
    return kind in SECRET_TYPES


def _words(action: Action, state: View, names: list[str],
           legal: list[Action]) -> tuple[str, tuple[str, ...], str]:
    """``(label, group, short)`` of a choice."""
    kind = action["type"]
    who = kit.seat_name(names, action.get("seat"))
    if kind == "enter":
        sides = sum(1 for a in legal if a["type"] == "enter") or 6
        return f"d{sides} shows {action['face']}", (), ""
    if kind == "assign":
        role = ROLE_NAMES[action["role"]]
        return f"Make {who} {role}", (), ""
    if kind == "look":
        return (f"Look at the island on space {action['space'] + 1}", (),
                f"Look at space {action['space'] + 1}")
    if kind == "choose":
        return _choose_words(action, state)
    if kind == "count":
        return (f"The island has {action['n']} {kind_name(action['kind'])}", (),
                f"{kind_name(action['kind'])}: {action['n']}")
    if kind in ("take", "loot"):
        return f"Take {a_cube(action['kind'])}", (), ""
    if kind == "give":
        return f"Give the next {kind_name(action['kind'])} to {who}", (), ""
    if kind == "give_rest":
        return f"Give all the rest to {who}", (), ""
    if kind == "target":
        card = "Drunken Madness" if state["step"] == MADNESS else "Press-gang"
        return f"{card} on {who}", (), ""
    if kind == "reroll":
        dice = action["dice"]
        count = kit.plural(len(dice), "die", "dice")
        faces = [f"d8 {f}" if s == 8 else str(f) for s, f in dice]
        words = faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1]
        return f"Re-roll your {words}", (f"Re-roll {count}",), ""
    if kind == "play":
        name = state["cards"][action["card"]]
        group = ("Play a card",) if state["step"] == "buy" else ()
        return f"Play {name}", group, ""
    if kind == "trade":
        paid = ", ".join(kind_name(k) for k in action["pay"])
        get = a_cube(action["get"])
        codes = "+".join(KIND_CODES[kind_index(k)] for k in action["pay"])
        return (f"Trade {paid} for {get}", ("Trade 3 for 1", f"Get {get}"),
                f"Pay {codes}")
    if kind == "buy":
        item = action["item"]
        return (f"Buy {ITEMS[item]} ({price_text(item)})", ("Buy",),
                {"rum": "Rum (S+O)", "crew": "Crew (O+2G+P)", "card": "Card (S+G+P)"}[item])
    return _simple_words(action, state, names)


def _choose_words(action: Action, state: View) -> tuple[str, tuple[str, ...], str]:
    space = action["space"]
    for seen in state.get("me", {}).get("islands_seen", []):
        if seen["space"] == space:
            return (f"Pick {seen['name']} ({cubes(seen['loot'], 'no loot')}) on space "
                    f"{space + 1}", (),
                    f"Space {space + 1} {loot_text(seen['loot']).replace(' ', '')}")
    return f"Pick the island on space {space + 1}", (), f"Pick space {space + 1}"


def _simple_words(action: Action, state: View,
                  names: list[str]) -> tuple[str, tuple[str, ...], str]:
    kind = action["type"]
    choice_ = action.get("choice")
    if kind in ("decide", "ballot"):
        return ("Mutiny! Yarr!" if choice_ == MUTINY else "Defend Captain"), (), ""
    if kind == "final":
        me = state.get("me", {})
        current = state["decisions"][me.get("seat", 0)]
        if state["options"]["ballot"] == "secret":
            current = ((state.get("ballot") or {}).get("mine") or [None])[0]
        verb = "Keep" if choice_ == current else "Change"
        return f"{verb}: {'Mutiny' if choice_ == MUTINY else 'Defend'}", (), ""
    if kind == "peek":
        who = kit.seat_name(names, action["seat"])
        return f"Peek at {who}'s dice", (), ""
    if kind == "drew":
        return f"I drew {a_cube(action['kind'])}", (), f"Drew {kind_name(action['kind'])}"
    words = {"no_peek": "No peek", "pass": "Pass", "done": "Done buying"}
    return words.get(kind, kind.replace("_", " ")), (), ""
