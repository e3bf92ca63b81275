"""What a game is to the engine: rules only, over plain, JSON-able state.

A game module defines a :class:`Game` subclass: a :class:`GameSpec`, ``setup``, a table
of :class:`Step` declarations (who acts in each step and which moves they have), one
``move_<type>`` method per move and ``result``. What each viewer may see and what the
screens show live in the game package's own modules, named once in :class:`Parts`
(docs/engine.md, "One shape for every game"). From the steps the engine derives who
acts, the legal actions, the action types and the chance steps;
:mod:`companion.engine.match` does the rest: validation, journaling, undo and the one
visibility filter. A game lists whole decisions only: browsing a menu is the seat's
business, never an action.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Mapping, Protocol, Sequence, Union

from companion.engine import board
from companion.engine.chance import Chance
from companion.engine.display import Display
from companion.engine.spec import GameSpec
from companion.errors import ActionRejected

#: Who may look at a match: a seat number (0-based), the public, or the host.
PUBLIC = "public"
HOST = "host"
#: Who may act: a seat, the host, or chance (the match's seeded generator).
CHANCE = "chance"
#: ... or the table's timekeeper, when a timed step's time is up (see :class:`Timed`).
TIMEKEEPER = "timekeeper"
Viewer = Union[int, str]
Actor = Union[int, str]
State = dict[str, Any]
Action = dict[str, Any]


#: What the phone and the seat's buttons are for, the same in every game (a game's
#: ``how_to_play`` adds its own lines).
DEVICES = (
    "Your phone is your private screen: your choices in full words, and your secrets "
    "while you hold the eye pad.",
    "The seat's buttons do the same: previous and next page through the choices, select "
    "opens a group or makes the choice; hold select to see your secrets.",
    "Your light is on when it is your move. The table display shows only what everyone "
    "may see.",
)


#: Lists the moves of one type an actor may make now, as their fields without ``type``
#: (``[{}]`` for a move with no fields, ``[]`` when the move is not possible now). It is
#: called with the actors its step's ``who`` lists: a seat's lister may take an ``int``,
#: the host's a ``str`` (so the actor is typed Any: a step decides which, not the type).
Lister = Callable[[State, Any], Iterable[dict[str, Any]]]
#: Draws the chance outcome due now, as a whole action (with its ``type``).
Drawer = Callable[[State, Chance], Action]


def always(state: State, actor: Actor) -> list[dict[str, Any]]:
    """The lister of a move that has no fields and is always possible in its step."""
    return [{}]


def _one_lap(state: State) -> None:
    return None


@dataclass(frozen=True)
class Timed:
    """A step the host may put a timer on (docs/engine.md, "Step timers").

    ``option`` names the game option holding its seconds (0: no timer). ``ends`` is the
    move the timekeeper makes when the time is up, or None when the end of the time is
    only shown: a timer may end a discussion or a turn, never choose for a player.
    ``lap(state)`` says what starts the timer again (a new buyer, a new turn); it may
    read only what every seat can see, as the timer shows on every screen. Steps that
    give the same ``span`` share one timer (a turn made of several steps); by default a
    step's timer is its own.
    """

    option: str
    ends: str | None = None
    lap: Callable[[State], Any] = _one_lap
    span: str | None = None


@dataclass(frozen=True)
class Step:
    """One step of a game's flow: who acts in it, and what each of them may do.

    ``who(state)`` lists the actors: seats (0-based), ``HOST``, or ``[CHANCE]`` when the
    match's seeded generator acts next (OpenSpiel's chance player). ``moves`` maps each
    move type to its :data:`Lister`; ``chance`` maps each move type chance may make to
    its :data:`Drawer` (one is called: the first, unless ``draw`` says which).
    """

    who: Callable[[State], Sequence[Actor]]
    moves: Mapping[str, Lister] = field(default_factory=dict)
    chance: Mapping[str, Drawer] = field(default_factory=dict)
    #: The chance move due now, when a step has several (default: its first).
    draw: Callable[[State], str] | None = None
    #: A timer the host may set on this step, and what its end does.
    timed: Timed | None = None


@dataclass
class Result:
    """How a match ended: who won, the scores, and why."""

    winners: list[int]
    scores: Sequence[float]  # ints or floats (mypy counts an int as a float)
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data of the caller's own (nothing shared with it)."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "details": copy.deepcopy(self.details),
        }


class Context:
    """What ``apply`` may tell the engine besides changing the state.

    ``ballots_undoable`` is the game's :attr:`Game.ballots_undoable`: the match passes
    it, so the vote policy is the engine's, never a move's."""

    def __init__(self, names: list[str], ballots_undoable: bool = False):
        self.names = names
        self.revealed = False
        self.ballots_undoable = ballots_undoable

    def reveal(self) -> None:
        """Mark this action as a reveal: host undo may not step back past it."""
        self.revealed = True

    def ballot_cast(self) -> None:
        """A secret ballot was cast (:func:`companion.engine.votes.cast` says so): an
        undo barrier unless the game opted out (docs/engine.md, "Secret votes")."""
        if not self.ballots_undoable:
            self.revealed = True


class ViewsModule(Protocol):
    """A game's ``views`` module: what each viewer may know, and the re-deal."""

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]: ...

    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State: ...


class ShowModule(Protocol):
    """A game's ``show`` module: a seat's screen."""

    def display(self, view: dict[str, Any], seat: int) -> Display: ...


class BoardModule(Protocol):
    """A game's ``board`` module: what the table shows, and a seat's private panel."""

    def summary(self, view: dict[str, Any]) -> dict[str, Any]: ...

    def board(self, view: dict[str, Any]) -> list[dict[str, Any]]: ...

    def panel(self, view: dict[str, Any], seat: int) -> list[dict[str, Any]]: ...


class HowtoModule(Protocol):
    """A game's ``howto`` module: the game in a minute, and a seat's own part."""

    HOWTO: dict[str, Any]

    def my_part(self, view: dict[str, Any], seat: int) -> list[str]: ...

    def my_secret(self, view: dict[str, Any], seat: int) -> list[str]: ...


@dataclass(frozen=True)
class Parts:
    """The modules of a game package, named once by its :class:`Game` subclass
    (``parts = Parts(views=views, show=show, board=board, howto=howto)``): the base
    class answers ``view``, ``redeal``, ``display``, ``summary``, ``board``, ``panel``,
    ``how_to_play``, ``my_part`` and ``my_secret`` from them, so a package writes no
    method that only hands a call on."""

    views: ViewsModule
    show: ShowModule
    board: BoardModule
    howto: HowtoModule


class Game:
    """Base class of every game's rules. Subclasses fill in the hooks below.

    A subclass declares ``steps`` (step name -> :class:`Step`) and keeps the name of
    the step it is in at ``state["step"]``; a step not in the table (``"over"``) has
    nobody acting. Every move type of every step needs a ``move_<type>`` method.
    """

    spec: GameSpec
    #: The flow: every step the game can be in, by the name kept in ``state["step"]``.
    steps: Mapping[str, Step] = {}
    #: True when some seat may not see everything (so the re-deal test must bite).
    has_secrets: bool = True
    #: The package's modules (:class:`Parts`); None for a game in one module, which
    #: writes the hooks below itself (tests/games/example_game.py).
    parts: ClassVar[Parts | None] = None
    #: True lets the host undo a cast secret ballot. The engine's policy is False: a
    #: cast ballot is final, and an undo would tell the host who voted last
    #: (docs/engine.md, "Secret votes").
    ballots_undoable: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        moves = {t for s in cls.steps.values() for t in (*s.moves, *s.chance)}
        moves |= {s.timed.ends for s in cls.steps.values() if s.timed and s.timed.ends}
        missing = sorted(t for t in moves if not callable(getattr(cls, "move_" + t, None)))
        if missing:
            raise TypeError(f"{cls.__name__} declares moves with no move_ method: {missing}")

    # -- setup and flow ---------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """The state before the first action. Chance comes after, as chance actions."""
        raise NotImplementedError

    @property
    def action_types(self) -> frozenset[str]:
        """Every move a seat or the host may make in some step (chance's and the
        timekeeper's excluded, so a seat that sends one is told the game has no such
        action)."""
        return frozenset(t for s in self.steps.values() for t in s.moves)

    def step(self, state: State) -> str:
        """The name of the step the match is in (``"roll"``, ``"vote"`` ...)."""
        return str(state.get("step", ""))

    def _step(self, state: State) -> Step | None:
        if self.result(state) is not None:
            return None
        return self.steps.get(self.step(state))

    def acting(self, state: State) -> list[Actor]:
        """The seats (or ``HOST``) that may act now. Empty once the match is over or
        while chance acts."""
        step = self._step(state)
        if step is None:
            return []
        return [a for a in step.who(state) if a != CHANCE]

    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now, each a whole decision with its type.

        The engine asks only for an actor who is acting (``Match`` checks that)."""
        step = self._step(state)
        if step is None:
            return []
        return [{"type": kind, **fields}
                for kind, lister in step.moves.items() for fields in lister(state, actor)]

    def timed(self, state: State) -> tuple[str, Timed] | None:
        """(the step's name, its :class:`Timed`) when the step now may be timed."""
        step = self._step(state)
        if step is None or step.timed is None:
            return None
        return self.step(state), step.timed

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """The chance action due now (dice, a shuffle, a draw), or None if none is."""
        step = self._step(state)
        if step is None or not step.chance or list(step.who(state)) != [CHANCE]:
            return None
        kind = step.draw(state) if step.draw else next(iter(step.chance))
        return step.chance[kind](state, chance)

    def apply(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Apply a legal action to ``state`` in place (the engine passes a copy)."""
        move = getattr(self, "move_" + action["type"], None)
        if move is None:
            raise ActionRejected("unknown_action", f"no move {action['type']!r}")
        move(state, actor, action, ctx)

    def result(self, state: State) -> Result | None:
        """The result once the match is over, else None."""
        raise NotImplementedError

    # -- what each viewer sees (from the package's Parts) ------------------------------
    def _parts(self) -> Parts:
        # A game either names its modules (``parts``) or writes these methods itself
        # (a game in one module, like the engine's test game); one that does neither is
        # a programming error, said in words rather than as an AttributeError on None.
        if self.parts is None:
            raise TypeError(f"{type(self).__name__} sets no `parts = Parts(...)` and does"
                            f" not write this method itself (docs/engine.md, 'One shape"
                            f" for every game')")
        return self.parts

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat or ``PUBLIC``) may know, built from an allow-list."""
        return self._parts().views.view(state, viewer)

    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen, built from the engine's view for that seat only."""
        return self._parts().show.display(view, seat)

    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the table display shows, built from the engine's PUBLIC view only.

        Keys (all optional): ``headline`` (one sentence), ``turn`` (seats whose turn it
        publicly is), ``scores`` (a running score per seat) with ``score_label``,
        ``lines`` (a few public facts) and ``tallies`` (revealed votes:
        ``[{"title": ..., "rows": [[label, count], ...]}]``).
        """
        if self.parts is not None:
            return self.parts.board.summary(view)
        result = view.get("result")
        return {"headline": "Match over" if result else view.get("step", ""),
                "scores": result["scores"] if result else None}

    def board(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The table's board as board parts (:mod:`companion.engine.board`), built from
        the engine's PUBLIC view only: the table display and every phone draw it.

        Without parts, a generic board made from :meth:`summary`."""
        if self.parts is not None:
            return self.parts.board.board(view)
        return board.from_summary(self.summary(view), view)

    def panel(self, view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        """The seat's private panel as board parts (a hand as cards, dice under the
        cup), built from that seat's own view: only its own phone draws it."""
        return self.parts.board.panel(view, seat) if self.parts is not None else []

    # -- learning the game ------------------------------------------------------------
    def how_to_play(self) -> dict[str, Any]:
        """The game in a minute, as plain data for the table display and every phone:
        ``title``, ``goal`` (one or two sentences), ``turn`` (a turn in three lines),
        ``devices`` (what the phone and the seat's buttons are for) and ``parts`` (each
        role, or each kind of choice, with its lines). Public: never a secret.

        A package's ``howto.HOWTO`` (a copy: the caller may change it); without parts,
        one made from the spec's summary."""
        if self.parts is not None:
            return copy.deepcopy(self.parts.howto.HOWTO)
        return {"title": self.spec.title, "goal": self.spec.summary, "turn": [],
                "devices": list(DEVICES), "parts": {}}

    def my_part(self, view: dict[str, Any], seat: int) -> list[str]:
        """The seat's own part in a few lines (its role, what it may do and when), built
        from that seat's own view only: shown on its phone's help, nowhere else."""
        return self.parts.howto.my_part(view, seat) if self.parts is not None else []

    def my_secret(self, view: dict[str, Any], seat: int) -> list[str]:
        """What the seat's help may say only while its owner holds the reveal pad (the
        Mutineer learns it is the Mutineer), from that seat's own view only."""
        return self.parts.howto.my_secret(view, seat) if self.parts is not None else []

    # -- for bots (companion/bots, docs/bots.md) --------------------------------------
    def bot_score(self, state: State, seat: int) -> float:
        """How well ``seat`` stands in ``state``, from 0 (lost) to 1 (won): a bot's
        search cuts a playout short at a depth and takes this as its outcome. A bot asks
        it only of re-dealt states (its own draws of what it cannot see). By default
        every seat stands alike; a game declares its own in ``rules.py``."""
        return 0.5

    def bot_remember(self, memory: dict[str, Any], view: dict[str, Any], seat: int) -> None:
        """Keep in ``memory`` what seat ``seat``'s view shows now that a careful player
        would remember after it is gone (a card turned back face down). By default
        nothing: the seat's view already holds everything it was shown."""

    def bot_recall(self, state: State, seat: int, memory: dict[str, Any],
                   rng: random.Random) -> State:
        """A re-dealt ``state`` made to agree with what ``memory`` remembers (in place;
        returned). By default unchanged."""
        return state

    # -- for tests --------------------------------------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """A copy of ``state`` with everything ``viewer`` may not see drawn again,
        consistent with what the viewer knows. The re-deal test checks that the
        viewer's view is the same for both.

        A game that cannot draw again what it hides raises :class:`RedealFailed`: it
        never hands back the state unchanged and lets the test pass for nothing."""
        return self._parts().views.redeal(state, viewer, rng)

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """An upper bound on the actions (chance included) of one match."""
        raise NotImplementedError


class RedealFailed(RuntimeError):
    """A game could not draw again what a viewer may not see (see ``Game.redeal``)."""
