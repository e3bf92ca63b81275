"""Raid or Bank's numbers, the names of its steps, and its spec and options."""
from __future__ import annotations

from companion.engine import GameSpec, Option

CHEST_MOST = 6
BANK = "bank"
DEAL, CHOOSE = "deal", "choose"

SPEC = GameSpec(
    "raid-or-bank", "Raid or Bank", 2, 4,
    (Option("rounds", 3, "rounds to play", minimum=1, maximum=9),
     Option("at_once", False, "everyone chooses at once, in secret")),
    summary="Bank your hidden chest or raid a smaller one; the richest pirate after "
            "the last round wins.",
)
