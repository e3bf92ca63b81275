"""Captain's Orders: what a seat shows, and the round's moves and endings in words (the
table's board uses the same words).

Everything here is built from a view (a seat's own, or the public one), never from the
state; the state keeps structured events and codes, worded only here. Each decision is
one whole choice, filed in a menu (the seat pages through it; nothing reaches the match
until a choice is made).

Phones mode, no order: "Pass a card" (then the card, then the player), each card of
the hand to play as an order, "Ask for a card", "Discover Captain". Cards mode, no
order: "Play an order" (then the rank), "Pass a card", "Ask for a card", "Discover
Captain". A standing order: the cards that follow or belay it (cards mode: "Follow the
order", "Belay the order"), then "Discover Captain". With pass first and the hand's
orders on the top level, a pass takes no more presses on average than the rules-1
pick-a-card menus and an order fewer (docs/games/captains-orders.md has the figures).
Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from typing import Any

from companion.engine import Action, Choice, Display
from companion.games import kit
from companion.games.captains_orders.data import (
    CARDS,
    DECLARE,
    DISCARD,
    ENTER,
    GIVE,
    OVER,
    PHONES,
    REVEAL,
    SCORED,
    TURN,
)

#: Top-level menus, in the order a seat pages through them.
PASS_MENU, PLAY_MENU, ASK_MENU = "Pass a card", "Play an order", "Ask for a card"
DISCOVER_MENU, BELAY_MENU = "Discover Captain", "Belay the order"
#: Where each kind of move sits in a turn's list (stable within a kind), by mode.
MENU_ORDER = {
    PHONES: {"pass": 0, "play": 1, "ask": 2, "follow": 0, "belay": 1, "skip": 2,
             "accuse": 3},
    CARDS: {"play": 0, "pass": 1, "ask": 2, "follow": 0, "belay": 1, "skip": 2,
            "accuse": 3},
}

#: Public events of a round, in words (``kit.word``).
EVENT_TEXTS = {
    "play": "{seat} orders {rank}",
    "belay": "{seat} belays with {rank}",
    "pass": "{seat} passed a card to {to}",
    "discard": "{seat} discarded",
    "ask": "{seat} asked {to} for a card",
    "give": "{seat} gave {to} a card",
    "follow": "{seat} followed",
    "return": "{seat}'s order {rank} came back",
    "skip": "{seat} passed the turn",
    "quiet": "{seat} emptied their hand",
    "accuse": "{seat} accuses {target}",
}

#: The same events on the screen of the seat that made them.
YOUR_EVENT_TEXTS = {
    "play": "You order {rank}",
    "belay": "You belay with {rank}",
    "pass": "You passed a card to {to}",
    "discard": "You discarded",
    "ask": "You asked {to} for a card",
    "give": "You gave {to} a card",
    "follow": "You followed",
    "return": "Your order {rank} came back",
    "skip": "You passed the turn",
    "quiet": "You emptied your hand",
    "accuse": "You accuse {target}",
}

#: The moves that name two pirates, shorter for a 21-column screen (the rest as above).
SHORT_EVENT_TEXTS = {**EVENT_TEXTS, "pass": "{seat} passed to {to}",
                     "ask": "{seat} asked {to}", "give": "{seat} gave to {to}"}
YOUR_SHORT_EVENT_TEXTS = {**YOUR_EVENT_TEXTS, "pass": "You passed to {to}",
                          "ask": "You asked {to}", "give": "You gave to {to}"}

ROUND_TEXTS = {
    "captain_emptied": "A Captain emptied their hand and declared",
    "accused_captain": "A Mutineer discovered the Captain",
    "wrong_accusation": "A wrong accusation: most points wins",
    "captain_named_captain": "A Captain named another Captain: most points wins",
    "wrong_declaration": "A wrong declaration: most points wins",
    "no_declaration": "A hand was emptied without a declaration: most points wins",
}


def a_rank(rank: Any) -> str:
    """``a 7``, ``an 8``."""
    return f"an {rank}" if rank == 8 else f"a {rank}"


def end_text(end: str | None, leaders: int, target: int) -> str:
    """Why the match ended, from its code (``state["end"]``)."""
    wins = kit.plural(target, "round win")
    if end == "target":
        return f"First to {wins}"
    if end == "shared":
        return f"{leaders} players reached {wins} together"
    return "The round limit: the leaders share the victory"


# -- a seat's choices -------------------------------------------------------------------

def _choice(action: Action, state: dict[str, Any], names: list[str]) -> Choice:
    """One whole decision in words, filed in its menu. In phones mode a choice that
    shows a card of the hand is secret; an accusation being weighed always is."""
    kind, rank = action["type"], action.get("rank")
    phones = state["mode"] == PHONES
    name = kit.seat_name(names, action.get("to", action.get("target")))
    if kind == "pass":
        if not phones:
            return Choice(f"Pass a card to {name}", action, group=(PASS_MENU,),
                          short=f"To {name}")
        return Choice(f"Pass your {rank} to {name}", action, secret=True,
                      group=(PASS_MENU, str(rank)), short=f"{rank} to {name}")
    if kind == "play":
        # Phones: the hand's cards sit on the top level, one press from an order.
        if phones:
            return Choice(f"Play your {rank} as an order", action, secret=True,
                          short=f"Order {rank}")
        return Choice(f"Play {a_rank(rank)} as an order", action, group=(PLAY_MENU,),
                      short=f"Order {rank}")
    if kind == "ask":
        return Choice(f"Ask {name} for a card", action, group=(ASK_MENU,), short=f"Ask {name}")
    if kind == "accuse":
        return Choice(f"Accuse {name} of being the Captain", action, secret=True,
                      group=(DISCOVER_MENU,), short=f"Accuse {name}")
    if kind == "follow":
        label = f"Follow with your {rank}" if phones else "Follow the order"
        return Choice(label, action, secret=phones)
    if kind == "belay":
        if phones:
            return Choice(f"Belay with your {rank}", action, secret=True)
        return Choice(f"Belay with {a_rank(rank)}", action, group=(BELAY_MENU,))
    return Choice(_plain_label(action, state, names), action,
                  secret=phones and kind in ("give", "discard"))


def _plain_label(action: Action, state: dict[str, Any], names: list[str]) -> str:
    """The label of a choice outside the turn's menus."""
    kind, rank = action["type"], action.get("rank")
    if kind == "give":
        asker = kit.seat_name(names, state["pending"]["from"])
        if rank is None:
            return f"Done: I gave {asker} a card"
        return f"Give your {rank} to {asker}"
    if kind == "discard":
        return f"Discard your {rank}" if rank is not None else "Done: I discarded a card"
    if kind == "declare":
        return "Declare Captain" if action["captain"] else "Don't declare"
    if kind == "enter":
        return f"Enter {a_rank(rank)}"
    texts = {"skip": "Pass the turn", "reveal": f"I revealed {a_rank(rank)}",
             "next_round": "Next round"}
    return texts.get(kind, kind.replace("_", " "))


def choices(view: dict[str, Any]) -> tuple[Choice, ...]:
    """The seat's legal actions as choices, in menu order."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    order = MENU_ORDER[state["mode"]]
    ordered = sorted(legal, key=lambda action: order.get(action["type"], 0))
    return tuple(_choice(action, state, names) for action in ordered)


# -- a seat's screen --------------------------------------------------------------------

def step_actors(state: dict[str, Any]) -> list[int]:
    """Who the public knows must act (from the public view)."""
    step = state["step"]
    if step == TURN:
        return [state["turn"]]
    pending, emptied = state["pending"], state["emptied"]
    if step == DISCARD:
        return [pending["to"] if pending["kind"] == "pass" else pending["from"]]
    if step == GIVE:
        return [pending["to"]]
    if step in (DECLARE, REVEAL):
        return [emptied["seat"]]
    if step == ENTER:
        seat = kit.next_seat(state["seats"], state["dealer"])
        while len(state["entries"][seat]) >= state["need"][seat]:
            seat = kit.next_seat(state["seats"], seat)
        return [seat]
    if step == SCORED:  # the seats that have not yet seen the reveal
        return [seat for seat in range(state["seats"]) if seat not in state["ready"]]
    return []


def _title(state: dict[str, Any], names: list[str], seat: int) -> str:
    step = state["step"]
    actors = step_actors(state)
    mine = seat in actors
    who = kit.seat_name(names, actors[0]) if actors else ""
    if step == TURN:
        return f"Round {state['round']}: " + ("your turn" if mine else f"{who}'s turn")
    if step == ENTER:
        entering = bool(state["entries"][actors[0]])
        texts = (("Enter your hand", f"{who} enters their hand") if entering
                 else ("Your lowest card?", f"{who}: lowest card"))
        return texts[0 if mine else 1]
    by_step = {
        DISCARD: ("Discard a card", f"{who} discards"),
        GIVE: ("Give a card", f"{who} gives a card"),
        DECLARE: ("Declare Captain?", f"{who} emptied their hand"),
        REVEAL: ("Reveal your card", f"{who} reveals"),
    }
    if step in by_step:
        return by_step[step][0 if mine else 1]
    if step == OVER:
        return "Game over"
    if step == SCORED:  # how many have seen it (the next round waits for all): a line
        return f"Round {state['last_round']['round']} over"
    return "Captain's Orders"


def order_line(state: dict[str, Any], names: list[str], *, short: bool = False,
               viewer: int | None = None) -> str:
    """The standing order: ``Standing order: 7, Anne's`` (``Order 7 (Anne)`` short);
    on the screen of ``viewer``, its own order is ``Standing order: 7, yours``."""
    order = state["order"]
    if order is None:
        return "No order" if short else "No order on the table"
    if order["owner"] == viewer:
        return f"Order {order['rank']} (you)" if short else \
            f"Standing order: {order['rank']}, yours"
    owner = kit.seat_name(names, order["owner"])
    return f"Order {order['rank']} ({owner})" if short else \
        f"Standing order: {order['rank']}, {owner}'s"


#: A line in full words (the phone) and its short form (a 21-column screen).
Line = tuple[str, str]


def _same(text: str) -> Line:
    return text, text


def _counts_line(label: str, short: str, counts: list[int], names: list[str]) -> Line:
    """``Round wins: Anne 3, Bonny 1`` (``Wins 3 1`` short): a count per player."""
    return (f"{label}: " + ", ".join(f"{kit.seat_name(names, s)} {n}"
                                      for s, n in enumerate(counts)),
            short + " " + " ".join(str(n) for n in counts))


def _round_lines(state: dict[str, Any], names: list[str], seat: int) -> list[Line]:
    last = state["last_round"]
    winners = last["winners"]
    if seat in winners:
        first = _same("You win the round!")
    elif len(winners) == 1:
        first = _same(f"{kit.seat_name(names, winners[0])} wins the round")
    elif winners:
        first = (f"{kit.name_list(names, winners)} share the round",
                 f"{len(winners)} share the round")
    else:
        first = _same("Nobody wins the round")
    captains, lowest = last["captains"], last["lowest"]
    if captains == [seat]:
        second = (f"You were the Captain, holding {a_rank(lowest)}",
                  f"Captain: you ({lowest})")
    elif len(captains) == 1:
        who = kit.seat_name(names, captains[0])
        second = (f"The Captain was {who}, holding {a_rank(lowest)}",
                  f"Captain {who} ({lowest})")
    elif captains:
        second = (f"The Captains were {kit.name_list(names, captains)}, each holding "
                  f"{a_rank(lowest)}", f"{len(captains)} Captains ({lowest})")
    else:
        second = ("Nobody held a card: there was no Captain", "No Captain")
    return [first, second]


def _lines(state: dict[str, Any], names: list[str], seat: int
           ) -> tuple[list[str], list[str]]:
    """Public-safe lines (the OLED at rest): in full words, and their short forms."""
    step = state["step"]
    wins = _counts_line("Round wins", "Wins", state["wins"], names)
    if step == OVER:
        first = ("You win the match!", "You WIN the game!") if seat in state["winners"] \
            else _same("You lose")
        return _split([first, _round_lines(state, names, seat)[0], wins])
    if step == SCORED:
        # The round wins are on the phone's board; the OLED keeps them, with the count.
        ready, seats = len(state["ready"]), state["seats"]
        full, short = _split(_round_lines(state, names, seat))
        return (full + [f"{ready} of {seats} ready for the next round"],
                short + [wins[1], f"{ready}/{seats} ready"])
    if step == ENTER:
        return _split(_entry_lines(state, names, seat))
    events = state["events"]
    dealer = "You" if state["dealer"] == seat else kit.seat_name(names, state["dealer"])
    latest = _same(f"{dealer} dealt")
    if events:
        latest = (kit.word(events[-1], names, EVENT_TEXTS, seat, YOUR_EVENT_TEXTS),
                  kit.word(events[-1], names, SHORT_EVENT_TEXTS, seat, YOUR_SHORT_EVENT_TEXTS))
    return _split([(order_line(state, names, viewer=seat),
                    order_line(state, names, short=True, viewer=seat)),
                   latest,
                   _counts_line("Cards in hand", "Cards", state["sizes"], names)])


def _split(pairs: list[Line]) -> tuple[list[str], list[str]]:
    return [full for full, _ in pairs], [short for _, short in pairs]


def _entry_lines(state: dict[str, Any], names: list[str], seat: int) -> list[Line]:
    """Cards mode, round's end: what is being entered, and the seat's own entries."""
    ending = state["ending"]
    who = kit.seat_name(names, ending["seat"])
    if ending["kind"] == "accuse":
        first = f"{who} accused {kit.seat_name(names, ending['target'])}"
    elif ending["declared"]:
        first = f"{who} declared {ending['card']}"
    else:
        first = f"{who} did not declare"
    entries, need = state["entries"], state["need"]
    phase = "Lowest cards" if max(need) <= 1 else "Hands for points"
    mine = entries[seat]
    if need[seat] > 1:
        own = (f"You have entered {len(mine)} of {need[seat]} cards",
               f"You: {len(mine)}/{need[seat]} cards")
    elif need[seat] == 1:
        own = ((f"Your lowest card: {mine[0]}", f"Your lowest: {mine[0]}") if mine
               else ("Your lowest card: not entered yet", "Your lowest: ?"))
    else:
        own = _same("You have no cards")
    return [_same(first), _same(phase), own]


def _ranks(ranks: list[Any], short: bool) -> str:
    """``3 4 7`` on the seat's screen, ``3, 4 and 7`` on the phone."""
    words = [str(rank) for rank in ranks]
    if short or len(words) == 1:
        return " ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _private(state: dict[str, Any], names: list[str], *, short: bool = False) -> list[str]:
    """The seat's secrets: its hand, then its latest hidden moves (after a round, the
    hand it was holding, which is public by then). In full words for the phone
    (``Your hand: 3, 4 and 7``); ``short`` for the seat's screen (``Hand 3 4 7``)."""
    me = state.get("me", {})
    if state["step"] in (SCORED, OVER) and state["last_round"] is not None:
        held = state["last_round"]["hands"][me["seat"]]
        if not held:
            return []
        return [("Hand was " if short else "Your hand was ") + _ranks(held, short)]
    out: list[str] = []
    hand = me.get("hand")
    if hand is not None:
        if short:
            out.append("Hand " + (_ranks(hand, short) if hand else "empty"))
        else:
            out.append("Your hand: " + _ranks(hand, short) if hand else "Your hand is empty")
    out += [face_down_words(event, me["seat"], names, short=short)
            for event in me.get("log", [])[-2:]]
    if state["step"] == ENTER and state["entries"][me["seat"]]:
        entered = _ranks(state["entries"][me["seat"]], short)
        out.append(("Entered " if short else "You entered ") + entered)
    return out


def face_down_words(event: dict[str, Any], seat: int, names: list[str], *,
                    short: bool = False) -> str:
    """A face-down move the seat took part in, from its side, with its card: in full for
    the phone's panel (``You got a 7 from Anne``), ``short`` for the seat's private
    lines (``Got 7 from Anne``)."""
    card = event.get("card")
    shown = "a card" if card is None else (str(card) if short else a_rank(card))
    if event["kind"] == "discard":
        return f"You discarded {shown}"
    if event["seat"] == seat:
        return f"You gave {shown} to {kit.seat_name(names, event['to'])}"
    return f"{'Got' if short else 'You got'} {shown} from {kit.seat_name(names, event['seat'])}"


def display(view: dict[str, Any], seat: int) -> Display:
    """The seat's screen, built from its view alone."""
    state, names = view["state"], view["names"]
    shown = choices(view)
    full, short = _lines(state, names, seat)
    return Display(
        title=_title(state, names, seat),
        lines=tuple(full),
        short_lines=tuple(short),
        choices=shown,
        private=tuple(_private(state, names)),
        short_private=tuple(_private(state, names, short=True)),
        led="on" if shown else "off",
        confirm=CONFIRM,
    )


#: What select does on each kind of choice, for the seat's hint row (docs/seats.md).
CONFIRM = {"pass": "pass it", "play": "play this order", "ask": "ask", "accuse": "accuse",
           "follow": "follow", "belay": "belay", "discard": "discard it",
           "give": "give it"}
