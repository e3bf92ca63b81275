"""What Captain's Orders' table shows: the summary and the board (from the public view)
and a seat's own panel (from that seat's view), as board parts (docs/boards.md).

The board holds the standing order and its owner, each hand's size, the orders played,
the face-down pile, every move of the round as the table sees it (a card passed face
down names who passed to whom, never the card), the round wins, and the round's reveal:
every hand, the accusation or declaration and whether it was right, who won. The reveal
stays on the board until the next round's first move, so nobody's "Next round" takes it
away from the others.

Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import board as b
from companion.games import kit
from companion.games.captains_orders.data import (
    CARDS,
    DEAL,
    DECLARE,
    DISCARD,
    ENTER,
    GIVE,
    OVER,
    REVEAL,
    SCORED,
    TURN,
)
from companion.games.captains_orders.show import (
    EVENT_TEXTS,
    ROUND_TEXTS,
    a_rank,
    end_text,
    face_down_words,
    order_line,
    step_actors,
)

View = dict[str, Any]
Names = list[str]
Part = dict[str, Any]


#: The table's words for each move: a face-down card says where it went, never what.
MOVES = {**EVENT_TEXTS,
         "pass": "{seat} passed a card face down to {to}",
         "give": "{seat} gave {to} a card face down",
         "follow": "{seat} followed the order {order}: a card face down to {to}",
         "discard": "{seat} discarded a card face down"}


def _name(names: Names, seat: Any) -> str:
    return kit.seat_name(names, seat)


# -- the summary -------------------------------------------------------------------------

def summary(view: View) -> dict[str, Any]:
    """The table display's summary, from the public view alone."""
    state, names = view["state"], view["names"]
    step = state["step"]
    actors = step_actors(state)
    if step == OVER:
        headline = match_won(state, names)
    elif step == SCORED:
        headline = ROUND_TEXTS[state["last_round"]["reason"]]
    elif step == ENTER:
        what = "the rest of their hand" if state["entries"][actors[0]] else "their lowest card"
        headline = f"Round over: {kit.seat_name(names, actors[0])} enters {what}"
    elif actors:
        doing = {TURN: "'s turn", DISCARD: " discards a card face down",
                 GIVE: " gives a card face down", DECLARE: " emptied their hand",
                 REVEAL: " reveals the declared card"}[step]
        headline = f"Round {state['round']}: {kit.seat_name(names, actors[0])}{doing}"
    else:
        headline = f"Round {state['round']}"
    lines = [order_line(state, names)]
    lines += [f"{kit.seat_name(names, s)}: {kit.plural(n, 'card')}"
              + (" (dealer)" if s == state["dealer"] else "")
              for s, n in enumerate(state["sizes"])]
    lines += [kit.word(e, names, EVENT_TEXTS) for e in state["events"][-3:]]
    return {"headline": headline, "turn": actors, "scores": list(state["wins"]),
            "score_label": "Round wins", "lines": lines}


# -- the board ---------------------------------------------------------------------------

def board(view: View) -> list[Part]:
    """The table's board, from the PUBLIC view."""
    state, names = view["state"], view["names"]
    parts: list[Part] = [b.headline(_headline(view)), _facts(state, names)]
    if state["step"] == OVER:
        parts.append(_ending(view))
    if _reveal_shown(state):
        parts.append(_reveal(state, names))
    else:
        parts.append(_centre(state, names))
    parts.append(_ledger(view))
    if state["history"]:
        parts.append(b.facts([(f"Round {h['round']}", _round_won(h, names))
                              for h in state["history"]], title="The rounds"))
    parts.append(b.log(story(state, names), title="What happened"))
    return parts


def _headline(view: View) -> str:
    state, names = view["state"], view["names"]
    if state["step"] == SCORED:
        last = state["last_round"]
        return f"Round {last['round']} is over: {_winners_words(last['winners'], names)} " \
               "the round"
    return summary(view)["headline"]


def match_won(state: View, names: Names) -> str:
    """Who won the match, with their round wins: ``Anne wins the match with 3 round
    wins`` (why it ended is the result's reason, said under it)."""
    winners = state["winners"]
    if not winners:
        return "The match is over: nobody wins"
    wins = kit.plural(state["wins"][winners[0]], "round win")
    if len(winners) == 1:
        return f"{kit.seat_name(names, winners[0])} wins the match with {wins}"
    return f"{kit.name_list(names, winners)} share the victory with {wins} each"


def _winners_words(winners: list[int], names: Names) -> str:
    """``Anne wins``, ``Anne and Bonny win``, ``nobody wins``."""
    return f"{kit.name_list(names, winners)} {'wins' if len(winners) <= 1 else 'win'}"


def _between_rounds(state: View) -> bool:
    """A round has been revealed and the next has not been dealt (or the match is over):
    the hands and piles of the board are empty, the reveal tells the round."""
    return state["step"] in (SCORED, OVER)


def _reveal_shown(state: View) -> bool:
    """The last round's reveal: shown from its end until the next round's first move."""
    if state["last_round"] is None:
        return False
    return state["step"] in (SCORED, OVER, DEAL) or \
        (state["step"] == TURN and not state["events"])


def _facts(state: View, names: Names) -> Part:
    if _between_rounds(state):
        return b.facts([("Rounds played", len(state["history"])),
                        ("Round wins to win", state["target"])])
    order = state["order"]
    items: list[tuple[str, Any]] = [
        ("Round", state["round"]),
        ("Dealer", _name(names, state["dealer"])),
        ("Standing order", f"{order['rank']}, {_name(names, order['owner'])}'s"
         if order else "none"),
        ("Discarded face down", state["discards"]),
        ("Round wins to win", state["target"]),
    ]
    if state["mode"] != CARDS:
        items.insert(4, ("Out of play (not dealt)", state["out_of_play"]))
    return b.facts(items)


def _centre(state: View, names: Names) -> Part:
    """The middle of the table: the standing order face up, the orders played before."""
    order = state["order"]
    standing = [b.card(str(order["rank"]), kind="order",
                       label=f"{_name(names, order['owner'])}'s order", state="open",
                       seat=order["owner"])] if order else []
    played = [b.card(str(rank), kind="order", state="played") for rank in state["played"]]
    if order and played and played[-1]["face"] == str(order["rank"]):
        played = played[:-1]  # the standing order is drawn on its own
    parts = [b.cards(standing, title="The standing order", empty="No order on the table")]
    if played:
        parts.append(b.cards(played, title="Orders played this round"))
    pending = _pending_words(state, names)
    if pending:
        parts.append(b.text(pending, tone="note"))
    return b.group(*parts, title="The table", layout="row")


def _pending_words(state: View, names: Names) -> str:
    """A face-down exchange under way, as the table sees it."""
    pending = state["pending"]
    if not pending:
        return ""
    giver, taker = _name(names, pending["from"]), _name(names, pending["to"])
    if pending["kind"] == "pass":
        return f"{giver} passed a card face down to {taker}: {taker} discards a card " \
               "face down"
    if state["step"] == "give":
        return f"{giver} asked {taker} for a card: {taker} gives one face down"
    return f"{taker} gave {giver} a card face down: {giver} discards a card face down"


def _ledger(view: View) -> Part:
    state, names = view["state"], view["names"]
    order = state["order"]
    notes = []
    for seat in range(state["seats"]):
        words = []
        if seat == state["dealer"]:
            words.append("dealer")
        if order and order["owner"] == seat:
            words.append(f"owns the order {order['rank']}")
        notes.append(", ".join(words))
    if _between_rounds(state):
        columns, lines = ["Round wins"], [[wins] for wins in state["wins"]]
    else:
        columns = ["Cards in hand", "Round wins"]
        lines = [[size, wins] for size, wins in zip(state["sizes"], state["wins"], strict=True)]
    over = state["step"] == OVER
    return b.ledger(columns, names, lines,
                    turn=[] if over else step_actors(state),
                    winners=state["winners"] if over else [], notes=notes)


def _round_won(history: View, names: Names) -> str:
    why = ROUND_TEXTS[history["reason"]]
    who = kit.name_list(names, history["winners"]) if history["winners"] else "Nobody"
    return f"{who} won ({why[0].lower()}{why[1:]})"


# -- the reveal ----------------------------------------------------------------------------

def _reveal(state: View, names: Names) -> Part:
    """Every hand at the reveal, the Captain's card lit, and how the round ended."""
    last = state["last_round"]
    hands = []
    for seat, hand in enumerate(last["hands"]):
        hands.append(b.cards([b.card(str(rank), kind="pairs", seat=seat,
                                     state="open" if seat in last["captains"] and
                                     rank == last["lowest"] else "")
                              for rank in hand],
                             title=_hand_title(state, names, seat),
                             empty="No cards"))
    lines = ending_words(last, names)
    # The row has a title of its own: on a TV too small for every hand the row is what
    # gives way, and the footnote names it ("Every hand") under the reveal that stays.
    return b.group(b.text(*lines, tone="good" if last["winners"] else "note"),
                   b.group(*hands, layout="row", title="Every hand"),
                   title=f"Round {last['round']}: the reveal")


def _hand_title(state: View, names: Names, seat: int) -> str:
    last = state["last_round"]
    words = [_name(names, seat)]
    if seat in last["captains"]:
        words.append("Captain")
    if last["points"][seat] is not None and last["hands"][seat]:
        words.append(kit.plural(last["points"][seat], "point"))
    elif state["mode"] == CARDS and last["hands"][seat]:
        words.append("lowest card only")
    if seat in last["winners"]:
        words.append("wins the round")
    return ", ".join(words)


def ending_words(last: View, names: Names) -> list[str]:
    """The accusation or declaration, whether it was right, the Captain, who won."""
    ending = last["ending"]
    who = _name(names, ending["seat"])
    captains = last["captains"]
    if ending["kind"] == "accuse":
        target = _name(names, ending["target"])
        right = last["reason"] == "accused_captain"
        lines = [f"{who} accused {target} of being the Captain: "
                 f"{'right' if right else 'wrong'}."]
    elif ending["declared"]:
        right = last["reason"] == "captain_emptied"
        card = f" with {a_rank(ending['card'])}" if ending["card"] is not None else ""
        lines = [f"{who} emptied their hand and declared Captain{card}: "
                 f"{'right' if right else 'wrong'}."]
    else:
        lines = [f"{who} emptied their hand and did not declare."]
    if len(captains) == 1:
        lines.append(f"The Captain was {_name(names, captains[0])}, holding "
                     f"{a_rank(last['lowest'])}.")
    elif captains:
        lines.append(f"The Captains were {kit.name_list(names, captains)}, each holding "
                     f"{a_rank(last['lowest'])}.")
    else:
        lines.append("Nobody held a card: there was no Captain.")
    lines.append(ROUND_TEXTS[last["reason"]] + ".")
    lines.append(f"{_winners_words(last['winners'], names)} round {last['round']}.")
    return lines


def _ending(view: View) -> Part:
    state, names = view["state"], view["names"]
    reason = end_text(state["end"], len(state["winners"]), state["target"])
    rounds = [f"Round {h['round']}: {_round_won(h, names)}." for h in state["history"]]
    return b.result(state["winners"], names, lines=[reason + "."] + rounds,
                    scores=state["wins"], score_label="Round wins")


# -- the story -----------------------------------------------------------------------------

def story(state: View, names: Names) -> list[str]:
    """This round in words, oldest first: the deal and every move as the table saw it
    (never a card that went face down); after the reveal, how the round ended."""
    if state["step"] in (SCORED, OVER) and state["last_round"] is not None:
        return ending_words(state["last_round"], names)
    if state["step"] == DEAL:
        return []
    lines = [f"Round {state['round']}: {_name(names, state['dealer'])} dealt"]
    lines += [kit.word(event, names, MOVES) for event in state["events"]]
    if state["step"] == ENTER:
        lines.append("Round over: the hands are entered")
    return lines


# -- a seat's panel ----------------------------------------------------------------------

def panel(view: View, seat: int) -> list[Part]:
    """The seat's hand as cards (phones mode), and the face-down moves it took part in,
    with their cards."""
    state, names = view["state"], view["names"]
    me = state.get("me") or {}
    parts: list[Part] = []
    if state["step"] in (SCORED, OVER) and state["last_round"] is not None:
        held = state["last_round"]["hands"][seat]
        parts.append(b.cards([b.card(str(r), kind="pairs", seat=seat)
                              for r in held], title="Your hand at the reveal",
                             empty="You had no cards"))
        return parts
    hand = me.get("hand")
    if hand is not None:
        parts.append(b.cards([b.card(str(r), kind="pairs", seat=seat)
                              for r in hand], title="Your hand", empty="Your hand is empty"))
    secret = [face_down_words(e, seat, names) for e in me.get("log", [])]
    if secret:
        parts.append(b.log(secret, title="Your face-down moves this round", keep=6))
    if state["step"] == ENTER and state["entries"][seat]:
        parts.append(b.cards([b.card(str(r), kind="pairs", seat=seat)
                              for r in state["entries"][seat]], title="You entered"))
    return parts
