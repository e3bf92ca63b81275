"""What the table shows of a Mutiny (``mit-mutiny``) match, as board parts: the board
(from the public view: the map, the island in play and the loot mat, every pirate's
ledger and role, the decisions, the crew dice and the battle blow by blow, the cup
draws, the supplies, the story) and a seat's panel (from its own view: the dice under
its cup, its hand, its peek, the islands it has looked at, secret ballots).

Words are whole sentences in the game's own terms, never a step id; nothing is cut.
Rulings: see docs/games/mit-mutiny.md ("What the table shows").
"""
from __future__ import annotations

from typing import Any

from companion.engine import board as b
from companion.games import kit

from .core import (
    BALLOT, BUY_STEPS, CHOOSE, DEAL, DECIDE, DEFEND, DIVIDE, FINAL, ISLAND, KIND_NAMES, LOOK,
    MAP_SPACES, MUTINY, OVER, PEEK, PRICES, QUARTER_MASTER, RALLY, ROLES, SCOUT, SETUP,
    TAKE,
)
from .story import (
    STEP_NAMES, acting, and_list, blow_by_blow, card_name, card_words, cubes, event_line,
    headline, kind_name, name_of, role_name, seat_with, sources_line, total, winner_line,
)

View = dict[str, Any]
Part = dict[str, Any]

#: Steps of a round before its crew dice are rolled.
BEFORE_DICE = frozenset({ROLES, LOOK, CHOOSE, ISLAND, TAKE, DIVIDE})
SIDE_NAMES = {MUTINY: "The mutineers", DEFEND: "The Captain's side"}


# -- the board -----------------------------------------------------------------------------

def board(view: View) -> list[Part]:
    """The table's board, from the public view only."""
    state, names = view["state"], view["names"]
    if state["step"] == DEAL:
        return [b.headline(STEP_NAMES[DEAL])]
    parts = [b.headline(headline(state, names)), _round_facts(state, names)]
    parts += _crew(state, names)
    parts += _island_parts(state, names)
    parts += _dice_parts(state, names)
    if state["step"] in BUY_STEPS:
        parts.append(_buying(state, names))
    parts += _pirates(state, names)
    parts.append(_supply(state))
    if state["step"] == OVER:
        parts += end_story(view)
    parts.append(b.log([event_line(e, names, state) for e in state["log"]],
                       title="What happened"))
    return parts


def _round_facts(state: View, names: list[str]) -> Part:
    items: list[tuple[str, Any]] = [("Step", STEP_NAMES[state["step"]])]
    if state["round"]:
        items.insert(0, ("Round", state["round"]))
    items.append(("Islands conquered", f"{state['islands_done']} of {state['islands_total']}"))
    if state["captain"] is not None:
        items.append(("Captain", name_of(names, state["captain"])))
    return b.facts(items)


# -- the crew: roles and decisions ---------------------------------------------------------

def _crew(state: View, names: list[str]) -> list[Part]:
    """The four pirates with their roles and, as the rules make them public, their
    decisions; a ballot box while a secret ballot runs."""
    turn = acting(state)
    notes = _decision_notes(state)
    people = [b.person(s, names[s], role=role_name(state, s), note=notes[s], turn=s in turn,
                       winner=state["step"] == OVER and s in state["final"]["winners"])
              for s in range(len(names))]
    parts = [b.seats(people, title="The crew")]
    ballot = state.get("ballot")
    if state["step"] in (BALLOT, FINAL) and ballot and "cast" not in ballot:
        parts.append(b.ballots(ballot["ballots_in"], ballot["ballots_total"],
                               title="Secret ballots: mutiny or defend"))
    return parts


def _decision_notes(state: View) -> list[str]:
    colours = [f"{p['color']} mat" for p in state["pirates"]]
    step = state["step"]
    if step in BEFORE_DICE or step in (SETUP, RALLY, PEEK) or not any(state["decisions"]):
        return colours
    notes = []
    for seat, colour in enumerate(colours):
        choice = state["decisions"][seat]
        if choice == MUTINY:
            word = "mutinies"
        elif choice == DEFEND:
            word = "defends"
        else:
            word = "deciding" if step in (DECIDE, BALLOT, FINAL) else ""
        if seat == seat_with(state, SCOUT) and state["changed"]:
            word += ", changed their mind"
        notes.append(f"{colour}, {word}" if word else colour)
    return notes


# -- the map, the island, the loot mat -----------------------------------------------------

def _island_parts(state: View, names: list[str]) -> list[Part]:
    parts = [_map(state, names)]
    island = state["island"]
    if island is None:
        return parts
    space = f"Space {island['space'] + 1}" if island.get("space") is not None else ""
    owner = _conqueror(state)
    label = ", ".join(filter(None, [space, f"conquered by {name_of(names, owner)}"
                                    if owner is not None else ""]))
    inside = [b.cards([b.card(island["name"], detail=cubes(island["loot"], "no loot"),
                              kind="island", state="open", label=label)],
                      title="The island in play")]
    facts = [(f"{name} still on the island", n)
             for name, n in zip(KIND_NAMES, state["on_island"]) if n]
    if state["scout_took"]:
        scout = seat_with(state, SCOUT)
        facts.append(("The Scout took", f"a {kind_name(state['scout_took'])}"
                      + (f" ({name_of(names, scout)})" if scout is not None else "")))
    if facts:
        inside.append(b.facts(facts))
    shares = state["shares"]
    if any(any(share) for share in shares):
        inside.append(b.ledger(list(KIND_NAMES), names, shares,
                               title="The loot mat: each pirate's share"))
    parts.append(b.group(*inside, title=island["name"], layout="row"))
    return parts


def _conqueror(state: View) -> int | None:
    """The pirate who has conquered the island in play (None: not yet)."""
    island = state["island"]
    return None if island is None else next(
        (s for s, p in enumerate(state["pirates"])
         if p["islands"] and p["islands"][-1] == island["name"]), None)


def _map(state: View, names: list[str]) -> Part:
    """The twelve island spaces: face-down islands (who has looked at which), the
    island in play face up, empty spaces. Physical islands: the count only."""
    left = state["islands_total"] - state["islands_done"]
    title = f"The map: {kit.plural(left, 'island')} left to raid"
    spaces = state["map"]
    if spaces is None:
        return b.facts([("Islands left to raid", left)], title="The map")
    island = state["island"] or {}
    owner = _conqueror(state)
    cards = []
    for space in range(MAP_SPACES):
        where = f"Space {space + 1}"
        if spaces["face_down"][space]:
            seen = [s for s in range(len(names)) if space in spaces["seen"][s]]
            looked = space in spaces["looked"]
            note = "the Scout is looking" if looked and state["step"] in (LOOK, CHOOSE) \
                else (f"seen by {kit.name_list(names, seen)}" if seen else "")
            cards.append(b.card(back="Island", label=f"{where}: {note}" if note else where,
                                state="held" if looked else ""))
        elif island.get("space") == space:
            now = "in play" if owner is None else f"conquered by {name_of(names, owner)}"
            cards.append(b.card(island["name"], detail=cubes(island["loot"], "no loot"),
                                kind="island", state="open", label=f"{where}: {now}"))
        else:
            cards.append(b.card("Empty", state="taken", label=where))
    return b.cards(cards, title=title)


# -- the crew dice and the battle ----------------------------------------------------------

def _dice_parts(state: View, names: list[str]) -> list[Part]:
    step, fight = state["step"], state["battle"]
    this_round = fight is not None and fight.get("round") == state["round"]
    if step in BEFORE_DICE or step == SETUP:
        parts = _setup_rolls(state, names) if state["round"] <= 1 else []
        if fight and not this_round:
            parts.append(_last_battle(state, names, fight))
        return parts
    if this_round and fight["fought"]:
        return [_battle(state, names, fight)]
    parts = [_cups(state, names)]
    if this_round:  # everyone defended
        parts.append(b.text("Everyone defended the Captain: no battle, the dice stay "
                            "under the cups, and each pirate took their share.",
                            title="No battle", tone="note"))
    return parts


def _setup_rolls(state: View, names: list[str]) -> list[Part]:
    rolls = state["setup_rolls"]
    if not rolls:
        return []
    lines = [and_list([f"{name_of(names, s)} {sum(faces)}" for s, faces in enumerate(roll)
                   if faces]) for roll in rolls]
    return [b.text(*[f"Roll {n}: {line}" for n, line in enumerate(lines, 1)],
                   title="Rolls for the first Captain")]


def _cups(state: View, names: list[str]) -> Part:
    """Every pirate's crew dice under the cup: how many, never what they show."""
    rolling = state["rolling"]
    counts = rolling["count"] if rolling and "count" in rolling else state["dice_count"]
    done = rolling["done"] if rolling else [True] * len(names)
    waiting = state["options"]["dice"] == "table" and state["step"] == RALLY
    parts = []
    for seat in range(len(names)):
        n = counts[seat]
        d8 = state["roles"][seat] == QUARTER_MASTER
        status = "" if not waiting else (", rolled" if done[seat] else ", rolling")
        parts.append(b.dice([None] * n, tones=["black" if d8 and i == n - 1 else ""
                                                for i in range(n)],
                            title=f"{names[seat]}{status}", seat=seat,
                            hidden=(f"{kit.plural(n, 'die', 'dice')} under the cup"
                                    + (", the black one a d8" if d8 else ""))))
    return b.group(*parts, title="Crew dice under the cups", layout="row")


def _dice_row(dice: list[list[int]], title: str, seat: int) -> Part:
    return b.dice([face for _, face in dice],
                  tones=["black" if sides == 8 else "" for sides, _ in dice],
                  title=title, seat=seat)


def _battle(state: View, names: list[str], fight: dict[str, Any]) -> Part:
    """The battle: both sides' dice and sums, each card, re-roll and roll-off, the
    winner, and the cup draws."""
    sums = state["sums"] or fight["sums"] or {MUTINY: 0, DEFEND: 0}
    won = next((e for e in fight["events"] if e["kind"] == "won"), None)
    captain = won["old"] if won else state["captain"]
    facts: list[tuple[str, Any]] = [("Mutiny", sums[MUTINY]),
                                    ("The Captain's side", sums[DEFEND])]
    if fight["ties"]:
        facts.append(("Ties", fight["ties"]))
    if won:
        facts.append(("Winner", "The mutineers" if won["side"] == MUTINY
                      else "The Captain's side"))
        if won["side"] == MUTINY:
            facts.append(("New Captain", name_of(names, won["seat"])))
    parts = [b.facts(facts, title="The sums")]
    dice = state["dice"] or [[] for _ in names]
    for side in (MUTINY, DEFEND):
        seats = [s for s in range(len(names)) if state["decisions"][s] == side]
        rows = [_dice_row(dice[s], f"{names[s]}{' (Captain)' if s == captain else ''}: "
                                   f"{total(dice[s])}", s) for s in seats]
        parts.append(b.group(*rows, title=f"{SIDE_NAMES[side]}: {sums[side]}"))
    parts.append(b.text(*blow_by_blow(state, names, fight), title="Blow by blow"))
    if state["cup"] and state["cup"]["start"] and sum(state["cup"]["start"]):
        parts.append(_cup(state, names))
    return b.group(*parts, title=f"The battle of round {fight['round']}", layout="row")


def _cup(state: View, names: list[str]) -> Part:
    """The cup: what went in, who draws in which order, and every draw."""
    cup = state["cup"]
    facts = [("In the cup", cubes(cup["start"])),
             ("Drawing in turn", kit.name_list(names, cup["takers"]))]
    if not cup["done"]:
        facts.append(("Still in the cup", sum(cup["cubes"])))
    got = [f"{name_of(names, s)} drew {cubes(cup['got'][s])}" for s in cup["takers"]]
    order = [f"{n}. {name_of(names, seat)}: {kind_name(kind)}"
             for n, (seat, kind) in enumerate(cup["draws"], 1)]
    return b.group(b.facts(facts), b.text(*got, title="What each drew"),
                   b.text(", ".join(order) if order else "Nothing drawn yet.",
                          title="The draws in order"),
                   title="The cup draws")


def _last_battle(state: View, names: list[str], fight: dict[str, Any]) -> Part:
    if not fight["fought"]:
        return b.text(f"Round {fight['round']}: everyone defended, no battle.",
                      title="Last round")
    won = next((e for e in fight["events"] if e["kind"] == "won"), None)
    sums = fight["sums"] or {}
    line = (f"Round {fight['round']}: mutiny {sums.get(MUTINY)} against "
            f"{sums.get(DEFEND)} for the Captain")
    return b.text(line + (f". {winner_line(won, names)}." if won else "."),
                  title="Last round's battle")


# -- buying, the pirates, the supplies -----------------------------------------------------

def _buying(state: View, names: list[str]) -> Part:
    order = state["buy_order"]
    lines = [f"Buying in turn: {kit.name_list(names, order)}"] if order else []
    need_rum = " (only with more Rum than crew dice)" if state["options"]["crew_needs_rum"] \
        else ""
    for item, word in (("rum", "A Rum"), ("crew", "A green crew die"),
                       ("card", "A Mystery card")):
        lines.append(f"{word} costs {cubes(list(PRICES[item]))}"
                     + (need_rum if item == "crew" else ""))
    lines.append("Any 3 cubes trade for 1 cube from the bank")
    return b.text(*lines, title="The player mat: prices")


def _pirates(state: View, names: list[str]) -> list[Part]:
    pirates = state["pirates"]
    standing = state["infamy"]
    turn = acting(state)
    winners = state["final"]["winners"] if state["step"] == OVER else []
    roles = [role_name(state, s) for s in range(len(names))]
    rows = [[p["rum"], f"{p['red']} red, {p['green']} green", p["cards"], len(p["islands"]),
             p["cannons"], standing["total"][s]] for s, p in enumerate(pirates)]
    parts = [b.ledger(["Rum", "Crew dice", "Cards in hand", "Islands", "Cannons fired",
                       "Infamy so far"], names, rows, title="The pirates", turn=turn,
                      winners=winners, notes=roles),
             b.ledger(list(KIND_NAMES), names, [p["loot"] for p in pirates],
                      title="Loot on each player mat", turn=turn, winners=winners)]
    laid = [b.card(card_name(state, c), detail=card_words(state, c), kind="infamy",
                   label=names[s], seat=s, state="played")
            for s, p in enumerate(pirates) for c in p["played"]
            if state["card_rules"].get(c, {}).get("effect") == "infamy"]
    if laid:
        parts.append(b.cards(laid, title="Cards laid face up"))
    return parts


def _supply(state: View) -> Part:
    supply = state["supply"]
    items = [("Rum", supply["rum"]), ("Green crew dice", supply["green"]),
             ("Mystery cards", supply["deck"])]
    items += [(name, n) for name, n in zip(KIND_NAMES, supply["bank"])]
    return b.facts(items, title="The supply and the bank")


# -- the end -------------------------------------------------------------------------------

def end_story(view: View) -> list[Part]:
    """The final Infamy with each pirate's sources, and every secret opened."""
    state, names = view["state"], view["names"]
    final = state["final"]
    lines = [f"{names[s]}: {sources_line(final, s)}" for s in range(len(names))]
    rows = [[final["islands"][s], final["fierceness"][s], final["drunk"][s], final["cards"][s],
             final["total"][s]] for s in range(len(names))]
    notes = [f"{kit.plural(final['cannons'][s], 'Cannon')}, {final['rum'][s]} Rum"
             for s in range(len(names))]
    won = final["winners"]
    title = (f"{kit.name_list(names, won)} {'wins' if len(won) == 1 else 'share the victory'}"
             f" with {final['total'][won[0]]} Infamy!")
    parts = [b.result(won, names, title=title, lines=lines, scores=final["total"],
                      score_label="Infamy"),
             b.ledger(["Islands", "Fierceness in Battle", "Notorious Drunk", "Infamy cards",
                       "Total"], names, rows, title="The final Infamy", winners=won,
                      notes=notes)]
    return parts + _opened(state, names)


def _opened(state: View, names: list[str]) -> list[Part]:
    opened = state.get("opened")
    if not opened:
        return []
    hands = [b.card(card_name(state, c), detail=card_words(state, c), label=names[s],
                    seat=s) for s, hand in enumerate(opened["hands"]) for c in hand]
    parts = [b.cards(hands, title="Opened at the end: the cards left in hand",
                     empty="Nobody held a card at the end.")]
    lines = []
    if opened["dice"] is not None:
        parts.append(b.group(*[_dice_row(d, f"{names[s]}: {total(d)}", s)
                               for s, d in enumerate(opened["dice"])],
                             title="Opened at the end: the last roll, never revealed",
                             layout="row"))
    mate = opened["first_mate"]
    if mate is not None:
        peek = opened["peek"]
        lines.append(f"In the last round First Mate {name_of(names, mate)} "
                     + (f"peeked under {name_of(names, peek)}'s cup." if peek is not None
                        else "did not peek."))
    lines.append(f"{kit.plural(opened['deck'], 'mystery card')} were never bought.")
    parts.append(b.text(*lines, title="Opened at the end"))
    return parts


# -- a seat's panel ------------------------------------------------------------------------

def panel(view: View, seat: int) -> list[Part]:
    """What only this seat knows, drawn properly: its dice under the cup, the dice it
    is entering, its peek, secret ballots, its hand and the islands it has seen."""
    state, names = view["state"], view["names"]
    me = state.get("me")
    if me is None:
        return []
    parts: list[Part] = []
    if me.get("dice"):
        parts.append(_dice_row(me["dice"], f"Your dice under the cup: {total(me['dice'])}",
                               seat))
    entering = me.get("entering")
    if entering:
        faces = list(entering["got"]) + [None] * (len(entering["need"]) - len(entering["got"]))
        parts.append(b.dice(faces, tones=["black" if sides == 8 else ""
                                          for sides in entering["need"]],
                            title="Your dice as entered", seat=seat,
                            hidden="Roll under your cup, then enter each die"))
    if me.get("peek"):
        peek = me["peek"]
        parts.append(_dice_row(peek["dice"], f"Under {name_of(names, peek['seat'])}'s cup "
                                             f"(your peek): {total(peek['dice'])}",
                               peek["seat"]))
    parts += _ballot_parts(state, names, me)
    hand = [b.card(card_name(state, c), detail=card_words(state, c),
                   kind=state["card_rules"].get(c, {}).get("effect", ""), seat=seat)
            for c in me["hand"]]
    parts.append(b.cards(hand, title="Your hand", empty="No cards in hand"))
    seen = [b.card(s["name"], detail=cubes(s["loot"], "no loot"), kind="island",
                   label=f"Space {s['space'] + 1}") for s in me.get("islands_seen", [])]
    if seen:
        parts.append(b.cards(seen, title="Face-down islands you have looked at"))
    return parts


def _ballot_parts(state: View, names: list[str], me: dict[str, Any]) -> list[Part]:
    parts = []
    mine = (state.get("ballot") or {}).get("mine")
    if mine:
        parts.append(b.text(f"You voted to {mine[0]}" if mine[0] == MUTINY else
                            "You voted to defend the Captain", title="Your secret ballot"))
    if me.get("ballots"):
        lines = [f"{name_of(names, s)}: {'mutiny' if v == MUTINY else 'defend'}"
                 for s, v in enumerate(me["ballots"]) if v]
        parts.append(b.text(*lines, title="The secret ballots (you decide last)"))
    return parts
