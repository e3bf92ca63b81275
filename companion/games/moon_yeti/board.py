"""What Moon Yeti's table shows: the summary and the board (from the public view) and a
seat's own panel (from that seat's view), as board parts (docs/boards.md).

The board holds the roles, the round, the declared minute, who is ready, how many
ballots are in during a vote (the count the public view already has, nothing more), each
revealed ballot and vote change, the innocent and the guilty (or that nobody was), and
the story of the match so far. Once the match is over the public view opens every
secret, and the board tells it: the Mutineer, every card or ace, the search, the
confession and the Chaplain's side.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import board as b
from companion.engine import clone, votes
from companion.games import kit
from companion.games.moon_yeti import show
from companion.games.moon_yeti.data import (
    BOATSWAIN,
    BOSUN,
    CHAPLAIN,
    COURSE,
    DISCUSS1,
    DISCUSS2,
    DISCUSSIONS,
    FORGIVE,
    JUROR,
    NAVIGATOR,
    OVER,
    RECAST,
    RECKON,
    ROLES,
    VOTE1,
    VOTE2,
    VOTE_KEYS,
    WAIT,
    is_real,
)
from companion.games.moon_yeti.show import CHANGES, HEADLINES

View = dict[str, Any]
Names = list[str]
Part = dict[str, Any]

#: The two rounds of a match, by step.
ROUNDS = {DISCUSS1: 1, VOTE1: 1, RECKON: 1, DISCUSS2: 2, VOTE2: 2, BOSUN: 2, FORGIVE: 2,
          COURSE: 2, RECAST: 2}
VOTE_TITLES = {"vote1": "Innocence vote", "vote2": "Guilt vote"}
#: Who a one-role step waits for.
STEP_ROLES = {RECKON: NAVIGATOR, BOSUN: BOATSWAIN, FORGIVE: CHAPLAIN, COURSE: NAVIGATOR}
#: A vote change let pass, in words.
PASSED = {"reckoning": "Dead Reckoning: the Navigator moved no vote",
          "forgiveness": "Forgiveness: the Chaplain took no vote",
          "course": "Change Course: the Navigator changed no vote"}
#: How a card's rows are drawn: 15 minutes as three rows of five.
CARD_ROWS, CARD_COLS = 3, 5


def _name(names: Names, seat: Any) -> str:
    return kit.seat_name(names, seat)


def _who(state: View, names: Names, seat: int) -> str:
    """``Drake, the Helmsman`` (a juror: ``Drake``)."""
    role = state["roles"][seat]
    return f"{_name(names, seat)}, the {role}" if role in ROLES else _name(names, seat)


def _holder(state: View, role: str) -> int | None:
    return state["roles"].index(role) if role in state["roles"] else None


# -- the summary ---------------------------------------------------------------------------

def summary(view: View) -> dict[str, Any]:
    """Headline, public facts, revealed vote tallies and the end, from the public view."""
    state, names = view["state"], view["names"]
    facts: list[str] = []
    if state["guilty"] is not None:
        facts.append(f"Guilty: {_name(names, state['guilty'])}")
    if state["innocent"] is not None:
        facts.append(f"Innocent: {_name(names, state['innocent'])}")
    if state["step"] in DISCUSSIONS or state["step"] in VOTE_KEYS:
        facts.append(show.count_line(state))
    if state["minute"] is not None:
        facts.append(f"Time declared: :{state['minute']:02d}")
    if state["condemned"] is not None:
        facts.append(f"Condemned to two votes: {_name(names, state['condemned'])}")
    facts += [kit.word(event, names, CHANGES) for event in _changes(state)]
    facts += [f"{kit.seat_name(names, s)}: {role}" for s, role in enumerate(state["roles"])
              if role]
    out: dict[str, Any] = {"headline": HEADLINES.get(state["step"], ""), "lines": facts,
                           "tallies": []}
    for key, title in (("ballots1", "Innocence vote"), ("ballots2", "Guilt vote")):
        if state[key] is not None:
            rows = [list(row) for row in _tally_rows(state[key], names)]  # as JSON has them
            out["tallies"].append({"title": title, "rows": rows})
    if view.get("result"):
        out["scores"] = view["result"]["scores"]
        out["score_label"] = "Wins"
        out["headline"] = view["result"]["reason"] or "The Mutineer is revealed"
    return out


def _changes(state: View) -> list[dict[str, Any]]:
    """The vote changes made so far, as events to word."""
    events = []
    for kind in ("reckoning", "forgiveness", "course"):
        change = state[kind]
        if change and "to" in change:
            events.append({"kind": kind, "voter": change["seat"], "source": change["from"],
                           "target": change["to"]})
    return events


# -- the board -----------------------------------------------------------------------------

def board(view: View) -> list[Part]:
    """The table's board, from the PUBLIC view."""
    state, names = view["state"], view["names"]
    step = state["step"]
    parts: list[Part] = [b.headline(_headline(view)), b.facts(_facts(state, names))]
    vote_key = VOTE_KEYS.get(step)
    if vote_key:
        vote = state[vote_key]
        # The count the public view has: a waiting Boatswain's ballots count like any (Y6).
        parts.append(b.ballots(vote["ballots_in"], vote["ballots_total"],
                               title=f"{VOTE_TITLES[vote_key]}: ballots in"))
    if step == OVER:
        parts += _ending(view)
    if state["roles"][0] is not None:
        parts.append(_crew(view))
    if state["ballots1"] is not None:
        parts.append(_ballots(view))
    parts += _verdicts(state, names)
    if step == OVER:
        parts.append(_cards(state, names))
    parts.append(b.log(story(view), title="What happened", keep=16))
    return parts


def _headline(view: View) -> str:
    state, names = view["state"], view["names"]
    step = state["step"]
    if step == OVER:
        return f"The Mutineer is revealed: {_who(state, names, state['reveal']['mutineer'])}"
    if step == RECAST:
        return f"{_name(names, state['course']['seat'])} must change a vote (Change Course)"
    if step in STEP_ROLES:
        seat = _holder(state, STEP_ROLES[step])
        return f"{HEADLINES[step]}: {_name(names, seat)}"
    return HEADLINES[step]


def _facts(state: View, names: Names) -> list[tuple[str, Any]]:
    step = state["step"]
    out: list[tuple[str, Any]] = []
    if step in ROUNDS:
        out.append(("Round", f"{ROUNDS[step]} of 2"))
    if state["mode"] == "aces":
        out.append(("The Mutineer", "holds the ace of spades"))
    elif state["minute"] is not None:
        out.append(("Time declared", f":{state['minute']:02d}"))
    else:
        out.append(("Time declared", "not yet"))
    if step in (DISCUSS1, DISCUSS2):
        out.append(("Ready to vote", f"{sum(state['ready'])} of {state['seats']}"))
    if state["condemned"] is not None:
        out.append(("Condemned (two guilt votes)", _name(names, state["condemned"])))
    return out


def _crew(view: View) -> Part:
    """Every seat with its public role and what the table knows of it."""
    state, names = view["state"], view["names"]
    step = state["step"]
    turn: list[int | None] = []  # None: a role this view does not show
    if step in STEP_ROLES:
        turn = [_holder(state, STEP_ROLES[step])]
    elif step == RECAST:
        turn = [state["course"]["seat"]]
    winners = view["result"]["winners"] if view.get("result") else []
    return b.seats([b.person(seat, _name(names, seat), role=state["roles"][seat],
                             note=_seat_note(view, seat), turn=seat in turn,
                             winner=seat in winners)
                    for seat in range(state["seats"])], title="The crew")


def _ballots(view: View) -> Part:
    """Each revealed ballot, seat by seat, as it stands (a moved one says where it was
    cast)."""
    state, names = view["state"], view["names"]
    revealed = [key for key in ("ballots1", "ballots2") if state[key] is not None]
    columns = [VOTE_TITLES[f"vote{key[-1]}"] for key in revealed]
    lines = [[_ballot_words(state, names, key, seat) for key in revealed]
             for seat in range(state["seats"])]
    return b.ledger(columns, names, lines, title="The ballots")


def _seat_note(view: View, seat: int) -> str:
    state = view["state"]
    step = state["step"]
    words = []
    if step == OVER and seat == state["reveal"]["mutineer"]:
        words.append("the Mutineer")
    if step == OVER and state["reveal"]["chaplain_allied"] and \
            state["roles"][seat] == CHAPLAIN:
        words.append("sided with the Mutineer")
    if step in (DISCUSS1, DISCUSS2) and state["ready"][seat]:
        words.append("ready to vote")
    if seat == state["innocent"]:
        words.append("declared innocent")
    if seat == state["condemned"]:
        words.append("condemned: two votes")
    if seat == state["guilty"]:
        words.append("found guilty")
    return ", ".join(words)


def _ballot_words(state: View, names: Names, key: str, seat: int) -> str:
    """A seat's revealed ballots as they stand, each moved one with where it was cast."""
    ballots = state[key][seat]
    role = state["roles"][seat]
    if role == JUROR and not state["jury"]:
        return "no vote"
    if key == "ballots2" and state["step"] == BOSUN and role == BOATSWAIN and not ballots:
        return "votes last"
    first = _as_cast(state, key)
    words = []
    for index, ballot in enumerate(ballots):
        if not is_real(ballot):
            words.append("no second vote")
            continue
        word = _name(names, ballot)
        was = first[seat][index] if first and index < len(first[seat]) else ballot
        if is_real(was) and was != ballot:
            word += f" (cast for {_name(names, was)})"
        words.append(word)
    if key == "ballots2" and state["bosun_waited"] and role == BOATSWAIN and words:
        words[0] = "waited, then " + words[0]
    return ", ".join(words) or "no vote"


def _as_cast(state: View, key: str) -> list[list[Any]] | None:
    """The ballots as first cast (before any vote change), when the view has them."""
    if key == "ballots1":
        return (state["vote1"] or {}).get("cast")
    return state["ballots2_cast"]


def _verdicts(state: View, names: Names) -> list[Part]:
    """Each revealed vote's count and what it decided."""
    parts: list[Part] = []
    if state["ballots1"] is not None:
        parts.append(b.tally(_tally_rows(state["ballots1"], names), title="Innocence vote",
                             note=_innocence_words(state, names)))
    if state["ballots2"] is not None:
        parts.append(b.tally(_tally_rows(state["ballots2"], names), title="Guilt vote",
                             note=_guilt_words(state, names)))
    return parts


def _innocence_words(state: View, names: Names) -> str:
    if state["step"] == RECKON:
        return "The Navigator may move one vote before it counts (Dead Reckoning)"
    if state["innocent"] is None:
        return "A tie: nobody was declared innocent"
    return f"Declared innocent: {_name(names, state['innocent'])}"


def _guilt_words(state: View, names: Names) -> str:
    if state["step"] != OVER:
        return "Not decided yet: the vote changes come first"
    if state["guilty"] is None:
        return "A tie: nobody was found guilty"
    return f"Found guilty: {_name(names, state['guilty'])}"


def _tally_rows(ballots: list[list[Any]], names: Names) -> list[tuple[str, int]]:
    """Votes per player, most first, from revealed ballots (ballots still to come count
    for nobody)."""
    counts = votes.tally([[x for x in seat if is_real(x)] for seat in ballots])
    return [(_name(names, s), counts[s]) for s in sorted(counts, key=lambda s: (-counts[s], s))]


# -- the story -----------------------------------------------------------------------------

#: The story's line when the host's discussion timer ended a discussion.
TIME_UP = "The discussion's time ran out: the vote opened"


def story(view: View) -> list[str]:
    """The match so far in words, oldest first, from what the public view holds. Lines
    are only ever added at the end (the table keeps the story by its new lines)."""
    state, names = view["state"], view["names"]
    if state["roles"][0] is None:
        return []
    lines = ["The roles are dealt: " + "; ".join(
        f"{_name(names, s)} is the {state['roles'][s]}" for s in range(state["seats"])
        if state["roles"][s] in ROLES)]
    if state["mode"] == "aces":
        lines.append("Four aces are dealt: the ace of spades is the Mutineer")
    elif state["minute"] is not None:
        lines.append(f"The time is declared: :{state['minute']:02d}")
    if DISCUSS1 in state["timed_out"]:
        lines.append(TIME_UP)
    if state["ballots1"] is not None:
        first = state["vote1"]["cast"]
        lines.append("Innocence vote: " + _ballot_list(names, first))
        lines += _change_line(state, names, "reckoning")
        if state["step"] != RECKON:
            lines.append(_innocence_words(state, names))
    if state["condemned"] is not None:
        lines.append(f"The Helmsman condemned {_name(names, state['condemned'])}: "
                     "two votes in the guilt vote")
    if DISCUSS2 in state["timed_out"]:
        lines.append(TIME_UP)
    if state["ballots2"] is not None:
        lines += _guilt_ballot_lines(state, names)
        lines += _change_line(state, names, "forgiveness")
        lines += _change_line(state, names, "course")
    if state["step"] == OVER:
        if state["ballots2"] is not None:
            lines.append(_guilt_words(state, names))
        lines.append(f"The Mutineer was {_who(state, names, state['reveal']['mutineer'])}")
    return lines


def _guilt_ballot_lines(state: View, names: Names) -> list[str]:
    """The guilt ballots as revealed; a Boatswain who waited, then his late ballots."""
    first = clone(state["ballots2_cast"] or state["ballots2"])
    if not state["bosun_waited"]:
        return ["Guilt vote: " + _ballot_list(names, first)]
    boatswain = state["roles"].index(BOATSWAIN)  # only a Boatswain in play waits
    late, first[boatswain] = first[boatswain], []
    lines = ["Guilt vote: " + _ballot_list(names, first),
             "The Boatswain waited to vote last (Bosun Knows Best)"]
    if state["ballots2_cast"] is not None:
        real = [x for x in late if is_real(x)]
        lines.append(f"{_who(state, names, boatswain)}, voted last: for "
                     f"{kit.name_list(names, real)}")
    return lines


def _ballot_list(names: Names, ballots: list[list[Any]]) -> str:
    """``Anne for Drake; Bonny for Anne and Drake``: every ballot as cast."""
    out = []
    for seat, cast in enumerate(ballots):
        real = [x for x in cast if is_real(x)]
        if len(real) == 2 and real[0] == real[1]:
            out.append(f"{_name(names, seat)} twice for {_name(names, real[0])}")
        elif real:
            out.append(f"{_name(names, seat)} for {kit.name_list(names, real)}")
    return "; ".join(out) or "no votes"


def _change_line(state: View, names: Names, kind: str) -> list[str]:
    change = state[kind]
    if not change:
        return []
    if change.get("declined"):
        return [PASSED[kind]]
    out = []
    if kind == "course" and state["change_course"] == "player_recasts":
        # Said as the player is picked and kept after the recast: the story only grows.
        out.append(f"Change Course: the Navigator made {_name(names, change['seat'])} "
                   "change a vote")
    if "to" in change:
        event = {"kind": kind, "voter": change["seat"], "source": change["from"],
                 "target": change["to"]}
        out.append(kit.word(event, names, CHANGES))
    return out


# -- the end -----------------------------------------------------------------------------

def _ending_title(view: View) -> str:
    """Who won, always naming the Mutineer (and an allied Chaplain)."""
    state, names = view["state"], view["names"]
    reveal = state["reveal"]
    mutineer = _name(names, reveal["mutineer"])
    chaplain = _holder(state, CHAPLAIN)
    if state["end"]["mutineer_wins"]:
        if reveal["chaplain_allied"]:
            return (f"The Mutineer {mutineer} and the Chaplain {_name(names, chaplain)} "
                    "win!")
        return f"The Mutineer {mutineer} wins!"
    return f"The crew wins: the Mutineer {mutineer} was found guilty!"


def _ending(view: View) -> list[Part]:
    """The result, with every secret now open."""
    state, names = view["state"], view["names"]
    reveal = state["reveal"]
    mutineer = reveal["mutineer"]
    lines = [f"The Mutineer was {_who(state, names, mutineer)}."]
    if state["mode"] == "aces":
        lines.append(f"{_name(names, mutineer)} held the ace of spades.")
    else:
        lines.append(f"The time declared, :{state['minute']:02d}, is on "
                     f"{_name(names, mutineer)}'s card.")
    lines.append(view["result"]["reason"] + ".")
    lines += _action_words(state, names)
    return [b.result(view["result"]["winners"], names, title=_ending_title(view),
                     lines=lines, scores=view["result"]["scores"], score_label="Wins")]


def _action_words(state: View, names: Names) -> list[str]:
    """The search, the confession and the Chaplain's side, now open."""
    reveal = state["reveal"]
    out = []
    boatswain, chaplain = _holder(state, BOATSWAIN), _holder(state, CHAPLAIN)
    searched = reveal["search"]
    if searched is None:
        out.append(f"The Boatswain, {_name(names, boatswain)}, searched no cabin.")
    else:
        found = "the Mutineer's" if searched == reveal["mutineer"] else "not the Mutineer's"
        out.append(f"The Boatswain, {_name(names, boatswain)}, searched "
                   f"{_name(names, searched)}'s cabin: {found}.")
    confessed = reveal["confession"]
    if chaplain == reveal["mutineer"]:  # never with the crew: he was the Mutineer
        took = "no confession" if confessed is None else f"{_name(names, confessed)}'s confession"
        out.append(f"The Chaplain, {_name(names, chaplain)}, was the Mutineer himself "
                   f"and took {took}.")
    elif confessed is None:
        out.append(f"The Chaplain, {_name(names, chaplain)}, took no confession and "
                   "stayed with the crew.")
    elif reveal["chaplain_allied"]:
        out.append(f"The Chaplain, {_name(names, chaplain)}, took the Mutineer's "
                   f"confession ({_name(names, confessed)}) and sided with him.")
    else:
        out.append(f"The Chaplain, {_name(names, chaplain)}, took "
                   f"{_name(names, confessed)}'s confession: not the Mutineer, so he "
                   "stayed with the crew.")
    return out


def _cards(state: View, names: Names) -> Part:
    """Each role holder's card of 15 minutes (or ace), the Mutineer's marked."""
    reveal = state["reveal"]
    holders = [s for s, role in enumerate(state["roles"]) if role in ROLES]
    if state["mode"] == "aces":
        return b.cards([b.card(f"Ace of {reveal['cards_or_aces'][s]}", kind="ace",
                               label=_card_title(state, names, s), seat=s,
                               state="open" if s == reveal["mutineer"] else "")
                        for s in holders], title="The aces")
    return b.group(*[_card_grid(reveal["cards_or_aces"][s], _card_title(state, names, s),
                                state["minute"]) for s in holders],
                   title="The role cards", layout="row")


def _card_title(state: View, names: Names, seat: int) -> str:
    title = _who(state, names, seat)
    return title + ": the Mutineer" if seat == state["reveal"]["mutineer"] else title


def _card_grid(minutes: list[int], title: str, declared: int | None) -> Part:
    """A card of 15 minute-numbers as three rows of five (numbers, not card pictures:
    four cards side by side stay small); the title tells when the declared minute is
    on it."""
    if declared in minutes:
        title += f" (:{declared:02d} is on it)"
    return b.grid([f"{m:02d}" for m in minutes], rows=CARD_ROWS, cols=CARD_COLS,
                  title=title)


# -- a seat's panel ----------------------------------------------------------------------

def panel(view: View, seat: int) -> list[Part]:
    """What only ``seat`` knows, from its own view: Mutineer or not, its card or ace,
    what its search or confession showed, and its own ballots."""
    state, names = view["state"], view["names"]
    me = state.get("me") or {}
    role = me.get("role")
    if role is None:
        return [b.text("The roles are being dealt.", title="Your role")]
    parts: list[Part] = [_who_you_are(state, me)]
    if "card" in me:
        parts.append(_card_grid(me["card"], f"Your card as the {role}", state["minute"]))
    if "ace" in me:
        parts.append(b.cards([b.card(f"Ace of {me['ace']}", kind="ace", label=f"Your ace "
                                     f"({role})", seat=seat)], title="Your ace"))
    parts += _search_parts(state, names, me)
    parts += _confession_parts(state, names, me)
    mine = _my_ballots(state, names, seat)
    if mine:
        parts.append(b.facts(mine, title="Your ballots"))
    return parts


def _who_you_are(state: View, me: View) -> Part:
    role = me["role"]
    if role == JUROR:
        vote = "you vote once in each vote" if state["jury"] else \
            "you join the discussion but do not vote"
        return b.text(f"You are a Juror: no card, never the Mutineer; {vote}.",
                      title="Your role")
    if "is_mutineer" not in me:
        return b.text(f"You are the {role}. The time is not declared yet: nobody knows "
                      "the Mutineer.", title="Your role")
    if me["is_mutineer"]:
        return b.text(f"You are the {role}, and YOU ARE THE MUTINEER. Do not be found "
                      "guilty.", title="Your role", tone="bad")
    return b.text(f"You are the {role}, and not the Mutineer.", title="Your role",
                  tone="good")


def _search_parts(state: View, names: Names, me: View) -> list[Part]:
    search = me.get("search")
    if not search:
        return []
    target = _name(names, search["target"])
    verdict = f"{target} IS the Mutineer!" if search["is_mutineer"] else \
        f"{target} is not the Mutineer."
    title = f"Your Cabin Search: {target}'s cabin"
    if "card" in search:
        return [b.text(verdict, title=title, tone="bad" if search["is_mutineer"] else ""),
                _card_grid(search["card"], f"{target}'s card", state["minute"])]
    return [b.text(verdict, f"{target} holds the ace of {search['ace']}.", title=title,
                   tone="bad" if search["is_mutineer"] else "")]


def _confession_parts(state: View, names: Names, me: View) -> list[Part]:
    out = []
    confession = me.get("confession")
    if confession:
        target = _name(names, confession["target"])
        title = f"Your Confession: {target}"
        if "is_mutineer" not in confession:
            out.append(b.text(f"{target} answers with a silent sign: watch for it.",
                              title=title))
        elif confession["is_mutineer"]:
            out.append(b.text(f"{target} IS the Mutineer: you now side with him, and win "
                              "or lose with him.", title=title, tone="bad"))
        else:
            out.append(b.text(f"{target} is not the Mutineer.", title=title))
    if "confessed_to" in me:
        chaplain = _name(names, me["confessed_to"])
        if state["confession_rule"] == "truthful":
            out.append(b.text(f"The Chaplain, {chaplain}, took your confession: the "
                              "companion told him the truth.", title="Your confession"))
        else:
            out.append(b.text(f"The Chaplain, {chaplain}, asks: are you the Mutineer? "
                              "Answer with a silent sign.", title="Your confession"))
    return out


def _my_ballots(state: View, names: Names, seat: int) -> list[tuple[str, str]]:
    """The seat's own ballots: sealed ones from its vote view, then revealed ones."""
    out = []
    for key, title in VOTE_TITLES.items():
        vote = state[key]
        if not vote or seat not in vote.get("eligible", []):
            continue
        cast = vote.get("mine") if not vote["revealed"] else \
            state[f"ballots{key[-1]}"][seat]
        if not cast:
            continue
        words = ["waiting to vote last" if x == WAIT else
                 "no second vote" if not is_real(x) else _name(names, x) for x in cast]
        sealed = "" if vote["revealed"] else " (sealed)"
        out.append((title + sealed, ", ".join(words)))
    return out
