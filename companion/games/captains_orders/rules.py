"""Captain's Orders: the rules - setup, the steps and their whole decisions, the moves,
the round's end and the result. What each viewer may see is built in ``views`` (and
drawn again there for the contract tests); what a seat shows, in ``show``; what the
table shows, in ``board``.

Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import (
    CHANCE,
    HOST,
    Action,
    Actor,
    Chance,
    Context,
    Game,
    Parts,
    Result,
    State,
    Step,
    Timed,
    always,
)
from companion.errors import OptionError
from companion.games import kit
from companion.games.captains_orders import board, howto, show, views
from companion.games.captains_orders.data import (
    DEAL,
    DECK,
    DECLARE,
    DISCARD,
    ENTER,
    GIVE,
    HAND_SIZE,
    OVER,
    PHONES,
    RANKS,
    REVEAL,
    SCORED,
    SPEC,
    TURN,
    parse_stack,
    round_limit,
)
from companion.games.captains_orders.entry import entry_ranks

# -- small helpers over the state --------------------------------------------------------


def _phones(state: State) -> bool:
    return state["options"]["mode"] == PHONES


def _left(state: State, seat: int) -> int:
    """The seat to the left (seats are numbered clockwise)."""
    return kit.next_seat(state["seats"], seat)


def _others(state: State, seat: int) -> list[int]:
    """The other seats, in seat order: each player finds a given seat at the same place
    in every list, whoever's turn it is."""
    return [other for other in range(state["seats"]) if other != seat]


def _distinct(hand: list[Any]) -> list[int]:
    return sorted(set(hand))


def _free_ranks(state: State) -> list[int]:
    """Cards mode: ranks of which a card may still be played as an order this round."""
    played: Counter[int] = Counter(state["played"])
    return [rank for rank in RANKS if played[rank] < rank]


def _take(state: State, seat: int, rank: int | None) -> None:
    """Remove a card from a hand (cards mode: hands hold one None per unknown card)."""
    state["hands"][seat].remove(rank)


def _put(state: State, seat: int, rank: int | None) -> None:
    hand = state["hands"][seat]
    hand.append(rank)
    if rank is not None:
        hand.sort()  # a hand is a set of cards: its order must tell nothing


def _event(state: State, kind: str, seat: int, **more: Any) -> int:
    """Record a move of the round; returns its index."""
    kit.log_event(state["events"], kind, seat=seat, **more)
    return len(state["events"]) - 1


def decide(lows: list[int | None], ending: dict[str, Any]
           ) -> tuple[str, list[int] | None, list[int]]:
    """Why the round ends and who wins it, from each seat's lowest card (None: an
    empty hand): ``(reason, winners, eligible)``, with ``winners`` None when the most
    points among ``eligible`` (two or more Mutineers) decides.

    ``ending`` is ``{"kind": "accuse", "seat", "target"}`` or ``{"kind": "declare",
    "seat", "declared", "card"}``. The Captains hold the lowest card in any hand.
    """
    held = [low for low in lows if low is not None]
    lowest = min(held) if held else None
    captains = [s for s, low in enumerate(lows) if low is not None and low == lowest]
    seat = ending["seat"]
    if ending["kind"] == "accuse":
        if seat not in captains and ending["target"] in captains:
            return "accused_captain", [seat], []
        named_captain = seat in captains and ending["target"] in captains
        reason = "captain_named_captain" if named_captain else "wrong_accusation"
    else:
        # C3: right when the revealed card is no higher than every card still in hands.
        if ending["declared"] and (lowest is None or ending["card"] <= lowest):
            return "captain_emptied", [seat], []
        reason = "wrong_declaration" if ending["declared"] else "no_declaration"
    # The points win: the other Mutineers, each with at least one card.
    eligible = [s for s, low in enumerate(lows)
                if low is not None and s != seat and s not in captains]
    if len(eligible) <= 1:
        return reason, eligible, eligible
    return reason, None, eligible


def judge(hands: list[list[int]], ending: dict[str, Any]) -> tuple[str, list[int]]:
    """Why the round ends and who wins it, from every revealed hand; ties on points
    share the win."""
    reason, winners, eligible = decide([min(h) if h else None for h in hands], ending)
    if winners is None:
        best = max(sum(hands[s]) for s in eligible)
        winners = [s for s in eligible if sum(hands[s]) == best]
    return reason, winners


# -- who acts, and the whole decisions of each step -----------------------------------------

def _turn_player(state: State) -> list[Actor]:
    return [state["turn"]]


def _discarder(state: State) -> list[Actor]:
    pending = state["pending"]
    return [pending["to"] if pending["kind"] == "pass" else pending["from"]]


def _giver(state: State) -> list[Actor]:
    return [state["pending"]["to"]]


def _emptier(state: State) -> list[Actor]:
    return [state["emptied"]["seat"]]


def enterer(state: State) -> int:
    """Cards mode: hands are entered one player after another, from the dealer's left."""
    seat = _left(state, state["dealer"])
    while len(state["entries"][seat]) >= state["need"][seat]:
        seat = _left(state, seat)
    return seat


def _plays(state: State, seat: int) -> list[dict[str, Any]]:
    """No order: play a card of the hand (phones) or enter the rank put down (cards)."""
    hand = state["hands"][seat]
    if state["order"] is not None or not hand:
        return []
    ranks = _distinct(hand) if _phones(state) else _free_ranks(state)
    return [{"rank": rank} for rank in ranks]


def _passes(state: State, seat: int) -> list[dict[str, Any]]:
    """No order: pass a card (phones: which one) face down to another player."""
    hand = state["hands"][seat]
    if state["order"] is not None or not hand:
        return []
    others = _others(state, seat)
    if not _phones(state):
        return [{"to": to} for to in others]
    return [{"rank": rank, "to": to} for rank in _distinct(hand) for to in others]


def _asks(state: State, seat: int) -> list[dict[str, Any]]:
    """No order: ask a player who holds a card for one."""
    if state["order"] is not None:
        return []
    return [{"target": s} for s in _others(state, seat) if state["hands"][s]]


def _follows(state: State, seat: int) -> list[dict[str, Any]]:
    """A standing order: a card of its rank or higher goes to its owner."""
    order, hand = state["order"], state["hands"][seat]
    if order is None or not hand:
        return []
    if not _phones(state):
        return [{}]
    return [{"rank": rank} for rank in _distinct(hand) if rank >= order["rank"]]


def _belays(state: State, seat: int) -> list[dict[str, Any]]:
    """A standing order: a lower order replaces it."""
    order, hand = state["order"], state["hands"][seat]
    if order is None or not hand:
        return []
    ranks = _distinct(hand) if _phones(state) else _free_ranks(state)
    return [{"rank": rank} for rank in ranks if rank < order["rank"]]


def _skips(state: State, seat: int) -> list[dict[str, Any]]:
    """C2 off: a player who can neither follow nor belay may pass the turn. Every card
    is either at least the order's rank or lower, so only an empty hand is stuck."""
    stuck = state["order"] is not None and not state["hands"][seat]
    return [{}] if stuck and not state["options"]["stuck_discovers"] else []


def _accusations(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"target": s} for s in _others(state, seat)]


def _hand_cards(state: State, seat: int) -> list[dict[str, Any]]:
    """A discard or a give: phones, which card of the hand; cards, a confirmation."""
    if _phones(state):
        return [{"rank": rank} for rank in _distinct(state["hands"][seat])]
    return [{}]


def _declarations(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"captain": True}, {"captain": False}]


def _reveals(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"rank": rank} for rank in _free_ranks(state)]


def _entries(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"rank": rank} for rank in entry_ranks(state, seat)]


def _deal(state: State, chance: Chance) -> Action:
    """Phones mode: shuffle and deal six cards to each seat (a stacked deck on top)."""
    decks = parse_stack(state["options"]["stack"])
    top = decks[state["round"] - 1] if state["round"] <= len(decks) else []
    rest = Counter(DECK) - Counter(top)
    deck = top + chance.shuffle(sorted(rest.elements()))
    seats = state["seats"]
    hands = [sorted(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(seats)]
    return {"type": "deal", "hands": hands, "undealt": sorted(deck[seats * HAND_SIZE:])}


# -- the game ----------------------------------------------------------------------------

class CaptainsOrders(Game):
    """The rules of Captain's Orders over plain JSON state."""

    spec = SPEC
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        DEAL: Step(who=lambda state: [CHANCE], chance={"deal": _deal}),
        TURN: Step(who=_turn_player, moves={
            "play": _plays, "pass": _passes, "ask": _asks, "follow": _follows,
            "belay": _belays, "skip": _skips, "accuse": _accusations},
            # The host's turn timer: its end only shows (docs/games/captains-orders.md).
            timed=Timed("turn_seconds", lap=lambda state: [state["round"], state["turn"]])),
        DISCARD: Step(who=_discarder, moves={"discard": _hand_cards}),
        GIVE: Step(who=_giver, moves={"give": _hand_cards}),
        DECLARE: Step(who=_emptier, moves={"declare": _declarations}),
        REVEAL: Step(who=_emptier, moves={"reveal": _reveals}),
        ENTER: Step(who=lambda state: [enterer(state)], moves={"enter": _entries}),
        # The reveal stays until every seat has seen it and says so (or, with
        # next_round "anyone", until the first seat does); the host may start it anyway.
        SCORED: Step(who=lambda state: _not_ready(state) + [HOST],
                     moves={"next_round": always}),
    }

    # -- setup --------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Round 1, not dealt yet (phones: the deal is the first chance action)."""
        if parse_stack(options["stack"]) and options["mode"] != PHONES:
            raise OptionError("bad_option", "option 'stack' only works in phones mode")
        if options["first_dealer"] > seats:
            raise OptionError("bad_option",
                              f"option 'first_dealer' must be at most {seats}")
        state: State = {
            "seats": seats,
            "options": dict(options),
            "round": 1,
            "dealer": options["first_dealer"] - 1,
            "wins": [0] * seats,
            # Every round in short (round, winners, reason); the latest in full.
            "history": [],
            "last_round": None,
            "ready": [],  # seats that have seen the reveal (SCORED)
            "winners": None,
            "end": None,  # why the match ended: a code show.end_text words
        }
        _start_round(state)
        return state

    # -- moves: the deal ----------------------------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: six cards to each seat; the rest stays out of play (C1)."""
        state["hands"] = [list(hand) for hand in action["hands"]]
        state["dealt"] = [list(hand) for hand in action["hands"]]
        state["undealt"] = list(action["undealt"])
        state["step"] = TURN

    # Every move of the play is a reveal for the host's undo: a pass, a give, a follow or
    # a discard shows a card to someone, and an order is face up. With all of them
    # barriers, undo is off all through the play (whether it is offered can tell nobody
    # anything); undo is for the hand entries of cards mode.

    # -- moves: a turn with no order --------------------------------------------------
    def move_play(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Play an order: the card goes face up to the centre; the player owns it."""
        self._order(state, actor, action["rank"], "play", ctx)

    def move_belay(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Belay the order: a lower order replaces it (the old one is discarded)."""
        self._order(state, actor, action["rank"], "belay", ctx)

    @staticmethod
    def _order(state: State, seat: int, rank: int, kind: str, ctx: Context) -> None:
        ctx.reveal()
        _take(state, seat, rank if _phones(state) else None)
        state["played"].append(rank)
        more = {"over": state["order"]["rank"]} if kind == "belay" else {}
        index = _event(state, kind, seat, rank=rank, **more)
        state["order"] = {"rank": rank, "owner": seat}
        _card_left(state, seat, index, "advance")

    def move_pass(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Pass a card face down; the receiver then discards one face down."""
        rank, to = action.get("rank"), action["to"]
        _take(state, actor, rank)
        _put(state, to, rank)
        index = _event(state, "pass", actor, to=to, card=rank)
        state["pending"] = {"kind": "pass", "from": actor, "to": to}
        ctx.reveal()
        _card_left(state, actor, index, DISCARD)

    def move_ask(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Ask for a card: the asked player chooses which card to give."""
        ctx.reveal()
        target = action["target"]
        _event(state, "ask", actor, to=target)
        state["pending"] = {"kind": "ask", "from": actor, "to": target}
        state["step"] = GIVE

    def move_give(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """The asked player's card goes face down to the asker, who then discards."""
        rank, asker = action.get("rank"), state["pending"]["from"]
        _take(state, actor, rank)
        _put(state, asker, rank)
        index = _event(state, "give", actor, to=asker, card=rank)
        ctx.reveal()
        _card_left(state, actor, index, DISCARD)

    def move_discard(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """A card from the hand goes face down to the discards; the turn passes."""
        rank = action.get("rank")
        _take(state, actor, rank)
        state["discards"].append(rank)
        if rank is not None:
            state["discards"].sort()
        _event(state, "discard", actor, card=rank)
        state["pending"] = None
        ctx.reveal()
        _advance(state)

    # -- moves: a standing order --------------------------------------------------------
    def move_follow(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Follow: a card of the order's rank or higher goes face down to its owner."""
        rank, order = action.get("rank"), state["order"]
        _take(state, actor, rank)
        _put(state, order["owner"], rank)
        index = _event(state, "follow", actor, to=order["owner"], card=rank,
                       order=order["rank"])
        ctx.reveal()
        _card_left(state, actor, index, "advance")

    def move_skip(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """C2 off: a player who can neither follow nor belay lets the turn pass."""
        ctx.reveal()
        _event(state, "skip", actor)
        _advance(state)

    # -- moves: the end of a round --------------------------------------------------------
    def move_accuse(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Discover the Captain: the round ends and every hand is revealed."""
        _event(state, "accuse", actor, target=action["target"])
        self._end_round(state, {"kind": "accuse", "seat": actor,
                                "target": action["target"]}, ctx)

    def move_declare(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """After emptying a hand: declare Captain (the round ends) or not (C3: the round
        ends anyway; with C3 off the player stays in and play goes on)."""
        ctx.reveal()
        emptied = state["emptied"]
        if action["captain"] or state["options"]["empty_ends_round"]:
            how = state["events"][emptied["event"]]
            # An undeclared card passed face down is not shown: only its hand is.
            card = how.get("card", how.get("rank")) if action["captain"] else None
            self._end_round(state, {"kind": "declare", "seat": actor,
                                    "declared": action["captain"], "card": card,
                                    "how": how["kind"], "to": how.get("to")}, ctx)
            return
        _event(state, "quiet", actor)
        state["emptied"] = None
        _resume(state, emptied["resume"])

    def move_reveal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Cards mode: the declarer shows the card they passed away and enters it; it is
        in the receiver's hand, who must enter it too."""
        ending = state["ending"]
        ending["card"] = action["rank"]
        state["reserve"] = {"rank": action["rank"], "seat": ending["to"]}
        self._open_entry(state, ctx)

    def move_enter(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Cards mode: one card of the seat's revealed hand (its lowest card first)."""
        state["entries"][actor].append(action["rank"])
        if any(len(e) < n for e, n in zip(state["entries"], state["need"], strict=True)):
            return
        if max(state["need"]) <= 1:
            self._after_lowest(state, ctx)
        else:
            self._score(state, [sorted(e) for e in state["entries"]], ctx)

    def move_next_round(self, state: State, actor: Actor, action: Action,
                        ctx: Context) -> None:
        """A seat has seen the reveal; once every seat has (or the host says so, or with
        next_round "anyone"), the deal passes left and a new round begins."""
        if actor != HOST and state["options"]["next_round"] == "everyone":
            state["ready"].append(actor)
            if _not_ready(state):
                return
        state["ready"] = []
        state["round"] += 1
        state["dealer"] = _left(state, state["dealer"])
        _start_round(state)

    def _end_round(self, state: State, ending: dict[str, Any], ctx: Context) -> None:
        """An accusation or an emptied hand ends the round: hands are revealed (phones)
        or entered (cards), then the round is judged."""
        ctx.reveal()
        state["ending"] = ending
        state["pending"] = None
        if _phones(state):
            self._score(state, [list(hand) for hand in state["hands"]], ctx)
        elif ending["kind"] == "declare" and ending["declared"] and ending["card"] is None:
            state["step"] = REVEAL  # the card went face down: its owner shows it
        else:
            self._open_entry(state, ctx)

    def _open_entry(self, state: State, ctx: Context) -> None:
        """Cards mode: first every player with cards enters their lowest card (the
        Captain check), one after another from the dealer's left."""
        state["entries"] = [[] for _ in range(state["seats"])]
        state["need"] = [1 if hand else 0 for hand in state["hands"]]
        state["step"] = ENTER
        if not any(state["need"]):
            self._score(state, [[] for _ in range(state["seats"])], ctx)

    def _after_lowest(self, state: State, ctx: Context) -> None:
        """The lowest cards are in: when points decide (two or more Mutineers could
        win), those Mutineers enter the rest of their hands; else the round is judged."""
        lows = [e[0] if e else None for e in state["entries"]]
        _, winners, eligible = decide(lows, state["ending"])
        if winners is None:
            for seat in eligible:
                state["need"][seat] = len(state["hands"][seat])
            if any(len(e) < n for e, n in zip(state["entries"], state["need"], strict=True)):
                return
        self._score(state, [sorted(e) for e in state["entries"]], ctx)

    def _score(self, state: State, hands: list[list[int]], ctx: Context) -> None:
        """Judge the round, count the wins, forget the round's secrets, end the match
        if someone has won (C5). ``hands`` are the revealed hands (cards mode: what was
        entered - the lowest card of each, and the whole hand where points decided)."""
        ctx.reveal()
        ending = state["ending"]
        reason, winners = judge(hands, ending)
        lows = [min(hand) if hand else None for hand in hands]
        held = [low for low in lows if low is not None]
        lowest = min(held) if held else None
        for seat in winners:
            state["wins"][seat] += 1
        state["last_round"] = {
            "round": state["round"], "dealer": state["dealer"], "hands": hands,
            # Cards mode: points are known only for the hands entered in full.
            "points": [sum(hand) if len(hand) == len(state["hands"][s]) else None
                       for s, hand in enumerate(hands)],
            "lowest": lowest,
            "captains": [s for s, low in enumerate(lows) if low is not None and low == lowest],
            "ending": dict(ending),
            "reason": reason, "winners": winners,
        }
        state["history"].append({"round": state["round"], "winners": winners,
                                 "reason": reason})
        _clear_round(state)
        _check_over(state)

    def result(self, state: State) -> Result | None:
        if state["step"] != OVER:
            return None
        return Result(list(state["winners"]), list(state["wins"]),
                      show.end_text(state["end"], len(state["winners"]),
                                    state["options"]["wins"]),
                      {"rounds": state["round"], "round_wins": list(state["wins"])})

    def bot_score(self, state: State, seat: int) -> float:
        """A bot's guess at ``seat``'s chance: its share of the round wins, each seat
        counting half a win more for an emptier hand (the Captain's way to win)."""
        def standing(s: int) -> float:
            hand = len(state["hands"][s]) if state.get("hands") else HAND_SIZE
            return 1.0 + state["wins"][s] + 0.5 * (1 - min(hand, HAND_SIZE) / HAND_SIZE)
        values = [standing(s) for s in range(state["seats"])]
        return values[seat] / sum(values)

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound on one match's actions.

        Every turn but a follow or a skipped turn takes one card out of the hands (a
        pass or an ask ends with a discard), and there are ``6 x seats`` of them; each
        order is followed or skipped at most ``seats - 1`` times: at most
        ``6 x seats^2 + 1`` turns a round. A turn is at most 4 actions (the move, a
        give, a declaration, a discard); the round's end adds a reveal, the entries (at
        most every card), the next round and the deal.
        """
        turns = 6 * seats * seats + 1
        per_round = turns * 4 + 6 * seats + 4
        return round_limit(seats, options["wins"]) * per_round


# -- round bookkeeping -------------------------------------------------------------------

def _start_round(state: State) -> None:
    """A fresh round: the companion deals (phones) or the table has dealt (cards)."""
    seats = state["seats"]
    phones = _phones(state)
    state.update({
        "step": DEAL if phones else TURN,
        "turn": _left(state, state["dealer"]),
        # Cards mode: a hand is one None per card the companion cannot see.
        "hands": [[] if phones else [None] * HAND_SIZE for _ in range(seats)],
        "dealt": None,
        "undealt": [] if phones else [None] * (len(DECK) - HAND_SIZE * seats),
        "discards": [], "played": [], "order": None, "pending": None, "emptied": None,
        "ending": None, "reserve": None, "events": [], "entries": None, "need": None,
    })


def _clear_round(state: State) -> None:
    """After the reveal the round's secrets are gone: the undealt cards and the face-down
    discards stay unknown for good, as at a real table."""
    state.update({
        "hands": [[] for _ in range(state["seats"])], "dealt": None, "undealt": [],
        "discards": [], "played": [], "order": None, "pending": None, "emptied": None,
        "ending": None, "reserve": None, "events": [], "entries": None, "need": None,
    })


def _check_over(state: State) -> None:
    """C5: the target reached (shared, or by one leader alone); else the next round."""
    options, wins = state["options"], state["wins"]
    top = max(wins)
    leaders = [s for s, w in enumerate(wins) if w == top]
    if top >= options["wins"] and (options["shared_victory"] or len(leaders) == 1):
        state["winners"] = leaders
        state["end"] = "target" if len(leaders) == 1 else "shared"
        state["step"] = OVER
    elif state["round"] >= round_limit(state["seats"], options["wins"]):
        state["winners"] = leaders if top > 0 else []
        state["end"] = "limit"
        state["step"] = OVER
    else:
        state["step"] = SCORED


def _not_ready(state: State) -> list[int]:
    """The seats that have not yet said they have seen the round's reveal."""
    return [seat for seat in range(state["seats"]) if seat not in state["ready"]]


def _advance(state: State) -> None:
    """The turn passes left; an order that comes back to its owner is discarded and
    the turn passes on."""
    state["step"] = TURN
    state["turn"] = _left(state, state["turn"])
    order = state["order"]
    if order is not None and order["owner"] == state["turn"]:
        _event(state, "return", order["owner"], rank=order["rank"])
        state["order"] = None
        state["turn"] = _left(state, state["turn"])


def _card_left(state: State, seat: int, event: int, resume: str) -> None:
    """A card left ``seat``'s hand: an empty hand stops everything for a declaration;
    otherwise the move goes on (``resume``: the discard that follows, or the turn)."""
    if state["hands"][seat]:
        _resume(state, resume)
        return
    state["emptied"] = {"seat": seat, "event": event, "resume": resume}
    state["step"] = DECLARE


def _resume(state: State, resume: str) -> None:
    if resume == DISCARD:
        state["step"] = DISCARD
    else:
        _advance(state)


GAME = CaptainsOrders()
