"""Moon Yeti's rules: the flow of a match (its steps, who acts, each one's whole
decisions), every move and the result.

Rulings: see docs/games/moon-yeti.md.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from companion.engine import (
    CHANCE,
    Action,
    Actor,
    Chance,
    Context,
    Game,
    Parts,
    Result,
    State,
    Step,
    Timed,
    always,
    clone,
    votes,
)
from companion.games.moon_yeti import board, howto, show, views
from companion.games.moon_yeti.data import (
    BOATSWAIN,
    BOSUN,
    CARD_SIZE,
    CHAPLAIN,
    CLOCK,
    COURSE,
    DEAL,
    DECLARE,
    DISCUSS1,
    DISCUSS2,
    FORGIVE,
    HELMSMAN,
    JUROR,
    MINUTES,
    NAVIGATOR,
    OVER,
    RECAST,
    RECKON,
    ROLES,
    SPEC,
    SUITS,
    VOTE1,
    VOTE2,
    VOTE_KEYS,
    WAIT,
    ace_mutineer,
    card_mutineer,
    chaplain_allied,
    guilt_targets,
    holders,
    innocence_targets,
    is_real,
    seat_of,
    votes_here,
)

REASONS = {
    "innocent": "The Mutineer was declared innocent",
    "guilty": "The Mutineer was found guilty",
    "tie": "The guilt vote tied: nobody is guilty",
    "wrong": "An innocent sailor was found guilty",
}

Moves = Iterable[dict[str, Any]]


# -- who acts ------------------------------------------------------------------------------

def _chance(state: State) -> list[Actor]:
    return [CHANCE]


def _everyone(state: State) -> list[Actor]:
    return list(range(state["seats"]))


def _not_ready(state: State) -> list[Actor]:
    return [s for s in range(state["seats"]) if not state["ready"][s]]


#: The host's discussion timer (option ``discussion_seconds``): when it runs out the
#: discussion is over, as if everyone still talking pressed Ready; no ballot is cast for
#: anyone (docs/games/moon-yeti.md, "Timers").
_DISCUSSION_TIMER = Timed("discussion_seconds", ends="discussion_over")


def _voters_owing(state: State) -> list[int]:
    return votes.waiting(state[VOTE_KEYS[state["step"]]])


def _role(role: str) -> Callable[[State], list[Actor]]:
    """Who acts in a step that is one role's: that role's holder."""
    return lambda state: [seat_of(state, role)]


def _recaster(state: State) -> list[Actor]:
    return [state["course"]["seat"]]


# -- chance ------------------------------------------------------------------------------

def _draw_deal(state: State, chance: Chance) -> Action:
    """Roles to seats, then a card of 15 minutes (clock) or an ace (aces) per role."""
    seats = state["seats"]
    if seats > len(ROLES) and state["options"]["role_seats"] == "random":
        role_seats = sorted(chance.sample(range(seats), len(ROLES)))
    else:
        role_seats = list(range(len(ROLES)))
    roles = [JUROR] * seats
    for seat, role in zip(role_seats, chance.shuffle(ROLES), strict=True):
        roles[seat] = role
    action: Action = {"type": "deal", "roles": roles}
    if state["options"]["mode"] == "clock":
        minutes = chance.shuffle(range(MINUTES))
        action["cards"] = [sorted(minutes[k * CARD_SIZE:(k + 1) * CARD_SIZE])
                           for k in range(len(ROLES))]
    else:
        action["aces"] = chance.shuffle(SUITS)
    return action


def _read_clock(state: State, chance: Chance) -> Action:
    # The only place the clock is read: the journal keeps the minute.
    return {"type": "time", "minute": chance.now().minute}


# -- what each actor may do (whole decisions) ------------------------------------------

def _declarations(state: State, seat: int) -> Moves:
    """A press at the moment (clock), or the whole typed minute (typed)."""
    if state["options"]["time_source"] == "clock":
        return [{}]
    return [{"minute": m} for m in range(MINUTES)]


def _searches(state: State, seat: int) -> Moves:
    if state["roles"][seat] != BOATSWAIN or state["search"] is not None:
        return []
    return [{"target": t} for t in innocence_targets(state, seat)]


def _confessions(state: State, seat: int) -> Moves:
    if state["roles"][seat] != CHAPLAIN or state["confession"] is not None:
        return []
    return [{"target": t} for t in innocence_targets(state, seat)]


def _condemnations(state: State, seat: int) -> Moves:
    if state["roles"][seat] != HELMSMAN or state["condemned"] is not None:
        return []
    return [{"target": t} for t in innocence_targets(state, seat)]


def _waiting(vote: votes.Vote, seat: int) -> bool:
    """The seat's first ballot waits (Bosun Knows Best): so must its second (Y6)."""
    return vote["cast"][seat][:1] == [WAIT]


def _ballots(state: State, seat: int) -> Moves:
    vote = state[VOTE_KEYS[state["step"]]]
    if _waiting(vote, seat):
        return []
    return [{"target": c} for c in votes.choices_for(vote, seat) if is_real(c)]


def _no_second_ballot(state: State, seat: int) -> Moves:
    """Trust or Condemn left unused: offered for a second ballot only."""
    vote = state[VOTE_KEYS[state["step"]]]
    cast = vote["cast"][seat]
    return [{}] if cast and not _waiting(vote, seat) else []


def _bosun_waits(state: State, seat: int) -> Moves:
    """Bosun Knows Best, chosen as a ballot: every ballot of the Boatswain waits, one
    press each, so the public count of ballots moves as if he voted (Y6)."""
    vote = state["vote2"]
    if WAIT not in votes.choices_for(vote, seat):
        return []
    return [{}] if not vote["cast"][seat] or _waiting(vote, seat) else []


def _late_ballots(state: State, seat: int) -> Moves:
    return [{"target": t} for t in guilt_targets(state, seat)]


def _late_no_second(state: State, seat: int) -> Moves:
    return [{}] if state["ballots2"][seat] else []


def _reckonings(state: State, seat: int) -> Moves:
    """Dead Reckoning (Y3): a cast vote and its new target, in one decision."""
    return [{"seat": c, "index": i, "target": t} for c, i in _reckon_ballots(state)
            for t in _reckon_targets(state, c, state["ballots1"][c][i])]


def _forgivable(state: State, seat: int) -> Moves:
    return [{"seat": c, "index": i} for c, i in _forgive_ballots(state)]


def _courses(state: State, seat: int) -> Moves:
    """Change Course: the player (Y3 'player_recasts'), or the player, his vote and its
    new target in one decision ('navigator_moves')."""
    if state["options"]["change_course"] == "player_recasts":
        return [{"seat": p} for p in _course_players(state)]
    return [{"seat": p, "index": i, "target": t} for p in _course_players(state)
            for i, t in _recasts(state, p)]


def _recastings(state: State, seat: int) -> Moves:
    return [{"index": i, "target": t} for i, t in _recasts(state, seat)]


# -- who the vote-changing actions may touch (Y3, Y5) --------------------------------

def _reckon_targets(state: State, caster: int, old: int) -> list[int]:
    """Dead Reckoning: another non-Navigator target, never the caster."""
    nav = seat_of(state, NAVIGATOR)
    return [t for t in holders(state) if t not in (nav, caster, old)]


def _reckon_ballots(state: State) -> list[tuple[int, int]]:
    return [(c, i) for c, ballots in enumerate(state["ballots1"])
            for i, b in enumerate(ballots) if is_real(b) and _reckon_targets(state, c, b)]


def _forgive_ballots(state: State) -> list[tuple[int, int]]:
    """Forgiveness: a vote cast by another for another; never if the Chaplain is the
    round-1 innocent (no round-2 vote may target him)."""
    chaplain = seat_of(state, CHAPLAIN)
    if chaplain == state["innocent"]:
        return []
    return [(c, i) for c, ballots in enumerate(state["ballots2"]) if c != chaplain
            for i, b in enumerate(ballots) if is_real(b) and b != chaplain]


def _course_players(state: State) -> list[int]:
    """Change Course: a player (not the Navigator) who cast no vote for the Navigator -
    on the ballots as first cast (Y5) or as Forgiveness left them - and has a vote that
    can be recast."""
    nav = seat_of(state, NAVIGATOR)
    judged = state["ballots2_cast"] if state["options"]["course_as_cast"] else state["ballots2"]
    return [p for p in range(state["seats"])
            if p != nav and nav not in judged[p] and _recasts(state, p)]


def _recasts(state: State, player: int) -> list[tuple[int, int]]:
    """(ballot index, new target) pairs: another legal round-2 target."""
    return [(i, t) for i, old in enumerate(state["ballots2"][player]) if is_real(old)
            for t in guilt_targets(state, player) if t != old]


# -- the game ----------------------------------------------------------------------------

class MoonYeti(Game):
    """The rules of Moon Yeti over plain JSON state."""

    spec = SPEC
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        DEAL: Step(who=_chance, chance={"deal": _draw_deal}),
        DECLARE: Step(who=_everyone, moves={"declare": _declarations}),
        CLOCK: Step(who=_chance, chance={"time": _read_clock}),
        DISCUSS1: Step(who=_not_ready, moves={"search": _searches, "confess": _confessions,
                                              "ready": always}, timed=_DISCUSSION_TIMER),
        VOTE1: Step(who=_voters_owing, moves={"vote": _ballots, "one_vote": _no_second_ballot}),
        RECKON: Step(who=_role(NAVIGATOR), moves={"reckon": _reckonings, "decline": always}),
        DISCUSS2: Step(who=_not_ready, moves={"condemn": _condemnations, "ready": always},
                       timed=_DISCUSSION_TIMER),
        VOTE2: Step(who=_voters_owing, moves={"vote": _ballots, "one_vote": _no_second_ballot,
                                              "bosun_wait": _bosun_waits}),
        BOSUN: Step(who=_role(BOATSWAIN), moves={"vote": _late_ballots,
                                                 "one_vote": _late_no_second}),
        FORGIVE: Step(who=_role(CHAPLAIN), moves={"forgive": _forgivable, "decline": always}),
        COURSE: Step(who=_role(NAVIGATOR), moves={"course": _courses, "decline": always}),
        RECAST: Step(who=_recaster, moves={"recast": _recastings}),
    }

    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Nothing dealt yet: the deal is the first chance action."""
        return {
            "seats": seats, "options": dict(options), "step": DEAL,
            "roles": [None] * seats, "cards": None, "aces": None,
            "minute": None, "mutineer": None,
            "ready": [False] * seats, "search": None, "confession": None,
            "vote1": None, "ballots1": None, "reckoning": None, "innocent": None,
            "condemned": None, "vote2": None, "ballots2": None, "ballots2_cast": None,
            "bosun_waited": False, "forgiveness": None, "course": None,
            "guilty": None, "end": None, "timed_out": [],
        }

    # -- the deal and the time -----------------------------------------------------------
    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["roles"] = list(action["roles"])
        if state["options"]["mode"] == "clock":
            state["cards"] = [list(card) for card in action["cards"]]
            state["step"] = DECLARE
        else:
            state["aces"] = list(action["aces"])
            state["mutineer"] = ace_mutineer(state)
            state["step"] = DISCUSS1

    def move_declare(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """A typed minute declares the time; a press has chance read the clock next."""
        if "minute" in action:
            self._declare(state, action["minute"], ctx)
        else:
            state["step"] = CLOCK

    def move_time(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._declare(state, action["minute"], ctx)

    @staticmethod
    def _declare(state: State, minute: int, ctx: Context) -> None:
        """The time is declared: its minute names the Mutineer, who learns it."""
        state["minute"] = minute
        state["mutineer"] = card_mutineer(state)
        state["step"] = DISCUSS1
        ctx.reveal()

    # -- discussions -------------------------------------------------------------------
    # Every discussion move is a reveal: host undo then never reaches across one, so
    # whether the undo button is offered cannot betray a secret Search or Confession.
    def move_discussion_over(self, state: State, actor: Actor, action: Action,
                             ctx: Context) -> None:
        """The timekeeper: the discussion's time is up; everyone not ready yet is, and
        the vote opens (an unused search or confession is given up, as with Ready)."""
        state["timed_out"].append(state["step"])  # the table's story says so
        for seat in _not_ready(state):
            self.move_ready(state, seat, {"type": "ready"}, ctx)

    def move_ready(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["ready"][actor] = True
        ctx.reveal()
        if all(state["ready"]):
            if state["step"] == DISCUSS1:
                self._open_innocence_vote(state)
            else:
                self._open_guilt_vote(state)

    def move_search(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Cabin Search: the Boatswain sees the target's card (his view only)."""
        state["search"] = action["target"]
        ctx.reveal()

    def move_confess(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Confession (Y2): the Chaplain learns the truth, the target that it was taken."""
        state["confession"] = action["target"]
        ctx.reveal()

    def move_condemn(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Condemn: the target casts two ballots in the guilt vote."""
        state["condemned"] = action["target"]
        ctx.reveal()

    # -- ballots -----------------------------------------------------------------------
    def move_vote(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        self._ballot(state, actor, action["target"], ctx)

    def move_one_vote(self, state: State, actor: int, action: Action, ctx: Context) -> None:
        """Trust or an extra vote left unused: the second ballot counts for nobody."""
        self._ballot(state, actor, None, ctx)

    def move_bosun_wait(self, state: State, actor: int, action: Action,
                        ctx: Context) -> None:
        """Bosun Knows Best: this ballot of the Boatswain waits for the reveal."""
        self._ballot(state, actor, WAIT, ctx)

    def _ballot(self, state: State, actor: int, choice: Any, ctx: Context) -> None:
        if state["step"] == BOSUN:
            state["ballots2"][actor].append(choice)
            if len(state["ballots2"][actor]) == state["vote2"]["need"][actor]:
                self._after_bosun(state, ctx)
            return
        vote = state[VOTE_KEYS[state["step"]]]
        votes.cast(vote, actor, choice, ctx)
        if not votes.is_complete(vote):
            return
        if state["step"] == VOTE1:
            self._close_innocence_vote(state, ctx)
        else:
            self._close_guilt_vote(state, ctx)

    @staticmethod
    def _open_vote(state: State, name: str, targets: Callable[[State, int], list[int]],
                   extra: Callable[[int], tuple[list[Any], bool]]) -> votes.Vote:
        """A vote where every voter picks among ``targets(seat)``; ``extra(seat)`` adds
        the seat's other choices and says whether it casts a second ballot."""
        choices: list[list[Any] | None] = []
        need: list[int] = []
        for seat in range(state["seats"]):
            if not votes_here(state, seat):
                choices.append(None)
                need.append(0)
                continue
            more, second = extra(seat)
            choices.append(list(targets(state, seat)) + more)
            need.append(2 if second else 1)
        return votes.open_vote(name, choices, need)

    # -- round 1: the innocence vote -------------------------------------------------
    def _open_innocence_vote(self, state: State) -> None:
        """The Helmsman has two ballots (Trust); the second may be "No second vote"."""
        def trust(seat: int) -> tuple[list[Any], bool]:
            helmsman = state["roles"][seat] == HELMSMAN
            return ([None] if helmsman else []), helmsman
        state["vote1"] = self._open_vote(state, "innocence", innocence_targets, trust)
        state["step"] = VOTE1

    def _close_innocence_vote(self, state: State, ctx: Context) -> None:
        state["ballots1"] = votes.reveal(state["vote1"], ctx)
        if _reckon_ballots(state):
            state["step"] = RECKON
        else:
            self._resolve_innocence(state, ctx)

    def move_reckon(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Dead Reckoning: one cast vote moves to another target."""
        caster, index = action["seat"], action["index"]
        old = state["ballots1"][caster][index]
        state["ballots1"][caster][index] = action["target"]
        state["reckoning"] = {"seat": caster, "index": index, "from": old,
                              "to": action["target"]}
        self._resolve_innocence(state, ctx)

    def _resolve_innocence(self, state: State, ctx: Context) -> None:
        """Most votes is innocent (a tie: nobody); the Mutineer declared innocent wins."""
        ctx.reveal()
        state["innocent"] = votes.top_choice(state["ballots1"])
        if state["innocent"] is not None and state["innocent"] == state["mutineer"]:
            self._finish(state, True, "innocent")
            return
        state["ready"] = [False] * state["seats"]
        state["step"] = DISCUSS2

    # -- round 2: the guilt vote ------------------------------------------------------
    def _open_guilt_vote(self, state: State) -> None:
        """The condemned casts two ballots (the second may be "No second vote"); the
        Boatswain may wait (Bosun Knows Best) as his ballot."""
        def condemn_and_wait(seat: int) -> tuple[list[Any], bool]:
            condemned = seat == state["condemned"]
            more: list[Any] = [None] if condemned else []
            if state["roles"][seat] == BOATSWAIN:
                more.append(WAIT)
            return more, condemned
        state["vote2"] = self._open_vote(state, "guilt", guilt_targets, condemn_and_wait)
        state["step"] = VOTE2

    def _close_guilt_vote(self, state: State, ctx: Context) -> None:
        ballots = votes.reveal(state["vote2"], ctx)
        boatswain = seat_of(state, BOATSWAIN)
        state["ballots2"] = ballots
        if WAIT in ballots[boatswain]:
            state["bosun_waited"] = True
            ballots[boatswain] = []
            state["step"] = BOSUN
            return
        self._after_bosun(state, ctx)

    def _after_bosun(self, state: State, ctx: Context) -> None:
        """Every ballot is cast: keep them as first cast (Y5), then Forgiveness."""
        state["ballots2_cast"] = clone(state["ballots2"])
        if _forgive_ballots(state):
            state["step"] = FORGIVE
        else:
            self._after_forgive(state, ctx)

    def _after_forgive(self, state: State, ctx: Context) -> None:
        if _course_players(state):
            state["step"] = COURSE
        else:
            self._resolve_guilt(state, ctx)

    def move_forgive(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Forgiveness: one vote for another player now counts for the Chaplain."""
        caster, index = action["seat"], action["index"]
        old = state["ballots2"][caster][index]
        state["ballots2"][caster][index] = actor
        state["forgiveness"] = {"seat": caster, "index": index, "from": old, "to": actor}
        self._after_forgive(state, ctx)

    def move_course(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Change Course: the chosen player must recast a vote (or the Navigator moves
        it at once, with 'navigator_moves')."""
        state["course"] = {"seat": action["seat"]}
        if "target" in action:
            self._recast(state, action["index"], action["target"], ctx)
        else:
            state["step"] = RECAST

    def move_recast(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._recast(state, action["index"], action["target"], ctx)

    def _recast(self, state: State, index: int, target: int, ctx: Context) -> None:
        course = state["course"]
        old = state["ballots2"][course["seat"]][index]
        state["ballots2"][course["seat"]][index] = target
        course.update({"index": index, "from": old, "to": target})
        self._resolve_guilt(state, ctx)

    def move_decline(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """The Navigator or Chaplain lets his action pass."""
        step = state["step"]
        if step == RECKON:
            state["reckoning"] = {"declined": True}
            self._resolve_innocence(state, ctx)
        elif step == FORGIVE:
            state["forgiveness"] = {"declined": True}
            self._after_forgive(state, ctx)
        else:
            state["course"] = {"declined": True}
            self._resolve_guilt(state, ctx)

    def _resolve_guilt(self, state: State, ctx: Context) -> None:
        """Most votes is guilty; a tie frees the Mutineer."""
        guilty = votes.top_choice(state["ballots2"])
        state["guilty"] = guilty
        if guilty is None:
            self._finish(state, True, "tie")
        elif guilty == state["mutineer"]:
            self._finish(state, False, "guilty")
        else:
            self._finish(state, True, "wrong")
        ctx.reveal()

    @staticmethod
    def _finish(state: State, mutineer_wins: bool, reason: str) -> None:
        """The Mutineer's side: him, and the Chaplain if he took his confession."""
        side = {state["mutineer"]}
        if chaplain_allied(state):
            side.add(seat_of(state, CHAPLAIN))
        if mutineer_wins:
            winners = sorted(side)
        else:
            winners = [s for s in range(state["seats"]) if s not in side]
        state["end"] = {"winners": winners, "reason": reason,
                        "mutineer_wins": mutineer_wins}
        state["step"] = OVER

    def result(self, state: State) -> Result | None:
        end = state["end"]
        if end is None:
            return None
        scores = [1 if s in end["winners"] else 0 for s in range(state["seats"])]
        details = {"mutineer": state["mutineer"], "innocent": state["innocent"],
                   "guilty": state["guilty"], "chaplain_allied": chaplain_allied(state),
                   "mutineer_wins": end["mutineer_wins"]}
        return Result(list(end["winners"]), scores, REASONS[end["reason"]], details)

    def bot_score(self, state: State, seat: int) -> float:
        """A bot's guess where a playout is cut before the verdict: once the innocent
        is named, the Mutineer's side stands as one suspect among those left (his
        chance to escape grows with them); before it, the crew and the Mutineer stand
        even."""
        if state["innocent"] is None or state["mutineer"] is None:
            return 0.5
        suspects = max(1, len(holders(state)) - 1)
        escape = 1 - 1 / suspects
        mutineer_side = seat == state["mutineer"] or (
            seat == seat_of(state, CHAPLAIN) and chaplain_allied(state))
        return escape if mutineer_side else 1 - escape

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """Deal and time (3), two discussions (2 x seats + 3), two votes (seats + 1
        each, + 1 for a waiting Boatswain's second press), then at most Dead Reckoning
        (1), the Boatswain's late ballots (2), Forgiveness (1) and Change Course (2)."""
        return 4 * seats + 20


GAME = MoonYeti()
