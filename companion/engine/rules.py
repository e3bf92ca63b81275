"""What a game is to the engine: rules only, over plain, JSON-able state.

A game module defines a :class:`Game` subclass: a :class:`GameSpec`, the action types
it knows, ``setup``, ``acting``, ``legal_actions``, ``apply`` (dispatched to one
``move_<type>`` method per action type), ``view``, ``display``, ``result``, and, for the
contract tests, ``redeal``. The engine (:mod:`companion.engine.match`) does the rest:
validation, chance, journaling, undo and the one visibility filter.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Union

from companion.engine.chance import Chance
from companion.engine.display import Display
from companion.engine.spec import GameSpec
from companion.errors import ActionRejected

#: Who may look at a match: a seat number (0-based), the public, or the host.
PUBLIC = "public"
HOST = "host"
#: Who may act: a seat, the host, or chance (the match's seeded generator).
CHANCE = "chance"
Viewer = Union[int, str]
Actor = Union[int, str]
State = dict[str, Any]
Action = dict[str, Any]


@dataclass
class Result:
    """How a match ended: who won, the scores, and why."""

    winners: list[int]
    scores: list[float | int]
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "details": self.details,
        }


class Context:
    """What ``apply`` may tell the engine besides changing the state."""

    def __init__(self, names: list[str]):
        self.names = names
        self.revealed = False

    def reveal(self) -> None:
        """Mark this action as a reveal: host undo may not step back past it."""
        self.revealed = True


class Game:
    """Base class of every game's rules. Subclasses fill in the hooks below."""

    spec: GameSpec
    #: Every action type the game knows, so an unknown type gets its own error code.
    action_types: frozenset[str] = frozenset()
    #: True when some seat may not see everything (so the re-deal test must bite).
    has_secrets: bool = True

    # -- setup and flow ---------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any]) -> State:
        """The state before the first action. Chance comes after, as chance actions."""
        raise NotImplementedError

    def chance_action(self, state: State, chance: Chance) -> Action | None:
        """The chance action due now (dice, a shuffle, a draw), or None if none is."""
        return None

    def acting(self, state: State) -> list[Actor]:
        """The seats (or ``HOST``) that may act now. Empty once the match is over."""
        raise NotImplementedError

    def step(self, state: State) -> str:
        """A short name of the step the match is in (``"roll"``, ``"vote"`` ...)."""
        return str(state.get("step", ""))

    def legal_actions(self, state: State, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now, each a JSON-able dict with a type."""
        raise NotImplementedError

    def apply(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        """Apply a legal action to ``state`` in place (the engine passes a copy)."""
        move = getattr(self, "move_" + action["type"], None)
        if move is None:
            raise ActionRejected("unknown_action", f"no move {action['type']!r}")
        move(state, actor, action, ctx)

    def result(self, state: State) -> Result | None:
        """The result once the match is over, else None."""
        raise NotImplementedError

    # -- what each viewer sees --------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat or ``PUBLIC``) may know, built from an allow-list."""
        raise NotImplementedError

    def display(self, view: dict[str, Any], seat: int) -> Display:
        """The seat's screen, built from the engine's view for that seat only."""
        raise NotImplementedError

    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        """What the table display shows, built from the engine's PUBLIC view only.

        Keys (all optional): ``headline`` (one sentence), ``turn`` (seats whose turn it
        publicly is), ``scores`` (a running score per seat) with ``score_label``,
        ``lines`` (a few public facts) and ``tallies`` (revealed votes:
        ``[{"title": ..., "rows": [[label, count], ...]}]``).
        """
        result = view.get("result")
        return {"headline": "Match over" if result else view.get("step", ""),
                "scores": result["scores"] if result else None}

    # -- for tests --------------------------------------------------------------------
    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        """A copy of ``state`` with everything ``viewer`` may not see drawn again,
        consistent with what the viewer knows. The re-deal test checks that the
        viewer's view is the same for both."""
        raise NotImplementedError

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        """An upper bound on the actions (chance included) of one match."""
        raise NotImplementedError

    def describe(self, action: Action, names: list[str]) -> str:
        """A short label of an action for a screen or a log line."""
        return action["type"].replace("_", " ")
