"""Mutiny (``mit-mutiny``) in words, for the table and the seats: each step's name, what
the table is waiting for, the public events of the log (one table, with the short forms
of the summary's list), the battle blow by blow, what a mystery card does, and where
each pirate's final Infamy came from. Built from views only; every line is a whole
sentence, never cut (see docs/games/mit-mutiny.md, "What the table shows").
"""
from __future__ import annotations

from typing import Any

from companion.games import kit
from companion.games.mit_mutiny.cards import KINDS
from companion.games.mit_mutiny.data import (
    BALLOT,
    BUY,
    BUY_STEPS,
    CANNON,
    CAPTAIN,
    CHOOSE,
    CUP,
    DEAL,
    DECIDE,
    DEFEND,
    DIVIDE,
    DRUNK_INFAMY,
    FIERCE_INFAMY,
    FINAL,
    FIRST_MATE,
    ISLAND,
    KIND_CODES,
    KIND_NAMES,
    LOOK,
    MADNESS,
    MUTINY,
    OVER,
    PEEK,
    PRESS,
    QUARTER_MASTER,
    RALLY,
    RELOAD,
    RELOAD_ROLL,
    ROLE_NAMES,
    ROLES,
    ROLLOFF,
    SCOUT,
    SETUP,
    STORM,
    TAKE,
    TIE,
    TREASURE,
    VOTE_ORDER,
    WINDOW,
)

View = dict[str, Any]

#: Every step in full words, as the table says what it is doing.
STEP_NAMES = {
    DEAL: "Dealing the islands and the mystery cards", SETUP: "Rolling for the first Captain",
    ROLES: "Choosing roles", LOOK: "Scouting the islands", CHOOSE: "Choosing the island",
    ISLAND: "Entering the island's loot", TAKE: "The Scout takes a cube",
    DIVIDE: "Dividing the loot", RALLY: "Rallying the crew", PEEK: "The First Mate's peek",
    DECIDE: "Mutiny or defend", BALLOT: "Mutiny or defend, by secret ballot",
    FINAL: "The Scout's last word", WINDOW: "The battle", CANNON: "The battle: a Cannon",
    RELOAD: "The battle: Quick Reload", RELOAD_ROLL: "The battle: Quick Reload",
    MADNESS: "The battle: Drunken Madness", STORM: "The battle: the Perfect Storm",
    TIE: "The battle: a tie", ROLLOFF: "The battle: a roll-off for Captain",
    CUP: "Sharing the loot by cup draws", BUY: "Buying", TREASURE: "Buying: Buried Treasure",
    PRESS: "Buying: Press-gang", OVER: "The match is over",
}
ITEMS = {"rum": "a Rum", "crew": "a crew die", "card": "a Mystery card"}


# -- small words ---------------------------------------------------------------------------

def name_of(names: list[str], seat: Any) -> str:
    return kit.seat_name(names, seat)


def kind_name(kind: str) -> str:
    return KIND_NAMES[KINDS.index(kind)]


def a_cube(kind: str) -> str:
    """``a Gold``, ``an Orange``."""
    name = kind_name(kind)
    return ("an " if name[0] in "AEIOU" else "a ") + name


def loot_text(loot: list[int]) -> str:
    """``S2 O1 G0 P3``: cubes by kind, made for a small screen."""
    return " ".join(f"{code}{n}" for code, n in zip(KIND_CODES, loot, strict=True))


def cubes(loot: list[int], none: str = "nothing") -> str:
    """``2 Sugar, 1 Gold``: cubes by kind (the kinds with none left out)."""
    words = [f"{n} {name}" for name, n in zip(KIND_NAMES, loot, strict=True) if n]
    return and_list(words) if words else none


def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def faces_words(dice: list[list[int]]) -> str:
    """``3, 5 and d8 7``: dice in words."""
    return and_list([f"d8 {face}" if sides == 8 else str(face) for sides, face in dice]) \
        if dice else "no dice"


def total(dice: list[list[int]]) -> int:
    return sum(face for _, face in dice)


def card_name(state: View, card: str) -> str:
    return state["cards"].get(card, card)


def role_name(state: View, seat: int) -> str:
    return ROLE_NAMES.get(state["roles"][seat] or "", "")


def seat_with(state: View, role: str) -> int | None:
    return state["roles"].index(role) if role in state["roles"] else None


def card_words(state: View, card: str) -> str:
    """What a mystery card does, with its numbers, from the dealt card data (public)."""
    rule = state["card_rules"].get(card)
    if rule is None:
        return ""
    n = rule.get("dice") or rule.get("crew") or rule.get("loot") or 0
    return {
        "cannon": f"Battle: add {n} d6 to your own dice",
        "reload": "Battle: re-roll any of your own dice",
        "madness": "Battle: a pirate you choose loses their "
                   + ("highest die" if n == 1 else f"{n} highest dice"),
        "storm": "Battle: every pirate re-rolls all of their dice",
        "stowaway": f"Buying: gain {kit.plural(n, 'green crew die', 'green crew dice')}",
        "pressgang": f"Buying: take {kit.plural(n, 'crew die', 'crew dice')} from a pirate",
        "treasure": f"Buying: take {kit.plural(n, 'cube')} of your choice from the bank",
        "infamy": f"Lay it face up: {rule.get('captain_infamy')} Infamy if you end as "
                  f"Captain, else {rule.get('infamy')}",
    }[rule["effect"]]


# -- the log: public events in words -------------------------------------------------------

#: Every public event of the log in words: the whole sentence the board's log shows, and
#: second, where the summary's list (the host page, the phones' news) says it shorter,
#: that short form. The whole sentence of a played card or a Cannon names the card or
#: its dice from the view (see :func:`event_line`).
EVENTS: dict[str, Any] = {
    "captain": (lambda e, names: f"{name_of(names, e['seat'])} rolled highest and is the "
                                 f"first Captain",
                "{seat} is the first Captain"),
    "roles": (lambda e, names: (f"Round {e['round']}: {name_of(names, e['first_mate'])} is "
                                f"First Mate, {name_of(names, e['quarter_master'])} Quarter "
                                f"Master and {name_of(names, e['scout'])} Scout"),
              lambda e, names: (f"{name_of(names, e['first_mate'])} First Mate, "
                                f"{name_of(names, e['quarter_master'])} Quarter "
                                f"Master, {name_of(names, e['scout'])} Scout")),
    "island": (lambda e, names: (f"{e['name']} is turned face up with "
                                 f"{cubes(e['loot'], 'no loot')}"),
               lambda e, names: f"{e['name']}: {loot_text(e['loot'])}"),
    "take": (lambda e, names: (f"Scout {name_of(names, e['seat'])} takes "
                               f"{a_cube(e['cube'])} cube"),
             lambda e, names: f"{name_of(names, e['seat'])} takes {kind_name(e['cube'])}"),
    "divided": (lambda e, names: "The Captain divides the loot: " + "; ".join(
        f"{name_of(names, s)} {cubes(share)}" for s, share in enumerate(e["shares"])
        if any(share)), "the loot is divided"),
    "decide": lambda e, names: (f"{name_of(names, e['seat'])} "
                                f"{'mutinies' if e['choice'] == MUTINY else 'defends'}"),
    "no_battle": (lambda e, names: (f"Everyone defends: no battle; Captain "
                                    f"{name_of(names, e['seat'])} conquers the island and "
                                    f"each pirate takes their share"),
                  "all defend: no battle"),
    "reveal": ("The cups are lifted: mutiny {mutiny} against {defend} for the Captain",
               "battle: mutiny {mutiny} v {defend}"),
    "tie": ("A tie at {total}: every die is rolled again", "a tie at {total}: re-roll"),
    "mutiny_won": (lambda e, names: (f"The mutiny wins: {name_of(names, e['seat'])} takes "
                                     f"the Captain card from {name_of(names, e['old'])}"),
                   lambda e, names: f"mutiny won: {name_of(names, e['seat'])} is Captain"),
    "captain_won": (lambda e, names: (f"Captain {name_of(names, e['seat'])}'s side wins "
                                      f"the battle"),
                    "{seat}'s side won"),
    "cup": (lambda e, names: "The cup is shared out: " + "; ".join(
        f"{name_of(names, s)} draws {cubes(got)}"
        for s, got in enumerate(e["got"]) if any(got)), "the cup is shared out"),
    "cannon": (None, lambda e, names: f"{name_of(names, e['seat'])}'s Cannon: {_faces(e)}"),
    "madness": (lambda e, names: (f"{name_of(names, e['seat'])} loses their highest die "
                                  f"({and_list([str(f) for f in e['faces']]) or 'none'})"),
                lambda e, names: (f"{name_of(names, e['seat'])} loses "
                                  f"{_faces(e) or 'nothing'}")),
    "play": (None, lambda e, names: f"{name_of(names, e['seat'])} plays a card"),
    "buy": lambda e, names: f"{name_of(names, e['seat'])} buys {ITEMS[e['item']]}",
    "trade": (lambda e, names: (f"{name_of(names, e['seat'])} trades "
                                f"{and_list([kind_name(k) for k in e['pay']])} for "
                                f"{a_cube(e['cube'])}"),
              lambda e, names: (f"{name_of(names, e['seat'])} trades "
                                f"{', '.join(map(kind_name, e['pay']))} for "
                                f"{kind_name(e['cube'])}")),
    "treasure": (lambda e, names: (f"{name_of(names, e['seat'])} digs up "
                                   f"{a_cube(e['cube'])} (Buried Treasure)"),
                 lambda e, names: (f"{name_of(names, e['seat'])} digs up "
                                   f"{kind_name(e['cube'])}")),
    "stowaway": (lambda e, names: (f"{name_of(names, e['seat'])} gains "
                                   f"{kit.plural(e['n'], 'green crew die', 'green crew dice')}"),
                 lambda e, names: (f"{name_of(names, e['seat'])} gains "
                                   f"{kit.plural(e['n'], 'crew die', 'crew dice')}")),
    "press": (lambda e, names: (f"{name_of(names, e['seat'])} press-gangs "
                                f"{kit.plural(e['n'], 'crew die', 'crew dice')} from "
                                f"{name_of(names, e['target'])}"),
              "{seat} press-gangs {n} of {target}'s crew"),
    "end": (lambda e, names: (f"The last island is taken: "
                              f"{kit.name_list(names, e['winners'])} "
                              f"{'wins' if len(e['winners']) == 1 else 'win'}"),
            lambda e, names: f"the end: {kit.name_list(names, e['winners'])} won"),
}


def _faces(event: dict[str, Any]) -> str:
    return " ".join(map(str, event["faces"]))


def event_line(event: dict[str, Any], names: list[str], state: View, *,
               short: bool = False) -> str:
    """A public event of the log in words: the whole sentence, or its short form."""
    kind = event["kind"]
    if not short and kind == "play":  # the card is public once played: name it
        return f"{name_of(names, event['seat'])} plays {card_name(state, event['card'])}"
    if not short and kind == "cannon":
        return (f"{name_of(names, event['seat'])}'s Cannon rolls "
                f"{and_list([str(f) for f in event['faces']])}")
    words = EVENTS[kind]
    full, brief = words if isinstance(words, tuple) else (words, words)
    return kit.word(event, names, {kind: brief if short else full})


def acting(state: View) -> list[int]:
    """Who the table is waiting for (public: the step and the roles say it)."""
    step, roles = state["step"], state["roles"]
    by_role = {ROLES: CAPTAIN, DIVIDE: CAPTAIN, LOOK: SCOUT, CHOOSE: SCOUT, ISLAND: SCOUT,
               TAKE: SCOUT, PEEK: FIRST_MATE, FINAL: SCOUT}
    if step in by_role and by_role[step] in roles:
        return [roles.index(by_role[step])]
    if step == DECIDE:
        return [roles.index(VOTE_ORDER[state["vote_turn"]])]
    if step == WINDOW and state["window"]:
        return [state["window"]["turn"]]
    if step in (RELOAD, MADNESS) and state["effect"]:
        return [state["effect"]["seat"]]
    if step == CUP and state["cup"] and not state["cup"]["done"]:
        cup = state["cup"]
        return [cup["takers"][cup["next"] % len(cup["takers"])]]
    if step in BUY_STEPS and state["buyer"] is not None:
        return [state["buyer"]]
    rolling = state["rolling"]
    if rolling and state["options"]["dice"] == "table":
        return [s for s, done in enumerate(rolling["done"]) if not done]
    return []


def headline(state: View, names: list[str]) -> str:
    """``Round 3 - Choosing roles: Captain Anne names the First Mate``."""
    step = state["step"]
    if step == OVER:
        final = state["final"]
        won = final["winners"]
        verb = "wins" if len(won) == 1 else "share the victory"
        return (f"{STEP_NAMES[OVER]}: {kit.name_list(names, won)} {verb} with "
                f"{final['total'][won[0]]} Infamy")
    doing = _doing(state, names)
    where = f"Round {state['round']} - " if state["round"] else ""
    return f"{where}{STEP_NAMES[step]}" + (f": {doing}" if doing else "")


def _doing(state: View, names: list[str]) -> str:
    step, seats = state["step"], acting(state)
    who = [name_of(names, s) for s in seats]
    one = who[0] if who else ""
    role = role_name(state, seats[0]) if seats else ""
    if step in (SETUP, RALLY, CANNON, RELOAD_ROLL, STORM, TIE, ROLLOFF) and \
            state["options"]["dice"] == "table" and who:
        return f"waiting for {and_list(who)} to enter their dice"
    if step == ROLES:
        assigned = sum(1 for r in state["roles"] if r in (FIRST_MATE, QUARTER_MASTER))
        return f"Captain {one} names the {'First Mate' if not assigned else 'Quarter Master'}"
    sums, ballot = state["sums"] or {}, state.get("ballot") or {}
    texts = {
        SETUP: "the highest roll of two dice is the first Captain",
        LOOK: f"Scout {one} looks at two face-down islands",
        CHOOSE: f"Scout {one} picks the island to raid",
        ISLAND: f"Scout {one} enters the loot printed on the island card",
        TAKE: f"Scout {one} takes one cube from the island",
        DIVIDE: f"Captain {one} shares out the island's loot on the loot mat",
        RALLY: "every pirate rolls their crew dice under the cup",
        PEEK: f"First Mate {one} may peek under one pirate's cup",
        DECIDE: f"{role} {one} decides to mutiny or to defend the Captain",
        BALLOT: (f"{ballot.get('ballots_in')} of {ballot.get('ballots_total')} ballots in "
                 f"from the Scout, the Quarter Master and the First Mate"),
        FINAL: f"Scout {one} keeps or changes their decision",
        WINDOW: (f"mutiny {sums.get(MUTINY)} against {sums.get(DEFEND)} for the Captain; "
                 f"{one} may play a battle card"),
        CANNON: "the Cannon's die is rolled",
        RELOAD: f"{one} picks the dice to re-roll",
        RELOAD_ROLL: "the picked dice are rolled again",
        MADNESS: f"{one} picks the pirate who loses their highest die",
        STORM: "every pirate rolls all of their dice again",
        TIE: "both sides are equal, so every die is rolled again",
        ROLLOFF: "the top mutineers are tied and roll a d6 each for Captain",
        CUP: f"{one} draws a cube from the cup",
        BUY: f"{one} is buying",
        TREASURE: f"{one} takes cubes of their choice from the bank",
        PRESS: f"{one} picks whose crew to press-gang",
    }
    return texts.get(step, "")


def winner_line(won: dict[str, Any], names: list[str]) -> str:
    """``The mutineers win: Bonny becomes Captain and takes the island``."""
    if won["side"] == MUTINY:
        return (f"The mutineers win: {name_of(names, won['seat'])}, the strongest mutineer, "
                f"becomes Captain and takes the island")
    return f"Captain {name_of(names, won['seat'])}'s side wins and the Captain takes the island"


def blow_by_blow(state: View, names: list[str], fight: dict[str, Any]) -> list[str]:
    """Every public fact of the battle in order, in as few lines as a person would say
    it: passes in a row in one line, a card with what it did, the shares kept together.
    (The cup's draws are told by the cup's own part.)"""
    lines: list[str] = []
    passes: list[int] = []
    kept: list[str] = []
    last = ""
    for event in fight["events"]:
        kind = event["kind"]
        if kind != "pass" and passes:
            lines.append(_passed(names, passes))
            passes = []
        if kind == "pass":
            passes.append(event["seat"])
        elif kind == "kept" and any(event["loot"]):
            kept.append(f"{name_of(names, event['seat'])} {cubes(event['loot'])}")
        elif kind in EFFECTS and last == "play":
            lines[-1] += ": " + EFFECTS[kind](event, names)
        elif kind not in ("cup", "kept") and (line := _battle_event(state, names, event)):
            lines.append(line)
        last = kind
    if passes:
        lines.append(_passed(names, passes))
    if kept:
        lines.append("The defenders keep their shares: " + "; ".join(kept))
    return lines


def _passed(names: list[str], seats: list[int]) -> str:
    return f"{kit.name_list(names, seats)} {'passes' if len(seats) == 1 else 'pass'}"


def _rolled_again(event: dict[str, Any], names: list[str]) -> str:
    return "every die is rolled again: " + "; ".join(
        f"{name_of(names, s)} {faces_words(d)}" for s, d in enumerate(event["dice"]) if d)


#: What a battle card did, said after "Anne plays Cannon: ".
EFFECTS = {
    "cannon": lambda e, names: f"adds {faces_words([[6, f] for f in e['faces']])}",
    "reload": lambda e, names: (f"re-rolls {faces_words(e['before'])}, now "
                                f"{faces_words(e['after'])}"),
    "madness": lambda e, names: (f"{name_of(names, e['target'])} loses "
                                 f"{faces_words(e['removed'])}"),
    "rerolled": _rolled_again,
}


def _battle_event(state: View, names: list[str], e: dict[str, Any]) -> str:
    kind = e["kind"]
    if kind == "reveal":
        mutineers = [s for s, d in enumerate(e["decisions"]) if d == MUTINY]
        return (f"{kit.name_list(names, mutineers)} "
                f"{'mutinies' if len(mutineers) == 1 else 'mutiny'}; the cups are lifted: "
                f"mutiny {e['sums'][MUTINY]} against {e['sums'][DEFEND]} for the Captain")
    if kind == "play":
        return f"{name_of(names, e['seat'])} plays {card_name(state, e['card'])}"
    if kind == "rerolled":
        return "E" + _rolled_again(e, names)[1:]
    if kind == "sums":
        tie = " - a tie" if e["sums"][MUTINY] == e["sums"][DEFEND] else ""
        return (f"The cards are done: mutiny {e['sums'][MUTINY]} against "
                f"{e['sums'][DEFEND]} for the Captain{tie}")
    if kind == "rolloff":
        return "Roll-off for Captain: " + and_list(
            [f"{name_of(names, s)} {f}" for s, f in enumerate(e["faces"]) if f is not None])
    if kind == "won":
        return winner_line(e, names)
    return ""  # cannon, reload, madness: told with the card that made them


def sources_line(final: dict[str, Any], s: int) -> str:
    words = [f"{kit.plural(final['islands'][s], 'island')} ({final['islands'][s]})"]
    if final["fierceness"][s]:
        words.append(f"Fierceness in Battle with {kit.plural(final['cannons'][s], 'Cannon')}"
                     f" ({final['fierceness'][s]})")
    if final["fierceness"][s] and final["fierceness"][s] < FIERCE_INFAMY:
        words[-1] = words[-1].replace("Fierceness", "shared Fierceness")
    if final["drunk"][s]:
        shared = "shared " if final["drunk"][s] < DRUNK_INFAMY else ""
        words.append(f"{shared}Notorious Drunk with {final['rum'][s]} Rum "
                     f"({final['drunk'][s]})")
    if final["cards"][s]:
        words.append(f"Infamy cards ({final['cards'][s]})")
    return f"{', '.join(words)} = {final['total'][s]} Infamy"


