"""Moon Yeti: find the Mutineer aboard the HMS Moon Yeti (rulebook ``004_6de2de8dd141391e.txt``).

Four players hold the roles Boatswain, Chaplain, Helmsman and Navigator; with 5 to 8
players the others form a jury. One role holder is the secret Mutineer. After a round of
discussion the table votes one player innocent (the Mutineer wins at once if it is him),
then after a second discussion votes one player guilty; each role bends the votes.

What the companion keeps: the role deal (public), each role card's 15 minute-numbers or
each ace (private to its holder), who the Mutineer is, the Boatswain's Cabin Search and
the Chaplain's Confession (private; nobody else's view changes, except that the
confession's target is told), both secret simultaneous votes, every vote change, and the
score.

Rulings (``RULINGS.md``, Y1-Y4) and the options that switch them:

- Y1 ``mode``: ``"clock"`` - the companion splits 00-59 at random into four cards of 15;
  at "declare time" the minute of the clock (read once, inside a chance action, so the
  journal holds it) picks the Mutineer; ``time_source`` ``"typed"`` lets a seat enter
  the minute instead (tens digit, then units digit). ``"aces"`` - the rulebook's
  variant: four aces are dealt at random and the ace of spades is the Mutineer.
- Y2 ``confession``: ``"truthful"`` - the companion answers for the target and tells the
  Chaplain; ``"at_table"`` - the rulebook's way: the companion only asks the target, who
  answers the Chaplain with a silent sign while the table closes its eyes. Either way
  the Chaplain's allegiance follows the truth: he sides with the Mutineer if the target
  is the Mutineer.
- Y3 (vote changes, no option where the rulebook leaves no choice): Dead Reckoning moves
  one cast vote to another non-Navigator target; Forgiveness moves one vote cast by
  someone else for someone else onto the Chaplain; ``change_course``
  ``"player_recasts"`` - the player the Navigator picks (one who cast no vote for the
  Navigator) recasts one of his votes to another legal target; ``"navigator_moves"`` -
  the Navigator picks that new target himself. No vote ever targets its caster, a juror
  or (round 2) the round-1 innocent.
- Y4 ``jury``: with 5+ players the four role holders are drawn at random (or, with
  ``role_seats`` ``"first_four"``, seats 1-4 take the roles so the table chooses who by
  where they sit); the others are jurors with one vote in each vote who can never be
  voted for (off: jurors only join the discussion). Jurors win with the crew.

Details the rulebook leaves open, decided here: discussion ends when every seat has
pressed "Ready to vote" (final, so a discussion always ends); the Boatswain and Chaplain
act before pressing it. The Cabin Search target is not told. The Helmsman's Trust and
the condemned player's extra vote are optional: the second ballot may be "No second
vote". Condemn names another role holder (a juror keeps one vote, Y4). Bosun Knows Best
is chosen as the Boatswain's ballot ("Wait: vote last"), so it stays secret until the
reveal. Change Course picks a player other than the Navigator; a player with two votes
recasts one of them. Discussion moves are reveals for host undo, so the undo button
never betrays that a secret action happened.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import votes
from companion.engine.chance import Chance
from companion.engine.display import Choice, Display
from companion.engine.rules import (
    CHANCE, Action, Actor, Context, Game, Result, State, Viewer,
)
from companion.engine.spec import GameSpec, Option
from companion.errors import ActionRejected

# -- constants ---------------------------------------------------------------------------

GAME_ID = "moon-yeti"
ROLES = ("Boatswain", "Chaplain", "Helmsman", "Navigator")
BOATSWAIN, CHAPLAIN, HELMSMAN, NAVIGATOR = ROLES
JUROR = "Juror"
MINUTES = 60
#: Numbers on each role card (Y1): the 60 minutes split four ways.
CARD_SIZE = MINUTES // len(ROLES)
#: The aces variant: one ace per role holder; spades marks the Mutineer.
SUITS = ("spades", "hearts", "diamonds", "clubs")
MUTINEER_SUIT = "spades"
#: The Boatswain's secret ballot for Bosun Knows Best, until he casts after the reveal.
WAIT = "wait"

#: Steps of a match.
DEAL = "deal"              # chance deals roles and cards (or aces)
DECLARE = "declare"        # a seat declares the time (presses, or types the minute)
CLOCK = "clock"            # chance reads the clock's minute
DISCUSS1 = "discuss1"      # round 1: discussion, Cabin Search, Confession
VOTE1 = "vote1"            # the innocence vote (Helmsman: Trust)
RECKON = "reckon"          # Navigator: Dead Reckoning - pick a vote, or pass
RECKON_TO = "reckon_to"    # ... and its new target
DISCUSS2 = "discuss2"      # round 2: discussion, Helmsman's Condemn
VOTE2 = "vote2"            # the guilt vote
BOSUN = "bosun"            # Boatswain: Bosun Knows Best - votes after the reveal
FORGIVE = "forgive"        # Chaplain: Forgiveness - take a vote, or pass
COURSE = "course"          # Navigator: Change Course - pick a player, or pass
RECAST = "recast"          # ... who recasts a vote
OVER = "over"
DISCUSSIONS = (DISCUSS1, DISCUSS2)
VOTE_KEYS = {VOTE1: "vote1", VOTE2: "vote2"}

#: Action types whose label is a secret (shown on the OLED only while choosing).
SECRET_TYPES = frozenset({"search", "confess", "vote", "one_vote", "bosun_wait"})

#: What the table display says the table is doing, step by step.
SUMMARY_HEADLINES = {
    DEAL: "Dealing the roles", DECLARE: "Declare the time", CLOCK: "Reading the clock",
    DISCUSS1: "Round 1: looking for evidence", VOTE1: "Innocence vote",
    RECKON: "The Navigator may change a vote", RECKON_TO: "The Navigator may change a vote",
    DISCUSS2: "Round 2: the trial", VOTE2: "Guilt vote",
    BOSUN: "The Boatswain votes last", FORGIVE: "The Chaplain may take a vote",
    COURSE: "The Navigator may change the course", RECAST: "A vote is cast again",
    OVER: "The Mutineer is revealed",
}

REASONS = {
    "innocent": "The Mutineer was declared innocent",
    "guilty": "The Mutineer was found guilty",
    "tie": "The guilt vote tied: nobody is guilty",
    "wrong": "An innocent sailor was found guilty",
}

SPEC = GameSpec(
    GAME_ID, "Moon Yeti", 4, 8,
    (
        Option("mode", "clock",
               "Y1: 'clock' - the minute of the declared time on the role cards picks the "
               "Mutineer; 'aces' - a random ace of spades does",
               choices=("clock", "aces")),
        Option("time_source", "clock",
               "clock mode: 'clock' - the companion reads its clock when a seat presses "
               "Declare time; 'typed' - a seat enters the minute read off any clock",
               choices=("clock", "typed")),
        Option("role_seats", "random",
               "5+ players: 'random' - the four role holders are drawn; 'first_four' - "
               "seats 1-4 hold the roles (the table chooses by where people sit)",
               choices=("random", "first_four")),
        Option("confession", "truthful",
               "Y2: 'truthful' - the companion tells the Chaplain the answer; 'at_table' - "
               "the target answers with a silent sign, eyes closed",
               choices=("truthful", "at_table")),
        Option("change_course", "player_recasts",
               "Y3: Change Course - 'player_recasts': the chosen player picks the new "
               "target; 'navigator_moves': the Navigator picks it",
               choices=("player_recasts", "navigator_moves")),
        Option("jury", True,
               "Y4: with 5+ players the players without a role vote once in each vote "
               "(off: they only join the discussion)"),
    ),
    summary="One of four officers is the Mutineer: discuss, use your role, and vote one "
            "sailor innocent, then one guilty.",
)


# -- small helpers over the state --------------------------------------------------------

def _holders(state: State) -> list[int]:
    """The seats holding a role, in seat order."""
    return [s for s, r in enumerate(state["roles"]) if r in ROLES]


def _seat_of(state: State, role: str) -> int:
    return state["roles"].index(role)


def _role_index(state: State, seat: int) -> int:
    return ROLES.index(state["roles"][seat])


def _tally_rows(ballots: list[list[Any]], names: list[str]) -> list[list[Any]]:
    """Votes per player, most first, from revealed ballots."""
    counts: dict[int, int] = {}
    for seat_ballots in ballots:
        for ballot in seat_ballots:
            if _is_real(ballot):
                counts[ballot] = counts.get(ballot, 0) + 1
    order = sorted(counts, key=lambda s: (-counts[s], s))
    return [[names[s], counts[s]] for s in order]


def _is_real(ballot: Any) -> bool:
    """A ballot that counts: a seat, not "No second vote" (None) nor WAIT."""
    return type(ballot) is int


def _votes(state: State, seat: int) -> bool:
    """Whether ``seat`` casts ballots: every role holder, jurors if the jury votes."""
    role = state["roles"][seat]
    return role in ROLES or (role == JUROR and state["options"]["jury"])


def _innocence_targets(state: State, seat: int) -> list[int]:
    """Legal round-1 targets: any role holder but oneself (jurors never, Y4)."""
    return [t for t in _holders(state) if t != seat]


def _guilt_targets(state: State, seat: int) -> list[int]:
    """Legal round-2 targets: as round 1, and never the round-1 innocent."""
    return [t for t in _innocence_targets(state, seat) if t != state["innocent"]]


def _card_mutineer(state: State) -> int:
    """The holder of the card that shows the declared minute (clock mode)."""
    for k, card in enumerate(state["cards"]):
        if state["minute"] in card:
            return _seat_of(state, ROLES[k])
    raise ActionRejected("bad_minute", "no card holds that minute")


def _ace_mutineer(state: State) -> int:
    return _seat_of(state, ROLES[state["aces"].index(MUTINEER_SUIT)])


def _chaplain_allied(state: State) -> bool:
    """The Chaplain took the Mutineer's confession, so shares the Mutineer's fate."""
    return state["confession"] is not None and state["confession"] == state["mutineer"]


# -- the game ----------------------------------------------------------------------------

class MoonYeti(Game):
    """The rules of Moon Yeti over plain JSON state (see the module docstring)."""

    spec = SPEC
    action_types = frozenset({
        "deal", "time", "declare", "tens", "units", "ready", "search", "confess",
        "vote", "one_vote", "bosun_wait", "reckon", "reckon_to", "decline", "condemn",
        "forgive", "course", "recast",
    })

    # -- setup and flow -------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """Nothing dealt yet: the deal is the first chance action."""
        return {
            "seats": seats,
            "options": dict(options),
            "step": DEAL,
            "roles": [None] * seats,
            "cards": None,
            "aces": None,
            "minute": None,
            "typist": None,
            "tens": None,
            "mutineer": None,
            "ready": [False] * seats,
            "search": None,
            "confession": None,
            "vote1": None,
            "ballots1": None,
            "reckon_pick": None,
            "reckoning": None,
            "innocent": None,
            "condemned": None,
            "vote2": None,
            "ballots2": None,
            "bosun_waited": False,
            "forgiveness": None,
            "course": None,
            "guilty": None,
            "end": None,
        }

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """The deal at the start; the clock's minute when a seat declared the time."""
        if state["step"] == DEAL:
            return self._draw_deal(state, chance)
        if state["step"] == CLOCK:
            # The only place the clock is read: the journal keeps the minute.
            return {"type": "time", "minute": chance.now().minute}
        return None

    @staticmethod
    def _draw_deal(state: State, chance: Chance) -> Action:
        seats = state["seats"]
        if seats > len(ROLES) and state["options"]["role_seats"] == "random":
            holders = sorted(chance.sample(range(seats), len(ROLES)))
        else:
            holders = list(range(len(ROLES)))
        roles = [JUROR] * seats
        for seat, role in zip(holders, chance.shuffle(ROLES)):
            roles[seat] = role
        action: Action = {"type": "deal", "roles": roles}
        if state["options"]["mode"] == "clock":
            minutes = chance.shuffle(range(MINUTES))
            action["cards"] = [sorted(minutes[k * CARD_SIZE:(k + 1) * CARD_SIZE])
                               for k in range(len(ROLES))]
        else:
            action["aces"] = chance.shuffle(SUITS)
        return action

    def acting(self, state: State) -> list[Actor]:
        """Who may act: everyone not yet ready in a discussion, the voters still owing
        a ballot, or the one role holder whose action is due."""
        step = state["step"]
        if step == DECLARE:
            typist = state["typist"]
            return [typist] if typist is not None else list(range(state["seats"]))
        if step in DISCUSSIONS:
            return [s for s in range(state["seats"]) if not state["ready"][s]]
        if step in VOTE_KEYS:
            return votes.waiting(state[VOTE_KEYS[step]])
        if step in (RECKON, RECKON_TO, COURSE):
            return [_seat_of(state, NAVIGATOR)]
        if step == BOSUN:
            return [_seat_of(state, BOATSWAIN)]
        if step == FORGIVE:
            return [_seat_of(state, CHAPLAIN)]
        if step == RECAST:
            return [self._recaster(state)]
        return []

    @staticmethod
    def _recaster(state: State) -> int:
        """Who picks the new target of a Change Course (Y3 option)."""
        if state["options"]["change_course"] == "navigator_moves":
            return _seat_of(state, NAVIGATOR)
        return state["course"]["seat"]

    def step(self, state: State) -> str:
        return state["step"]

    # -- legal actions --------------------------------------------------------------
    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now (none unless ``actor`` is acting)."""
        if actor not in self.acting(state):
            return []
        return getattr(self, "_legal_" + state["step"])(state, actor)

    @staticmethod
    def _legal_declare(state: State, actor: int) -> list[Action]:
        if state["options"]["time_source"] == "clock":
            return [{"type": "declare"}]
        if state["tens"] is None:
            return [{"type": "tens", "digit": d} for d in range(MINUTES // 10)]
        return [{"type": "units", "digit": d} for d in range(10)]

    @staticmethod
    def _legal_discuss1(state: State, actor: int) -> list[Action]:
        role = state["roles"][actor]
        others = _innocence_targets(state, actor)
        acts: list[Action] = []
        if role == BOATSWAIN and state["search"] is None:
            acts += [{"type": "search", "target": t} for t in others]
        if role == CHAPLAIN and state["confession"] is None:
            acts += [{"type": "confess", "target": t} for t in others]
        return acts + [{"type": "ready"}]

    @staticmethod
    def _legal_discuss2(state: State, actor: int) -> list[Action]:
        acts: list[Action] = []
        if state["roles"][actor] == HELMSMAN and state["condemned"] is None:
            acts += [{"type": "condemn", "target": t}
                     for t in _innocence_targets(state, actor)]
        return acts + [{"type": "ready"}]

    @staticmethod
    def _ballot_actions(targets: list[int], cast: list[Any], may_wait: bool) -> list[Action]:
        acts: list[Action] = [{"type": "vote", "target": t} for t in targets]
        if cast:
            acts.append({"type": "one_vote"})  # only ever offered for a second ballot
        elif may_wait:
            acts.append({"type": "bosun_wait"})
        return acts

    def _legal_vote1(self, state: State, actor: int) -> list[Action]:
        vote = state["vote1"]
        targets = [c for c in votes.choices_for(vote, actor) if _is_real(c)]
        return self._ballot_actions(targets, vote["cast"][actor], False)

    def _legal_vote2(self, state: State, actor: int) -> list[Action]:
        vote = state["vote2"]
        choices = votes.choices_for(vote, actor)
        targets = [c for c in choices if _is_real(c)]
        return self._ballot_actions(targets, vote["cast"][actor], WAIT in choices)

    def _legal_bosun(self, state: State, actor: int) -> list[Action]:
        return self._ballot_actions(_guilt_targets(state, actor), state["ballots2"][actor],
                                    False)

    def _legal_reckon(self, state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "reckon", "seat": c, "index": i}
                              for c, i in self._reckon_ballots(state)]
        return acts + [{"type": "decline"}]

    def _legal_reckon_to(self, state: State, actor: int) -> list[Action]:
        caster, index = state["reckon_pick"]
        old = state["ballots1"][caster][index]
        return [{"type": "reckon_to", "target": t}
                for t in self._reckon_targets(state, caster, old)]

    def _legal_forgive(self, state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "forgive", "seat": c, "index": i}
                              for c, i in self._forgive_ballots(state)]
        return acts + [{"type": "decline"}]

    def _legal_course(self, state: State, actor: int) -> list[Action]:
        acts: list[Action] = [{"type": "course", "seat": p}
                              for p in self._course_players(state)]
        return acts + [{"type": "decline"}]

    def _legal_recast(self, state: State, actor: int) -> list[Action]:
        player = state["course"]["seat"]
        return [{"type": "recast", "index": i, "target": t}
                for i, t in self._recasts(state, player)]

    # -- who the vote-changing actions may touch (Y3) -----------------------------
    @staticmethod
    def _reckon_targets(state: State, caster: int, old: int) -> list[int]:
        """Dead Reckoning: another non-Navigator target, never the caster."""
        nav = _seat_of(state, NAVIGATOR)
        return [t for t in _holders(state) if t not in (nav, caster, old)]

    def _reckon_ballots(self, state: State) -> list[tuple[int, int]]:
        return [(c, i) for c, ballots in enumerate(state["ballots1"])
                for i, b in enumerate(ballots)
                if _is_real(b) and self._reckon_targets(state, c, b)]

    @staticmethod
    def _forgive_ballots(state: State) -> list[tuple[int, int]]:
        """Forgiveness: a vote cast by another for another; never if the Chaplain is
        the round-1 innocent (no round-2 vote may target him)."""
        chaplain = _seat_of(state, CHAPLAIN)
        if chaplain == state["innocent"]:
            return []
        return [(c, i) for c, ballots in enumerate(state["ballots2"]) if c != chaplain
                for i, b in enumerate(ballots) if _is_real(b) and b != chaplain]

    def _course_players(self, state: State) -> list[int]:
        """Change Course: a player (not the Navigator) who cast no vote for the
        Navigator and has a vote that can be recast."""
        nav = _seat_of(state, NAVIGATOR)
        return [p for p, ballots in enumerate(state["ballots2"])
                if p != nav and nav not in ballots and self._recasts(state, p)]

    @staticmethod
    def _recasts(state: State, player: int) -> list[tuple[int, int]]:
        """(ballot index, new target) pairs: another legal round-2 target."""
        return [(i, t) for i, old in enumerate(state["ballots2"][player]) if _is_real(old)
                for t in _guilt_targets(state, player) if t != old]

    # -- moves: the deal and the time -----------------------------------------------
    @staticmethod
    def _chance_only(actor: Actor) -> None:
        if actor != CHANCE:
            raise ActionRejected("chance_only", "only the companion's chance does that")

    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Roles to seats; a card of 15 minutes (clock) or an ace (aces) per role."""
        self._chance_only(actor)
        state["roles"] = list(action["roles"])
        if state["options"]["mode"] == "clock":
            state["cards"] = [list(card) for card in action["cards"]]
            state["step"] = DECLARE
        else:
            state["aces"] = list(action["aces"])
            state["mutineer"] = _ace_mutineer(state)
            state["step"] = DISCUSS1

    def move_time(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._chance_only(actor)
        self._declare(state, action["minute"], ctx)

    def move_declare(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Declare time (clock source): the chance step that follows reads the clock."""
        state["step"] = CLOCK

    def move_tens(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        state["typist"] = actor
        state["tens"] = action["digit"]

    def move_units(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._declare(state, state["tens"] * 10 + action["digit"], ctx)

    @staticmethod
    def _declare(state: State, minute: int, ctx: Context) -> None:
        """The time is declared: its minute names the Mutineer, who learns it."""
        state["minute"] = minute
        state["mutineer"] = _card_mutineer(state)
        state["step"] = DISCUSS1
        ctx.reveal()

    # -- moves: discussions -------------------------------------------------------
    # Every discussion move is a reveal: host undo then never reaches across one, so
    # whether the undo button is offered cannot betray a secret Search or Confession.
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

    # -- moves: ballots -------------------------------------------------------------
    def move_vote(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._ballot(state, actor, action["target"], ctx)

    def move_one_vote(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Trust / an extra vote left unused: the second ballot counts for nobody."""
        self._ballot(state, actor, None, ctx)

    def move_bosun_wait(self, state: State, actor: Actor, action: Action,
                        ctx: Context) -> None:
        """Bosun Knows Best: every ballot of the Boatswain waits for the reveal."""
        vote = state["vote2"]
        while actor in votes.waiting(vote):
            votes.cast(vote, actor, WAIT)
        self._after_ballot(state, ctx)

    def _ballot(self, state: State, actor: int, choice: Any, ctx: Context) -> None:
        if state["step"] == BOSUN:
            state["ballots2"][actor].append(choice)
            if len(state["ballots2"][actor]) == state["vote2"]["need"][actor]:
                self._after_bosun(state, ctx)
            return
        votes.cast(state[VOTE_KEYS[state["step"]]], actor, choice)
        self._after_ballot(state, ctx)

    def _after_ballot(self, state: State, ctx: Context) -> None:
        if not votes.is_complete(state[VOTE_KEYS[state["step"]]]):
            return
        if state["step"] == VOTE1:
            self._close_innocence_vote(state, ctx)
        else:
            self._close_guilt_vote(state, ctx)

    # -- round 1: the innocence vote ----------------------------------------------
    @staticmethod
    def _open_innocence_vote(state: State) -> None:
        """Everyone votes for another role holder; the Helmsman has two ballots (Trust),
        the second of which may be "No second vote"."""
        choices: list[list[Any] | None] = []
        need: list[int] = []
        for seat in range(state["seats"]):
            if not _votes(state, seat):
                choices.append(None)
                need.append(0)
                continue
            targets: list[Any] = _innocence_targets(state, seat)
            trust = state["roles"][seat] == HELMSMAN
            choices.append(targets + [None] if trust else targets)
            need.append(2 if trust else 1)
        state["vote1"] = votes.open_vote("innocence", choices, need)
        state["step"] = VOTE1

    def _close_innocence_vote(self, state: State, ctx: Context) -> None:
        state["ballots1"] = votes.reveal(state["vote1"], ctx)
        if self._reckon_ballots(state):
            state["step"] = RECKON
        else:
            self._resolve_innocence(state, ctx)

    def move_reckon(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Dead Reckoning, first half: which cast vote the Navigator moves."""
        state["reckon_pick"] = [action["seat"], action["index"]]
        state["step"] = RECKON_TO

    def move_reckon_to(self, state: State, actor: Actor, action: Action,
                       ctx: Context) -> None:
        caster, index = state["reckon_pick"]
        old = state["ballots1"][caster][index]
        state["ballots1"][caster][index] = action["target"]
        state["reckoning"] = {"seat": caster, "index": index, "from": old,
                              "to": action["target"]}
        state["reckon_pick"] = None
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

    # -- round 2: the guilt vote ----------------------------------------------------
    @staticmethod
    def _open_guilt_vote(state: State) -> None:
        """The condemned casts two ballots (the second may be "No second vote"); the
        Boatswain may choose to wait (Bosun Knows Best) as his ballot."""
        choices: list[list[Any] | None] = []
        need: list[int] = []
        for seat in range(state["seats"]):
            if not _votes(state, seat):
                choices.append(None)
                need.append(0)
                continue
            targets: list[Any] = _guilt_targets(state, seat)
            condemned = seat == state["condemned"]
            if condemned:
                targets.append(None)
            if state["roles"][seat] == BOATSWAIN:
                targets.append(WAIT)
            choices.append(targets)
            need.append(2 if condemned else 1)
        state["vote2"] = votes.open_vote("guilt", choices, need)
        state["step"] = VOTE2

    def _close_guilt_vote(self, state: State, ctx: Context) -> None:
        ballots = votes.reveal(state["vote2"], ctx)
        boatswain = _seat_of(state, BOATSWAIN)
        if WAIT in ballots[boatswain]:
            state["bosun_waited"] = True
            ballots[boatswain] = []
            state["ballots2"] = ballots
            state["step"] = BOSUN
            return
        state["ballots2"] = ballots
        self._after_bosun(state, ctx)

    def _after_bosun(self, state: State, ctx: Context) -> None:
        if self._forgive_ballots(state):
            state["step"] = FORGIVE
        else:
            self._after_forgive(state, ctx)

    def _after_forgive(self, state: State, ctx: Context) -> None:
        if self._course_players(state):
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
        """Change Course: the chosen player must recast a vote."""
        state["course"] = {"seat": action["seat"]}
        state["step"] = RECAST

    def move_recast(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        course = state["course"]
        index = action["index"]
        old = state["ballots2"][course["seat"]][index]
        state["ballots2"][course["seat"]][index] = action["target"]
        course.update({"index": index, "from": old, "to": action["target"]})
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
        if _chaplain_allied(state):
            side.add(_seat_of(state, CHAPLAIN))
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
                   "guilty": state["guilty"], "chaplain_allied": _chaplain_allied(state),
                   "mutineer_wins": end["mutineer_wins"]}
        return Result(list(end["winners"]), scores, REASONS[end["reason"]], details)

    # -- views ----------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """The public record, plus the viewer's own secrets; everything at the end."""
        out = self._public_view(state)
        for key in VOTE_KEYS.values():
            out[key] = self._vote_view(state[key], viewer)
        if isinstance(viewer, int):
            out["me"] = self._seat_view(state, viewer)
        if state["step"] == OVER:
            out["reveal"] = self._reveal_view(state)
        return out

    @staticmethod
    def _public_view(state: State) -> dict[str, Any]:
        options = state["options"]
        keys = ("step", "minute", "typist", "tens", "reckon_pick", "reckoning", "innocent",
                "condemned", "bosun_waited", "forgiveness", "course", "guilty", "end")
        out = {key: copy.deepcopy(state[key]) for key in keys}
        out.update({
            "seats": state["seats"],
            "mode": options["mode"],
            "time_source": options["time_source"],
            "confession_rule": options["confession"],
            "change_course": options["change_course"],
            "jury": options["jury"],
            "roles": list(state["roles"]),
            "ready": list(state["ready"]),
            "ballots1": copy.deepcopy(state["ballots1"]),
            "ballots2": copy.deepcopy(state["ballots2"]),
        })
        return out

    @staticmethod
    def _vote_view(vote: votes.Vote | None, viewer: Viewer) -> dict[str, Any] | None:
        if vote is None:
            return None
        out = votes.vote_view(vote, viewer)
        out.pop("tally", None)  # the live tallies are ballots1/ballots2, after changes
        return out

    @staticmethod
    def _card_or_ace(state: State, seat: int) -> dict[str, Any]:
        k = _role_index(state, seat)
        if state["cards"] is not None:
            return {"card": list(state["cards"][k])}
        return {"ace": state["aces"][k]}

    def _seat_view(self, state: State, seat: int) -> dict[str, Any]:
        """What only ``seat`` knows: its card or ace, whether it is the Mutineer, and
        what its Search or Confession showed (or that its confession was taken)."""
        role = state["roles"][seat]
        me: dict[str, Any] = {"seat": seat, "role": role}
        if role not in ROLES:
            return me
        me.update(self._card_or_ace(state, seat))
        if state["mutineer"] is not None:
            me["is_mutineer"] = state["mutineer"] == seat
        if role == BOATSWAIN and state["search"] is not None:
            target = state["search"]
            me["search"] = {"target": target, "is_mutineer": target == state["mutineer"],
                            **self._card_or_ace(state, target)}
        if role == CHAPLAIN and state["confession"] is not None:
            me["confession"] = self._confession_view(state)
        if state["confession"] == seat:
            me["confessed_to"] = _seat_of(state, CHAPLAIN)
        return me

    @staticmethod
    def _confession_view(state: State) -> dict[str, Any]:
        target = state["confession"]
        out: dict[str, Any] = {"target": target}
        if state["options"]["confession"] == "truthful":
            out["is_mutineer"] = target == state["mutineer"]
            out["allied"] = _chaplain_allied(state)
        return out

    @staticmethod
    def _reveal_view(state: State) -> dict[str, Any]:
        """Everything, once the match is over."""
        per_seat: list[Any] = [None] * state["seats"]
        for seat in _holders(state):
            k = _role_index(state, seat)
            per_seat[seat] = (list(state["cards"][k]) if state["cards"] is not None
                              else state["aces"][k])
        return {"mutineer": state["mutineer"], "cards_or_aces": per_seat,
                "search": state["search"], "confession": state["confession"],
                "chaplain_allied": _chaplain_allied(state)}

    # -- the table display ---------------------------------------------------------
    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """Headline, revealed vote tallies and the end, from the public view alone."""
        state, names = view["state"], view["names"]
        lines = [f"{names[s]}: {role}" for s, role in enumerate(state["roles"])]
        out: dict[str, Any] = {"headline": SUMMARY_HEADLINES.get(state["step"], ""),
                               "lines": lines, "tallies": []}
        if state["minute"] is not None:
            out["lines"].insert(0, f"Time declared: :{state['minute']:02d}")
        if state["step"] in DISCUSSIONS:
            out["lines"].insert(0, f"{sum(state['ready'])} of {state['seats']} ready to vote")
        for key, title in (("ballots1", "Innocence vote"), ("ballots2", "Guilt vote")):
            if state[key] is not None:
                out["tallies"].append({"title": title, "rows": _tally_rows(state[key], names)})
        if state["innocent"] is not None:
            out["lines"].insert(0, f"Innocent: {names[state['innocent']]}")
        if state["guilty"] is not None:
            out["lines"].insert(0, f"Guilty: {names[state['guilty']]}")
        if view.get("result"):
            out["scores"] = view["result"]["scores"]
            out["score_label"] = "Wins"
            out["headline"] = view["result"]["reason"] or "The Mutineer is revealed"
        return out

    # -- re-deal (for the contract tests) -----------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """Draw again what ``viewer`` cannot see, keeping only draws that leave the
        viewer's view unchanged and the match consistent (the round-1 innocent of a
        match still going is never the Mutineer)."""
        wanted = self.view(state, viewer)
        for _ in range(100):
            twin = self._redraw(state, viewer, rng)
            if self._consistent(twin) and self.view(twin, viewer) == wanted:
                return twin
        return copy.deepcopy(state)

    @staticmethod
    def _consistent(state: State) -> bool:
        if state["step"] == OVER or state["innocent"] is None:
            return True
        return state["innocent"] != state["mutineer"]

    def _redraw(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        twin = copy.deepcopy(state)
        if state["step"] in (DEAL, OVER):
            return twin
        self._redraw_cards(twin, viewer, rng)
        if state["step"] not in (DECLARE, CLOCK):
            self._redraw_actions(twin, viewer, rng)
        for key in VOTE_KEYS.values():
            if twin[key] is not None:
                self._redraw_ballots(twin, twin[key], viewer, rng)
        return twin

    @staticmethod
    def _known_roles(state: State, viewer: Viewer) -> set[int]:
        """Role indexes whose card (or ace) the viewer has seen."""
        if not isinstance(viewer, int) or state["roles"][viewer] not in ROLES:
            return set()
        known = {_role_index(state, viewer)}
        if state["roles"][viewer] == BOATSWAIN and state["search"] is not None:
            known.add(_role_index(state, state["search"]))
        return known

    def _redraw_cards(self, twin: State, viewer: Viewer, rng: random.Random) -> None:
        known = self._known_roles(twin, viewer)
        hidden = [k for k in range(len(ROLES)) if k not in known]
        if twin["cards"] is not None:
            pool = [m for k in hidden for m in twin["cards"][k]]
            rng.shuffle(pool)
            for j, k in enumerate(hidden):
                twin["cards"][k] = sorted(pool[j * CARD_SIZE:(j + 1) * CARD_SIZE])
            if twin["minute"] is not None:
                twin["mutineer"] = _card_mutineer(twin)
        else:
            suits = [twin["aces"][k] for k in hidden]
            rng.shuffle(suits)
            for k, suit in zip(hidden, suits):
                twin["aces"][k] = suit
            twin["mutineer"] = _ace_mutineer(twin)

    @staticmethod
    def _redraw_actions(twin: State, viewer: Viewer, rng: random.Random) -> None:
        """The Search and Confession targets, unless the viewer took or received them."""
        boatswain = _seat_of(twin, BOATSWAIN)
        chaplain = _seat_of(twin, CHAPLAIN)
        if viewer != boatswain:
            twin["search"] = rng.choice([None, *_innocence_targets(twin, boatswain)])
        if viewer not in (chaplain, twin["confession"]):
            others = [t for t in _innocence_targets(twin, chaplain) if t != viewer]
            twin["confession"] = rng.choice([None, *others])

    @staticmethod
    def _redraw_ballots(twin: State, vote: votes.Vote, viewer: Viewer,
                        rng: random.Random) -> None:
        """Ballots not yet revealed, as many per seat as were cast, each legal."""
        if vote["revealed"]:
            return
        for seat, cast in enumerate(vote["cast"]):
            if seat == viewer or not cast:
                continue
            choices = vote["choices"][seat]
            targets = [c for c in choices if _is_real(c)]
            # Whether the Boatswain waited is secret too (waiting casts every ballot).
            if WAIT in choices and len(cast) == vote["need"][seat] and rng.random() < 0.5:
                vote["cast"][seat] = [WAIT] * len(cast)
                continue
            fresh = [rng.choice(targets)]
            if len(cast) > 1:
                fresh.append(rng.choice(targets + [None]))
            vote["cast"][seat] = fresh

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """Deal and time (3), two discussions (2 x seats + 3), two votes (seats + 1 each),
        and at most 2 + 2 + 1 + 2 for the Navigator, Boatswain and Chaplain after."""
        return 4 * seats + 20

    def describe(self, action: Action, names: list[str]) -> str:
        """A short label of an action for a screen or a log line."""
        return _describe(action, names)

    # -- display --------------------------------------------------------------------
    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen: public lines, secret choices, private details."""
        state, names = view["state"], view["names"]
        legal = view.get("you", {}).get("legal", [])
        choices = tuple(Choice(_label(a, state, names), a, secret=a["type"] in SECRET_TYPES)
                        for a in legal)
        if not legal:
            led = "off"
        else:
            led = "blink" if state["step"] in VOTE_KEYS else "on"
        return Display(
            title=TITLES[state["step"]],
            lines=tuple(line[:21] for line in _lines(state, names, seat)[:3]),
            choices=choices,
            private=tuple(_private_lines(state, names)),
            led=led,
        )


# -- views and display -------------------------------------------------------------------

TITLES = {
    DEAL: "Moon Yeti", DECLARE: "Declare the time", CLOCK: "Declare the time",
    DISCUSS1: "R1 Evidence", VOTE1: "Innocence vote", RECKON: "Dead Reckoning",
    RECKON_TO: "Dead Reckoning", DISCUSS2: "R2 The Trial", VOTE2: "Guilt vote",
    BOSUN: "Bosun Knows Best", FORGIVE: "Forgiveness", COURSE: "Change Course",
    RECAST: "Change Course", OVER: "Mutineer revealed",
}


def _name(names: list[str], seat: Any, width: int) -> str:
    if type(seat) is not int:
        return "nobody"
    return names[seat][:width]


def _describe(action: Action, names: list[str]) -> str:
    kind = action["type"]
    target = _name(names, action.get("target"), 20)
    seat = _name(names, action.get("seat"), 20)
    texts = {
        "deal": "roles dealt", "declare": "declare the time",
        "time": f"the time is :{action.get('minute', 0):02d}",
        "tens": f"minute tens {action.get('digit')}",
        "units": f"minute units {action.get('digit')}",
        "ready": "ready to vote", "search": f"search {target}'s cabin",
        "confess": f"take {target}'s confession", "vote": f"vote for {target}",
        "one_vote": "no second vote", "bosun_wait": "wait: vote last",
        "reckon": f"move a vote of {seat}", "reckon_to": f"move it to {target}",
        "decline": "pass", "condemn": f"condemn {target}",
        "forgive": f"take a vote of {seat}", "course": f"{seat} must recast",
        "recast": f"recast to {target}",
    }
    return texts.get(kind, kind.replace("_", " "))


def _label(action: Action, state: dict[str, Any], names: list[str]) -> str:
    """A choice label of at most 18 characters."""
    kind = action["type"]
    target = action.get("target")
    if kind == "tens":
        return f"Minute {action['digit']}_"
    if kind == "units":
        return f"Minute {state['tens']}{action['digit']}"
    if kind == "vote":
        word = "Innocent" if state["step"] == VOTE1 else "Guilty"
        return f"{word} {_name(names, target, 17 - len(word))}"
    if kind in ("search", "confess", "condemn"):
        word = kind.capitalize()
        return f"{word} {_name(names, target, 17 - len(word))}"
    if kind in ("reckon", "forgive"):
        ballots = state["ballots1"] if kind == "reckon" else state["ballots2"]
        old = ballots[action["seat"]][action["index"]]
        mark = "#2" if action["index"] else ""
        return f"{_name(names, action['seat'], 6)}{mark}>{_name(names, old, 7)}"
    if kind == "recast":
        old = state["ballots2"][state["course"]["seat"]][action["index"]]
        return f"{_name(names, old, 7)}>{_name(names, target, 9)}"
    if kind == "reckon_to":
        return f"Move to {_name(names, target, 10)}"
    if kind == "course":
        return f"Recast {_name(names, action['seat'], 11)}"
    fixed = {"declare": "Declare time", "ready": "Ready to vote",
             "one_vote": "No second vote", "bosun_wait": "Wait: vote last",
             "decline": "Pass"}
    return fixed.get(kind, kind)[:18]


def _lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    """Public-safe lines: the seat's (public) role, then what the table is at."""
    role = state["roles"][seat]
    lines = [f"You: {role}" if role else "Dealing roles..."]
    step = state["step"]
    if step == DECLARE:
        lines.append("Type the minute" if state["time_source"] == "typed"
                     else "Press at the moment")
        if state["tens"] is not None:
            lines.append(f"Minute :{state['tens']}_")
    elif step == OVER:
        return _end_lines(state, names, seat)
    elif step in (DISCUSS1, VOTE1):
        minute = state["minute"]
        lines.append("Aces dealt" if minute is None else f"Time declared :{minute:02d}")
        lines.append(_count_line(state, names))
    elif step in (DISCUSS2, VOTE2):
        lines.append(_innocent_line(state, names))
        lines.append(_count_line(state, names))
    else:
        ballots = state["ballots1"] if step in (RECKON, RECKON_TO) else state["ballots2"]
        lines.append(_tally_line(ballots, names))
        lines.append(_after_reveal_line(state, names))
    return lines


def _count_line(state: dict[str, Any], names: list[str]) -> str:
    """Readiness in a discussion (and who was condemned), ballots in during a vote."""
    step = state["step"]
    if step in VOTE_KEYS:
        vote = state[VOTE_KEYS[step]]
        return f"Ballots {vote['ballots_in']}/{vote['ballots_total']}"
    ready = f"{sum(state['ready'])}/{state['seats']}"
    if state["condemned"] is not None and step == DISCUSS2:
        return f"{ready} rdy, 2x {_name(names, state['condemned'], 9)}"
    return f"{ready} ready to vote"


def _innocent_line(state: dict[str, Any], names: list[str]) -> str:
    if state["innocent"] is None:
        return "Nobody is innocent"
    return f"Innocent: {_name(names, state['innocent'], 11)}"


def _tally_line(ballots: list[list[Any]], names: list[str]) -> str:
    """The live count, most votes first, as "Ann2 Cal1" (a name's first 3 letters)."""
    counts = votes.tally(ballots)
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    return " ".join(f"{_name(names, seat, 3)}{n}" for seat, n in ranked)


def _after_reveal_line(state: dict[str, Any], names: list[str]) -> str:
    step = state["step"]
    if step in (RECKON, RECKON_TO):
        return "Navigator may move 1"
    if step == BOSUN:
        return "Boatswain votes last"
    if step == FORGIVE:
        return "Chaplain may take 1"
    if step == COURSE:
        return "Navigator: recast?"
    if step == RECAST:
        return f"{_name(names, state['course']['seat'], 10)} must recast"
    return ""


def _end_lines(state: dict[str, Any], names: list[str], seat: int) -> list[str]:
    """Win or lose (in place of the role line), the Mutineer, and why."""
    reason = state["end"]["reason"]
    if reason == "innocent":
        why = "Declared innocent"
    elif reason == "tie":
        why = "Guilt vote tied"
    elif reason == "guilty":
        why = "Found guilty"
    else:
        why = f"{_name(names, state['guilty'], 8)} found guilty"
    won = "You WIN!" if seat in state["end"]["winners"] else "You lose"
    return [won, f"Mutineer: {_name(names, state['reveal']['mutineer'], 11)}", why]


def _card_lines(card: list[int]) -> list[str]:
    """15 numbers as three lines of five (each fits the OLED)."""
    return [" ".join(f"{m:02d}" for m in card[i:i + 5]) for i in range(0, len(card), 5)]


def _private_lines(state: dict[str, Any], names: list[str]) -> list[str]:
    """The seat's secrets: Mutineer or not, its card, and what its action showed."""
    me = state.get("me", {})
    out: list[str] = []
    if "is_mutineer" in me:
        out.append("YOU ARE THE MUTINEER" if me["is_mutineer"] else "Not the Mutineer")
    if "card" in me:
        out += ["Your card:"] + _card_lines(me["card"])
    if "ace" in me:
        out.append(f"Your ace: {me['ace']}")
    out += _action_lines(me, state, names)
    for key in VOTE_KEYS.values():
        vote = state[key]
        if vote and not vote["revealed"] and vote.get("mine"):
            picks = ["wait" if b == WAIT else _name(names, b, 8) for b in vote["mine"]]
            out.append("Your vote: " + ", ".join(picks))
    return out


def _action_lines(me: dict[str, Any], state: dict[str, Any], names: list[str]) -> list[str]:
    out: list[str] = []
    search = me.get("search")
    if search:
        out.append(f"Searched {_name(names, search['target'], 11)}:")
        out.append("IS the Mutineer!" if search["is_mutineer"] else "not the Mutineer")
        out += _card_lines(search["card"]) if "card" in search else [f"ace: {search['ace']}"]
    confession = me.get("confession")
    if confession:
        out.append(f"Confession: {_name(names, confession['target'], 9)}")
        if "is_mutineer" in confession:
            out.append("IS the Mutineer!" if confession["is_mutineer"]
                       else "not the Mutineer")
            if confession["allied"]:
                out.append("You side with him")
        else:
            out.append("Watch for the sign")
    if "confessed_to" in me:
        if state["confession_rule"] == "truthful":
            out += ["The Chaplain took", "your confession"]
        else:
            out += ["Chaplain asks: are", "you the Mutineer?", "Answer with a sign"]
    return out


GAME = MoonYeti()
