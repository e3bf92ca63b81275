"""Captain's Orders: find the secret Captain (rulebook ``003_a2efeb2784fa73be.txt``).

Each round every player is dealt six cards from a Pairs deck (one 1, two 2s ... ten 10s).
The Captain is whoever holds the lowest card in any hand, so the Captain changes as cards
move; ties make several Captains, who are not a team. On a turn with no order on the
table a player plays an order, passes a card (the receiver then discards one face down),
asks for a card (then discards one) or discovers the Captain; with a standing order they
follow it (pass a card of equal or higher rank to its owner), belay it (play a lower
order) or discover. An order that comes back round to its owner is discarded. The round
ends when someone accuses (right: the accusing Mutineer wins; wrong: the other Mutineer
with the most points wins) or empties their hand (a Captain who declares wins). First to
three round wins takes the game.

What the companion keeps: the deal (or, with real cards, only the turn), every hand on
its owner's phone, the order and its owner, who must act, what was passed and discarded
(each seat sees only its own part), the round's reveal and the round wins.

Rulings (``RULINGS.md``, C1-C5) and the options that switch them:

- C1 (no option: it is the deck the game is played with): 55 cards; the undealt cards
  stay out of play, face down.
- C2 ``stuck_discovers``: a player who can neither follow nor belay must discover (off:
  they may pass the turn instead). Every card is either at least the order's rank or
  lower than it, so only an empty hand is ever stuck: this matters only with
  ``empty_ends_round`` off.
- C3 ``empty_ends_round``: emptying a hand ends the round; the player may then declare
  Captain, and is right when the revealed card is no higher than every card still in
  hands (off: a player who empties their hand and does not declare stays in the round
  with no cards; declaring still ends it).
- C4 ``mode``: ``"phones"`` - the companion deals and each seat's view holds its hand;
  ``"cards"`` - a real deck on the table: the companion keeps the turns, the order (its
  rank entered by whoever plays it), its owner, the hand sizes and the round wins; at
  the round's end each player enters their lowest card (the Captain check), then, when
  points decide, the Mutineers who can win enter the rest of their hands, one card at
  a time.
- C5 ``shared_victory``: several players reaching the target in the same round share the
  victory (off: play on until one leads alone).

Details the rulebook leaves open, decided here (see ``docs/games/captains-orders.md``):
hand sizes are public (they are visible at a real table); the seat ``first_dealer``
deals first and seats are numbered clockwise, so "left" is the next seat; a hand
emptied by a pass (or by giving the asked card) ends the round before the receiver's
discard, and the card stays in the receiver's hand for scoring; a points win goes to the
Mutineers (non-Captains) who did not fail an accusation or a declaration, needs at least
one card, and ties share it; a round where nobody can win has no winner; a match stops
after ``2 x seats x wins + 10`` rounds (never reached in play), the leaders sharing it;
every move of the play is a reveal for the host's undo (so undo never hints that a seat
is browsing, nor replays a card shown to someone); undo takes back cards-mode entries.
"""
from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.rules import (
    CHANCE, Action, Actor, Context, Game, Result, State, Viewer,
)
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected, OptionError

# -- constants ---------------------------------------------------------------------------

GAME_ID = "captains-orders"
RANKS = tuple(range(1, 11))
#: The Pairs deck (C1): one 1, two 2s ... ten 10s.
DECK = tuple(rank for rank in RANKS for _ in range(rank))
HAND_SIZE = 6
#: "Back" presses per turn: enough to change one's mind twice, and a bound that keeps
#: every turn (random play included) finite.
BACKS = 2
#: Attempts of the re-deal before it gives up and returns the state unchanged.
REDEAL_TRIES = 30
PHONES, CARDS = "phones", "cards"

#: Steps of a match.
DEAL = "deal"          # chance deals the round (phones mode)
TURN = "turn"          # the turn player acts (through small menus)
DISCARD = "discard"    # the receiver of a pass, or an asker, discards face down
GIVE = "give"          # an asked player chooses the card to give
DECLARE = "declare"    # a player who emptied their hand may declare Captain
REVEAL = "reveal"      # cards mode: the declarer enters the revealed card's rank
ENTER = "enter"        # cards mode: each player in turn enters their hand, card by card
SCORED = "scored"      # the round's reveal is shown until a seat starts the next one
OVER = "over"

#: Moves whose card is known only to the seats involved.
HIDDEN_KINDS = frozenset({"pass", "give", "follow", "discard"})
#: Ways a card leaves a hand face up.
FACE_UP = frozenset({"play", "belay"})
#: Action types whose label shows a card of the seat's hand (phones mode).
HAND_TYPES = frozenset({"pick", "play", "pass", "follow", "belay", "give", "discard"})

REASONS = {
    "captain_emptied": "A Captain emptied their hand and declared",
    "accused_captain": "A Mutineer discovered the Captain",
    "wrong_accusation": "A wrong accusation: most points wins",
    "captain_named_captain": "A Captain named another Captain: most points wins",
    "wrong_declaration": "A wrong declaration: most points wins",
    "no_declaration": "A hand was emptied without a declaration: most points wins",
}

SPEC = GameSpec(
    GAME_ID, "Captain's Orders", 4, 8,
    (
        Option("mode", PHONES,
               "C4: 'phones' - the companion deals and each phone holds its hand; "
               "'cards' - a real Pairs deck on the table, hands entered at the round's end",
               choices=(PHONES, CARDS)),
        Option("wins", 3, "round wins that win the game (the rulebook: three)",
               minimum=1, maximum=9),
        Option("shared_victory", True,
               "C5: several players reaching the target in the same round share the "
               "victory (off: play on until one leads alone)"),
        Option("empty_ends_round", True,
               "C3: emptying a hand ends the round, declared or not (off: a player who "
               "does not declare stays in the round with an empty hand)"),
        Option("stuck_discovers", True,
               "C2: a player who can neither follow nor belay must discover (off: they "
               "may pass the turn); only an empty hand is ever stuck"),
        Option("first_dealer", 1, "the seat (1-based) that deals the first round",
               minimum=1, maximum=8),
        Option("stack", "",
               "tests and teaching (phones mode): stacked decks, one per round, separated "
               "by '/', each comma-separated ranks from the top; dealt six by six to "
               "seat 1, seat 2 ...; the rest of the deck is shuffled below"),
    ),
    summary="Pass, ask, order and bluff: find the secret Captain who holds the lowest "
            "card, or be the Captain and empty your hand. First to three round wins.",
)


def parse_stack(text: str) -> list[list[int]]:
    """The stacked decks of the ``stack`` option, one list of ranks per round.

    Raises :class:`OptionError` unless every deck is a sub-multiset of the Pairs deck.
    """
    if not text.strip():
        return []
    decks = []
    for number, part in enumerate(text.split("/"), start=1):
        try:
            deck = [int(word) for word in part.split(",") if word.strip()]
        except ValueError:
            raise OptionError("bad_option",
                              f"stack: deck {number} holds something that is not a rank"
                              ) from None
        counts = Counter(deck)
        bad = [rank for rank in counts if rank not in RANKS or counts[rank] > rank]
        if bad:
            raise OptionError("bad_option",
                              f"stack: deck {number} has too many (or no such) {bad[0]}s: "
                              "a Pairs deck holds one 1, two 2s ... ten 10s")
        decks.append(deck)
    return decks


# -- small helpers over the state --------------------------------------------------------

def _clone(data: Any) -> Any:
    """A deep copy of plain data (a pickle round trip is done in C: much faster than
    ``copy.deepcopy`` on a state the engine copies at every step)."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def _phones(state: State) -> bool:
    return state["options"]["mode"] == PHONES


def _next(state: State, seat: int) -> int:
    """The seat to the left (seats are numbered clockwise)."""
    return (seat + 1) % state["seats"]


def _others(state: State, seat: int) -> list[int]:
    return [s for s in range(state["seats"]) if s != seat]


def _sizes(state: State) -> list[int]:
    return [len(hand) for hand in state["hands"]]


def _distinct(hand: list[Any]) -> list[int]:
    return sorted(set(hand))


def _free_ranks(state: State) -> list[int]:
    """Cards mode: ranks of which a card may still be played as an order this round."""
    played = Counter(state["played"])
    return [rank for rank in RANKS if played[rank] < rank]


def _ask_targets(state: State, seat: int) -> list[int]:
    return [s for s in _others(state, seat) if state["hands"][s]]


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
    state["events"].append({"kind": kind, "seat": seat, **more})
    return len(state["events"]) - 1


def _round_limit(seats: int, wins: int) -> int:
    """A safety stop no real match reaches: every round normally has a winner."""
    return 2 * seats * wins + 10


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


# -- the game ----------------------------------------------------------------------------

class CaptainsOrders(Game):
    """The rules of Captain's Orders over plain JSON state (see the module docstring)."""

    spec = SPEC
    action_types = frozenset({
        "deal", "pick", "open", "back", "play", "pass", "ask", "accuse", "follow",
        "belay", "skip", "give", "discard", "declare", "reveal", "enter", "next_round",
    })

    # -- setup and flow -------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Round 1, not dealt yet (phones: the deal is the first chance action)."""
        if parse_stack(options["stack"]) and options["mode"] != PHONES:
            raise OptionError("bad_option", "option 'stack' only works in phones mode")
        if options["first_dealer"] > seats:
            raise OptionError("bad_option",
                              f"option 'first_dealer' must be at most {seats}")
        dealer = options["first_dealer"] - 1
        state: State = {
            "seats": seats,
            "options": dict(options),
            "round": 1,
            "dealer": dealer,
            "wins": [0] * seats,
            # Every round in short (round, winners, reason); the latest in full.
            "history": [],
            "last_round": None,
            "winners": None,
            "end_reason": "",
        }
        _start_round(state)
        return state

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """Phones mode: shuffle and deal six cards to each seat (a stacked deck on top)."""
        if state["step"] != DEAL:
            return None
        decks = parse_stack(state["options"]["stack"])
        top = decks[state["round"] - 1] if state["round"] <= len(decks) else []
        rest = Counter(DECK) - Counter(top)
        deck = top + chance.shuffle(sorted(rest.elements()))
        seats = state["seats"]
        hands = [sorted(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(seats)]
        return {"type": "deal", "hands": hands, "undealt": sorted(deck[seats * HAND_SIZE:])}

    def acting(self, state: State) -> list[Actor]:
        """Who may act: one seat, except after the reveal (any seat starts the next
        round)."""
        step = state["step"]
        if step == TURN:
            return [state["turn"]]
        if step == DISCARD:
            pending = state["pending"]
            return [pending["to"] if pending["kind"] == "pass" else pending["from"]]
        if step == GIVE:
            return [state["pending"]["to"]]
        if step in (DECLARE, REVEAL):
            return [state["emptied"]["seat"]]
        if step == ENTER:
            return [_enterer(state)]
        if step == SCORED:
            return list(range(state["seats"]))
        return []

    def step(self, state: State) -> str:
        return state["step"]

    # -- legal actions --------------------------------------------------------------
    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now (none unless ``actor`` is acting)."""
        if actor not in self.acting(state):
            return []
        step = state["step"]
        if step == TURN:
            return self._turn_actions(state, actor)
        if step in (DISCARD, GIVE):
            if _phones(state):
                return [{"type": step, "rank": r} for r in _distinct(state["hands"][actor])]
            return [{"type": step}]
        if step == DECLARE:
            return [{"type": "declare", "captain": True}, {"type": "declare", "captain": False}]
        if step == REVEAL:
            return [{"type": "reveal", "rank": r} for r in _free_ranks(state)]
        if step == ENTER:
            return [{"type": "enter", "rank": r} for r in _entry_ranks(state, actor)]
        return [{"type": "next_round"}]

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        """The turn player's current menu: the top menu, a picked card's uses, or a
        sub-menu (a player, a rank), with "back" while backs are left."""
        menu = state["menu"]
        if menu is None:
            return self._top_menu(state, seat)
        if "pick" in menu:
            rank = menu["pick"]
            acts = [{"type": "play", "rank": rank}]
            acts += [{"type": "pass", "rank": rank, "to": s} for s in _others(state, seat)]
        else:
            acts = self._sub_menu(state, seat, menu["open"])
        if state["backs"] < BACKS:
            acts.append({"type": "back"})
        return acts

    @staticmethod
    def _top_menu(state: State, seat: int) -> list[Action]:
        hand = state["hands"][seat]
        order = state["order"]
        phones = _phones(state)
        acts: list[Action] = []
        if order is None:
            if phones:
                acts += [{"type": "pick", "rank": r} for r in _distinct(hand)]
            elif hand:
                acts += [{"type": "open", "menu": "play"}, {"type": "open", "menu": "pass"}]
            if _ask_targets(state, seat):
                acts.append({"type": "open", "menu": "ask"})
        else:
            rank = order["rank"]
            if phones:
                acts += [{"type": "follow", "rank": r} for r in _distinct(hand) if r >= rank]
                acts += [{"type": "belay", "rank": r} for r in _distinct(hand) if r < rank]
            elif hand:
                acts.append({"type": "follow"})
                if any(r < rank for r in _free_ranks(state)):
                    acts.append({"type": "open", "menu": "belay"})
            if not acts and not state["options"]["stuck_discovers"]:
                acts.append({"type": "skip"})  # C2 switched off
        acts.append({"type": "open", "menu": "accuse"})
        return acts

    @staticmethod
    def _sub_menu(state: State, seat: int, menu: str) -> list[Action]:
        if menu == "ask":
            return [{"type": "ask", "target": s} for s in _ask_targets(state, seat)]
        if menu == "accuse":
            return [{"type": "accuse", "target": s} for s in _others(state, seat)]
        if menu == "pass":
            return [{"type": "pass", "to": s} for s in _others(state, seat)]
        ranks = _free_ranks(state)
        if menu == "belay":
            ranks = [r for r in ranks if r < state["order"]["rank"]]
        return [{"type": menu, "rank": r} for r in ranks]

    # -- moves: the deal and the menus ----------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: six cards to each seat; the rest stays out of play (C1)."""
        if actor != CHANCE:
            raise ActionRejected("chance_only", "only the companion deals")
        state["hands"] = [list(hand) for hand in action["hands"]]
        state["dealt"] = [list(hand) for hand in action["hands"]]
        state["undealt"] = list(action["undealt"])
        state["step"] = TURN

    # Every move of the play is a reveal for the host's undo: a menu move changes only
    # the acting seat's own view, and a pass, a give, a follow or a discard shows a card
    # to someone. With all of them barriers, whether undo is offered stays the same
    # (off) all through the play, so it can tell nobody that a seat is browsing; undo
    # is for the hand entries of cards mode.
    def move_pick(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Phones mode, no order: a card is picked, to play or to pass."""
        state["menu"] = {"pick": action["rank"]}
        ctx.reveal()

    def move_open(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["menu"] = {"open": action["menu"]}
        ctx.reveal()

    def move_back(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["menu"] = None
        state["backs"] += 1
        ctx.reveal()

    # -- moves: a turn with no order --------------------------------------------------
    def move_play(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Play an order: the card goes face up to the centre; the player owns it."""
        self._order(state, actor, action["rank"], "play", ctx)

    def move_belay(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
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

    def move_pass(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Pass a card face down; the receiver then discards one face down."""
        rank, to = action.get("rank"), action["to"]
        _take(state, actor, rank)
        _put(state, to, rank)
        index = _event(state, "pass", actor, to=to, card=rank)
        state["pending"] = {"kind": "pass", "from": actor, "to": to}
        ctx.reveal()
        _card_left(state, actor, index, DISCARD)

    def move_ask(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Ask for a card: the asked player chooses which card to give."""
        ctx.reveal()
        target = action["target"]
        _event(state, "ask", actor, to=target)
        state["pending"] = {"kind": "ask", "from": actor, "to": target}
        state["menu"] = None
        state["step"] = GIVE

    def move_give(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The asked player's card goes face down to the asker, who then discards."""
        rank, asker = action.get("rank"), state["pending"]["from"]
        _take(state, actor, rank)
        _put(state, asker, rank)
        index = _event(state, "give", actor, to=asker, card=rank)
        ctx.reveal()
        _card_left(state, actor, index, DISCARD)

    def move_discard(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
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
    def move_follow(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Follow: a card of the order's rank or higher goes face down to its owner."""
        rank, order = action.get("rank"), state["order"]
        _take(state, actor, rank)
        _put(state, order["owner"], rank)
        index = _event(state, "follow", actor, to=order["owner"], card=rank,
                       order=order["rank"])
        ctx.reveal()
        _card_left(state, actor, index, "advance")

    def move_skip(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """C2 off: a player who can neither follow nor belay lets the turn pass."""
        ctx.reveal()
        _event(state, "skip", actor)
        _advance(state)

    # -- moves: the end of a round --------------------------------------------------------
    def move_accuse(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Discover the Captain: the round ends and every hand is revealed."""
        _event(state, "accuse", actor, target=action["target"])
        self._end_round(state, {"kind": "accuse", "seat": actor,
                                "target": action["target"]}, ctx)

    def move_declare(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
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
        if any(len(e) < n for e, n in zip(state["entries"], state["need"])):
            return
        if max(state["need"]) <= 1:
            self._after_lowest(state, ctx)
        else:
            self._score(state, [sorted(e) for e in state["entries"]], ctx)

    def move_next_round(self, state: State, actor: Actor, action: Action,
                        ctx: Context) -> None:
        """The deal passes left and a new round begins."""
        state["round"] += 1
        state["dealer"] = _next(state, state["dealer"])
        _start_round(state)

    def _end_round(self, state: State, ending: dict[str, Any], ctx: Context) -> None:
        """An accusation or an emptied hand ends the round: hands are revealed (phones)
        or entered (cards), then the round is judged."""
        ctx.reveal()
        state["ending"] = ending
        state["pending"] = None
        state["menu"] = None
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
            if any(len(e) < n for e, n in zip(state["entries"], state["need"])):
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
        self._check_over(state)

    @staticmethod
    def _check_over(state: State) -> None:
        options, wins = state["options"], state["wins"]
        top = max(wins)
        leaders = [s for s, w in enumerate(wins) if w == top]
        if top >= options["wins"] and (options["shared_victory"] or len(leaders) == 1):
            state["winners"] = leaders
            state["end_reason"] = (f"First to {options['wins']} round wins" if len(leaders) == 1
                                   else f"{len(leaders)} players reached {options['wins']} "
                                        "round wins together")
            state["step"] = OVER
        elif state["round"] >= _round_limit(state["seats"], options["wins"]):
            state["winners"] = leaders if top > 0 else []
            state["end_reason"] = "The round limit: the leaders share the victory"
            state["step"] = OVER
        else:
            state["step"] = SCORED

    def result(self, state: State) -> Result | None:
        if state["step"] != OVER:
            return None
        return Result(list(state["winners"]), list(state["wins"]), state["end_reason"],
                      {"rounds": state["round"], "round_wins": list(state["wins"])})

    # -- views ----------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """The public record (hand sizes included), plus the viewer's own hand, menu and
        the hidden moves it took part in."""
        out = _public_view(state)
        if isinstance(viewer, int):
            out["me"] = _seat_view(state, viewer)
        return out

    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen: public lines, the hand as secret choices, the hand and
        the seat's hidden moves as private lines."""
        return seat_display(view, seat)

    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """The table display: headline, the order, hand sizes, round wins."""
        return table_summary(view)

    # -- re-deal (for the contract tests) -----------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Draw again every card ``viewer`` cannot see, consistent with what it knows:
        its own hand, the cards it passed, gave, received and discarded, and every
        public move (an order played was in its player's hand; a followed card was at
        least the order's rank). The round is replayed from a fresh deal of the unseen
        cards, drawing each hidden choice again."""
        if state["step"] not in (TURN, DISCARD, GIVE, DECLARE) or not _phones(state):
            return _clone(state)
        for _ in range(REDEAL_TRIES):
            twin = _replay(state, viewer, rng)
            if twin is not None:
                return twin
        return _clone(state)

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound on one match's actions.

        Every turn but a follow or a skipped turn takes one card out of the hands (a
        pass or an ask ends with a discard), and there are ``6 x seats`` of them; each
        order is followed or skipped at most ``seats - 1`` times: at most
        ``6 x seats^2 + 1`` turns a round. A turn is at most ``2 x BACKS + 5`` actions
        (menus, backs, the move, a give, a discard, a declaration); the round's end
        adds a reveal, the entries (at most every card), the next round and the deal.
        """
        turns = 6 * seats * seats + 1
        per_round = turns * (2 * BACKS + 5) + 6 * seats + 4
        return _round_limit(seats, options["wins"]) * per_round

    def describe(self, action: Action, names: list[str]) -> str:
        """A short label of an action for a log line (never a card passed face down)."""
        return describe(action, names)


# -- round bookkeeping -------------------------------------------------------------------

def _start_round(state: State) -> None:
    """A fresh round: the companion deals (phones) or the table has dealt (cards)."""
    seats = state["seats"]
    phones = _phones(state)
    state.update({
        "step": DEAL if phones else TURN,
        "turn": _next(state, state["dealer"]),
        # Cards mode: a hand is one None per card the companion cannot see.
        "hands": [[] if phones else [None] * HAND_SIZE for _ in range(seats)],
        "dealt": None,
        "undealt": [] if phones else [None] * (len(DECK) - HAND_SIZE * seats),
        "discards": [],
        "played": [],
        "order": None,
        "pending": None,
        "emptied": None,
        "ending": None,
        "reserve": None,
        "menu": None,
        "backs": 0,
        "events": [],
        "entries": None,
        "need": None,
    })


def _clear_round(state: State) -> None:
    """After the reveal the round's secrets are gone: the undealt cards and the face-down
    discards stay unknown for good, as at a real table."""
    seats = state["seats"]
    state.update({
        "hands": [[] for _ in range(seats)], "dealt": None, "undealt": [],
        "discards": [], "played": [], "order": None, "pending": None, "emptied": None,
        "ending": None, "reserve": None, "menu": None, "backs": 0, "events": [],
        "entries": None,
        "need": None,
    })


def _advance(state: State) -> None:
    """The turn passes left; an order that comes back to its owner is discarded and
    the turn passes on."""
    state["menu"] = None
    state["backs"] = 0
    state["step"] = TURN
    state["turn"] = _next(state, state["turn"])
    order = state["order"]
    if order is not None and order["owner"] == state["turn"]:
        _event(state, "return", order["owner"], rank=order["rank"])
        state["order"] = None
        state["turn"] = _next(state, state["turn"])


def _card_left(state: State, seat: int, event: int, resume: str) -> None:
    """A card left ``seat``'s hand: an empty hand stops everything for a declaration;
    otherwise the move goes on (``resume``: the discard that follows, or the turn)."""
    state["menu"] = None
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


def _enterer(state: State) -> int:
    """Cards mode: hands are entered one player after another, from the dealer's left."""
    seat = _next(state, state["dealer"])
    while len(state["entries"][seat]) >= state["need"][seat]:
        seat = _next(state, seat)
    return seat


def _entry_ranks(state: State, seat: int) -> list[int]:
    """Ranks ``seat`` may enter next: its first entry is its lowest card, the others
    are no lower, and every entry must leave a way to complete every hand still to be
    entered from what the deck still holds. An honest entry always passes (the real
    hands complete it), and a next entry always exists, so entering never gets stuck
    whatever was entered before."""
    entries = state["entries"]
    mine = entries[seat]
    candidates = range(mine[0] if mine else 1, len(RANKS) + 1)
    reserve = state["reserve"]
    if reserve is not None and reserve["seat"] == seat:
        # The receiver of a declared card: rare, so each entry is tried in full.
        return [rank for rank in candidates
                if _completable(state, entries[:seat] + [mine + [rank]] + entries[seat + 1:])]
    counts = _counts(state, entries)
    if counts is None:
        return []
    supply, demand, left = counts
    out = []
    floor = mine[0] if mine else 1
    for rank in candidates:
        # The same counts with ``rank`` entered: one card fewer in the deck, one fewer
        # to enter; a first entry also raises the seat's floor from 1 to ``rank``.
        trial_supply, trial_demand = list(supply), list(demand)
        trial_supply[rank] -= 1
        trial_demand[floor] -= left[seat]
        trial_demand[rank if not mine else floor] += left[seat] - 1
        if left[seat] > 0 and _fits(trial_supply, trial_demand):
            out.append(rank)
    return out


def _completable(state: State, entries: list[list[int]]) -> bool:
    """Whether the hands can still be completed from what the deck holds."""
    counts = _counts(state, entries)
    return counts is not None and _fits(counts[0], counts[1])


def _counts(state: State, entries: list[list[int]]
            ) -> tuple[list[int], list[int], list[int]] | None:
    """What completing the hands takes: the cards of each rank the deck still holds
    (not played as orders, not entered), the cards still to enter by lowest rank
    allowed, and per seat how many are left (None: the entries cannot be right).

    Each seat needs cards no lower than its lowest. In the first phase every hand may
    yet be needed in full. A declared card passed face down is in its receiver's hand:
    held back for them, no lower than their lowest, and among their cards if they
    enter all of them."""
    supply = list(range(len(RANKS) + 1))  # supply[r]: r copies of rank r
    for rank in state["played"]:
        supply[rank] -= 1
    for hand in entries:
        for rank in hand:
            supply[rank] -= 1
    first_phase = max(state["need"]) <= 1
    reserve = state["reserve"]
    demand = [0] * (len(RANKS) + 1)
    lefts = []
    for seat, hand in enumerate(entries):
        size = len(state["hands"][seat])
        left = (size if first_phase else state["need"][seat]) - len(hand)
        if left < 0:
            return None
        if reserve is not None and seat == reserve["seat"]:
            rank = reserve["rank"]
            if (hand and hand[0] > rank) or (rank not in hand and len(hand) == size):
                return None
            if rank not in hand and left > 0:
                supply[rank] -= 1
                left -= 1
        demand[hand[0] if hand else 1] += left
        lefts.append(left)
    return supply, demand, lefts


def _fits(supply: list[int], demand: list[int]) -> bool:
    """Needs on nested rank ranges (rank r and up) fit exactly when, for every rank,
    the needs from that rank up are no more than the cards from that rank up (Hall's
    condition)."""
    if min(supply) < 0:
        return False
    needed = held = 0
    for rank in range(len(RANKS), 0, -1):
        needed += demand[rank]
        held += supply[rank]
        if needed > held:
            return False
    return True


# -- the re-deal: replay the round with the unseen cards drawn again ----------------------

class _Replay:
    """Cells of cards: a known rank or None (drawn at the end from what is left)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.cells: list[int | None] = []
        self.pool: Counter[int] = Counter(DECK)

    def new(self, rank: int | None) -> int:
        self.cells.append(rank)
        if rank is not None:
            self.pool[rank] -= 1
        return len(self.cells) - 1

    def take(self, ids: list[int], rank: int | None = None, least: int = 0) -> int | None:
        """Take a cell from ``ids``: one of ``rank`` (if given), one of ``least`` or
        more, or any. An unknown cell may become a card the pool still holds."""
        if rank is not None:
            fits = [i for i in ids if self.cells[i] == rank or
                    (self.cells[i] is None and self.pool[rank] > 0)]
        else:
            spare = any(n > 0 for r, n in self.pool.items() if r >= least)
            fits = [i for i in ids if (self.cells[i] or 0) >= least or
                    (self.cells[i] is None and (least == 0 or spare))]
        if not fits:
            return None
        cell = self.rng.choice(fits)
        ids.remove(cell)
        if self.cells[cell] is None and (rank is not None or least > 0):
            if rank is None:
                rank = self.rng.choice([r for r, n in self.pool.items() if r >= least
                                        for _ in range(n)])
            self.cells[cell] = rank
            self.pool[rank] -= 1
        return cell

    def fill(self) -> None:
        rest = sorted(self.pool.elements())
        self.rng.shuffle(rest)
        unknown = [i for i, rank in enumerate(self.cells) if rank is None]
        for cell, rank in zip(unknown, rest):
            self.cells[cell] = rank


def _sees(viewer: Viewer, event: dict[str, Any]) -> bool:
    """Whether ``viewer`` knows the card of a hidden move."""
    if event["kind"] == "discard":
        return viewer == event["seat"]
    return viewer in (event["seat"], event["to"])


def _replay(state: State, viewer: Viewer, rng: random.Random) -> State | None:
    """One attempt at a consistent re-deal (None when the draw cannot fit)."""
    cells = _Replay(rng)
    hands = [[cells.new(rank if s == viewer else None) for rank in state["dealt"][s]]
             for s in range(state["seats"])]
    dealt = [list(ids) for ids in hands]
    undealt = [cells.new(None) for _ in state["undealt"]]
    discards: list[int] = []
    moved: dict[int, int] = {}
    for index, event in enumerate(state["events"]):
        kind = event["kind"]
        if kind in FACE_UP:
            if cells.take(hands[event["seat"]], rank=event["rank"]) is None:
                return None
        elif kind in HIDDEN_KINDS:
            known = event["card"] if _sees(viewer, event) else None
            least = event.get("order", 0) if known is None else 0
            cell = cells.take(hands[event["seat"]], rank=known, least=least)
            if cell is None:
                return None
            moved[index] = cell
            (discards if kind == "discard" else hands[event["to"]]).append(cell)
    cells.fill()
    twin = _clone(state)
    value = cells.cells
    twin["hands"] = [sorted(value[i] for i in ids) for ids in hands]
    twin["dealt"] = [sorted(value[i] for i in ids) for ids in dealt]
    twin["undealt"] = sorted(value[i] for i in undealt)
    twin["discards"] = sorted(value[i] for i in discards)
    for index, cell in moved.items():
        twin["events"][index]["card"] = value[cell]
    if twin["turn"] != viewer:
        twin["menu"] = None  # another seat's menu may name a card it no longer holds
    return twin


# -- views ---------------------------------------------------------------------------------

def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "card"}


def _public_view(state: State) -> dict[str, Any]:
    """Everything the table may know: no card in a hand, no card moved face down."""
    options = state["options"]
    emptied = state["emptied"]
    public_emptied = None
    if emptied is not None:
        how = state["events"][emptied["event"]]
        public_emptied = {"seat": emptied["seat"], "how": how["kind"], "to": how.get("to"),
                          "rank": how.get("rank")}
    # Built fresh (no list or dict of the state is shared) and by hand: views are made
    # many times a step, and a generic deep copy costs more than the rest together.
    ending, last = state["ending"], state["last_round"]
    return {
        "mode": options["mode"],
        "seats": state["seats"],
        "round": state["round"],
        "dealer": state["dealer"],
        "step": state["step"],
        "turn": state["turn"],
        "order": dict(state["order"]) if state["order"] else None,
        "sizes": _sizes(state),
        "discards": len(state["discards"]),
        "out_of_play": len(state["undealt"]),
        "played": list(state["played"]),
        "pending": dict(state["pending"]) if state["pending"] else None,
        "emptied": public_emptied,
        "ending": dict(ending) if ending else None,
        "events": [_public_event(e) for e in state["events"]],
        "entries": [list(e) for e in state["entries"]] if state["entries"] else None,
        "need": list(state["need"]) if state["need"] else None,
        "wins": list(state["wins"]),
        "target": options["wins"],
        "rules": {"shared_victory": options["shared_victory"],
                  "empty_ends_round": options["empty_ends_round"],
                  "stuck_discovers": options["stuck_discovers"]},
        "history": [dict(h, winners=list(h["winners"])) for h in state["history"]],
        "last_round": _copy_round(last) if last else None,
        "winners": list(state["winners"]) if state["winners"] is not None else None,
        "end_reason": state["end_reason"],
    }


def _copy_round(last: dict[str, Any]) -> dict[str, Any]:
    """A copy of a round's summary (by hand: faster than a generic deep copy)."""
    return dict(last, hands=[list(h) for h in last["hands"]], points=list(last["points"]),
                captains=list(last["captains"]), ending=dict(last["ending"]),
                winners=list(last["winners"]))


def _seat_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its hand (phones), its menu on its turn, and the cards
    of the hidden moves it took part in."""
    me: dict[str, Any] = {
        "seat": seat,
        "hand": list(state["hands"][seat]) if _phones(state) else None,
        "log": [dict(e) for e in state["events"]
                if e["kind"] in HIDDEN_KINDS and _sees(seat, e)],
    }
    if state["step"] == TURN and state["turn"] == seat:
        me["menu"] = _clone(state["menu"])
        me["backs_left"] = BACKS - state["backs"]
    return me


# -- display ---------------------------------------------------------------------------

def _name(names: list[str], seat: Any, width: int) -> str:
    return names[seat][:width] if type(seat) is int else "nobody"


def describe(action: Action, names: list[str]) -> str:
    """A short text of an action; the card of a face-down move is never named."""
    kind = action["type"]
    rank = action.get("rank")
    texts = {
        "deal": "cards dealt", "pick": "pick a card", "back": "back",
        "open": f"open the {action.get('menu')} menu",
        "play": f"order {rank}" if rank is not None else "play an order",
        "belay": f"belay with {rank}" if rank is not None else "belay the order",
        "pass": f"pass a card to {_name(names, action.get('to'), 20)}",
        "ask": f"ask {_name(names, action.get('target'), 20)} for a card",
        "accuse": f"accuse {_name(names, action.get('target'), 20)}",
        "follow": "follow the order", "skip": "pass the turn",
        "give": "give a card", "discard": "discard a card",
        "declare": "declare Captain" if action.get("captain") else "do not declare",
        "reveal": f"reveal a {rank}", "enter": f"enter a {rank}",
        "next_round": "next round",
    }
    return texts.get(kind, kind.replace("_", " "))


def event_text(event: dict[str, Any], names: list[str]) -> str:
    """A public event in at most 21 characters."""
    kind, who = event["kind"], _name(names, event["seat"], 9)
    to = _name(names, event.get("to"), 9)
    texts = {
        "play": f"{who} orders {event.get('rank')}",
        "belay": f"{who} belays: {event.get('rank')}",
        "pass": f"{who} passed to {to}",
        "discard": f"{who} discarded",
        "ask": f"{who} asked {to}",
        "give": f"{who} gave to {to}",
        "follow": f"{who} followed",
        "return": f"{who}'s {event.get('rank')} discarded",
        "skip": f"{who} passed turn",
        "quiet": f"{who} emptied hand",
        "accuse": f"{who} accuses {_name(names, event.get('target'), 8)}",
    }
    return texts.get(kind, kind)[:21]


def _label(action: Action, state: dict[str, Any], names: list[str]) -> str:
    """A choice label of at most 18 characters."""
    kind, rank = action["type"], action.get("rank")
    if kind == "pick":
        return f"Card {rank}"
    if kind == "open":
        return {"play": "Play an order", "pass": "Pass a card", "belay": "Belay the order",
                "ask": "Ask for a card", "accuse": "Discover Captain"}[action["menu"]]
    if kind == "play":
        return f"Order {rank}" if state["mode"] == PHONES else f"Order rank {rank}"
    if kind == "belay":
        return f"Belay with {rank}" if state["mode"] == PHONES else f"Belay rank {rank}"
    if kind == "pass":
        head = f"Pass {rank} to " if rank is not None else "Pass to "
        return head + _name(names, action["to"], 18 - len(head))
    if kind in ("ask", "accuse"):
        word = "Ask " if kind == "ask" else "Accuse "
        return word + _name(names, action["target"], 18 - len(word))
    if kind in ("follow", "give", "discard"):
        if rank is None:
            return {"follow": "Follow the order", "give": "Done: gave a card",
                    "discard": "Done: discarded"}[kind]
        return {"follow": f"Follow with {rank}", "give": f"Give {rank}",
                "discard": f"Discard {rank}"}[kind]
    if kind == "declare":
        return "Declare Captain" if action["captain"] else "Don't declare"
    fixed = {"back": "Back", "skip": "Pass the turn", "reveal": f"Revealed a {rank}",
             "enter": f"Card {rank}", "next_round": "Next round"}
    return fixed.get(kind, kind)[:18]


def _secret(action: Action, state: dict[str, Any]) -> bool:
    """A label that shows a card of the hand, or an accusation being considered."""
    if action["type"] == "accuse":
        return True
    return state["mode"] == PHONES and action["type"] in HAND_TYPES


def _title(state: dict[str, Any], names: list[str], seat: int) -> str:
    step = state["step"]
    actors = _step_actors(state)
    mine = seat in actors
    who = _name(names, actors[0], 10) if actors else ""
    if step == TURN:
        text = "Your turn" if mine else f"{who}'s turn"
        return f"R{state['round']} {text}"[:20]
    texts = {
        DISCARD: ("Discard a card", f"{who} discards"),
        GIVE: ("Give a card", f"{who} gives a card"),
        DECLARE: ("Declare Captain?", f"{who}: empty hand"),
        REVEAL: ("Reveal your card", f"{who} reveals"),
    }
    if step == ENTER:
        texts[ENTER] = (("Enter your hand", f"{who} enters hand") if state["entries"][actors[0]]
                        else ("Your lowest card?", f"{who}: lowest card"))
    if step in texts:
        return texts[step][0 if mine else 1][:20]
    if step == OVER:
        return "Game over"
    if step == SCORED:
        return f"Round {state['last_round']['round']} over"[:20]
    return "Captain's Orders"


def _step_actors(state: dict[str, Any]) -> list[int]:
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
        seat = (state["dealer"] + 1) % state["seats"]
        while len(state["entries"][seat]) >= state["need"][seat]:
            seat = (seat + 1) % state["seats"]
        return [seat]
    return []


def _order_line(state: dict[str, Any], names: list[str]) -> str:
    order = state["order"]
    if order is None:
        return "No order"
    return f"Order {order['rank']} ({_name(names, order['owner'], 11)})"


def _sizes_line(state: dict[str, Any]) -> str:
    return ("Cards " + " ".join(str(n) for n in state["sizes"]))[:21]


def _wins_line(state: dict[str, Any]) -> str:
    return ("Wins " + " ".join(str(n) for n in state["wins"]))[:21]


def _round_lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    last = state["last_round"]
    winners = last["winners"]
    if seat in winners:
        first = "You win the round!"
    elif len(winners) == 1:
        first = f"{_name(names, winners[0], 10)} wins round"
    else:
        first = f"{len(winners)} share the round" if winners else "Nobody wins round"
    captains = last["captains"]
    if captains:
        second = f"Captain {_name(names, captains[0], 9)} ({last['lowest']})"
        if len(captains) > 1:
            second = f"{len(captains)} Captains ({last['lowest']})"
    else:
        second = "No Captain"
    return [first, second, _wins_line(state)]


def _lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    """Public-safe lines (the OLED at rest)."""
    step = state["step"]
    if step == OVER:
        first = "You WIN the game!" if seat in state["winners"] else "You lose"
        return [first, _round_lines(state, names, seat)[0], _wins_line(state)]
    if step == SCORED:
        return _round_lines(state, names, seat)
    if step == ENTER:
        return _entry_lines(state, names, seat)
    if step == DEAL:
        return ["Dealing..."]
    last = state["events"][-1] if state["events"] else None
    middle = event_text(last, names) if last else f"{_name(names, state['dealer'], 10)} dealt"
    return [_order_line(state, names), middle, _sizes_line(state)]


def _entry_lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    """Cards mode, round's end: what is being entered, and the seat's own entries."""
    ending = state["ending"]
    if ending["kind"] == "accuse":
        first = f"{_name(names, ending['seat'], 7)} accused {_name(names, ending['target'], 6)}"
    elif ending["declared"]:
        first = f"{_name(names, ending['seat'], 9)} declared {ending['card']}"
    else:
        first = f"{_name(names, ending['seat'], 8)} did not declare"
    entries, need = state["entries"], state["need"]
    phase = "Lowest cards" if max(need) <= 1 else "Hands for points"
    mine = entries[seat]
    if need[seat] > 1:
        own = f"You: {len(mine)}/{need[seat]} cards"
    elif need[seat] == 1:
        own = f"Your lowest: {mine[0]}" if mine else "Your lowest: ?"
    else:
        own = "You have no cards"
    return [first, phase, own]


def _private(state: dict[str, Any], names: list[str]) -> list[str]:
    """The seat's secrets: its hand, then its latest hidden moves (after a round, the
    hand it was holding, which is public by then)."""
    me = state.get("me", {})
    if state["step"] in (SCORED, OVER) and state["last_round"] is not None:
        held = state["last_round"]["hands"][me["seat"]]
        return [("Hand was " + " ".join(str(r) for r in held))[:21]] if held else []
    out: list[str] = []
    hand = me.get("hand")
    if hand is not None:
        text = "Hand " + (" ".join(str(r) for r in hand) if hand else "empty")
        out += [text[:21]] + ([text[21:]] if len(text) > 21 else [])
    for event in me.get("log", [])[-2:]:
        out.append(_log_text(event, me["seat"], names))
    if state["step"] == ENTER and state["entries"][me["seat"]]:
        entered = state["entries"][me["seat"]]
        out.append(("Entered " + " ".join(str(r) for r in entered))[:21])
    return out


def _log_text(event: dict[str, Any], seat: int, names: list[str]) -> str:
    card = event.get("card")
    shown = "a card" if card is None else str(card)
    if event["kind"] == "discard":
        return f"You discarded {shown}"[:21]
    if event["seat"] == seat:
        return f"You gave {shown} to {_name(names, event['to'], 8)}"[:21]
    return f"Got {shown} from {_name(names, event['seat'], 10)}"[:21]


def seat_display(view: dict[str, Any], seat: int) -> Display:
    """The seat's screen, built from its view alone."""
    state, names = view["state"], view["names"]
    legal = view.get("you", {}).get("legal", [])
    choices = tuple(Choice(_label(a, state, names), a, secret=_secret(a, state)) for a in legal)
    return Display(
        title=_title(state, names, seat),
        lines=tuple(line[:21] for line in _lines(state, names, seat)[:3]),
        choices=choices,
        private=tuple(_private(state, names)),
        led="on" if legal else "off",
    )


def table_summary(view: dict[str, Any]) -> dict[str, Any]:
    """The table display's summary, from the public view alone."""
    state, names = view["state"], view["names"]
    step = state["step"]
    actors = _step_actors(state)
    if step == OVER:
        headline = state["end_reason"]
    elif step == SCORED:
        headline = REASONS[state["last_round"]["reason"]]
    elif step == ENTER:
        what = "the rest of their hand" if state["entries"][actors[0]] else "their lowest card"
        headline = f"Round over: {names[actors[0]]} enters {what}"
    elif actors:
        doing = {TURN: "'s turn", DISCARD: " discards a card face down",
                 GIVE: " gives a card face down", DECLARE: " emptied their hand",
                 REVEAL: " reveals the declared card"}[step]
        headline = f"Round {state['round']}: {names[actors[0]]}{doing}"
    else:
        headline = f"Round {state['round']}"
    lines = [_order_line(state, names)]
    lines += [f"{names[s]}: {n} cards" + (" (dealer)" if s == state["dealer"] else "")
              for s, n in enumerate(state["sizes"])]
    lines += [event_text(e, names) for e in state["events"][-3:]]
    return {"headline": headline, "turn": actors, "scores": list(state["wins"]),
            "score_label": "Round wins", "lines": lines}


GAME = CaptainsOrders()
