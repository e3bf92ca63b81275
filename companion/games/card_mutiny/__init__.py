"""Card Mutiny: a pirate memory game on a 7x7 grid.

The rulebook in short: 120 cards are shuffled, 49 laid face down in a 7x7 grid, the rest
form the stack. On a turn a player flips cards: coins must be matched in pairs (gold,
silver, copper) and a match lets them flip on (a chain); a miss turns the unmatched
cards back face down where they lay and ends the turn. A gem goes straight to the chest
and ends the turn. Three Treasure Maps in a row make a set, counted at the end only.
Duds (a Rock stays face up in the grid), Mutinies and events do what they say and end
the turn. The richest player is the Captain (ties: several), the target of every
Mutiny. At the end of each turn the grid is refilled from the stack. When the stack is
empty and every card has been flipped, the most gold wins.

Two modes: ``grid`` (the companion deals a virtual grid; cards stay hidden from every
view until flipped) and ``cards`` (real cards; the active player enters each card they
turn up and the companion keeps the books).

Rulings (F1-F6 and every detail the rulebook leaves open) and the options that switch
them: see docs/games/card-mutiny.md.

The package, the shape of every game: ``data`` (constants, catalogue, spec and
options), ``rules`` (setup, steps, moves, result), ``views`` (what each viewer may see,
and the re-deal), ``show`` (a seat's screen and menus, events in words), ``board`` (the
table's summary and board, a seat's peeks), ``howto`` (the game in a minute), and one
extra job: ``holdings`` (what the table holds, asked of the state: the grid, the piles,
the chests, gold and the Captains).
"""
from companion.games.card_mutiny.data import (
                                              CATALOGUE,
                                              DECK_SIZE,
                                              KINDS,
                                              SPEC,
                                              deck_counts,
                                              full_deck,
)
from companion.games.card_mutiny.rules import GAME, CardMutiny

__all__ = ["CATALOGUE", "DECK_SIZE", "GAME", "KINDS", "SPEC", "CardMutiny", "deck_counts",
           "full_deck"]
