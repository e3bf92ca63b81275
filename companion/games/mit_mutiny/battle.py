"""The battle of Mutiny (phase 6): the reveal, the battle-card window (M4), the cards'
effects, ties, the roll-off for Captain, and the cup draws of the loot (M7).

Every public fact of a battle goes into ``state["battle"]["events"]`` as it happens
(the revealed dice, each card, pass and re-roll with its faces, the sums, the winner,
each cup draw), so the whole battle can be drawn again from the public view."""
from __future__ import annotations

from companion.games import kit
from companion.games.mit_mutiny.cards import KINDS, card_def, effect_of
from companion.games.mit_mutiny.data import (
    CANNON,
    CAPTAIN,
    CREW_DIE,
    CUP,
    DEFEND,
    MADNESS,
    MUTINY,
    RELOAD,
    RELOAD_ROLL,
    ROLLOFF,
    SEATS,
    STORM,
    TIE,
    WINDOW,
    State,
    all_dice,
    clockwise,
    dice_total,
    log,
    record,
    side_sums,
)
from companion.games.mit_mutiny.flow import add, conquer, only, start_buying, start_roll


def start_battle(state: State) -> None:
    """Some pirate mutinies: every die is revealed and the window opens."""
    state["revealed"] = True
    state["battle"] = {"fought": True, "round": state["round"], "ties": 0,
                       "sums": None, "winner": None, "new_captain": None, "events": []}
    sums = side_sums(state)
    record(state, "reveal", decisions=list(state["decisions"]), dice=all_dice(state),
           sums=dict(sums))
    log(state, "reveal", mutiny=sums[MUTINY], defend=sums[DEFEND])
    open_window(state)


# -- the window (M4) ----------------------------------------------------------------------

def open_window(state: State) -> None:
    """M4: the battle-card window opens with the Captain and goes clockwise."""
    state["window"] = {"turn": state["captain"], "passes": 0, "turns": 0}
    state["step"] = WINDOW
    settle_window(state)


def window_closed(state: State) -> bool:
    window = state["window"]
    if state["options"]["card_window"] == "one_round":
        return window["turns"] >= SEATS
    return window["passes"] >= SEATS


def pass_turn(state: State, seat: int) -> None:
    """``seat`` passes (by choice, or with no card in hand)."""
    window = state["window"]
    window["passes"] += 1
    window["turns"] += 1
    window["turn"] = kit.next_seat(SEATS, seat)
    record(state, "pass", seat=seat)


def settle_window(state: State) -> None:
    """Pirates with no card in hand (a public count) pass by themselves; close the
    window once it is over."""
    while not window_closed(state):
        seat = state["window"]["turn"]
        if state["hands"][seat]:
            return
        pass_turn(state, seat)
    close_window(state)


def close_window(state: State) -> None:
    """Count the sides: a tie re-rolls every die, else a side wins."""
    sums = side_sums(state)
    battle = state["battle"]
    battle["sums"] = sums
    state["window"] = None
    record(state, "sums", sums=dict(sums))
    if sums[MUTINY] == sums[DEFEND]:
        battle["ties"] += 1
        log(state, "tie", total=sums[MUTINY])
        start_roll(state, TIE, [[sides for sides, _ in state["dice"][s]]
                                for s in range(SEATS)])
        return
    if sums[DEFEND] > sums[MUTINY]:
        captain_wins(state)
        return
    mutineers = [s for s in range(SEATS) if state["decisions"][s] == MUTINY]
    best = max(dice_total(state["dice"][s]) for s in mutineers)
    top = [s for s in mutineers if dice_total(state["dice"][s]) == best]
    if len(top) == 1:
        mutineers_win(state, top[0])
    else:
        start_roll(state, ROLLOFF, [[CREW_DIE] if s in top else [] for s in range(SEATS)])


def rerolled(state: State, faces: list[list[int]]) -> None:
    """Every die of every pirate was rolled again (a tie, or The Perfect Storm)."""
    for seat in range(SEATS):
        for die, face in zip(state["dice"][seat], faces[seat], strict=True):
            die[1] = face
    record(state, "rerolled", dice=all_dice(state))
    if state["step"] == STORM:
        end_card(state)
    else:
        open_window(state)


def after_rolloff(state: State, need: list[list[int]], faces: list[list[int]]) -> None:
    """Tied top mutineers rolled a d6 each: the highest is Captain, a tie rolls again."""
    rolled = [s for s in range(SEATS) if need[s]]
    roll = [faces[s][0] if need[s] else None for s in range(SEATS)]
    state["rolloffs"].append(roll)
    record(state, "rolloff", faces=list(roll))
    best = max(faces[s][0] for s in rolled)
    top = [s for s in rolled if faces[s][0] == best]
    if len(top) == 1:
        mutineers_win(state, top[0])
    else:
        start_roll(state, ROLLOFF, [[CREW_DIE] if s in top else [] for s in range(SEATS)])


def mutineers_win(state: State, new: int) -> None:
    """The new Captain takes the Captain card and the island; all the loot goes into
    the cup for the mutineers, the new Captain drawing first."""
    old = state["captain"]
    state["roles"][old] = None
    state["roles"][new] = CAPTAIN
    state["captain"] = new
    state["battle"].update(winner=MUTINY, new_captain=new)
    conquer(state, new)
    record(state, "won", side=MUTINY, seat=new, old=old)
    log(state, "mutiny_won", seat=new, old=old)
    cubes = [sum(share[k] for share in state["shares"]) for k in range(len(KINDS))]
    mutineers = [s for s in range(SEATS) if state["decisions"][s] == MUTINY]
    start_cup(state, cubes, clockwise(new, mutineers))


def captain_wins(state: State) -> None:
    """Defenders keep their shares; the mutineers' shares go into the cup for the
    defenders, the Captain drawing first."""
    captain = state["captain"]
    state["battle"]["winner"] = DEFEND
    conquer(state, captain)
    record(state, "won", side=DEFEND, seat=captain, old=captain)
    log(state, "captain_won", seat=captain)
    cubes = [0] * len(KINDS)
    defenders = []
    for seat in range(SEATS):
        if state["decisions"][seat] == DEFEND:
            defenders.append(seat)
            add(state["loot"][seat], state["shares"][seat])
            record(state, "kept", seat=seat, loot=list(state["shares"][seat]))
        else:
            add(cubes, state["shares"][seat])
    start_cup(state, cubes, clockwise(captain, defenders))


# -- the cup (M7) --------------------------------------------------------------------------

def start_cup(state: State, cubes: list[int], takers: list[int]) -> None:
    """M7: the cubes go into a cup; the takers draw one each in turn until it is empty."""
    state["shares"] = [[0] * len(KINDS) for _ in range(SEATS)]
    state["cup"] = {"cubes": cubes, "takers": takers, "next": 0, "start": list(cubes),
                    "got": [[0] * len(KINDS) for _ in range(SEATS)], "draws": [],
                    "done": False}
    state["step"] = CUP
    if state["options"]["cup_draws"] == "table" or sum(cubes) == 0:
        table_cup(state)


def cup_taker(state: State) -> int:
    cup = state["cup"]
    return cup["takers"][cup["next"] % len(cup["takers"])]


def table_cup(state: State) -> None:
    """Real cup draws: once a single kind is left in the cup, every draw still to come
    is known, so the companion makes them; an empty cup is done."""
    cubes = state["cup"]["cubes"]
    kinds = [k for k, n in enumerate(cubes) if n]
    if len(kinds) == 1:
        while cubes[kinds[0]]:
            draw(state, kinds[0])
    if sum(cubes) == 0:
        finish_cup(state)


def draw(state: State, k: int) -> None:
    cup = state["cup"]
    seat = cup_taker(state)
    cup["cubes"][k] -= 1
    cup["next"] += 1
    cup["got"][seat][k] += 1
    cup["draws"].append([seat, KINDS[k]])
    state["loot"][seat][k] += 1


def finish_cup(state: State) -> None:
    cup = state["cup"]
    cup["done"] = True
    if sum(cup["start"]):
        record(state, "cup", draws=[list(d) for d in cup["draws"]])
        log(state, "cup", got=[list(g) for g in cup["got"]])
    start_buying(state)


# -- battle cards ----------------------------------------------------------------------------

def battle_usable(state: State, card: str) -> bool:
    """Drunken Madness needs a pirate with two dice or more (everyone keeps one)."""
    return effect_of(state, card) != "madness" or bool(madness_targets(state))


def madness_targets(state: State) -> list[int]:
    return [s for s in range(SEATS) if len(state["dice"][s]) >= 2]


def play_battle_card(state: State, seat: int, card: str) -> None:
    effect = effect_of(state, card)
    state["effect"] = {"seat": seat, "card": card}
    record(state, "play", seat=seat, card=card)
    if effect == "cannon":
        count = card_def(state, card)["dice"]
        start_roll(state, CANNON, [[CREW_DIE] * count if s == seat else []
                                   for s in range(SEATS)])
    elif effect == "reload":
        state["step"] = RELOAD
    elif effect == "madness":
        state["step"] = MADNESS
        target = only(madness_targets(state))
        if target is not None:  # a single pirate with two dice or more
            madness(state, target)
    else:  # storm
        start_roll(state, STORM, [[sides for sides, _ in state["dice"][s]]
                                  for s in range(SEATS)])


def cannon_rolled(state: State, faces: list[int]) -> None:
    seat = state["effect"]["seat"]
    state["dice"][seat] += [[CREW_DIE, face] for face in faces]
    record(state, "cannon", seat=seat, faces=list(faces))
    log(state, "cannon", seat=seat, faces=list(faces))
    end_card(state)


def start_reload(state: State, seat: int, wanted: list[list[int]]) -> None:
    """Quick Reload: the dice (by kind and face) the player re-rolls."""
    marks: list[int] = []
    for die in wanted:
        marks.append(next(i for i, mine in enumerate(state["dice"][seat])
                          if mine == die and i not in marks))
    state["effect"]["marks"] = marks
    start_roll(state, RELOAD_ROLL, [[die[0] for die in wanted] if s == seat else []
                                    for s in range(SEATS)])


def reload_rolled(state: State, faces: list[int]) -> None:
    seat = state["effect"]["seat"]
    dice = state["dice"][seat]
    before = [list(dice[i]) for i in state["effect"]["marks"]]
    for index, face in zip(state["effect"]["marks"], faces, strict=True):
        dice[index][1] = face
    record(state, "reload", seat=seat, before=before,
           after=[[die[0], face] for die, face in zip(before, faces, strict=True)])
    end_card(state)


def madness(state: State, target: int) -> None:
    """The target removes their highest die (a d6 before the d8 on equal faces), as
    many as the card says, always keeping one."""
    dice = state["dice"][target]
    count = min(card_def(state, state["effect"]["card"])["dice"], len(dice) - 1)
    removed = []
    for _ in range(count):
        index = max(range(len(dice)), key=lambda i: (dice[i][1], -dice[i][0]))
        removed.append(dice.pop(index))
    record(state, "madness", seat=state["effect"]["seat"], target=target, removed=removed)
    log(state, "madness", seat=target, faces=[face for _, face in removed])
    end_card(state)


def end_card(state: State) -> None:
    """A battle card is resolved: the window goes on with the next pirate."""
    window = state["window"]
    window["passes"] = 0
    window["turns"] += 1
    window["turn"] = kit.next_seat(SEATS, state["effect"]["seat"])
    state["effect"] = None
    state["step"] = WINDOW
    settle_window(state)
