"""Raid or Bank: the example game of docs/writing-a-game.md (registered in its tests only).

Every round the companion deals each pirate a hidden chest of 1 to 6 gold. Then each
pirate either banks their chest or raids another pirate: one at a time in seat order,
or all at once in secret (option ``at_once``). When all have chosen, the chests are
opened: a raid on a smaller chest takes its gold (the raider keeps their own too) and
that chest is lost to its owner; a raid on an equal or bigger chest loses the raider's
own chest. Every other chest is kept. After the last round the richest pirate wins;
ties share.

The package, the shape of every game: ``data`` (numbers, step names, spec), ``rules``
(setup, steps, moves, result), ``views`` (what each viewer may see), ``show`` (a seat's
screen), ``board`` (what the table shows, and a seat's panel) and ``howto`` (the game in
a minute).

Rulings (a real game points to docs/games/<id>.md; this one keeps them here): a chest
raided by several pirates pays each winning raider in full; in turn, choices are public
as they are made; at once, nobody learns a choice before all are in.
"""
from tests.games.example_game.data import SPEC
from tests.games.example_game.rules import GAME, RaidOrBank

__all__ = ["GAME", "SPEC", "RaidOrBank"]
