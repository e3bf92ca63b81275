"""What Moon Yeti shows: each seat's screen and menu, the table display's summary, and
actions in words. Built from views only (a seat's own, or the public one); every name
and sentence is made here, never kept in the state.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from companion.engine import Action, Choice, Display, votes
from companion.games import kit
from companion.games.moon_yeti.data import (
    BOATSWAIN,
    BOSUN,
    CHAPLAIN,
    CLOCK,
    COURSE,
    DEAL,
    DECLARE,
    DISCUSS1,
    DISCUSS2,
    FORGIVE,
    OVER,
    RECAST,
    RECKON,
    VOTE1,
    VOTE2,
    VOTE_KEYS,
    WAIT,
    is_real,
)

View = dict[str, Any]
Names = list[str]

TITLES = {
    DEAL: "Moon Yeti", DECLARE: "Declare the time", CLOCK: "Declare the time",
    DISCUSS1: "Round 1: evidence", VOTE1: "Innocence vote", RECKON: "Dead Reckoning",
    DISCUSS2: "Round 2: the trial", VOTE2: "Guilt vote", BOSUN: "Bosun Knows Best",
    FORGIVE: "Forgiveness", COURSE: "Change Course", RECAST: "Change Course",
    OVER: "Mutineer revealed",
}

#: What the table display says the table is doing, step by step.
HEADLINES = {
    DEAL: "Dealing the roles", DECLARE: "Declare the time", CLOCK: "Reading the clock",
    DISCUSS1: "Round 1: looking for evidence", VOTE1: "Innocence vote",
    RECKON: "The Navigator may move a vote", DISCUSS2: "Round 2: the trial",
    VOTE2: "Guilt vote", BOSUN: "The Boatswain votes last",
    FORGIVE: "The Chaplain may take a vote", COURSE: "The Navigator may change the course",
    RECAST: "A vote is cast again", OVER: "The Mutineer is revealed",
}

#: What each step after a reveal waits for, on the seats' screens.
WAITING_FOR = {
    RECKON: "The Navigator may move a vote", BOSUN: "The Boatswain votes last",
    FORGIVE: "The Chaplain may take a vote", COURSE: "The Navigator may change a vote",
}

#: A vote change, in words (the fields are seats: see ``_change_event``).
CHANGES = {
    "reckoning": "Dead Reckoning: {voter}'s vote moved from {source} to {target}",
    "forgiveness": "Forgiveness: {voter}'s vote moved from {source} to {target}",
    "course": "Change Course: {voter}'s vote moved from {source} to {target}",
}

ENDINGS = {"innocent": "Declared innocent", "tie": "Guilt vote tied",
           "guilty": "Found guilty"}

PASSES = {RECKON: "Pass: move no vote", FORGIVE: "Pass: take no vote",
          COURSE: "Pass: change no vote"}

def _name(names: Names, seat: Any) -> str:
    return kit.seat_name(names, seat) if is_real(seat) else "nobody"


# -- a seat's screen ---------------------------------------------------------------------

def display(view: View, seat: int) -> Display:
    """The seat's screen: public lines, its whole decisions in menus, private details."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    choices = _hide_what_changes(
        state, seat, tuple(CHOICES[a["type"]](a, state, names, seat) for a in legal))
    if not legal or state["step"] == DECLARE:
        led = "off"  # any seat may declare, none must: no seat is told it is its move
    else:
        led = "blink" if state["step"] in VOTE_KEYS else "on"
    pairs = _lines(state, names, seat)  # (a pair with no full words is the OLED's alone)
    return Display(title=TITLES[state["step"]], lines=tuple(f for f, _ in pairs if f),
                   short_lines=tuple(short for _, short in pairs), choices=choices,
                   private=tuple(_private_lines(state, names)),
                   short_private=tuple(_private_lines(state, names, short=True)), led=led,
                   confirm=CONFIRM)


#: What select does on each kind of choice, for the seat's hint row (docs/seats.md).
CONFIRM = {"vote": "cast vote", "one_vote": "cast vote",
           "bosun_wait": "cast vote", "search": "search", "confess": "confess",
           "ready": "ready to vote", "declare": "declare", "condemn": "condemn"}


def _hide_what_changes(state: View, seat: int, choices: tuple[Choice, ...]
                       ) -> tuple[Choice, ...]:
    """Keep a secret act from showing on the resting screen: the top level of a menu
    shows at rest (a secret group without its count). The Boatswain's and Chaplain's
    round-1 choices sit in one secret group, "Your move", whether or not the search or
    confession is still to make; a second guilt ballot sits in "Your second vote",
    whether it waits (Bosun Knows Best, Y6) or not."""
    if state["step"] == DISCUSS1 and state["roles"][seat] in (BOATSWAIN, CHAPLAIN):
        group: tuple[str, ...] = ("Your move",)
    elif state["step"] == VOTE2 and (state["vote2"] or {}).get("mine"):
        group = ("Your second vote",)
    else:
        return choices
    return tuple(replace(c, secret=True, group=group + c.group) for c in choices)


def _ballot(ballots: list[list[Any]], seat: int, index: int, names: Names) -> str:
    """``Drake's vote for Anne``; ``first``/``second vote`` when Drake cast two."""
    return f"{_name(names, seat)}'s {_which_vote(ballots[seat], index)} for " \
           f"{_name(names, ballots[seat][index])}"


def _which_vote(ballots: list[Any], index: int) -> str:
    if sum(is_real(b) for b in ballots) < 2:
        return "vote"
    return ("first", "second")[index] + " vote"


def _declare(a: Action, state: View, names: Names, seat: int) -> Choice:
    if "minute" not in a:
        return Choice("Declare the time now (as the roles are announced)", a,
                      short="Declare time now")
    minute = a["minute"]
    tens = minute // 10
    # Two levels, as the tens and units digits were: no more presses than before.
    return Choice(f"Declare the time :{minute:02d}", a, group=(f"Minute {tens}0-{tens}9",),
                  short=f"Minute :{minute:02d}")


def _target_choice(text: str, short: str, secret: bool) -> Callable[..., Choice]:
    def make(a: Action, state: View, names: Names, seat: int) -> Choice:
        name = _name(names, a["target"])
        return Choice(text.format(name=name), a, secret=secret, short=short.format(name=name))
    return make


def _vote(a: Action, state: View, names: Names, seat: int) -> Choice:
    verdict = "Innocent" if state["step"] == VOTE1 else "Guilty"
    return Choice(f"{verdict} {_name(names, a['target'])}", a, secret=True)


def _bosun_wait(a: Action, state: View, names: Names, seat: int) -> Choice:
    if WAIT in ((state.get("vote2") or {}).get("mine") or []):
        return Choice("Wait with your second vote too", a, secret=True,
                      short="Wait: 2nd vote too")
    return Choice("Wait: vote last (Bosun Knows Best)", a, secret=True,
                  short="Wait: vote last")


def _reckon(a: Action, state: View, names: Names, seat: int) -> Choice:
    ballot = _ballot(state["ballots1"], a["seat"], a["index"], names)
    target = _name(names, a["target"])
    # The vote to move is a menu level, as it was a step before: same presses.
    return Choice(f"Move {ballot} to {target}", a, group=(ballot,),
                  short=f"Move it to {target}")


def _forgive(a: Action, state: View, names: Names, seat: int) -> Choice:
    return Choice(f"Take {_ballot(state['ballots2'], a['seat'], a['index'], names)}", a)


def _course(a: Action, state: View, names: Names, seat: int) -> Choice:
    player = _name(names, a["seat"])
    if "target" not in a:
        return Choice(f"Make {player} change a vote", a, short=f"{player} must change")
    ballots = state["ballots2"]
    old, target = _name(names, ballots[a["seat"]][a["index"]]), _name(names, a["target"])
    ballot = _ballot(ballots, a["seat"], a["index"], names)
    return Choice(f"Move {ballot} to {target}", a, group=(f"Make {player} change a vote",),
                  short=f"{old} to {target}")


def _recast(a: Action, state: View, names: Names, seat: int) -> Choice:
    mine = state["ballots2"][seat]
    old, target = _name(names, mine[a["index"]]), _name(names, a["target"])
    return Choice(f"Change your {_which_vote(mine, a['index'])} for {old} to {target}", a,
                  short=f"{old} to {target}")


def _ready(a: Action, state: View, names: Names, seat: int) -> Choice:
    """Ready to vote ends the seat's round 1: a Boatswain or Chaplain who has not yet
    searched or confessed is told what he gives up (``ready_warns``). The choice sits in
    his secret "Your move" group, so the resting screen looks the same either way."""
    me, role = state.get("me", {}), state["roles"][seat]
    unused = {BOATSWAIN: ("search", "search"), CHAPLAIN: ("confession", "confession")}
    if state["step"] == DISCUSS1 and state.get("ready_warns") and role in unused:
        key, what = unused[role]
        if key not in me:
            return Choice(f"Ready, and give up my {what}", a, short=f"Ready, no {what}")
    return Choice("Ready to vote", a)


def _fixed(label: str, secret: bool = False) -> Callable[..., Choice]:
    return lambda a, state, names, seat: Choice(label, a, secret=secret)


def _decline(a: Action, state: View, names: Names, seat: int) -> Choice:
    return Choice(PASSES[state["step"]], a, short="Pass")


#: How each action reads as a choice (label, menu group, short form, secret or not).
CHOICES: dict[str, Callable[[Action, View, Names, int], Choice]] = {
    "declare": _declare,
    "ready": _ready,
    "search": _target_choice("Search {name}'s cabin", "Search {name}", True),
    "confess": _target_choice("Take {name}'s confession", "Confess {name}", True),
    "condemn": _target_choice("Condemn {name}: two votes", "Condemn {name}", False),
    "vote": _vote,
    "one_vote": _fixed("No second vote", secret=True),
    "bosun_wait": _bosun_wait,
    "reckon": _reckon,
    "forgive": _forgive,
    "course": _course,
    "recast": _recast,
    "decline": _decline,
}


#: A line in full words (the phone) and its short form (a 21-column screen); a sentence
#: the OLED wraps has its first row with the full words, the other rows with none.
Line = tuple[str, str]


def _same(text: str) -> Line:
    return text, text


def _lines(state: View, names: Names, seat: int) -> list[Line]:
    """Public-safe lines: the seat's (public) role, then what the table is at."""
    step = state["step"]
    if step == OVER:
        return [_same(line) for line in _end_lines(state, names, seat)]
    role = state["roles"][seat]
    lines = [_same(f"You: {role}" if role else "Dealing the roles")]
    if step == DECLARE:
        # Which moment: the time is declared as the roles are announced (rulebook).
        how = "types the minute" if state["time_source"] == "typed" else "declares the time"
        return [lines[0],
                (f"When the roles are announced, any seat {how}", "When the roles are"),
                ("", "announced, any seat"), ("", how)]
    if step in (DISCUSS1, VOTE1):
        minute = state["minute"]
        lines.append(_same("Aces dealt" if minute is None else f"Time declared :{minute:02d}"))
        lines.append(_same(count_line(state)))
    elif step in (DISCUSS2, VOTE2):
        lines.append(_same(_innocent_line(state, names, seat)))
        if state["condemned"] == seat:
            lines.append(("Condemned: you cast two votes", "Two votes: you"))
        elif state["condemned"] is not None:
            condemned = _name(names, state["condemned"])
            lines.append((f"Condemned: {condemned} casts two votes", f"Two votes: {condemned}"))
        lines.append(_same(count_line(state)))
    elif step != CLOCK:
        ballots = state["ballots1"] if step == RECKON else state["ballots2"]
        tally = _tally_line(ballots, names)
        lines.append((tally if tally == NO_VOTES else f"Votes: {tally}", tally))
        if step == RECAST and state["course"]["seat"] == seat:
            lines.append(_same("You must change a vote"))
        elif step == RECAST:
            lines.append(_same(f"{_name(names, state['course']['seat'])} must change a vote"))
        else:
            lines.append(_same(WAITING_FOR[step]))
    return lines


def count_line(state: View) -> str:
    """Readiness in a discussion, ballots in during a vote (a count of ballots, moved
    alike by a Boatswain who waits and one who votes, Y6)."""
    step = state["step"]
    if step in VOTE_KEYS:
        vote = state[VOTE_KEYS[step]]
        return f"Ballots {vote['ballots_in']} of {vote['ballots_total']}"
    return f"{sum(state['ready'])} of {state['seats']} ready to vote"


def _innocent_line(state: View, names: Names, seat: int) -> str:
    if state["innocent"] is None:
        return "Nobody is innocent"
    return "Innocent: you" if state["innocent"] == seat else \
        f"Innocent: {_name(names, state['innocent'])}"


NO_VOTES = "No votes"


def _tally_line(ballots: list[list[Any]], names: Names) -> str:
    """The live count, most votes first: ``Anne 2, Calico 1``."""
    ranked = sorted(votes.tally(ballots).items(), key=lambda item: -item[1])
    return ", ".join(f"{_name(names, seat)} {n}" for seat, n in ranked) or NO_VOTES


def _end_lines(state: View, names: Names, seat: int) -> list[str]:
    """Win or lose (in place of the role line), the Mutineer, and why."""
    reason = state["end"]["reason"]
    why = ENDINGS.get(reason) or f"{_name(names, state['guilty'])} found guilty"
    won = "You WIN!" if seat in state["end"]["winners"] else "You lose"
    return [won, f"Mutineer: {_name(names, state['reveal']['mutineer'])}", why]


def _card_lines(card: list[int], short: bool = True) -> list[str]:
    """15 numbers as three rows of five for the seat's screen; one line of minutes in
    words for the phone (``Minutes 00, 04, 14 ... and 57``)."""
    minutes = [f"{m:02d}" for m in card]
    if not short:
        return ["Minutes " + ", ".join(minutes[:-1]) + " and " + minutes[-1]] if card else []
    return [" ".join(minutes[i:i + 5]) for i in range(0, len(minutes), 5)]


def _private_lines(state: View, names: Names, *, short: bool = False) -> list[str]:
    """The seat's secrets: Mutineer or not, its card, and what its action showed. A
    card's minutes in words for the phone; ``short``: in rows of five for the seat's
    screen."""
    me = state.get("me", {})
    out: list[str] = []
    if "is_mutineer" in me:
        out.append("YOU ARE THE MUTINEER" if me["is_mutineer"] else "Not the Mutineer")
    if "card" in me:
        out += ["Your card:"] + _card_lines(me["card"], short)
    if "ace" in me:
        out.append(f"Your ace: {me['ace']}")
    out += _action_lines(me, state, names, short)
    for key in VOTE_KEYS.values():
        vote = state[key]
        if vote and not vote["revealed"] and vote.get("mine"):
            picks = ["wait" if b == WAIT else _name(names, b) for b in vote["mine"]]
            out.append("Your vote: " + ", ".join(picks))
    return out


def _action_lines(me: View, state: View, names: Names, short: bool) -> list[str]:
    """What the seat's own role action showed it (or told it was done to it): in
    sentences for the phone; ``short``: in lines of 21 columns for the seat's screen."""
    if short:
        return _action_lines_short(me, state, names)
    out: list[str] = []
    search = me.get("search")
    if search:
        who = _name(names, search["target"])
        verdict = "IS the Mutineer!" if search["is_mutineer"] else "is not the Mutineer."
        out.append(f"You searched {who}'s cabin: {who} {verdict}")
        out += ([f"{who}'s card:"] + _card_lines(search["card"], False) if "card" in search
                else [f"{who}'s ace: {search['ace']}"])
    confession = me.get("confession")
    if confession:
        who = _name(names, confession["target"])
        if "is_mutineer" not in confession:
            out.append(f"You took {who}'s confession: watch for {who}'s sign at the table.")
        elif confession["is_mutineer"]:
            out.append(f"You took {who}'s confession: {who} IS the Mutineer!")
            if confession["allied"]:
                out.append("You now side with the Mutineer: you win or lose with him.")
        else:
            out.append(f"You took {who}'s confession: {who} is not the Mutineer.")
    if "confessed_to" in me:
        if state["confession_rule"] == "truthful":
            out.append("The Chaplain took your confession (the Chaplain now knows"
                       " whether you are the Mutineer).")
        else:
            out.append("The Chaplain asks whether you are the Mutineer: answer with a"
                       " sign at the table.")
    return out


def _action_lines_short(me: View, state: View, names: Names) -> list[str]:
    """The seat's screen's form of :func:`_action_lines` (21 columns a line)."""
    out: list[str] = []
    search = me.get("search")
    if search:
        out.append(f"Searched {_name(names, search['target'])}:")
        out.append("IS the Mutineer!" if search["is_mutineer"] else "not the Mutineer")
        out += (_card_lines(search["card"], True) if "card" in search
                else [f"ace: {search['ace']}"])
    confession = me.get("confession")
    if confession:
        out.append(f"Confession: {_name(names, confession['target'])}")
        if "is_mutineer" in confession:
            out.append("IS the Mutineer!" if confession["is_mutineer"]
                       else "not the Mutineer")
            if confession["allied"]:
                out.append("You side with him")
        else:
            out.append("Watch for the sign")
    if "confessed_to" in me:
        if state["confession_rule"] == "truthful":
            out += ["The Chaplain took", "your confession"]
        else:
            out += ["Chaplain asks: are", "you the Mutineer?", "Answer with a sign"]
    return out
