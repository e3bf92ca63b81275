"""What each viewer of a Mutiny (``mit-mutiny``) match may know.

Public at a real table, so in every view: the roles and the Captain; each pirate's
Rum, crew dice (red and green), loot cubes (they sit on the player mat), the number of
cards in hand, the cards played (face up) and the islands won; the supplies (Rum, green
crew, the mystery deck's size, the bank's cubes); which map spaces are still face down
and which a Scout has looked at; the face-up island, the Captain's division, the
decisions (public ballot), every die once the battle reveals them, and the battle's
whole record (``battle["events"]``: dice, cards, re-rolls, sums, winner, cup draws).

Secret, in the owner's view only (``me``): the cards in hand, the pirate's own hidden
roll (and, for the First Mate, the roll he peeked at), the islands the pirate has looked
at while they lie face down, and the pirate's secret ballot (and, for the Scout
deciding last in a secret ballot, the other two ballots).

Also in every view, worked out from public facts only: what each mystery card does
(``card_rules``: the deck list is public, hands are not) and each pirate's Infamy if the
match ended now (``infamy``, item by item). Once the match is over, ``opened`` shows
what was still hidden: every hand, the last roll if no battle revealed it, and the last
First Mate's peek.

The re-deal, for the contract tests: everything a viewer has not seen is drawn again,
consistent with what it knows.
"""
from __future__ import annotations

import functools
import random
from typing import Any

from companion.engine import RedealFailed, Viewer, clone, votes
from companion.games.mit_mutiny.cards import dealt
from companion.games.mit_mutiny.data import (
    CHOOSE,
    COLORS,
    DEAL,
    DIVIDE,
    FINAL,
    FIRST_MATE,
    ISLAND,
    LOOK,
    OVER,
    RALLY,
    ROLES,
    SCOUT,
    SEATS,
    TAKE,
    State,
    infamy,
    seat_of,
    side_sums,
)

#: Option values every view shows (the stack of a teaching deck stays out of views).
VIEW_OPTIONS = ("dice", "islands", "ballot", "cup_draws", "card_window", "crew_needs_rum")
#: Copied as they are: plain values or public records.
PLAIN = ("step", "round", "islands_total", "islands_done", "captain", "scout_took",
         "peeked", "vote_turn", "changed", "revealed", "buyer", "treasure_left")
#: Records copied whole (public, and small).
RECORDS = ("roles", "on_island", "entry", "shares", "setup_rolls", "rolloffs",
           "decisions", "window", "effect", "battle", "cup", "buy_order", "log", "final",
           "island")
#: Steps of a round before its rally (the last round's dice are no longer news).
BEFORE_RALLY = frozenset({ROLES, LOOK, CHOOSE, ISLAND, TAKE, DIVIDE})


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
    out.update(clone({key: state[key] for key in RECORDS}))
    out["options"] = {key: state["options"][key] for key in VIEW_OPTIONS}
    out["pirates"] = [_pirate(state, s) for s in range(SEATS)]
    out["supply"] = {"rum": state["rum_supply"], "green": state["green_supply"],
                     "deck": len(state["deck"]), "bank": list(state["bank"])}
    # Card names by id (the deck list is public; hands are not).
    out["cards"] = dict(_card_names(state["data"]))
    out["card_rules"] = {cid: dict(rule) for cid, rule in _card_rules(state["data"])}
    out["infamy"] = infamy(state)
    out["map"] = _map(state)
    out["rolling"] = _rolling(state)
    revealed = state["revealed"]
    out["dice"] = [[list(die) for die in dice] for dice in state["dice"]] if revealed else None
    out["dice_count"] = [len(d) for d in state["dice"]]
    out["sums"] = side_sums(state) if revealed else None
    out["ballot"] = None
    if state["step"] == OVER:
        out["opened"] = _opened(state)
    return out


def _opened(state: State) -> dict[str, Any]:
    """At the end every secret is open: the hands, the last roll (when no battle
    revealed it) and whom the last First Mate peeked at (None: no peek)."""
    return {"hands": [list(hand) for hand in state["hands"]],
            "dice": None if state["revealed"] else [[list(d) for d in dice]
                                                    for dice in state["dice"]],
            "first_mate": seat_of(state, FIRST_MATE),
            "peek": state["peek"] if state["peeked"] else None,
            "deck": len(state["deck"])}


@functools.lru_cache(maxsize=16)
def _card_rules(data: str) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """``(id, rule)`` pairs: each dealt card's effect and its numbers (public)."""
    return tuple((cid, tuple((key, value) for key, value in card.items()
                             if key not in ("id", "name", "count")))
                 for cid, card in dealt({"data": data})["cards"].items())


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


# -- the re-deal, for the contract tests ---------------------------------------------------

def redeal(state: State, viewer: Viewer, rng: random.Random) -> State:
    """A copy of ``state`` with face-down islands the viewer has not looked at, the
    mystery deck and other pirates' hands, other pirates' hidden dice (but not the
    ones the viewer peeked at), the First Mate's peek and secret ballots drawn again.
    Before the deal nothing is dealt to draw again: :class:`RedealFailed`."""
    if state["step"] == DEAL:
        raise RedealFailed("nothing is dealt before the deal")
    twin = clone(state)
    _islands(twin, viewer, rng)
    if twin["step"] == OVER:
        # The end opens the hands, the last roll and the last peek to everyone: only
        # the islands nobody sailed to stay face down.
        return twin
    _cards(twin, viewer, rng)
    _dice(twin, viewer, rng)
    mate = seat_of(twin, FIRST_MATE)
    if twin["peeked"] and viewer != mate:
        twin["peek"] = rng.choice([None] + [s for s in range(SEATS) if s != mate])
    vote = twin["vote"]
    if vote is not None and not (twin["step"] == FINAL and viewer == seat_of(twin, SCOUT)):
        votes.redeal_vote(vote, viewer, rng)
    return twin


def _islands(twin: State, viewer: Viewer, rng: random.Random) -> None:
    if twin["spaces"] is None:
        return
    known = set(twin["seen"][viewer]) if isinstance(viewer, int) else set()
    hidden = [i for i, island in enumerate(twin["spaces"])
              if island is not None and i not in known]
    # Sorted pools before each shuffle: a draw depends on what the viewer knows and on
    # ``rng`` alone, never on where the hidden cards really are (a bot's fence).
    contents = sorted(twin["spaces"][i] for i in hidden)
    rng.shuffle(contents)
    for space, island in zip(hidden, contents, strict=True):
        twin["spaces"][space] = island


def _cards(twin: State, viewer: Viewer, rng: random.Random) -> None:
    others = [s for s in range(SEATS) if s != viewer]
    pool = list(twin["deck"])
    for seat in others:
        pool += twin["hands"][seat]
    pool.sort()
    rng.shuffle(pool)
    for seat in others:
        count = len(twin["hands"][seat])
        twin["hands"][seat], pool = pool[:count], pool[count:]
    twin["deck"] = pool


def _dice(twin: State, viewer: Viewer, rng: random.Random) -> None:
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
