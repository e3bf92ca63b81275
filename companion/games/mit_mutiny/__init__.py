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

The package: ``core`` (constants, state helpers, Infamy), ``data`` (the card data file),
``flow`` (rounds, islands, loot, buying), ``battle`` (the battle and the cup), ``rules``
(the steps and moves), ``view`` and ``redeal`` (what each viewer may know), ``show``
(screens, summary, words).
"""
from .rules import GAME, SPEC, MitMutiny

__all__ = ["GAME", "MitMutiny", "SPEC"]
