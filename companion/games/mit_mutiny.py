"""Mutiny, the MIT students' four-pirate game (rulebook ``000_139a75e0163dc91e.txt``).

Four pirates share one ship. Each round the Captain hands out the roles, the Scout picks
the island to raid and takes a cube of its loot, the Captain divides the rest, every
pirate rolls their crew dice in secret, and then - Scout, Quarter Master, First Mate, and
the Scout again - each decides to mutiny or to defend the Captain. A battle of dice sums
settles any mutiny: the winners take the loot (by cup draws) and a winning mutineer
becomes Captain. Then everyone buys Rum, Crew and Mystery cards. After the last island,
the most Infamy wins.

What the companion keeps: the islands (a deck from ``mit_mutiny.toml``, or the real
cards entered by the Scout), the mystery deck and every hand (secret to its owner), the
hidden crew-dice rolls (each pirate sees only their own; the First Mate may peek at one),
the decisions, the battle sums, cards, re-rolls and roll-offs, the cup draws, every
pirate's ledger (loot, Rum, crew dice, cards) with the supplies and the bank, and the
final Infamy.

Rulings (``RULINGS.md``, M1-M7) and the options that switch them:

- M1 (facts, no option): crew dice are d6, 2 red per pirate at the start and 10 green
  in the supply; the Quarter Master adds the d8; 33 Rum, 2 per pirate at the start.
- M2 ``crew_needs_rum``: hiring a crew die needs more Rum than crew dice; a card that
  grants crew ignores it (off: hiring needs no Rum).
- M3 (data, no option): the mystery cards and their effects are the data file's.
- M4 ``card_window``: ``"until_all_pass"`` - after the reveal, from the Captain
  clockwise, each pirate plays one battle card or passes; the window closes when all
  four have passed in a row; ``"one_round"`` - each pirate gets one turn per window.
- M5 ``islands``: ``"deck"`` - the data file's islands, dealt face down on the map's 12
  spaces; ``"physical"`` - the real cards: the Scout enters the chosen island's loot.
- M6 ``ballot``: ``"public"`` - decisions in the open, in order; ``"secret"`` - the
  Scout, Quarter Master and First Mate decide at once in secret, the Scout then sees
  the other two and may change, and all are revealed together.
- M7 ``cup_draws``: ``"companion"`` - the companion draws the cups at random;
  ``"table"`` - pirates draw from a real cup and enter each cube.

Also: ``dice`` (``"companion"`` rolls, or ``"table"``: each pirate enters their own real
dice) and ``stack`` (mystery card ids put on top of the deck, for teaching and tests).
The decisions the rulebook leaves open are listed in ``docs/games/mit-mutiny.md``.
"""
from __future__ import annotations

import random
import re
import sys
from typing import Any

from companion.engine import votes
from companion.engine.chance import Chance
from companion.engine.display import Display
from companion.engine.match import clone
from companion.engine.rules import CHANCE, Action, Actor, Context, Game, Result, Viewer
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected, OptionError
from companion.games import _mit_mutiny_view as views
from companion.games._mit_mutiny_core import (
    ASSIGNED, BALLOT, BUY, CANNON, CAPTAIN, CHOOSE, CREW_DIE, CUBES_PER_KIND, CUP, DEAL,
    DECIDE, DEFEND, DIVIDE, FINAL, FIRST_MATE, GAME_ID, GREEN_TOTAL, ISLAND, LOOK, MADNESS,
    MAP_SPACES, MUTINY, OVER, PAY, PEEK, PRESS, PRICES, QM_DIE, QUARTER_MASTER, RALLY,
    RECEIVE, RELOAD, RELOAD_ROLL, ROLES, ROLLOFF, ROLL_STEPS, RUM_TOTAL, SCOUT, SEATS,
    SETUP, START_RED, START_RUM, STORM, TAKE, TIE, TRADE_COST, TREASURE, VOTE_ORDER, WINDOW,
    State, card_def, clockwise, crew, dealt, dice_total, effect_of, freeze, infamy,
    is_battle_card, kind_index, seat_of, side_sums,
)
from companion.games._mit_mutiny_data import KINDS, MAX_CUBES, load_data

# -- options -----------------------------------------------------------------------------

SPEC = GameSpec(
    GAME_ID, "MIT Mutiny", SEATS, SEATS,
    (
        Option("dice", "companion",
               "who rolls: 'companion' - the companion rolls every die; 'table' - "
               "each pirate rolls real dice and enters them",
               choices=("companion", "table")),
        Option("islands", "deck",
               "M5: 'deck' - the companion deals the islands of the data file; "
               "'physical' - real island cards: the Scout enters the chosen one's loot",
               choices=("deck", "physical")),
        Option("ballot", "public",
               "M6: 'public' - Scout, Quarter Master, First Mate decide in the open, in "
               "turn; 'secret' - they decide secretly and all are revealed together",
               choices=("public", "secret")),
        Option("cup_draws", "companion",
               "M7: 'companion' - the companion draws the loot cups at random; "
               "'table' - pirates draw from a real cup and enter each cube",
               choices=("companion", "table")),
        Option("card_window", "until_all_pass",
               "M4: 'until_all_pass' - battle cards until all four pass in a row; "
               "'one_round' - one turn each per window",
               choices=("until_all_pass", "one_round")),
        Option("crew_needs_rum", True,
               "M2: hiring a crew die needs more Rum than crew dice"),
        Option("stack", "",
               "mystery card ids, comma-separated, put on top of the deck in this order "
               "(teaching and tests); empty: a fully shuffled deck"),
    ),
    summary="Four pirates, one ship: raid twelve islands, share (or grab) the loot, "
            "mutiny against the Captain, and buy Rum, Crew and Mystery cards.",
)

_STACK_ID = re.compile(r"^[a-z][a-z_]{0,23}$")
#: Event log entries kept in the state for the table display.
LOG_SIZE = 4


def parse_stack(text: str) -> list[str]:
    """The card ids of the ``stack`` option, in order (checked for form only: whether
    they exist is checked against the data when the deck is dealt)."""
    ids = [part.strip() for part in text.split(",") if part.strip()]
    for card in ids:
        if not _STACK_ID.match(card):
            raise OptionError("bad_option", f"option 'stack': {card!r} is not a card id")
    return ids


# -- the game ----------------------------------------------------------------------------

class MitMutiny(Game):
    """The rules of Mutiny over plain JSON state (see the module docstring)."""

    spec = SPEC
    action_types = frozenset({
        "deal", "roll", "cup", "enter", "assign", "look", "choose", "count", "take",
        "give", "give_rest", "peek", "no_peek", "decide", "ballot", "final", "play",
        "pass", "target", "mark", "reroll", "drew", "buy", "trade", "pay", "receive",
        "loot", "done",
    })

    # -- setup and flow -------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Every pirate with 2 red crew dice and 2 Rum; the deal comes next (chance)."""
        parse_stack(options["stack"])
        empty = [[0] * len(KINDS) for _ in range(SEATS)]
        return {
            "options": dict(options),
            "step": DEAL,
            "round": 0,
            "islands_total": 0,
            "islands_done": 0,
            "spaces": None,
            "seen": [[] for _ in range(SEATS)],
            "looked": [],
            "island": None,
            "on_island": [0] * len(KINDS),
            "scout_took": None,
            "entry": [],
            "shares": clone(empty),
            "data": freeze({"islands": [], "cards": []}),
            "deck": [],
            "hands": [[] for _ in range(SEATS)],
            "played": [[] for _ in range(SEATS)],
            "cannons": [0] * SEATS,
            "rum": [START_RUM] * SEATS,
            "red": [START_RED] * SEATS,
            "green": [0] * SEATS,
            "loot": clone(empty),
            "rum_supply": RUM_TOTAL - START_RUM * SEATS,
            "green_supply": GREEN_TOTAL,
            "bank": [CUBES_PER_KIND] * len(KINDS),
            "won": [[] for _ in range(SEATS)],
            "captain": None,
            "roles": [None] * SEATS,
            "setup_rolls": [],
            "dice": [[] for _ in range(SEATS)],
            "roll": None,
            "peek": None,
            "peeked": False,
            "decisions": [None] * SEATS,
            "vote_turn": 0,
            "vote": None,
            "changed": None,
            "revealed": False,
            "window": None,
            "marks": [],
            "effect": None,
            "battle": None,
            "rolloffs": [],
            "cup": None,
            "buy_order": [],
            "buyer": None,
            "trade": None,
            "treasure_left": 0,
            "log": [],
            "final": None,
        }

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """The deal; every roll when the companion rolls; the cup draws (M7)."""
        step, options = state["step"], state["options"]
        if step == DEAL:
            return _draw_deal(options, chance)
        if step in ROLL_STEPS and options["dice"] == "companion":
            need = state["roll"]["need"]
            return {"type": "roll",
                    "faces": [[chance.roll(sides)[0] for sides in need[s]]
                              for s in range(SEATS)]}
        if step == CUP and options["cup_draws"] == "companion":
            cubes = state["cup"]["cubes"]
            pool = [kind for k, kind in enumerate(KINDS) for _ in range(cubes[k])]
            return {"type": "cup", "draws": chance.shuffle(pool)}
        return None

    def acting(self, state: State) -> list[Actor]:
        """Who may act now (nobody while chance is due)."""
        step, options = state["step"], state["options"]
        if step in (DEAL, OVER):
            return []
        if step in ROLL_STEPS:
            if options["dice"] == "companion":
                return []
            roll = state["roll"]
            return [s for s in range(SEATS) if len(roll["got"][s]) < len(roll["need"][s])]
        if step == CUP:
            if options["cup_draws"] == "companion":
                return []
            cup = state["cup"]
            return [cup["takers"][cup["next"] % len(cup["takers"])]]
        if step == BALLOT:
            return votes.waiting(state["vote"])
        return [self._actor(state)]

    @staticmethod
    def _actor(state: State) -> int:
        """The one pirate a turn-based step waits for."""
        step = state["step"]
        if step in (ROLES, DIVIDE):
            return state["captain"]
        if step in (LOOK, CHOOSE, ISLAND, TAKE, FINAL):
            return seat_of(state, SCOUT)
        if step == PEEK:
            return seat_of(state, FIRST_MATE)
        if step == DECIDE:
            return seat_of(state, VOTE_ORDER[state["vote_turn"]])
        if step == WINDOW:
            return state["window"]["turn"]
        if step in (RELOAD, MADNESS):
            return state["effect"]["seat"]
        return state["buyer"]  # BUY, PAY, TREASURE, PRESS

    def step(self, state: State) -> str:
        return state["step"]

    # -- legal actions --------------------------------------------------------------
    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now (none unless ``actor`` is acting)."""
        if actor == CHANCE or actor not in self.acting(state):
            return []
        step = state["step"]
        if step in ROLL_STEPS:
            roll = state["roll"]
            sides = roll["need"][actor][len(roll["got"][actor])]
            return [{"type": "enter", "face": f} for f in range(1, sides + 1)]
        return getattr(self, "_legal_" + step)(state, actor)

    @staticmethod
    def _legal_roles(state: State, actor: int) -> list[Action]:
        role = ASSIGNED[sum(1 for r in state["roles"] if r in ASSIGNED)]
        return [{"type": "assign", "role": role, "seat": s} for s in range(SEATS)
                if state["roles"][s] is None]

    @staticmethod
    def _legal_look(state: State, actor: int) -> list[Action]:
        return [{"type": "look", "space": i} for i, island in enumerate(state["spaces"])
                if island is not None and i not in state["looked"]]

    @staticmethod
    def _legal_choose(state: State, actor: int) -> list[Action]:
        return [{"type": "choose", "space": i} for i in state["looked"]]

    @staticmethod
    def _legal_island(state: State, actor: int) -> list[Action]:
        k = len(state["entry"])
        top = min(MAX_CUBES, state["bank"][k])
        return [{"type": "count", "kind": KINDS[k], "n": n} for n in range(top + 1)]

    @staticmethod
    def _legal_take(state: State, actor: int) -> list[Action]:
        return [{"type": "take", "kind": kind} for k, kind in enumerate(KINDS)
                if state["on_island"][k] > 0]

    @staticmethod
    def _legal_divide(state: State, actor: int) -> list[Action]:
        kind = KINDS[_next_cube(state)]
        acts: list[Action] = [{"type": "give", "kind": kind, "seat": s} for s in range(SEATS)]
        if sum(state["on_island"]) > 1:
            acts += [{"type": "give_rest", "seat": s} for s in range(SEATS)]
        return acts

    @staticmethod
    def _legal_peek(state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "peek", "seat": s} for s in range(SEATS) if s != actor]
        return acts + [{"type": "no_peek"}]

    @staticmethod
    def _legal_decide(state: State, actor: int) -> list[Action]:
        return [{"type": "decide", "choice": MUTINY}, {"type": "decide", "choice": DEFEND}]

    @staticmethod
    def _legal_ballot(state: State, actor: int) -> list[Action]:
        return [{"type": "ballot", "choice": choice}
                for choice in votes.choices_for(state["vote"], actor)]

    @staticmethod
    def _legal_final(state: State, actor: int) -> list[Action]:
        return [{"type": "final", "choice": MUTINY}, {"type": "final", "choice": DEFEND}]

    @staticmethod
    def _legal_window(state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "play", "card": card}
                              for card in _hand_kinds(state, actor)
                              if is_battle_card(state, card) and _battle_usable(state, card)]
        return acts + [{"type": "pass"}]

    @staticmethod
    def _legal_reload(state: State, actor: int) -> list[Action]:
        dice = state["dice"][actor]
        kinds = sorted({(sides, face) for i, (sides, face) in enumerate(dice)
                        if i not in state["marks"]})
        acts: list[Action] = [{"type": "mark", "sides": sides, "face": face}
                              for sides, face in kinds]
        if state["marks"]:
            acts.append({"type": "reroll"})
        return acts

    @staticmethod
    def _legal_madness(state: State, actor: int) -> list[Action]:
        return [{"type": "target", "seat": s} for s in _madness_targets(state)]

    @staticmethod
    def _legal_cup(state: State, actor: int) -> list[Action]:
        cubes = state["cup"]["cubes"]
        return [{"type": "drew", "kind": kind} for k, kind in enumerate(KINDS) if cubes[k]]

    @staticmethod
    def _legal_buy(state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "buy", "item": item} for item in PRICES
                              if _can_buy(state, actor, item)]
        if sum(state["loot"][actor]) >= TRADE_COST:
            acts.append({"type": "trade"})
        acts += [{"type": "play", "card": card} for card in _hand_kinds(state, actor)
                 if not is_battle_card(state, card) and _buy_usable(state, actor, card)]
        return acts + [{"type": "done"}]

    @staticmethod
    def _legal_pay(state: State, actor: int) -> list[Action]:
        return [{"type": "pay", "kind": kind} for k, kind in enumerate(KINDS)
                if state["loot"][actor][k] > 0]

    @staticmethod
    def _legal_receive(state: State, actor: int) -> list[Action]:
        # The three cubes just paid are in the bank, so some kind is always there.
        return [{"type": "receive", "kind": kind} for k, kind in enumerate(KINDS)
                if state["bank"][k] > 0]

    @staticmethod
    def _legal_treasure(state: State, actor: int) -> list[Action]:
        return [{"type": "loot", "kind": kind} for k, kind in enumerate(KINDS)
                if state["bank"][k] > 0]

    @staticmethod
    def _legal_press(state: State, actor: int) -> list[Action]:
        return [{"type": "target", "seat": s} for s in _press_targets(state, actor)]

    # -- moves: chance ----------------------------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the islands on the map's spaces and the shuffled mystery deck, with
        the full data of every card, so the journal alone replays the match."""
        _chance_only(actor)
        state["data"] = freeze({"islands": action["islands"] or [], "cards": action["cards"]})
        # Interned ids: copies of the state then share one string per kind of card.
        state["deck"] = [sys.intern(card) for card in action["deck"]]
        if action["spaces"] is None:
            state["islands_total"] = MAP_SPACES
        else:
            # Each space holds the index of its island in the dealt table, or None.
            state["spaces"] = list(action["spaces"])
            state["islands_total"] = sum(1 for s in state["spaces"] if s is not None)
        _start_roll(state, SETUP, [[CREW_DIE] * START_RED for _ in range(SEATS)])

    def move_roll(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the faces of every die waiting to be rolled."""
        _chance_only(actor)
        roll = state["roll"]
        faces = action["faces"]
        for seat in range(SEATS):
            if len(faces[seat]) != len(roll["need"][seat]) or any(
                    not 1 <= f <= sides for f, sides in zip(faces[seat], roll["need"][seat])):
                raise ActionRejected("bad_roll", f"the roll does not fit seat {seat}'s dice")
        roll["got"] = [list(f) for f in faces]
        self._rolled(state)

    def move_enter(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A pirate enters the face of their next real die."""
        state["roll"]["got"][actor].append(action["face"])
        if state["step"] == RALLY:
            ctx.reveal()  # a hidden roll: host undo must not betray that it happened
        roll = state["roll"]
        if all(len(roll["got"][s]) == len(roll["need"][s]) for s in range(SEATS)):
            self._rolled(state)

    def move_cup(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance (M7): the cup's cubes in the order they are drawn."""
        _chance_only(actor)
        cubes = state["cup"]["cubes"]
        if sorted(map(kind_index, action["draws"])) != [
                k for k in range(len(KINDS)) for _ in range(cubes[k])]:
            raise ActionRejected("bad_draws", "the draws are not the cup's cubes")
        for kind in action["draws"]:
            _draw(state, kind_index(kind))
        _finish_cup(state)

    def move_drew(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A pirate drew a cube from the real cup (cup_draws "table"). Once one kind
        is left, the rest of the draws are known: the companion makes them."""
        _draw(state, kind_index(action["kind"]))
        _table_cup(state)

    @staticmethod
    def _rolled(state: State) -> None:
        """Every die of the roll has its face: go on with what it was rolled for."""
        step = state["step"]
        roll = state["roll"]
        state["roll"] = None
        need, faces = roll["need"], roll["got"]
        if step == SETUP:
            _after_setup_roll(state, need, faces)
        elif step == RALLY:
            state["dice"] = [[[sides, face] for sides, face in zip(need[s], faces[s])]
                             for s in range(SEATS)]
            state["step"] = PEEK
        elif step == ROLLOFF:
            _after_rolloff(state, need, faces)
        elif step == CANNON:
            seat = state["effect"]["seat"]
            state["dice"][seat] += [[CREW_DIE, face] for face in faces[seat]]
            _log(state, "cannon", seat=seat, faces=_faces(faces[seat]))
            _end_card(state)
        elif step == RELOAD_ROLL:
            seat = state["effect"]["seat"]
            for index, face in zip(state["marks"], faces[seat]):
                state["dice"][seat][index][1] = face
            _end_card(state)
        else:  # STORM, TIE: every die of every pirate was rolled again
            for seat in range(SEATS):
                for die, face in zip(state["dice"][seat], faces[seat]):
                    die[1] = face
            if step == STORM:
                _end_card(state)
            else:
                _open_window(state)

    # -- moves: roles, island, loot ----------------------------------------------------
    def move_assign(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Captain hands a role card to a pirate; the last one is the Scout's."""
        state["roles"][action["seat"]] = action["role"]
        if sum(1 for r in state["roles"] if r in ASSIGNED) < len(ASSIGNED):
            return
        scout = state["roles"].index(None)
        state["roles"][scout] = SCOUT
        _log(state, "roles")
        _start_island(state, ctx)

    def move_look(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout looks at a face-down island (he alone sees it)."""
        _look(state, action["space"])
        ctx.reveal()
        if len(state["looked"]) == 2:
            state["step"] = CHOOSE

    def move_choose(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout turns the chosen island face up."""
        _reveal_island(state, action["space"])
        ctx.reveal()

    def move_count(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Physical islands (M5): the Scout enters the chosen island's cubes of a kind."""
        state["entry"].append(action["n"])
        if len(state["entry"]) < len(KINDS):
            return
        loot = list(state["entry"])
        state["island"] = {"name": f"Island {state['islands_done'] + 1}", "loot": loot}
        _place_loot(state, loot)

    def move_take(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout takes one cube from the island onto his ship."""
        _scout_takes(state, kind_index(action["kind"]))

    def move_give(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Captain puts the next cube in a pirate's share."""
        k = kind_index(action["kind"])
        state["on_island"][k] -= 1
        state["shares"][action["seat"]][k] += 1
        if sum(state["on_island"]) == 0:
            _divided(state)

    def move_give_rest(self, state: State, actor: Actor, action: Action,
                       ctx: Context) -> None:
        """The Captain puts every cube left in one pirate's share."""
        share = state["shares"][action["seat"]]
        for k in range(len(KINDS)):
            share[k] += state["on_island"][k]
        state["on_island"] = [0] * len(KINDS)
        _divided(state)

    # -- moves: the First Mate, the decisions -----------------------------------------
    def move_peek(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The First Mate peeks at one pirate's roll (his view only)."""
        state["peek"] = action["seat"]
        self._peeked(state, ctx)

    def move_no_peek(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["peek"] = None
        self._peeked(state, ctx)

    @staticmethod
    def _peeked(state: State, ctx: Context) -> None:
        # Peek or not, the table sees the same thing: the decisions begin.
        state["peeked"] = True
        ctx.reveal()
        state["decisions"] = [DEFEND if s == state["captain"] else None
                              for s in range(SEATS)]
        state.update(changed=None, battle=None, rolloffs=[], cup=None)
        if state["options"]["ballot"] == "public":
            state["vote_turn"] = 0
            state["step"] = DECIDE
        else:
            choices = [None if s == state["captain"] else [MUTINY, DEFEND]
                       for s in range(SEATS)]
            state["vote"] = votes.open_vote("mutiny", choices)
            state["step"] = BALLOT

    def move_decide(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """M6: a decision in the open, in role order."""
        state["decisions"][actor] = action["choice"]
        _log(state, "decide", seat=actor, choice=action["choice"])
        state["vote_turn"] += 1
        if state["vote_turn"] == len(VOTE_ORDER):
            state["step"] = FINAL

    def move_ballot(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """M6 secret ballot: a decision nobody sees until the reveal."""
        votes.cast(state["vote"], actor, action["choice"])
        ctx.reveal()
        if votes.is_complete(state["vote"]):
            state["step"] = FINAL

    def move_final(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout keeps or changes his decision; then the battle, or none."""
        decisions = state["decisions"]
        if state["vote"] is not None:
            for seat, ballots in enumerate(state["vote"]["cast"]):
                if ballots:
                    decisions[seat] = ballots[0]
            state["vote"] = None
        public = state["options"]["ballot"] == "public"
        state["changed"] = decisions[actor] != action["choice"] if public else None
        decisions[actor] = action["choice"]
        ctx.reveal()
        if MUTINY in decisions:
            state["revealed"] = True
            state["battle"] = {"fought": True, "round": state["round"], "ties": 0,
                               "sums": None, "winner": None, "new_captain": None}
            sums = side_sums(state)
            _log(state, "reveal", mutiny=sums[MUTINY], defend=sums[DEFEND])
            _open_window(state)
        else:
            _no_battle(state)

    # -- moves: the battle window (M4) --------------------------------------------------
    def move_play(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Play a mystery card: a battle card in the window, another in one's buying."""
        card = action["card"]
        state["hands"][actor].remove(card)
        state["played"][actor].append(card)
        if effect_of(state, card) == "cannon":
            state["cannons"][actor] += 1  # Fierceness in Battle counts Cannons played
        ctx.reveal()
        _log(state, "play", seat=actor, card=card)
        if state["step"] == WINDOW:
            _play_battle_card(state, actor, card)
        else:
            _play_buying_card(state, actor, card)

    def move_pass(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        window = state["window"]
        window["passes"] += 1
        window["turns"] += 1
        window["turn"] = (actor + 1) % SEATS
        _settle_window(state)

    def move_mark(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Quick Reload: one more die (by its kind and face) to re-roll."""
        wanted = [action["sides"], action["face"]]
        for index, die in enumerate(state["dice"][actor]):
            if die == wanted and index not in state["marks"]:
                state["marks"].append(index)
                return

    def move_reroll(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        sides = [state["dice"][actor][i][0] for i in state["marks"]]
        _start_roll(state, RELOAD_ROLL, [sides if s == actor else [] for s in range(SEATS)])

    def move_target(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The pirate a Drunken Madness or a Press-gang hits."""
        if state["step"] == MADNESS:
            _madness(state, action["seat"])
        else:
            _press_gang(state, actor, action["seat"])

    # -- moves: buying ------------------------------------------------------------------
    def move_buy(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Buy one Rum, one crew die or one mystery card at the printed price."""
        item = action["item"]
        _pay_price(state, actor, PRICES[item])
        if item == "rum":
            state["rum_supply"] -= 1
            state["rum"][actor] += 1
        elif item == "crew":
            state["green_supply"] -= 1
            state["green"][actor] += 1
        else:
            state["hands"][actor].append(state["deck"].pop(0))
            ctx.reveal()  # the buyer now knows the card
        _log(state, "buy", seat=actor, item=item)

    def move_trade(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Start a three-for-one exchange: three cubes to the bank, one at a time."""
        state["trade"] = {"paid": []}
        state["step"] = PAY
        _settle(state)

    def move_pay(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        _pay_cube(state, actor, kind_index(action["kind"]))

    def move_receive(self, state: State, actor: Actor, action: Action,
                     ctx: Context) -> None:
        """The exchange's one cube, of the pirate's choice, from the bank."""
        _receive(state, actor, kind_index(action["kind"]))

    def move_loot(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Buried Treasure: one cube of the pirate's choice from the bank."""
        _treasure_cube(state, actor, kind_index(action["kind"]))

    def move_done(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The buyer is done; the next pirate clockwise buys, or the round ends."""
        _next_buyer(state, state["buy_order"].index(actor) + 1)

    # -- the end ------------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        """Most Infamy wins; a tie is a shared victory. Scores are Infamy."""
        final = state["final"]
        if final is None:
            return None
        winners = list(final["winners"])
        reason = "Most Infamy" if len(winners) == 1 else "Shared victory: tied on Infamy"
        return Result(winners, list(final["total"]), reason, clone(final))

    # -- views ----------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """The public record, plus the viewer's own secrets (see the view module)."""
        return views.view(state, viewer)

    def display(self, view: dict[str, Any], seat: int) -> Display:
        return views.display(view, seat)

    def describe(self, action: Action, names: list[str]) -> str:
        return views.describe(action, names)

    # -- re-deal (for the contract tests) -----------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Draw again everything ``viewer`` has not seen: face-down islands it has not
        looked at, the mystery deck and other pirates' hands, other pirates' hidden
        dice (but not the one the viewer peeked at), the First Mate's peek, and secret
        ballots."""
        twin = clone(state)
        if twin["step"] in (DEAL, OVER):
            return twin
        views.redeal_islands(twin, viewer, rng)
        views.redeal_cards(twin, viewer, rng)
        views.redeal_dice(twin, viewer, rng)
        fm = seat_of(twin, FIRST_MATE)
        if twin["peeked"] and viewer != fm:
            twin["peek"] = rng.choice([None] + [s for s in range(SEATS) if s != fm])
        vote = twin["vote"]
        if vote is not None and not (twin["step"] == FINAL and viewer == seat_of(twin, SCOUT)):
            votes.redeal_vote(vote, viewer, rng)
        return twin

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """A bound on one match's actions (chance included), from the data's sizes.

        Per round: roles 2, island 5, the division (<= 36 cubes), the rally (<= 19
        entered dice), the peek 1, the decisions 4, a cup of <= 36 draws and 4
        buyers' "done". A battle window holds <= 4 passes plus card plays; each play
        costs <= 2 + 2 x (dice in the battle) actions and there are only so many
        cards. Ties re-roll every die: 40 ties in one battle (at worst 1 chance in 6
        each) is a bound no game comes near; roll-offs likewise. Buying spends cubes:
        at most 2 actions per cube that ever reaches a pirate (islands, Buried
        Treasure), plus each card's play and its picks. The setup roll: 40 re-rolls.
        """
        data = load_data()
        cards = sum(c["count"] for c in data["cards"])
        param = max([c.get("dice", 1) for c in data["cards"]] + [c.get("loot", 1)
                    for c in data["cards"]] + [c.get("crew", 1) for c in data["cards"]])
        cubes_per_island = MAX_CUBES * len(KINDS)
        battle_dice = START_RED * SEATS + GREEN_TOTAL + 1 + cards * param
        ties = 40
        per_round = (2 + 5 + cubes_per_island + battle_dice + 1 + 4 + cubes_per_island
                     + SEATS + ties * (battle_dice + SEATS + 1) + ties * (SEATS + 1))
        cubes_in = MAP_SPACES * cubes_per_island + cards * param
        card_play = 2 + 2 * battle_dice + param
        setup = 1 + ties * (START_RED * SEATS + 1)
        return setup + MAP_SPACES * per_round + cards * card_play + 2 * cubes_in


# -- helpers: the deal and rolls --------------------------------------------------------

def _chance_only(actor: Actor) -> None:
    if actor != CHANCE:
        raise ActionRejected("chance_only", "only the companion's chance does that")


def _draw_deal(options: dict[str, Any], chance: Chance) -> Action:
    """Load the data file, stack and shuffle the mystery deck, lay out the islands."""
    data = load_data()
    pool = [card["id"] for card in data["cards"] for _ in range(card["count"])]
    top: list[str] = []
    for card in parse_stack(options["stack"]):
        if card not in pool:
            raise OptionError("bad_option", f"option 'stack': no {card!r} card is left"
                              " in the deck (see mit_mutiny.toml)")
        pool.remove(card)
        top.append(card)
    islands = spaces = None
    if options["islands"] == "deck":
        islands = [dict(i) for i in data["islands"]]
        spaces = chance.shuffle(list(range(len(islands)))
                                + [None] * (MAP_SPACES - len(islands)))
    cards = [dict(card) for card in data["cards"]]
    return {"type": "deal", "islands": islands, "spaces": spaces, "cards": cards,
            "deck": top + chance.shuffle(pool)}


def _start_roll(state: State, step: str, need: list[list[int]]) -> None:
    """Dice wait for faces: a chance roll next, or the owners enter them."""
    state["step"] = step
    state["roll"] = {"need": need, "got": [[] for _ in range(SEATS)]}


def _after_setup_roll(state: State, need: list[list[int]], faces: list[list[int]]) -> None:
    """The highest roll is the first Captain; a tie for highest rolls again."""
    rolled = [s for s in range(SEATS) if need[s]]
    state["setup_rolls"].append([list(faces[s]) if need[s] else None
                                 for s in range(SEATS)])
    best = max(sum(faces[s]) for s in rolled)
    top = [s for s in rolled if sum(faces[s]) == best]
    if len(top) > 1:
        _start_roll(state, SETUP, [[CREW_DIE] * START_RED if s in top else []
                                   for s in range(SEATS)])
        return
    state["captain"] = top[0]
    _log(state, "captain", seat=top[0])
    _start_round(state)


def _log(state: State, event: str, **data: Any) -> None:
    """A public event for the table display (only what everyone may know). Values are
    plain scalars: the log is copied with the state on every action."""
    state["log"].append({"e": event, "round": state["round"], **data})
    del state["log"][:-LOG_SIZE]


def _faces(faces: list[int]) -> str:
    return " ".join(map(str, faces))


# -- helpers: rounds, islands, loot -----------------------------------------------------

def _start_round(state: State) -> None:
    """A new round: the Captain keeps his card, every other role is handed out again."""
    state["round"] += 1
    captain = state["captain"]
    state["roles"] = [CAPTAIN if s == captain else None for s in range(SEATS)]
    # The last battle (dice, decisions, sums, cup) stays on the table until the
    # next round replaces it, as the real dice stay on the mats.
    state.update({
        "looked": [], "island": None, "on_island": [0] * len(KINDS), "scout_took": None,
        "entry": [], "roll": None, "peek": None, "peeked": False, "vote_turn": 0,
        "vote": None, "window": None, "marks": [], "effect": None, "buy_order": [],
        "buyer": None, "trade": None, "treasure_left": 0, "step": ROLES,
    })


def _start_island(state: State, ctx: Context) -> None:
    """Phase 2: the Scout looks at two face-down islands (or enters the real one)."""
    if state["options"]["islands"] == "physical":
        state["step"] = ISLAND
        return
    down = [i for i, island in enumerate(state["spaces"]) if island is not None]
    if len(down) == 1:  # the last island: nothing to choose
        _reveal_island(state, down[0])
        return
    state["step"] = LOOK
    if len(down) == 2:  # only two left: the Scout sees both
        for space in down:
            _look(state, space)
        ctx.reveal()
        state["step"] = CHOOSE


def _look(state: State, space: int) -> None:
    state["looked"].append(space)
    seen = state["seen"][seat_of(state, SCOUT)]
    if space not in seen:
        seen.append(space)
        seen.sort()


def _reveal_island(state: State, space: int) -> None:
    """The chosen island goes face up; its loot comes from the bank."""
    island = dealt(state)["islands"][state["spaces"][space]]
    state["spaces"][space] = None
    for seen in state["seen"]:
        if space in seen:
            seen.remove(space)
    state["island"] = {"name": island["name"], "loot": list(island["loot"]),
                       "space": space}
    _place_loot(state, island["loot"])


def _place_loot(state: State, printed: list[int]) -> None:
    """Put the island's cubes on it, as far as the bank has them; the Scout takes one."""
    placed = [min(n, state["bank"][k]) for k, n in enumerate(printed)]
    for k, n in enumerate(placed):
        state["bank"][k] -= n
    state["on_island"] = placed
    _log(state, "island", name=state["island"]["name"])
    kinds = [k for k, n in enumerate(placed) if n > 0]
    if len(kinds) > 1:
        state["step"] = TAKE
    elif kinds:  # one kind only: the Scout's pick is forced
        _scout_takes(state, kinds[0])
    else:
        _start_rally(state)


def _scout_takes(state: State, k: int) -> None:
    scout = seat_of(state, SCOUT)
    state["on_island"][k] -= 1
    state["loot"][scout][k] += 1
    state["scout_took"] = KINDS[k]
    if sum(state["on_island"]) == 0:
        _start_rally(state)
    else:
        state["step"] = DIVIDE


def _next_cube(state: State) -> int:
    """The kind of the next cube the Captain gives out (sugar first, plantain last)."""
    return next(k for k, n in enumerate(state["on_island"]) if n > 0)


def _divided(state: State) -> None:
    _log(state, "divided")
    _start_rally(state)


def _start_rally(state: State) -> None:
    """Phase 4: every pirate's crew dice, and the Quarter Master's d8, are rolled."""
    state["dice"] = [[] for _ in range(SEATS)]
    state["revealed"] = False
    need = [[CREW_DIE] * crew(state, s) + ([QM_DIE] if state["roles"][s] == QUARTER_MASTER
                                           else [])
            for s in range(SEATS)]
    _start_roll(state, RALLY, need)


def _no_battle(state: State) -> None:
    """All defend: no battle, no reveal; each takes his share; the Captain the island."""
    state["battle"] = {"fought": False, "round": state["round"]}
    for seat in range(SEATS):
        _add(state["loot"][seat], state["shares"][seat])
    state["shares"] = [[0] * len(KINDS) for _ in range(SEATS)]
    _conquer(state, state["captain"])
    _log(state, "no_battle")
    _start_buying(state)


def _add(into: list[int], more: list[int]) -> None:
    for k, n in enumerate(more):
        into[k] += n


def _conquer(state: State, seat: int) -> None:
    state["won"][seat].append(state["island"]["name"])
    state["islands_done"] += 1


# -- helpers: the battle ------------------------------------------------------------------

def _open_window(state: State) -> None:
    """M4: the battle-card window opens with the Captain and goes clockwise."""
    state["window"] = {"turn": state["captain"], "passes": 0, "turns": 0}
    state["step"] = WINDOW
    _settle_window(state)


def _window_closed(state: State) -> bool:
    window = state["window"]
    if state["options"]["card_window"] == "one_round":
        return window["turns"] >= SEATS
    return window["passes"] >= SEATS


def _settle_window(state: State) -> None:
    """Pirates with no card in hand (a public count) pass by themselves; close the
    window once it is over."""
    window = state["window"]
    while not _window_closed(state):
        if state["hands"][window["turn"]]:
            return
        window["passes"] += 1
        window["turns"] += 1
        window["turn"] = (window["turn"] + 1) % SEATS
    _close_window(state)


def _close_window(state: State) -> None:
    """Count the sides: a tie re-rolls every die, else a side wins."""
    sums = side_sums(state)
    battle = state["battle"]
    battle["sums"] = sums
    state["window"] = None
    if sums[MUTINY] == sums[DEFEND]:
        battle["ties"] += 1
        _log(state, "tie", total=sums[MUTINY])
        _start_roll(state, TIE, [[sides for sides, _ in state["dice"][s]]
                                 for s in range(SEATS)])
        return
    if sums[DEFEND] > sums[MUTINY]:
        _captain_wins(state)
        return
    mutineers = [s for s in range(SEATS) if state["decisions"][s] == MUTINY]
    best = max(dice_total(state["dice"][s]) for s in mutineers)
    top = [s for s in mutineers if dice_total(state["dice"][s]) == best]
    if len(top) == 1:
        _mutineers_win(state, top[0])
    else:
        _start_roll(state, ROLLOFF, [[CREW_DIE] if s in top else [] for s in range(SEATS)])


def _after_rolloff(state: State, need: list[list[int]], faces: list[list[int]]) -> None:
    """Tied top mutineers rolled a d6 each: the highest is Captain, a tie rolls again."""
    rolled = [s for s in range(SEATS) if need[s]]
    state["rolloffs"].append([faces[s][0] if need[s] else None for s in range(SEATS)])
    best = max(faces[s][0] for s in rolled)
    top = [s for s in rolled if faces[s][0] == best]
    if len(top) == 1:
        _mutineers_win(state, top[0])
    else:
        _start_roll(state, ROLLOFF, [[CREW_DIE] if s in top else [] for s in range(SEATS)])


def _mutineers_win(state: State, new: int) -> None:
    """The new Captain takes the Captain card and the island; all the loot goes into
    the cup for the mutineers, the new Captain drawing first."""
    old = state["captain"]
    state["roles"][old] = None
    state["roles"][new] = CAPTAIN
    state["captain"] = new
    state["battle"].update(winner=MUTINY, new_captain=new)
    _conquer(state, new)
    _log(state, "mutiny_won", seat=new, old=old)
    cubes = [sum(share[k] for share in state["shares"]) for k in range(len(KINDS))]
    mutineers = [s for s in range(SEATS) if state["decisions"][s] == MUTINY]
    _start_cup(state, cubes, clockwise(new, mutineers))


def _captain_wins(state: State) -> None:
    """Defenders keep their shares; the mutineers' shares go into the cup for the
    defenders, the Captain drawing first."""
    captain = state["captain"]
    state["battle"]["winner"] = DEFEND
    _conquer(state, captain)
    _log(state, "captain_won", seat=captain)
    cubes = [0] * len(KINDS)
    defenders = []
    for seat in range(SEATS):
        if state["decisions"][seat] == DEFEND:
            defenders.append(seat)
            _add(state["loot"][seat], state["shares"][seat])
        else:
            _add(cubes, state["shares"][seat])
    _start_cup(state, cubes, clockwise(captain, defenders))


def _start_cup(state: State, cubes: list[int], takers: list[int]) -> None:
    """M7: the cubes go into a cup; the takers draw one each in turn until it is empty."""
    state["shares"] = [[0] * len(KINDS) for _ in range(SEATS)]
    state["cup"] = {"cubes": cubes, "takers": takers, "next": 0, "start": list(cubes),
                    "got": [[0] * len(KINDS) for _ in range(SEATS)], "done": False}
    state["step"] = CUP
    if state["options"]["cup_draws"] == "table" or sum(cubes) == 0:
        _table_cup(state)


def _table_cup(state: State) -> None:
    """Real cup draws: once a single kind is left in the cup, every draw still to come
    is known, so the companion makes them; an empty cup is done."""
    cubes = state["cup"]["cubes"]
    kinds = [k for k, n in enumerate(cubes) if n]
    if len(kinds) == 1:
        while cubes[kinds[0]]:
            _draw(state, kinds[0])
    if sum(cubes) == 0:
        _finish_cup(state)


def _draw(state: State, k: int) -> None:
    cup = state["cup"]
    seat = cup["takers"][cup["next"] % len(cup["takers"])]
    cup["cubes"][k] -= 1
    cup["next"] += 1
    cup["got"][seat][k] += 1
    state["loot"][seat][k] += 1


def _finish_cup(state: State) -> None:
    state["cup"]["done"] = True
    if sum(state["cup"]["start"]):
        _log(state, "cup")
    _start_buying(state)


def _hand_kinds(state: State, seat: int) -> list[str]:
    """The distinct cards in a hand, in the data file's order."""
    hand = state["hands"][seat]
    return [card for card in dealt(state)["card_ids"] if card in hand]


def _battle_usable(state: State, card: str) -> bool:
    """Drunken Madness needs a pirate with two dice or more (everyone keeps one)."""
    return effect_of(state, card) != "madness" or bool(_madness_targets(state))


def _madness_targets(state: State) -> list[int]:
    return [s for s in range(SEATS) if len(state["dice"][s]) >= 2]


def _play_battle_card(state: State, seat: int, card: str) -> None:
    effect = effect_of(state, card)
    state["effect"] = {"seat": seat, "card": card}
    if effect == "cannon":
        count = card_def(state, card)["dice"]
        _start_roll(state, CANNON, [[CREW_DIE] * count if s == seat else []
                                    for s in range(SEATS)])
    elif effect == "reload":
        state["marks"] = []
        state["step"] = RELOAD
    elif effect == "madness":
        state["step"] = MADNESS
        target = _only(_madness_targets(state))
        if target is not None:  # a single pirate with two dice or more
            _madness(state, target)
    else:  # storm
        _start_roll(state, STORM, [[sides for sides, _ in state["dice"][s]]
                                   for s in range(SEATS)])


def _madness(state: State, target: int) -> None:
    """The target removes their highest die (a d6 before the d8 on equal faces), as
    many as the card says, always keeping one."""
    dice = state["dice"][target]
    count = min(card_def(state, state["effect"]["card"])["dice"], len(dice) - 1)
    removed = []
    for _ in range(count):
        index = max(range(len(dice)), key=lambda i: (dice[i][1], -dice[i][0]))
        removed.append(dice.pop(index))
    _log(state, "madness", seat=target, faces=_faces([face for _, face in removed]))
    _end_card(state)


def _end_card(state: State) -> None:
    """A battle card is resolved: the window goes on with the next pirate."""
    window = state["window"]
    window["passes"] = 0
    window["turns"] += 1
    window["turn"] = (state["effect"]["seat"] + 1) % SEATS
    state["effect"] = None
    state["marks"] = []
    state["step"] = WINDOW
    _settle_window(state)


# -- helpers: buying ------------------------------------------------------------------------

def _start_buying(state: State) -> None:
    """Phase 7: from the Captain (the new one after a mutiny), clockwise."""
    state["buy_order"] = clockwise(state["captain"])
    state["step"] = BUY
    _next_buyer(state, 0)


def _next_buyer(state: State, position: int) -> None:
    """The next pirate in the buying order who can do anything at all; after the last,
    the next round (or the end). A pirate who can afford nothing, holds fewer than
    three cubes and no card is passed over: all of that is public."""
    order = state["buy_order"]
    for seat in order[position:]:
        if state["hands"][seat] or sum(state["loot"][seat]) >= TRADE_COST or any(
                _can_buy(state, seat, item) for item in PRICES):
            state["buyer"] = seat
            return
    state["buyer"] = None
    if state["islands_done"] >= state["islands_total"]:
        _finish(state)
    else:
        _start_round(state)


def _can_pay(state: State, seat: int, price: tuple[int, ...]) -> bool:
    return all(have >= cost for have, cost in zip(state["loot"][seat], price))


def _can_buy(state: State, seat: int, item: str) -> bool:
    """The price, and the supply: 33 Rum, 10 green crew (M2: more Rum than crew
    dice), the mystery deck."""
    if not _can_pay(state, seat, PRICES[item]):
        return False
    if item == "rum":
        return state["rum_supply"] > 0
    if item == "crew":
        rum_ok = (not state["options"]["crew_needs_rum"]
                  or state["rum"][seat] > crew(state, seat))
        return state["green_supply"] > 0 and rum_ok
    return bool(state["deck"])


def _pay_price(state: State, seat: int, price: tuple[int, ...]) -> None:
    for k, cost in enumerate(price):
        state["loot"][seat][k] -= cost
        state["bank"][k] += cost


def _buy_usable(state: State, seat: int, card: str) -> bool:
    """Whether a card that is not a battle card can do anything now."""
    effect = effect_of(state, card)
    if effect == "stowaway":
        return state["green_supply"] > 0
    if effect == "pressgang":
        return bool(_press_targets(state, seat))
    if effect == "treasure":
        return sum(state["bank"]) > 0
    return True  # infamy: laid face up


def _press_targets(state: State, seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat and crew(state, s) >= 2]


def _play_buying_card(state: State, seat: int, card: str) -> None:
    definition = card_def(state, card)
    effect = definition["effect"]
    if effect == "stowaway":
        count = min(definition["crew"], state["green_supply"])
        state["green_supply"] -= count
        state["green"][seat] += count
    elif effect == "pressgang":
        state["effect"] = {"seat": seat, "card": card}
        state["step"] = PRESS
        _settle(state)
    elif effect == "treasure":
        state["effect"] = {"seat": seat, "card": card}
        state["treasure_left"] = definition["loot"]
        state["step"] = TREASURE
        _settle(state)


def _press_gang(state: State, seat: int, target: int) -> None:
    """Take crew dice (green first) from the target, who keeps at least one."""
    count = min(card_def(state, state["effect"]["card"])["crew"], crew(state, target) - 1)
    for _ in range(count):
        colour = "green" if state["green"][target] > 0 else "red"
        state[colour][target] -= 1
        state[colour][seat] += 1
    _log(state, "press", seat=seat, target=target, n=count)
    state["effect"] = None
    state["step"] = BUY


def _pay_cube(state: State, seat: int, k: int) -> None:
    state["loot"][seat][k] -= 1
    state["bank"][k] += 1
    state["trade"]["paid"].append(KINDS[k])
    if len(state["trade"]["paid"]) == TRADE_COST:
        state["step"] = RECEIVE
    _settle(state)


def _receive(state: State, seat: int, k: int) -> None:
    state["bank"][k] -= 1
    state["loot"][seat][k] += 1
    _log(state, "trade", seat=seat, paid=",".join(state["trade"]["paid"]), kind=KINDS[k])
    state["trade"] = None
    state["step"] = BUY


def _treasure_cube(state: State, seat: int, k: int) -> None:
    state["bank"][k] -= 1
    state["loot"][seat][k] += 1
    state["treasure_left"] -= 1
    if state["treasure_left"] == 0 or sum(state["bank"]) == 0:
        state["treasure_left"] = 0
        state["effect"] = None
        state["step"] = BUY
    else:
        _settle(state)


def _only(options: list[int]) -> int | None:
    return options[0] if len(options) == 1 else None


def _settle(state: State) -> None:
    """Make a forced choice of the buyer's (a single legal option) for him: all
    of it follows from public facts (his cubes, the bank, the crew counts)."""
    seat, step = state["buyer"], state["step"]
    if step == PAY:
        held = [k for k in range(len(KINDS)) if state["loot"][seat][k]]
        owed = TRADE_COST - len(state["trade"]["paid"])
        # One kind held, or exactly the cubes still owed: every one of them is paid.
        if len(held) == 1 or sum(state["loot"][seat]) == owed:
            _pay_cube(state, seat, held[0])
    elif step in (RECEIVE, TREASURE):
        kind = _only([k for k in range(len(KINDS)) if state["bank"][k]])
        if kind is not None:
            (_receive if step == RECEIVE else _treasure_cube)(state, seat, kind)
    elif step == PRESS:
        target = _only(_press_targets(state, seat))
        if target is not None:
            _press_gang(state, seat, target)


def _finish(state: State) -> None:
    state["final"] = infamy(state)
    state["step"] = OVER
    state["buyer"] = None
    _log(state, "end")


GAME = MitMutiny()
