"""Booty Dice: roll for the gold or die trying.

Every piece of information in Booty Dice is public: the dice, the holds, each pirate's
Lives, Shields and Doubloons, and the two supplies. On a turn the roller rolls six dice
up to three times, holding dice between rolls, then the dice resolve in the order of the
dice roll card: Doubloon, X Marks the Spot, Jolly Roger, Cutlass, Walk the Plank, Shield,
then the combos Mutiny (three or more Planks), Shipwreck (three or more X's) and
Blackbeard's Curse (one of each face). The roller picks the target of each Cutlass and
the victim of each Doubloon a Jolly Roger steals. The first pirate to hold 25 Doubloons,
or the last one alive, wins.

The package, the shape of every game: ``data`` (the game's numbers, faces, step names,
spec and options), ``rules`` (setup, steps, moves, resolution, result), ``views`` (what
each viewer may see: everything), ``show`` (a seat's screen and choices, events in
words), ``board`` (the table's summary and board) and ``howto`` (the game in a minute).

Rulings (B1-B9 and the details the rulebook leaves open), each with the option that
switches it: see docs/games/booty-dice.md.
"""
from companion.games.booty_dice.data import FACES, SPEC
from companion.games.booty_dice.rules import GAME, BootyDice, resolution_queue
from companion.games.booty_dice.show import event_text

__all__ = ["FACES", "GAME", "SPEC", "BootyDice", "event_text", "resolution_queue"]
