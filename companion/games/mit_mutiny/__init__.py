"""Mutiny, the MIT students' four-pirate game (``mit-mutiny``).

Four pirates share one ship. Each round the Captain hands out the roles, the Scout picks
the island to raid and takes a cube of its loot, the Captain divides the rest, every
pirate rolls their crew dice in secret, and then - Scout, Quarter Master, First Mate, and
the Scout again - each decides to mutiny or to defend the Captain. A battle of dice sums
settles any mutiny: the winners take the loot (by cup draws) and a winning mutineer
becomes Captain. Then everyone buys Rum, Crew and Mystery cards. After the last island,
the most Infamy wins.

What the companion keeps: the islands (a deck from ``cards.toml``, or the real cards
entered by the Scout), the mystery deck and every hand (secret to its owner), the hidden
crew-dice rolls (each pirate sees only their own; the First Mate may peek at one), the
decisions, the battle (dice, cards, re-rolls, roll-offs, sums) and the cup draws, every
pirate's ledger (loot, Rum, crew dice, cards) with the supplies and the bank, and the
final Infamy.

Rulings: see docs/games/mit-mutiny.md (every ruling, and the option that switches it).

The package, the shape of every game: ``data`` (constants, steps, the spec and options,
and the small questions every module asks of the state, Infamy among them), ``rules``
(the steps and moves), ``views`` (what each viewer may know, and the re-deal), ``show``
(a seat's screen), ``board`` (the table's summary and board, a seat's panel), ``howto``
(the game in a minute); and four extra jobs: ``cards`` (the card data file,
``cards.toml``, and the data a match dealt), ``flow`` (a round outside the battle:
roles, islands, loot, buying), ``battle`` (the battle and the cup) and ``words`` (the
game in words for the table and the seats: steps, events, the battle blow by blow).
"""
from companion.games.mit_mutiny.data import SPEC
from companion.games.mit_mutiny.rules import GAME, MitMutiny

__all__ = ["GAME", "MitMutiny", "SPEC"]
