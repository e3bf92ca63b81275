"""Captain's Orders: the deck, the steps, the options and the stacked deal.

Rulings: see docs/games/captains-orders.md.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import GameSpec, Option, timer_option
from companion.errors import OptionError

GAME_ID = "captains-orders"
RANKS = tuple(range(1, 11))
#: The Pairs deck (C1): one 1, two 2s ... ten 10s.
DECK = tuple(rank for rank in RANKS for _ in range(rank))
HAND_SIZE = 6
PHONES, CARDS = "phones", "cards"

#: Steps of a match (``state["step"]``).
DEAL = "deal"          # chance deals the round (phones mode)
TURN = "turn"          # the turn player decides: an order, a pass, an ask, a discovery
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
        Option("next_round", "everyone",
               "the round's reveal stays until every seat has pressed Next round "
               "('everyone'), or until the first seat does ('anyone')",
               choices=("everyone", "anyone")),
        Option("first_dealer", 1, "the seat (1-based) that deals the first round",
               minimum=1, maximum=8),
        timer_option("turn_seconds", "each turn (when it runs out the table says so; "
                     "nothing is played for the player)"),
        Option("stack", "",
               "tests and teaching (phones mode): stacked decks, one per round, separated "
               "by '/', each comma-separated ranks from the top; dealt six by six to "
               "seat 1, seat 2 ...; the rest of the deck is shuffled below"),
    ),
    summary="Pass, ask, order and bluff: find the secret Captain who holds the lowest "
            "card, or be the Captain and empty your hand. First to three round wins.",
    # 2: a turn is one whole decision (rules 1 recorded the menus a player browsed).
    # 3: Next round waits for every seat (a press by one seat no longer starts it).
    rules=3,
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


def sees(viewer: Any, event: dict[str, Any]) -> bool:
    """Whether ``viewer`` (a seat, or the public) knows the card of a hidden move: the
    two seats it passed between, or only its owner for a discard."""
    if event["kind"] == "discard":
        return viewer == event["seat"]
    return viewer in (event["seat"], event["to"])


def round_limit(seats: int, wins: int) -> int:
    """A safety stop no real match reaches: every round normally has a winner."""
    return 2 * seats * wins + 10
