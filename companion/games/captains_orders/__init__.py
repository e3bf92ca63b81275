"""Captain's Orders: find the secret Captain, or be the Captain and empty your hand.

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
(each seat sees only its own part), the round's reveal and the round wins. A turn is one
whole decision (pass this card to that player, play this order, accuse that player),
filed in menus on the seat's screen.

The package, the shape of every game: ``data`` (the deck, steps, options), ``rules``
(setup, steps, moves, the round's end), ``views`` (what each viewer may know, and the
contract tests' re-deal), ``show`` (a seat's screen, the moves in words), ``board``
(the table's summary and board, a seat's panel), ``howto`` (the game in a minute), and
one extra job: ``entry`` (cards mode: which hand entries can still be right).

Rulings (C1-C5 and the details the rulebook leaves open), each with the option that
switches it: see docs/games/captains-orders.md.
"""
from companion.games.captains_orders.data import DECK, SPEC, parse_stack
from companion.games.captains_orders.rules import GAME, CaptainsOrders, decide, judge

__all__ = ["DECK", "GAME", "SPEC", "CaptainsOrders", "decide", "judge", "parse_stack"]
