"""A match: one game being played by some seats, and the one way to change it.

``Match.apply`` is the only door into a match's state. It checks the action against
the game's own list of legal actions, applies it to a copy, runs any chance step that
follows, writes the lot to the journal (when there is one) and only then swaps the
new state in. A rejected action, or a journal that cannot be written, leaves the match
exactly as it was.
"""
from __future__ import annotations

import copy
import json
import pickle
import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from companion.engine import board
from companion.engine.chance import Chance, Clock
from companion.engine.display import Display
from companion.engine.rules import (
    CHANCE,
    HOST,
    PUBLIC,
    TIMEKEEPER,
    Action,
    Actor,
    Context,
    Game,
    Result,
    State,
    Viewer,
)
from companion.errors import ActionRejected, JournalError

#: Engine actions the host may take in any game.
HOST_ACTIONS = ("undo", "pause", "resume", "end")
#: A chance step that never ends is a bug in a game, not a long game.
MAX_CHANCE_CHAIN = 1000


@dataclass(frozen=True)
class Entry:
    """One line of a match's journal: who did what. ``seq`` counts from 1."""

    seq: int
    actor: Actor
    action: Action

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "actor": self.actor, "action": self.action}


class JournalSink(Protocol):
    """Where a match writes its entries before they count (see :mod:`journal`)."""

    def append(self, match_id: str, entries: list[Entry], finished: bool = False,
               alongside: Callable[[], None] | None = None) -> None: ...

    def rename(self, match_id: str, names: list[str]) -> None: ...


#: The headline of a match the host ended: the game, which knows nothing of it, would
#: still name the step the match was at.
ENDED_HEADLINE = "The match has ended: the host ended it."


def clone(state: Any) -> Any:
    """A deep copy of plain data. A pickle round trip does it in C, several times
    faster than ``copy.deepcopy``, and the engine copies the state on every action."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def canonical(value: Any) -> str:
    """The one JSON spelling of a value, so ``True`` never passes for ``1``."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


class Match:
    """One match of one game. Create with :meth:`create` (or :meth:`replay`)."""

    def __init__(self, game: Game, seats: int, options: dict[str, Any], seed: str,
                 names: list[str], match_id: str, clock: Clock | None = None,
                 journal: JournalSink | None = None):
        self.game = game
        self.seats = seats
        self.options = options
        self.seed = seed
        self.names = names
        self.id = match_id
        self.clock = clock
        self.journal = journal
        self._state: State = game.setup(seats, options)
        self._meta: dict[str, Any] = {"version": 0, "draws": 0, "paused": False, "ended": False}
        # States before each action since the last chance outcome or reveal.
        self._undo: list[tuple[State, dict[str, Any]]] = []
        self._settled: tuple[State, Result | None, tuple[Actor, ...]] | None = None

    # -- making a match ---------------------------------------------------------------
    @classmethod
    def create(cls, game: Game, seats: int, options: dict[str, Any] | None = None,
               seed: str | int | None = None, names: list[str] | None = None,
               match_id: str | None = None, clock: Clock | None = None,
               journal: Any = None) -> "Match":
        """A new match, dealt and ready for its first action.

        ``journal`` (a :class:`~companion.engine.journal.Journal`) records the match
        from its first chance step on; without one the match lives in memory only.
        """
        game.spec.check_seats(seats)
        options = game.spec.resolve_options(options)
        seed = str(seed) if seed is not None else secrets.token_hex(16)
        names = cls._check_names(names, seats)
        match = cls(game, seats, options, seed, names, match_id or uuid.uuid4().hex,
                    clock=clock)
        work = match._run_chance(match._fresh_work())
        if journal is not None:
            # The header and the deal in one transaction: a kill between the two would
            # leave a match that nobody can play.
            journal.begin(match, work["entries"])
            match.journal = journal
        match._commit(work)
        return match

    @classmethod
    def replay(cls, game: Game, seats: int, options: dict[str, Any], seed: str,
               names: list[str], match_id: str, entries: Iterable[Entry],
               clock: Clock | None = None,
               each: Callable[["Match"], None] | None = None,
               opened: Callable[["Match"], None] | None = None) -> "Match":
        """The match rebuilt from its journal entries, without running the generator.

        ``each``, if given, is called with the match after every entry (to rebuild
        something that follows the match, like the table's score chart); ``opened``
        once, with the match as it was first shown: after the chance steps that set it
        up, before anyone's first action (the table's how-to lasts until then)."""
        match = cls(game, seats, game.spec.resolve_options(options), seed, names,
                    match_id, clock=clock)
        for entry in entries:
            if opened is not None and entry.actor != CHANCE:
                opened(match)
                opened = None
            if entry.seq != match.version + 1:
                raise ActionRejected(
                    "journal_gap", f"entry {entry.seq} follows {match.version}")
            match._commit(match._recorded(entry.actor, entry.action))
            if each is not None:
                each(match)
        if opened is not None:
            opened(match)
        if match.game.result(match._state) is None and match.game.chance_action(
                clone(match._state), Chance(seed, match._meta["draws"], clock)) is not None:
            # Every change is written with the chance steps it sets off: a chance step
            # still due means the journal was cut off in the middle of one.
            raise ActionRejected("journal_cut", "a chance step was never written")
        return match

    @staticmethod
    def _check_names(names: list[str] | None, seats: int) -> list[str]:
        if names is None:
            return [f"Seat {i + 1}" for i in range(seats)]
        if len(names) != seats or not all(isinstance(n, str) and n.strip() for n in names):
            raise ActionRejected("bad_names", f"give {seats} non-empty seat names")
        return [n.strip()[:40] for n in names]

    def rename(self, seat: int, name: str) -> None:
        """Seat ``seat`` is called ``name`` from now on (a phone took a bot's seat over,
        the host renamed a player). Names are words, not play: every screen words the
        match with the new name, its story's earlier lines too, and the journal keeps
        it so a restart does too."""
        if not 0 <= seat < self.seats:
            raise ActionRejected("bad_seat", f"this match has {self.seats} seats")
        names = self._check_names([*self.names[:seat], name, *self.names[seat + 1:]],
                                  self.seats)
        if names == self.names:
            return
        if self.journal is not None:
            self.journal.rename(self.id, names)
        self.names = names

    # -- asking -----------------------------------------------------------------------
    @property
    def version(self) -> int:
        """How many journal entries the match has; every change adds at least one."""
        return self._meta["version"]

    @property
    def is_over(self) -> bool:
        return self._meta["ended"] or self._outcome()[0] is not None

    def _outcome(self) -> tuple[Result | None, tuple[Actor, ...]]:
        """The game's result and who acts, asked of the game once per state: one
        refresh asks dozens of times. A change replaces the state, never edits it in
        place (``_commit``), so the state object itself says whether they still hold."""
        settled = self._settled
        if settled is None or settled[0] is not self._state:
            result = self.game.result(self._state)
            acting = () if result is not None else tuple(self.game.acting(self._state))
            settled = self._settled = (self._state, result, acting)
        return settled[1], settled[2]

    @property
    def is_paused(self) -> bool:
        return self._meta["paused"]

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and not self.is_over

    def step(self) -> str:
        if self._meta["ended"]:
            return "ended"
        return "over" if self.is_over else self.game.step(self._state)

    def acting(self) -> list[Actor]:
        """Who may act now (seats, maybe the host). Empty once the match is over."""
        if self.is_over:
            return []
        return list(self._outcome()[1])

    def legal_actions(self, actor: Actor) -> list[Action]:
        """Every action ``actor`` may take now (the host's engine actions included)."""
        if actor == HOST:
            return self._host_actions() + self._game_legal(HOST)
        return self._game_legal(actor)

    def timer(self) -> dict[str, Any] | None:
        """The step timer due now, or None (an untimed step, its option at 0, or over).

        ``key`` names this run of the timer: it changes when the step does or when the
        step's ``lap`` says to start again; ``seconds`` is its length; ``ends`` is the
        move the timekeeper makes when it runs out (None: nothing is made to happen)."""
        timed = None if self.is_over else self.game.timed(self._state)
        if timed is None:
            return None
        name, rule = timed
        seconds = self.options.get(rule.option, 0)
        if not seconds:
            return None
        return {"key": canonical([rule.span or name, rule.lap(self._state)]),
                "seconds": seconds,
                "ends": rule.ends}

    def time_up(self, key: str) -> list[Entry]:
        """Timer ``key`` has run out: the timekeeper makes the step's ending move, if it
        has one. Returns the journal entries written (none when the timer only shows).
        Raises :class:`ActionRejected` ("stale") when that timer is no longer running."""
        due = self.timer()
        if due is None or due["key"] != key or self.is_paused:
            raise ActionRejected("stale", "that timer is no longer running")
        if due["ends"] is None:
            return []
        return self.apply(TIMEKEEPER, {"type": due["ends"]})

    def result(self) -> Result | None:
        return copy.deepcopy(self._result())  # the caller's own: the kept one stays as it was

    def _result(self) -> Result | None:
        """The result as kept (not a copy: never hand it out)."""
        result = self._outcome()[0]
        if self._meta["ended"] and result is None:
            return Result(winners=[], scores=[0] * self.seats, reason="ended by the host")
        return result

    def _game_legal(self, actor: Actor) -> list[Action]:
        if self.is_over or self.is_paused or actor not in self._outcome()[1]:
            return []
        return self.game.legal_actions(self._state, actor)

    def _host_actions(self) -> list[Action]:
        if self.is_over:
            return []
        actions = [{"type": "resume"} if self.is_paused else {"type": "pause"}]
        if self.can_undo and not self.is_paused:
            actions.append({"type": "undo"})
        actions.append({"type": "end"})
        return actions

    # -- views: the one filter every outgoing path goes through --------------------
    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat number, ``PUBLIC`` or ``HOST``) may see."""
        if viewer not in (PUBLIC, HOST) and viewer not in range(self.seats):
            raise ActionRejected("unknown_seat", f"there is no seat {viewer!r}")
        # The host is usually a player too: they see the public view, plus controls.
        game_viewer = PUBLIC if viewer == HOST else viewer
        # Every viewer's view of a finished match carries the result: as plain data of
        # its own (``to_dict`` copies), not a copy of the whole Result for each viewer.
        result = self._result() if self.is_over else None
        out: dict[str, Any] = {
            "match": self.id,
            "game": self.game.spec.id,
            "title": self.game.spec.title,
            # False when the game keeps nothing from anyone: a phone shows no eye pad.
            "secrets": self.game.has_secrets,
            # No match version here: it counts every action, hidden ones included, so
            # a view that carried it would tell the table that a secret move was made.
            "names": list(self.names),
            "viewer": viewer,
            "step": self.step(),
            "over": self.is_over,
            "paused": self.is_paused,
            "result": result.to_dict() if result else None,
            "state": self.game.view(self._state, game_viewer),
        }
        if isinstance(viewer, int):
            legal = self.legal_actions(viewer)
            out["you"] = {"seat": viewer, "name": self.names[viewer],
                          "may_act": bool(legal), "legal": legal}
        if viewer == HOST:
            out["host"] = {"legal": self.legal_actions(HOST), "options": self.options,
                           "can_undo": self.can_undo}
        return out

    def summary(self, public: dict[str, Any] | None = None) -> dict[str, Any]:
        """The table display's summary, built by the game from the public view alone
        (``public``: that view, when the caller has just built it)."""
        out: dict[str, Any] = {
            "game": self.game.spec.id, "title": self.game.spec.title, "headline": "",
               "turn": [], "scores": None, "score_label": "", "lines": [], "tallies": []}
        if public is not None and public.get("viewer") != PUBLIC:
            raise ValueError("a summary from a view that is not the public one")
        out.update(self.game.summary(public if public is not None else self.view(PUBLIC)))
        if self._meta["ended"]:
            out["headline"] = ENDED_HEADLINE
        return out

    def display(self, seat: int, view: dict[str, Any] | None = None) -> Display:
        """The seat's screen model, built from that seat's view and nothing else
        (``view``: that seat's own view, when the caller has just built it)."""
        if view is not None and view.get("viewer") != seat:
            raise ValueError(f"seat {seat}'s screen from another viewer's view")
        return self.game.display(view if view is not None else self.view(seat), seat)

    def board(self, public: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The table's board parts, built by the game from the public view alone
        (``public``: that view, when the caller has just built it). See docs/boards.md."""
        if public is not None and public.get("viewer") != PUBLIC:
            raise ValueError("a board from a view that is not the public one")
        parts = self.game.board(public if public is not None else self.view(PUBLIC))
        if self._meta["ended"]:  # the game's headline still names the step it was at
            parts = [{**part, "text": ENDED_HEADLINE} if part.get("part") == "headline"
                     else part for part in parts]
        return board.checked(parts, f"{self.game.spec.id}'s board")

    def panel(self, seat: int, view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Seat ``seat``'s private panel, built from that seat's own view and nothing
        else (``view``: that view, when the caller has just built it)."""
        if view is not None and view.get("viewer") != seat:
            raise ValueError(f"seat {seat}'s panel from another viewer's view")
        parts = self.game.panel(view if view is not None else self.view(seat), seat)
        return board.checked(parts, f"{self.game.spec.id}'s panel")

    def fork(self) -> "Match":
        """An independent copy of the match, detached from the journal: to try an
        action without committing it (tests, hints)."""
        twin = copy.copy(self)
        twin._state = clone(self._state)
        twin._meta = dict(self._meta)
        twin._undo = list(self._undo)  # saved states are never changed in place
        twin.journal = None
        return twin

    def redealt(self, viewer: Viewer, rng: Any) -> "Match":
        """A fork in which everything ``viewer`` may not see is drawn again by the game
        (``Game.redeal``): the re-deal test compares what ``viewer`` sees in both."""
        twin = self.fork()
        twin._state = self.game.redeal(clone(self._state), viewer, rng)
        return twin

    def snapshot(self) -> dict[str, Any]:
        """The whole serialised state (secrets included): for the journal's checks and
        tests, never for a player."""
        return {"state": clone(self._state), "meta": dict(self._meta)}

    # -- acting -----------------------------------------------------------------------
    def apply(self, actor: Actor, action: Any,
              alongside: Callable[[], None] | None = None) -> list[Entry]:
        """Apply ``actor``'s action and the chance steps that follow it.

        Returns the journal entries written. Raises :class:`ActionRejected` (and
        changes nothing) when the action is not one of ``legal_actions(actor)``, and
        :class:`JournalError` (and changes nothing) when the journal cannot write it.

        ``alongside``: work that reads the match as the action leaves it (the table
        builds what every screen and page will show), done while the journal's commit
        waits for the disk. Whoever passes it holds back what it built until this
        returns: if the write fails, the match is put back as it was.
        """
        action = self._well_formed(action)
        if actor == HOST and action["type"] in HOST_ACTIONS:
            work = self._host(action)
        else:
            legal = self._check_legal(actor, action)
            work = self._act(actor, legal)
            work = self._run_chance(work)
        # The new state goes in first (``alongside`` reads it) and comes out again if
        # the journal cannot write it.
        before = (self._state, self._meta, list(self._undo))
        self._commit(work)
        try:
            self._write(work, alongside)
        except JournalError:
            self._state, self._meta, self._undo = before
            raise
        return work["entries"]

    def _well_formed(self, action: Any) -> Action:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ActionRejected("bad_action", "an action is an object with a 'type'")
        try:
            text = canonical(action)
        except (TypeError, ValueError):
            raise ActionRejected("bad_action", "an action holds only JSON values") from None
        if len(text) > 4096:
            raise ActionRejected("bad_action", "that action is far too large")
        return json.loads(text)

    def _check_legal(self, actor: Actor, action: Action) -> Action:
        kind = action["type"]
        if actor not in (HOST, TIMEKEEPER) and actor not in range(self.seats):
            raise ActionRejected("unknown_seat", f"there is no seat {actor!r}")
        if self._meta["ended"] or self.is_over:
            raise ActionRejected("match_over", "the match is over")
        if self.is_paused:
            raise ActionRejected("paused", "the host has paused the match")
        if actor == TIMEKEEPER:
            due = self.timer()
            if due is None or due["ends"] is None or action != {"type": due["ends"]}:
                raise ActionRejected("not_now", "no timer of this step ends that way")
            return action
        if kind not in self.game.action_types:
            raise ActionRejected("unknown_action",
                                 f"{self.game.spec.title} has no action {kind!r}")
        if actor not in self._outcome()[1]:
            raise ActionRejected("not_your_turn", "it is not this seat's turn to act")
        same_type = [a for a in self.game.legal_actions(self._state, actor)
                     if a["type"] == kind]
        wanted = canonical(action)
        for legal in same_type:
            # Equal values first (cheap); the spelling then tells True from 1, which
            # Python holds equal. Equal spellings mean equal values, so nothing is lost.
            if legal == action and canonical(legal) == wanted:
                return legal
        raise self._why_illegal(action, same_type)

    @staticmethod
    def _why_illegal(action: Action, same_type: list[Action]) -> ActionRejected:
        kind = action["type"]
        if not same_type:
            return ActionRejected("not_now", f"{kind!r} is not possible at this step")
        fields = set().union(*(a.keys() for a in same_type))
        missing = sorted(fields - action.keys())
        extra = sorted(action.keys() - fields)
        if missing:
            return ActionRejected("missing_field", f"{kind!r} needs {', '.join(missing)}")
        if extra:
            return ActionRejected("unknown_field", f"{kind!r} takes no {', '.join(extra)}")
        for name in sorted(fields - {"type"}):
            allowed = {canonical(a.get(name)) for a in same_type}
            if canonical(action.get(name)) not in allowed:
                shown = ", ".join(sorted(allowed)) if len(allowed) <= 12 else "another value"
                return ActionRejected(
                    "bad_value", f"{name!r} cannot be {action.get(name)!r} now (try {shown})")
        return ActionRejected("bad_value", f"that combination of {kind!r} is not possible")

    # -- the work of one change, applied to copies ----------------------------------
    def _fresh_work(self) -> dict[str, Any]:
        return {"state": clone(self._state), "meta": dict(self._meta),
                "entries": [], "barrier": False, "undo": None}

    def _context(self) -> Context:
        """What a move may tell the engine; the game's vote policy comes along."""
        return Context(self.names, self.game.ballots_undoable)

    def _act(self, actor: Actor, action: Action) -> dict[str, Any]:
        work = self._fresh_work()
        ctx = self._context()
        self.game.apply(work["state"], actor, action, ctx)
        work["barrier"] = ctx.revealed
        self._add_entry(work, actor, action)
        return work

    def _run_chance(self, work: dict[str, Any]) -> dict[str, Any]:
        for _ in range(MAX_CHANCE_CHAIN):
            if self.game.result(work["state"]) is not None:
                return work
            chance = Chance(self.seed, work["meta"]["draws"], self.clock)
            outcome = self.game.chance_action(work["state"], chance)
            if outcome is None:
                return work
            outcome = json.loads(canonical(outcome))
            self.game.apply(work["state"], CHANCE, outcome, self._context())
            work["meta"]["draws"] += 1
            work["barrier"] = True
            self._add_entry(work, CHANCE, outcome)
        raise RuntimeError(f"{self.game.spec.id}: chance step never ends")

    def _add_entry(self, work: dict[str, Any], actor: Actor, action: Action) -> None:
        work["meta"]["version"] += 1
        work["entries"].append(Entry(work["meta"]["version"], actor, action))

    def _host(self, action: Action) -> dict[str, Any]:
        if canonical(action) not in {canonical(a) for a in self._host_actions()}:
            if self.is_over:
                raise ActionRejected("match_over", "the match is over")
            raise ActionRejected("not_now", f"the host cannot {action['type']} now")
        work = self._fresh_work()
        kind = action["type"]
        if kind == "undo":
            before_state, before_meta = self._undo[-1]
            work["state"] = clone(before_state)
            work["meta"] = dict(before_meta, version=self.version)
            work["undo"] = "pop"
        else:
            work["meta"]["paused"] = kind == "pause"
            work["meta"]["ended"] = kind == "end"
            work["undo"] = "keep"
        self._add_entry(work, HOST, {"type": kind})
        return work

    def _recorded(self, actor: Actor, action: Action) -> dict[str, Any]:
        """One journal entry replayed: the recorded outcome, no generator, no checks of
        legality beyond the game's own (the journal only holds accepted actions)."""
        if actor == HOST and action["type"] in HOST_ACTIONS:
            return self._host(action)
        if actor == CHANCE:
            work = self._fresh_work()
            self.game.apply(work["state"], CHANCE, action, self._context())
            work["meta"]["draws"] += 1
            work["barrier"] = True
            self._add_entry(work, CHANCE, action)
            return work
        return self._act(actor, self._check_legal(actor, action))

    def _write(self, work: dict[str, Any],
               alongside: Callable[[], None] | None = None) -> None:
        if self.journal is not None and work["entries"]:
            # The change that ends the match says so in the same transaction: one
            # flush to disk, not two (on an SD card each one is tens of milliseconds).
            over = work["meta"]["ended"] or self.game.result(work["state"]) is not None
            self.journal.append(self.id, work["entries"], finished=over,
                                alongside=alongside)
        elif alongside is not None:
            alongside()  # nothing to write: nothing to wait for

    def _commit(self, work: dict[str, Any]) -> None:
        if work["undo"] == "pop":
            self._undo.pop()
        elif work["undo"] != "keep":
            if work["barrier"]:
                self._undo.clear()
            elif work["entries"]:
                self._undo.append((self._state, dict(self._meta)))
        self._state = work["state"]
        self._meta = work["meta"]
