"""What the table shows of a Mutiny (``mit-mutiny``) match: the summary (the step, whose
turn, Infamy so far, the last events in short) and, as board parts, the board
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
from companion.games.mit_mutiny import show
from companion.games.mit_mutiny.data import (
    BALLOT,
    BUY_STEPS,
    CHOOSE,
    DEAL,
    DECIDE,
    DEFEND,
    DIVIDE,
    FINAL,
    ISLAND,
    KIND_NAMES,
    LOOK,
    MAP_SPACES,
    MUTINY,
    OVER,
    PEEK,
    PRICES,
    QUARTER_MASTER,
    RALLY,
    ROLES,
    SCOUT,
    SETUP,
    TAKE,
    WINDOW,
)
from companion.games.mit_mutiny.words import (
    STEP_NAMES,
    a_cube,
    acting,
    and_list,
    blow_by_blow,
    card_name,
    card_words,
    cubes,
    event_line,
    headline,
    kind_name,
    name_of,
    role_name,
    seat_with,
    sources_line,
    total,
    winner_line,
)

View = dict[str, Any]
Part = dict[str, Any]

#: Steps of a round before its crew dice are rolled.
BEFORE_DICE = frozenset({ROLES, LOOK, CHOOSE, ISLAND, TAKE, DIVIDE})
SIDE_NAMES = {MUTINY: "The mutineers", DEFEND: "The Captain's side"}


# -- the board -----------------------------------------------------------------------------

def summary(view: View) -> dict[str, Any]:
    """The table display: the step, whose turn it publicly is, Infamy so far (islands)
    or the final Infamy, and the last public events."""
    state, names = view["state"], view["names"]
    final = state["final"]
    scores = final["total"] if final else [len(p["islands"]) for p in state["pirates"]]
    turn = []
    if state["step"] in BUY_STEPS and state["buyer"] is not None:
        turn = [state["buyer"]]
    elif state["step"] == WINDOW and state["window"] is not None:
        turn = [state["window"]["turn"]]
    return {"headline": show.title(state), "turn": turn, "scores": scores,
            "score_label": "Infamy" if final else "Islands",
            "lines": [event_line(e, names, state, short=True) for e in state["log"]]}


def board(view: View) -> list[Part]:
    """The table's board, from the public view only: what the table is doing first
    (the island and its loot mat, the cups, the battle, the buying), then the
    pirates' ledgers and the map; at the end, the final Infamy and the secrets."""
    state, names = view["state"], view["names"]
    step = state["step"]
    if step == DEAL:
        return [b.headline(STEP_NAMES[DEAL])]
    parts = [b.headline(headline(state, names))]
    if step == OVER:
        parts += end_story(view)
    if step in (SETUP, ROLES, LOOK, CHOOSE, ISLAND):  # the map is what matters now
        parts += [*_map(state, names), _supply(state), *_now(state, names),
                  *_pirates(state, names)]
    else:
        parts += _now(state, names) + _pirates(state, names)
        if step in BUY_STEPS:
            parts.append(_prices(state, names))
        parts += [_supply(state), *_map(state, names)[::-1]]
    parts.append(b.log([event_line(e, names, state) for e in state["log"]],
                       title="What happened"))
    return parts


def _supply(state: View) -> Part:
    supply = state["supply"]
    items = [("Rum", supply["rum"]), ("Green crew dice", supply["green"]),
             ("Mystery cards", supply["deck"])]
    items += [(name, n) for name, n in zip(KIND_NAMES, supply["bank"], strict=True)]
    return b.facts(items, title="The supply and the bank")


def _now(state: View, names: list[str]) -> list[Part]:
    """What the table is busy with this round, in the order it happens."""
    step, fight = state["step"], state["battle"]
    this_round = fight is not None and fight.get("round") == state["round"]
    if step == SETUP or state["round"] <= 1 and step in BEFORE_DICE:
        parts = _setup_rolls(state, names)
    else:
        parts = []
    if step in BEFORE_DICE:
        if fight and not this_round and step in (ROLES, LOOK, CHOOSE, ISLAND):
            parts.append(_last_battle(state, names, fight))
        return parts + _island(state, names)
    if this_round and fight["fought"]:
        parts.append(_battle(state, names, fight))
    elif step in (SETUP, OVER):
        return parts
    else:
        inside = [_cups(state, names)]
        ballot = state.get("ballot")
        if step in (BALLOT, FINAL) and ballot and "cast" not in ballot:
            inside.append(b.ballots(ballot["ballots_in"], ballot["ballots_total"],
                                    title="Secret ballots: mutiny or defend"))
        title = {RALLY: STEP_NAMES[RALLY], PEEK: STEP_NAMES[PEEK]}.get(step, "Mutiny or defend")
        if this_round:  # everyone defended
            title = "No battle this round"
            inside.append(b.text("Everyone defended the Captain: the dice stay under the "
                                 "cups and each pirate took their share.", tone="note"))
        parts.append(b.group(*inside, title=title))
    return parts + _island(state, names)


def _setup_rolls(state: View, names: list[str]) -> list[Part]:
    rolls = state["setup_rolls"]
    if not rolls:
        return []
    lines = [and_list([f"{name_of(names, s)} {sum(faces)}" for s, faces in enumerate(roll)
                       if faces]) for roll in rolls]
    return [b.text(*[f"Roll {n}: {line}" for n, line in enumerate(lines, 1)],
                   title="Rolls for the first Captain")]


# -- the crew: roles and decisions ---------------------------------------------------------

def _notes(state: View) -> list[str]:
    """Each pirate's role and, as the rules make it public, their decision."""
    step = state["step"]
    deciding = step in (DECIDE, BALLOT, FINAL)
    shown = not (step in BEFORE_DICE or step in (SETUP, RALLY, PEEK))
    notes = []
    for seat in range(len(state["roles"])):
        words = [role_name(state, seat)]
        choice = state["decisions"][seat] if shown else None
        if choice:
            words.append("mutinies" if choice == MUTINY else "defends")
        elif shown and deciding:
            words.append("deciding")
        if seat == seat_with(state, SCOUT) and state["changed"]:
            words.append("changed their mind")
        notes.append(", ".join(w for w in words if w))
    return notes


# -- the map, the island, the loot mat -----------------------------------------------------

def _island(state: View, names: list[str]) -> list[Part]:
    """The island in play while its cubes are on it or on the loot mat: its printed
    loot, what is still on it, the Scout's cube, and each pirate's share."""
    island = state["island"]
    shares = state["shares"]
    if island is None or not any(state["on_island"]) and not any(map(any, shares)):
        return []  # its cubes are all on the mats: the map tells where it went
    facts: list[tuple[str, Any]] = [("Printed on the card", cubes(island["loot"], "no loot"))]
    if any(state["on_island"]):
        facts.append(("Still on the island", cubes(state["on_island"])))
    if state["scout_took"]:
        scout = seat_with(state, SCOUT)
        facts.append(("The Scout took", a_cube(state["scout_took"])
                      + (f" ({name_of(names, scout)})" if scout is not None else "")))
    inside = [b.facts(facts)]
    if any(map(any, shares)):
        inside.append(b.ledger(list(KIND_NAMES), names, shares,
                               title="The loot mat: each pirate's share"))
    where = f" (space {island['space'] + 1})" if island.get("space") is not None else ""
    return [b.group(*inside, title=f"{island['name']}{where}, the island in play",
                    layout="row")]


def _conqueror(state: View) -> int | None:
    """The pirate who has conquered the island in play (None: not yet)."""
    island = state["island"]
    return None if island is None else next(
        (s for s, p in enumerate(state["pirates"])
         if p["islands"] and p["islands"][-1] == island["name"]), None)


def _map(state: View, names: list[str]) -> list[Part]:
    """The twelve island spaces (face-down islands, the island in play face up, empty
    spaces) and the islands' facts (who has looked at which). Physical islands: the
    count only."""
    left = state["islands_total"] - state["islands_done"]
    spaces = state["map"]
    if spaces is None:
        return [b.facts([("Islands left to raid", left)], title="The map")]
    island = state["island"] or {}
    cells: list[Part | None] = []
    for space in range(MAP_SPACES):
        if spaces["face_down"][space]:
            cells.append(b.card(back="Island", label=f"Space {space + 1}",
                                state="held" if space in spaces["looked"] else ""))
        elif island.get("space") == space:
            cells.append(b.card(island["name"], kind="island", state="open",
                                label=f"Space {space + 1}"))
        else:
            cells.append(None)
    facts: list[tuple[str, Any]] = [("Face down", sum(spaces["face_down"])),
                                    ("Left to raid", left)]
    if island.get("space") is not None:
        owner = _conqueror(state)
        facts.append(("In play", f"{island['name']} on space {island['space'] + 1}" + (
            f", conquered by {name_of(names, owner)}" if owner is not None else "")))
    if spaces["looked"] and state["step"] in (LOOK, CHOOSE):
        facts.append(("The Scout is looking at", "space " + and_list(
            [str(space + 1) for space in spaces["looked"]])))
    seen = [f"space {space + 1} by {kit.name_list(names, who)}"
            for space in range(MAP_SPACES) if spaces["face_down"][space]
            and (who := [s for s in range(len(names)) if space in spaces["seen"][s]])]
    if seen:
        facts.append(("Looked at", "; ".join(seen)))
    return [b.grid(cells, rows=1, cols=MAP_SPACES, title="The map: island spaces 1 to 12",
                   col_names=[str(n) for n in range(1, MAP_SPACES + 1)]),
            b.facts(facts, title="The islands")]


# -- the crew dice and the battle ----------------------------------------------------------

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
    if state["cup"] and sum(state["cup"]["start"]):
        parts.append(_cup(state, names))
    return b.group(*parts, title=f"The battle of round {fight['round']}", layout="row")


def _cup(state: View, names: list[str]) -> Part:
    """The cup: what went in, who draws in which order, and every draw."""
    cup = state["cup"]
    lines = [f"In the cup: {cubes(cup['start'])}, drawn in turn by "
             f"{kit.name_list(names, cup['takers'])}"]
    lines += [f"{name_of(names, s)} drew {cubes(cup['got'][s])}" for s in cup["takers"]]
    if not cup["done"]:
        lines.append(f"Still in the cup: {kit.plural(sum(cup['cubes']), 'cube')}")
    if cup["draws"]:
        lines.append("In order: " + ", ".join(
            f"{n}. {name_of(names, seat)} {kind_name(kind)}"
            for n, (seat, kind) in enumerate(cup["draws"], 1)))
    return b.text(*lines, title="The cup draws")


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


# -- buying, the pirates --------------------------------------------------------------------

def _prices(state: View, names: list[str]) -> Part:
    crew = "1 Orange, 2 Gold and 1 Plantain"
    if state["options"]["crew_needs_rum"]:
        crew += ", with more Rum than crew dice"
    order = state["buy_order"]
    items = [("Buying in turn", kit.name_list(names, order))] if order else []
    items += [("A Rum", cubes(list(PRICES["rum"]))), ("A green crew die", crew),
              ("A Mystery card", cubes(list(PRICES["card"]))),
              ("A trade", "any 3 cubes for 1 from the bank")]
    return b.facts(items, title="Buying: the prices on the player mat")


def _pirates(state: View, names: list[str]) -> list[Part]:
    pirates = state["pirates"]
    turn = acting(state)
    winners = state["final"]["winners"] if state["step"] == OVER else []
    rows = [[p["rum"], f"{p['red']} + {p['green']}", p["cards"], len(p["islands"]),
             p["cannons"], state["infamy"]["total"][s]] for s, p in enumerate(pirates)]
    ledgers = [b.ledger(["Rum", "Crew dice (red + green)", "Cards in hand", "Islands",
                         "Cannons fired", "Infamy so far"], names, rows, turn=turn,
                        winners=winners, notes=_notes(state)),
               b.ledger(list(KIND_NAMES), names, [p["loot"] for p in pirates],
                        title="Loot cubes on each player mat", turn=turn, winners=winners)]
    laid = [b.card(card_name(state, c), detail=card_words(state, c), kind="infamy",
                   label=names[s], seat=s, state="played")
            for s, p in enumerate(pirates) for c in p["played"]
            if state["card_rules"].get(c, {}).get("effect") == "infamy"]
    if laid:
        ledgers.append(b.cards(laid, title="Cards laid face up"))
    return [b.group(*ledgers, title="The pirates")]


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
             b.group(b.ledger(["Islands", "Fierceness in Battle", "Notorious Drunk",
                               "Infamy cards", "Total"], names, rows, winners=won,
                              notes=notes), title="The final Infamy")]
    return parts + _opened(state, names)


def _opened(state: View, names: list[str]) -> list[Part]:
    """Every secret still kept at the end: the hands, the last roll if no battle
    lifted the cups, the last First Mate's peek."""
    opened = state.get("opened")
    if not opened:
        return []
    lines = [f"Left in {names[s]}'s hand: " + and_list([card_name(state, c) for c in hand])
             for s, hand in enumerate(opened["hands"]) if hand] or [
        "Nobody held a card at the end."]
    mate = opened["first_mate"]
    if mate is not None:
        peek = opened["peek"]
        lines.append(f"In the last round First Mate {name_of(names, mate)} "
                     + (f"peeked under {name_of(names, peek)}'s cup." if peek is not None
                        else "did not peek."))
    left = opened["deck"]
    lines.append(f"{kit.plural(left, 'mystery card')} {'was' if left == 1 else 'were'} "
                 f"never bought.")
    parts = [b.text(*lines, title="Opened at the end")]
    if opened["dice"] is not None:
        parts.append(b.group(*[_dice_row(d, f"{names[s]}: {total(d)}", s)
                               for s, d in enumerate(opened["dice"])],
                             title="Opened at the end: the last roll, never revealed",
                             layout="row"))
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
