"""Card Mutiny's peeks at the seat level: everyone sees where the Parrot or Spyglass
peeks, never what (docs/games/card-mutiny.md; docs/seats.md, "The secrecy rule").

Where is public by the rules, so the twin tables peek at the same place; what lies
there differs: the second table plays a re-deal of the first (``Match.redealt`` from
the public's view: every face-down card drawn again, nothing public changed)."""
from __future__ import annotations

import random

from companion.engine import PUBLIC


def test_nobody_else_can_tell_what_a_peek_showed(twins):
    deal = "spyglass gold silver copper pearl map dud gold silver copper"
    pair = twins("card-mutiny", 4, {"stacked_deal": deal, "first_seat": 1}, seed="peeks")
    pair.until(lambda match: match.step() == "peek")  # seat 1 flips the Spyglass
    pair.assert_same()
    side = pair.two
    side.table.match = side.match.redealt(PUBLIC, random.Random(5))
    side.table.refresh()
    peeker = pair.one.match.acting()[0]
    pair.assert_same()
    while pair.one.match.step() == "peek":
        pair.both(peeker, lambda action: action["type"] == "peek")
        seen = [side.match.view(peeker)["state"]["me"]["peeks"] for side in pair.sides]
        pair.assert_same(private=[peeker])
    assert seen[0] != seen[1]  # the peeks did show different cards
