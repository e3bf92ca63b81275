"""The rules of Mutiny (``mit-mutiny``): the steps of a round, every move, the result.
Rulings: see docs/games/mit-mutiny.md."""
from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from typing import Any

from companion.engine import (
    CHANCE,
    Action,
    Actor,
    Chance,
    Context,
    Game,
    Parts,
    Result,
    Step,
    Timed,
    always,
    clone,
    votes,
)
from companion.errors import ActionRejected
from companion.games.mit_mutiny import battle, board, flow, howto, show, views
from companion.games.mit_mutiny.cards import (
    KINDS,
    MAX_CUBES,
    dealt,
    effect_of,
    freeze,
    is_battle_card,
    keep_deal,
    load_data,
)
from companion.games.mit_mutiny.data import (
    ASSIGNED,
    BALLOT,
    BUY,
    CANNON,
    CHOOSE,
    CREW_DIE,
    CUBES_PER_KIND,
    CUP,
    DEAL,
    DECIDE,
    DEFEND,
    DIVIDE,
    FINAL,
    FIRST_MATE,
    GREEN_TOTAL,
    ISLAND,
    LOOK,
    MADNESS,
    MAP_SPACES,
    MUTINY,
    PEEK,
    PRESS,
    PRICES,
    QUARTER_MASTER,
    RALLY,
    RELOAD,
    RELOAD_ROLL,
    ROLES,
    ROLL_STEPS,
    ROLLOFF,
    RUM_TOTAL,
    SCOUT,
    SEATS,
    SETUP,
    SPEC,
    START_RED,
    START_RUM,
    TAKE,
    TRADE_COST,
    TREASURE,
    VOTE_ORDER,
    WINDOW,
    State,
    infamy,
    kind_index,
    log,
    seat_of,
)

# -- who acts -------------------------------------------------------------------------------

def _rollers(state: State) -> list[Actor]:
    """Chance rolls (``dice`` "companion"), or each pirate with a die still to enter."""
    if state["options"]["dice"] == "companion":
        return [CHANCE]
    roll = state["roll"]
    return [s for s in range(SEATS) if len(roll["got"][s]) < len(roll["need"][s])]


def _role(role: str):
    return lambda state: [seat_of(state, role)]


def _captain(state: State) -> list[Actor]:
    return [state["captain"]]


def _decider(state: State) -> list[Actor]:
    # The roles that vote are dealt every round: their holder is always seated.
    return [state["roles"].index(VOTE_ORDER[state["vote_turn"]])]


def _window_turn(state: State) -> list[Actor]:
    return [state["window"]["turn"]]


def _card_player(state: State) -> list[Actor]:
    return [state["effect"]["seat"]]


def _buyer(state: State) -> list[Actor]:
    return [state["buyer"]]


#: The host's buying timer (option ``buying_seconds``): each buyer's own, over the buying
#: step and its picks; when it runs out that pirate is done buying (docs/games/mit-mutiny.md).
_BUYING_TIMER = Timed("buying_seconds", ends="buying_over", span="buying",
                      lap=lambda state: [state["round"], state["buyer"]])
#: ... which runs on while the buyer picks, but never ends a pick.
_BUYING_PICK_TIMER = dataclasses.replace(_BUYING_TIMER, ends=None)


def _cup_drawer(state: State) -> list[Actor]:
    if state["options"]["cup_draws"] == "companion":
        return [CHANCE]
    return [battle.cup_taker(state)]


# -- what they may do (whole decisions) ---------------------------------------------------

def _faces(state: State, seat: Actor) -> list[dict[str, Any]]:
    roll = state["roll"]
    sides = roll["need"][seat][len(roll["got"][seat])]
    return [{"face": f} for f in range(1, sides + 1)]


def _assignments(state: State, captain: Actor) -> list[dict[str, Any]]:
    role = ASSIGNED[sum(1 for r in state["roles"] if r in ASSIGNED)]
    return [{"role": role, "seat": s} for s in range(SEATS) if state["roles"][s] is None]


def _face_down(state: State, scout: Actor) -> list[dict[str, Any]]:
    return [{"space": i} for i, island in enumerate(state["spaces"])
            if island is not None and i not in state["looked"]]


def _looked(state: State, scout: Actor) -> list[dict[str, Any]]:
    return [{"space": i} for i in state["looked"]]


def _counts(state: State, scout: Actor) -> list[dict[str, Any]]:
    k = len(state["entry"])
    top = min(MAX_CUBES, state["bank"][k])
    return [{"kind": KINDS[k], "n": n} for n in range(top + 1)]


def _island_kinds(state: State, scout: Actor) -> list[dict[str, Any]]:
    return [{"kind": kind} for k, kind in enumerate(KINDS) if state["on_island"][k] > 0]


def _gives(state: State, captain: Actor) -> list[dict[str, Any]]:
    kind = KINDS[flow.next_cube(state)]
    return [{"kind": kind, "seat": s} for s in range(SEATS)]


def _gives_rest(state: State, captain: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in range(SEATS)] if sum(state["on_island"]) > 1 else []


def _peeks(state: State, mate: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in range(SEATS) if s != mate]


def _sides(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"choice": MUTINY}, {"choice": DEFEND}]


def _ballots(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"choice": choice} for choice in votes.choices_for(state["vote"], seat)]


def _battle_plays(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"card": card} for card in _hand_kinds(state, seat)
            if is_battle_card(state, card) and battle.battle_usable(state, card)]


def _rerolls(state: State, seat: Actor) -> list[dict[str, Any]]:
    """Quick Reload: every choice of one or more of the player's own dice, named by
    kind and face (dice alike are the same choice), fewest dice first."""
    have = Counter(tuple(die) for die in state["dice"][seat])
    kinds = sorted(have)
    out = []
    for picks in itertools.product(*(range(have[k] + 1) for k in kinds)):
        dice = [list(k) for k, n in zip(kinds, picks, strict=True) for _ in range(n)]
        if dice:
            out.append({"dice": dice})
    out.sort(key=lambda fields: (len(fields["dice"]), fields["dice"]))
    return out


def _madness_targets(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"seat": s} for s in battle.madness_targets(state)]


def _cup_kinds(state: State, seat: Actor) -> list[dict[str, Any]]:
    cubes = state["cup"]["cubes"]
    return [{"kind": kind} for k, kind in enumerate(KINDS) if cubes[k]]


def _purchases(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"item": item} for item in PRICES if flow.can_buy(state, seat, item)]


def _trades(state: State, seat: Actor) -> list[dict[str, Any]]:
    """Any three cubes held (by kind, in the kinds' order), for any cube the bank has
    once they are paid."""
    held = state["loot"][seat]
    if sum(held) < TRADE_COST:
        return []
    out = []
    for pay in itertools.combinations_with_replacement(range(len(KINDS)), TRADE_COST):
        if any(pay.count(k) > held[k] for k in pay):
            continue
        out += [{"pay": [KINDS[k] for k in pay], "get": kind}
                for g, kind in enumerate(KINDS) if state["bank"][g] + pay.count(g) > 0]
    return out


def _buying_plays(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"card": card} for card in _hand_kinds(state, seat)
            if not is_battle_card(state, card) and flow.buy_usable(state, seat, card)]


def _bank_kinds(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"kind": kind} for k, kind in enumerate(KINDS) if state["bank"][k] > 0]


def _press_targets(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"seat": s} for s in flow.press_targets(state, seat)]


def _hand_kinds(state: State, seat: int) -> list[str]:
    """The distinct cards in a hand, in the data file's order."""
    hand = state["hands"][seat]
    return [card for card in dealt(state)["card_ids"] if card in hand]


def _draw_cup(state: State, chance: Chance) -> Action:
    """Chance (M7): the cup's cubes in the order they come out."""
    cubes = state["cup"]["cubes"]
    pool = [kind for k, kind in enumerate(KINDS) for _ in range(cubes[k])]
    return {"type": "cup", "draws": chance.shuffle(pool)}


_ROLL = Step(who=_rollers, moves={"enter": _faces}, chance={"roll": flow.draw_roll})


# -- the game -------------------------------------------------------------------------------

class MitMutiny(Game):
    """The rules of Mutiny over plain JSON state (see docs/games/mit-mutiny.md)."""

    spec = SPEC
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        DEAL: Step(who=lambda state: [CHANCE], chance={"deal": flow.draw_deal}),
        **{step: _ROLL for step in ROLL_STEPS},
        ROLES: Step(who=_captain, moves={"assign": _assignments}),
        LOOK: Step(who=_role(SCOUT), moves={"look": _face_down}),
        CHOOSE: Step(who=_role(SCOUT), moves={"choose": _looked}),
        ISLAND: Step(who=_role(SCOUT), moves={"count": _counts}),
        TAKE: Step(who=_role(SCOUT), moves={"take": _island_kinds}),
        DIVIDE: Step(who=_captain, moves={"give": _gives, "give_rest": _gives_rest}),
        PEEK: Step(who=_role(FIRST_MATE), moves={"peek": _peeks, "no_peek": always}),
        DECIDE: Step(who=_decider, moves={"decide": _sides}),
        BALLOT: Step(who=lambda state: votes.waiting(state["vote"]),
                     moves={"ballot": _ballots}),
        FINAL: Step(who=_role(SCOUT), moves={"final": _sides}),
        WINDOW: Step(who=_window_turn, moves={"play": _battle_plays, "pass": always}),
        RELOAD: Step(who=_card_player, moves={"reroll": _rerolls}),
        MADNESS: Step(who=_card_player, moves={"target": _madness_targets}),
        CUP: Step(who=_cup_drawer, moves={"drew": _cup_kinds}, chance={"cup": _draw_cup}),
        BUY: Step(who=_buyer, moves={"buy": _purchases, "trade": _trades,
                                     "play": _buying_plays, "done": always},
                  timed=_BUYING_TIMER),
        # A buyer's pick of loot or of a pirate to press finishes first: the time may
        # be up then, but the timekeeper never picks for anyone.
        TREASURE: Step(who=_buyer, moves={"loot": _bank_kinds},
                       timed=_BUYING_PICK_TIMER),
        PRESS: Step(who=_buyer, moves={"target": _press_targets},
                    timed=_BUYING_PICK_TIMER),
    }

    # -- setup ------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Every pirate with 2 red crew dice and 2 Rum; the deal comes next (chance)."""
        flow.parse_stack(options["stack"])
        empty = [[0] * len(KINDS) for _ in range(SEATS)]
        return {
            "options": dict(options), "step": DEAL, "round": 0,
            "islands_total": 0, "islands_done": 0,
            "spaces": None, "seen": [[] for _ in range(SEATS)], "looked": [],
            "island": None, "on_island": [0] * len(KINDS), "scout_took": None,
            "entry": [], "shares": clone(empty),
            "data": freeze({"islands": [], "cards": []}), "deck": [],
            "hands": [[] for _ in range(SEATS)], "played": [[] for _ in range(SEATS)],
            "cannons": [0] * SEATS, "rum": [START_RUM] * SEATS,
            "red": [START_RED] * SEATS, "green": [0] * SEATS, "loot": clone(empty),
            "rum_supply": RUM_TOTAL - START_RUM * SEATS, "green_supply": GREEN_TOTAL,
            "bank": [CUBES_PER_KIND] * len(KINDS), "won": [[] for _ in range(SEATS)],
            "captain": None, "roles": [None] * SEATS, "setup_rolls": [],
            "dice": [[] for _ in range(SEATS)], "roll": None, "peek": None,
            "peeked": False, "decisions": [None] * SEATS, "vote_turn": 0, "vote": None,
            "changed": None, "revealed": False, "window": None, "effect": None,
            "battle": None, "rolloffs": [], "cup": None, "buy_order": [], "buyer": None,
            "treasure_left": 0, "log": [], "final": None,
        }

    # -- chance ------------------------------------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the islands on the map's spaces and the shuffled mystery deck, with
        the full data of every card, so the journal alone replays the match."""
        keep_deal(state, action["islands"] or [], action["cards"], action["deck"])
        if action["spaces"] is None:
            state["islands_total"] = MAP_SPACES
        else:
            # Each space holds the index of its island in the dealt table, or None.
            state["spaces"] = list(action["spaces"])
            state["islands_total"] = sum(1 for s in state["spaces"] if s is not None)
        flow.start_roll(state, SETUP, [[CREW_DIE] * START_RED for _ in range(SEATS)])

    def move_roll(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Chance: the faces of every die waiting to be rolled."""
        roll = state["roll"]
        faces = action["faces"]
        for seat in range(SEATS):
            if len(faces[seat]) != len(roll["need"][seat]) or any(
                    not 1 <= f <= sides
                    for f, sides in zip(faces[seat], roll["need"][seat], strict=True)):
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
        cubes = state["cup"]["cubes"]
        if sorted(map(kind_index, action["draws"])) != [
                k for k in range(len(KINDS)) for _ in range(cubes[k])]:
            raise ActionRejected("bad_draws", "the draws are not the cup's cubes")
        for kind in action["draws"]:
            battle.draw(state, kind_index(kind))
        battle.finish_cup(state)

    def move_drew(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A pirate drew a cube from the real cup (cup_draws "table"). Once one kind
        is left, the rest of the draws are known: the companion makes them."""
        battle.draw(state, kind_index(action["kind"]))
        battle.table_cup(state)

    @staticmethod
    def _rolled(state: State) -> None:
        """Every die of the roll has its face: go on with what it was rolled for."""
        step, roll = state["step"], state["roll"]
        state["roll"] = None
        need, faces = roll["need"], roll["got"]
        if step == SETUP:
            flow.after_setup_roll(state, need, faces)
        elif step == RALLY:
            state["dice"] = [[[sides, face] for sides, face in zip(need[s], faces[s], strict=True)]
                             for s in range(SEATS)]
            state["step"] = PEEK
        elif step == ROLLOFF:
            battle.after_rolloff(state, need, faces)
        elif step == CANNON:
            battle.cannon_rolled(state, faces[state["effect"]["seat"]])
        elif step == RELOAD_ROLL:
            battle.reload_rolled(state, faces[state["effect"]["seat"]])
        else:  # STORM, TIE: every die of every pirate was rolled again
            battle.rerolled(state, faces)

    # -- roles, island, loot ------------------------------------------------------------
    def move_assign(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Captain hands a role card to a pirate; the last one is the Scout's."""
        state["roles"][action["seat"]] = action["role"]
        if sum(1 for r in state["roles"] if r in ASSIGNED) < len(ASSIGNED):
            return
        scout = state["roles"].index(None)
        state["roles"][scout] = SCOUT
        log(state, "roles", first_mate=seat_of(state, FIRST_MATE),
            quarter_master=seat_of(state, QUARTER_MASTER), scout=scout)
        flow.start_island(state, ctx)

    def move_look(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout looks at a face-down island (he alone sees it)."""
        flow.look(state, action["space"])
        ctx.reveal()
        if len(state["looked"]) == 2:
            state["step"] = CHOOSE

    def move_choose(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout turns the chosen island face up."""
        flow.reveal_island(state, action["space"])
        ctx.reveal()

    def move_count(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Physical islands (M5): the Scout enters the chosen island's cubes of a kind
        (each count is a fact read off the real card)."""
        state["entry"].append(action["n"])
        if len(state["entry"]) < len(KINDS):
            return
        loot = list(state["entry"])
        state["island"] = {"name": f"Island {state['islands_done'] + 1}", "loot": loot}
        flow.place_loot(state, loot)

    def move_take(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Scout takes one cube from the island onto his ship."""
        flow.scout_takes(state, kind_index(action["kind"]))

    def move_give(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Captain puts the next cube in a pirate's share."""
        k = kind_index(action["kind"])
        state["on_island"][k] -= 1
        state["shares"][action["seat"]][k] += 1
        if sum(state["on_island"]) == 0:
            flow.divided(state)

    def move_give_rest(self, state: State, actor: Actor, action: Action,
                       ctx: Context) -> None:
        """The Captain puts every cube left in one pirate's share."""
        share = state["shares"][action["seat"]]
        for k in range(len(KINDS)):
            share[k] += state["on_island"][k]
        state["on_island"] = [0] * len(KINDS)
        flow.divided(state)

    # -- the First Mate, the decisions (M6) ----------------------------------------------
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
        log(state, "decide", seat=actor, choice=action["choice"])
        state["vote_turn"] += 1
        if state["vote_turn"] == len(VOTE_ORDER):
            state["step"] = FINAL

    def move_ballot(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """M6 secret ballot: a decision nobody sees until the reveal."""
        votes.cast(state["vote"], actor, action["choice"], ctx)
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
            battle.start_battle(state)
        else:
            flow.no_battle(state)

    # -- the battle window (M4) -----------------------------------------------------------
    def move_play(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Play a mystery card: a battle card in the window, another in one's buying."""
        card = action["card"]
        state["hands"][actor].remove(card)
        state["played"][actor].append(card)
        if effect_of(state, card) == "cannon":
            state["cannons"][actor] += 1  # Fierceness in Battle counts Cannons played
        ctx.reveal()
        log(state, "play", seat=actor, card=card)
        if state["step"] == WINDOW:
            battle.play_battle_card(state, actor, card)
        else:
            flow.play_buying_card(state, actor, card)

    def move_pass(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        battle.pass_turn(state, actor)
        battle.settle_window(state)

    def move_reroll(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Quick Reload: the chosen dice are rolled again."""
        battle.start_reload(state, actor, action["dice"])

    def move_target(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """The pirate a Drunken Madness or a Press-gang hits."""
        if state["step"] == MADNESS:
            battle.madness(state, action["seat"])
        else:
            flow.press_gang(state, actor, action["seat"])

    # -- buying ---------------------------------------------------------------------------
    def move_buy(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Buy one Rum, one crew die or one mystery card at the printed price."""
        item = action["item"]
        flow.pay_price(state, actor, PRICES[item])
        if item == "rum":
            state["rum_supply"] -= 1
            state["rum"][actor] += 1
        elif item == "crew":
            state["green_supply"] -= 1
            state["green"][actor] += 1
        else:
            state["hands"][actor].append(state["deck"].pop(0))
            ctx.reveal()  # the buyer now knows the card
        log(state, "buy", seat=actor, item=item)

    def move_trade(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Three cubes of the pirate's to the bank for one of his choice from it."""
        flow.trade(state, actor, action["pay"], action["get"])

    def move_loot(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Buried Treasure: one cube of the pirate's choice from the bank."""
        flow.treasure_cube(state, actor, kind_index(action["kind"]))

    def move_buying_over(self, state: State, actor: Actor, action: Action,
                         ctx: Context) -> None:
        """The timekeeper: the buyer's time is up; they are done, as with Done."""
        flow.next_buyer(state, state["buy_order"].index(state["buyer"]) + 1)

    def move_done(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The buyer is done; the next pirate clockwise buys, or the round ends."""
        flow.next_buyer(state, state["buy_order"].index(actor) + 1)

    # -- the end --------------------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        """Most Infamy wins; a tie is a shared victory. Scores are Infamy."""
        final = state["final"]
        if final is None:
            return None
        winners = list(final["winners"])
        reason = "Most Infamy" if len(winners) == 1 else "Shared victory: tied on Infamy"
        return Result(winners, list(final["total"]), reason, clone(final))

    def bot_score(self, state: State, seat: int) -> float:
        """A bot's guess at ``seat``'s chance: its share of the Infamy the pirates would
        end with now (each counting one more, so the first round is even)."""
        totals = [t + 1 for t in infamy(state)["total"]]
        return totals[seat] / sum(totals)

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


GAME = MitMutiny()
