"""Moon Yeti: find the Mutineer aboard the HMS Moon Yeti.

Four players hold the roles Boatswain, Chaplain, Helmsman and Navigator; with 5 to 8
players the others form a jury. One role holder is the secret Mutineer, named by the
minute of a declared time on the role cards (or by the ace of spades). After a round of
discussion - the Boatswain may search a cabin, the Chaplain take a confession - the table
votes one player innocent (the Mutineer wins at once if it is him; the Helmsman votes
twice, the Navigator may move a vote). After a second discussion - the Helmsman may give
someone a second vote - the table votes one player guilty (the Boatswain may vote last,
the Chaplain may take a vote onto himself, the Navigator may make a player change a
vote). The Mutineer wins unless found guilty; a Chaplain who took his confession shares
his fate.

What the companion keeps: the role deal (public), each role card's 15 minutes or each
ace (private to its holder), who the Mutineer is, the Cabin Search and the Confession
(private: nobody else's screen changes, except that the confession's target is told),
both secret simultaneous votes, every vote change, and the result.

The package, the shape of every game: ``data`` (roles, steps, the spec and options, and
the small questions every module asks of the state), ``rules`` (flow, moves, result),
``views`` (what each viewer may see, and the contract tests' re-deal), ``show`` (a
seat's screen), ``board`` (the table's summary and board, a seat's panel) and ``howto``
(the game in a minute, a seat's part and secret).

Rulings: see docs/games/moon-yeti.md.
"""
from companion.games.moon_yeti.data import (
                                            BOATSWAIN,
                                            CHAPLAIN,
                                            HELMSMAN,
                                            JUROR,
                                            NAVIGATOR,
                                            ROLES,
                                            SPEC,
                                            WAIT,
)
from companion.games.moon_yeti.rules import GAME, MoonYeti

__all__ = ["BOATSWAIN", "CHAPLAIN", "GAME", "HELMSMAN", "JUROR", "MoonYeti", "NAVIGATOR",
           "ROLES", "SPEC", "WAIT"]
