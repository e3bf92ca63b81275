"""What Booty Dice's rules and screens share: the numbers of the game, the faces, the
names of the steps, and the game's spec and options.

Rulings: see docs/games/booty-dice.md.
"""
from __future__ import annotations

from companion.engine import GameSpec, Option, timer_option

# -- constants ---------------------------------------------------------------------------

GAME_ID = "booty-dice"
DICE = 6
MAX_ROLLS = 3
START_LIVES = 10
START_DOUBLOONS = 5
TOTAL_DOUBLOONS = 100
WAR_CHEST = 30
WIN_DOUBLOONS = 25
#: Doubloons a single Doubloon / X / Jolly Roger die moves.
DIE_DOUBLOONS = 2
#: Walk the Plank / X Marks the Spot dice that make a Mutiny / a Shipwreck.
COMBO_SIZE = 3
SHIPWRECK_BASE = 3
CURSE_LIVES = 2
CURSE_DOUBLOONS = 5
#: How often one die's hold may change between two rolls. Holding is a real decision
#: (the table sees every hold and the journal keeps it), so this is a rule of ours, not
#: a menu limit: twice lets a roller hold a die and change their mind, and it keeps
#: every turn finite, so a match has a bound on its actions even under random play.
HOLD_CHANGES = 2

#: The six faces, in the order of the dice roll card; a rolled ``k`` (1-6) is FACES[k-1].
FACES = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
#: Effects in the dice roll card's order (B2); a Jolly Roger steals one Doubloon at a time.
SINGLE_ORDER = ("doubloon", "x", "jolly", "cutlass", "plank", "shield")
COMBO_ORDER = ("mutiny", "shipwreck", "curse")
#: Causes of death that are the roller's doing, and so earn Captain's Plunder (B5).
PLUNDER_CAUSES = ("cutlass", "mutiny", "curse")

#: The steps of a turn, kept in ``state["step"]``.
ROLLING = "rolling"        # some dice await their faces (chance, or entry at the table)
DECIDING = "deciding"      # the roller holds dice, rolls again or stops
TARGETING = "targeting"    # resolution waits for the roller to pick a pirate
OVER = "over"              # not a declared step: nobody acts

# -- spec and options --------------------------------------------------------------------

#: Rules version 1: the recorded actions are the same as ever (only the name of the step
#: in the state changed, and states are rebuilt from actions), so old journals replay.
SPEC = GameSpec(
    GAME_ID, "Booty Dice", 2, 6,
    (
        Option("dice", "companion", "who rolls: the companion, or the table (entered)",
               choices=("companion", "table")),
        Option("first_seat", 1, "the seat (1-based) of the pirate who goes first",
               minimum=1, maximum=6),
        Option("combos_consume", True, "combo dice are used up by their combo (B1)"),
        Option("order", "card", "resolution order: the card's, or combos first (B2)",
               choices=("card", "combos_first")),
        Option("finite_supplies", True, "Buried Treasure and War Chest can run dry (B3)"),
        Option("plunder", True, "Captain's Plunder: the roller takes a victim's gold (B5)"),
        Option("win_at_once", True, "25 Doubloons win the moment they are held (B6)"),
        timer_option("turn_seconds", "each turn (when it runs out the table says so; "
                     "nothing is rolled or stopped for the player)"),
    ),
    summary="Roll six pirate dice up to three times; first to 25 Doubloons or last "
            "pirate alive wins.",
)
