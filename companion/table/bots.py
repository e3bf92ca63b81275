"""The table's bots: who sits in which empty seat, how long each decision takes, and
the process that searches (docs/bots.md, "At the table").

- **Seating.** A bot sits only in an empty seat (no player claimed it, no phone holds
  it), seated by the host or seat 1 while no match is played; rematches and other games
  keep it. Every page names the seat by the bot's level ("Bot (normal)"); the seat's own
  screen shows that name, never the seat's view (its buttons cannot read or play the
  bot's hand). A phone takes the seat over by its code (the host shows it): the bot
  stands up and the seat is told.
- **Pace.** When the seat's choices change and it has some, its turn begins: a pace of a
  few seconds is drawn by a generator seeded from the public view alone (and the seat
  and level), the search is sent to the worker with a time cap that ends well before
  the pace does, and the bot acts when the pace is over, however soon the search ended.
  Two matches that differ only in secrets give the same pace, on the table's clock.
- **The worker.** One process of its own (``multiprocessing``, spawned once, in the
  idle scheduling class), sent only what :func:`~companion.bots.knowledge_of` gives and the seat's
  :class:`~companion.bots.Bot` (level, generator, memory): never the match or its state.
  If it dies or does not answer, the bot plays a random legal action (logged) and the
  worker starts again for the next decision.
- **Real pieces.** In a match whose options put pieces on the table (entered dice, real
  cards or islands), the bot's entries (``enter`` actions) are drawn at random, a fair
  roll that is never searched, and after each of its open moves the table display asks
  a player to copy it with the real pieces ("Move the bot's pieces: ...").
- **Kept.** The table's notes (``table.sqlite3``, setting ``bots``) keep each bot's seat,
  level and seed with the match it plays: a resumed match re-seats its bots.
"""
from __future__ import annotations

import hashlib
import itertools
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from companion.bots import LEVELS, Bot, SeatKnowledge, knowledge_of
from companion.bots import level as bot_level
from companion.clocks import Clock, Timer
from companion.engine import PUBLIC, Display, Match
from companion.engine.match import canonical
from companion.errors import MutinyError

log = logging.getLogger(__name__)

#: Seconds a decision takes at each level: drawn between the two.
PACES = {"easy": (2.0, 3.5), "normal": (2.5, 4.5), "hard": (4.0, 6.0)}
#: The share of the pace the search may use; the rest is margin for a busy machine. It
#: is split between the bots thinking at once (the worker searches one at a time).
SEARCH_SHARE = 0.6
#: How long past its pace a bot waits for a worker that has not answered (a loaded
#: machine; a test's manual clock) before it plays a random legal action.
LATE_SECONDS = 10.0
#: Fixes every bot's pace to this many seconds (tests, demos): ``MUTINY_BOT_PACE=0.3``.
PACE_VARIABLE = "MUTINY_BOT_PACE"
#: (option, value) pairs by which a game puts real pieces on the table.
REAL_PIECES = frozenset({("dice", "table"), ("islands", "physical"),
                         ("cup_draws", "table"), ("mode", "cards")})
#: The table's notes setting that keeps the bots (docs/bots.md).
SETTING = "bots"
#: What a seat taken from a bot is told (on its screen and phone; 21 columns at most).
TAKEN_FROM_BOT = "Took over from bot"


def bot_name(level: str) -> str:
    """How every page names a bot's seat: ``Bot (normal)``."""
    return f"Bot ({level})"


def real_pieces(match: Match) -> bool:
    """Does ``match`` use real pieces on the table (its options say so)?"""
    return any((name, value) in REAL_PIECES for name, value in match.options.items()
               if isinstance(value, str))


class Pace:
    """How long a bot's decision takes, in seconds on the table's clock."""

    def __init__(self, fixed: float | None = None):
        self.fixed = fixed

    @classmethod
    def from_env(cls) -> "Pace":
        """Every level's pace, unless :data:`PACE_VARIABLE` fixes it."""
        text = os.environ.get(PACE_VARIABLE, "").strip()
        if not text:
            return cls()
        try:
            return cls(max(0.0, float(text)))
        except ValueError:
            log.warning("%s=%r is not a number of seconds: the levels' paces", PACE_VARIABLE,
                        text)
            return cls()

    def draw(self, level: str, public: str) -> float:
        """The pace of one decision, from ``public`` (what the whole table sees) alone."""
        if self.fixed is not None:
            return self.fixed
        low, high = PACES[level]
        seed = hashlib.sha256(f"{level}|{public}".encode()).hexdigest()
        return round(random.Random(seed).uniform(low, high), 3)


# -- the worker process ----------------------------------------------------------------
def _step_aside() -> None:
    """The worker gives way to the table: Linux's idle class where there is one (it
    runs only on a core nothing else wants; nice 10, as at first, still took about a
    tenth of a busy core, and on two emulated cores a phone's update waited for it),
    and the lowest nice as well (any other system, or a kernel that refuses it)."""
    os.nice(19 - os.nice(0))
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
        except OSError:
            log.info("bot search worker: no idle scheduling class here, nice 19 only")


def _search_loop(conn: Any) -> None:
    """The worker: stepped aside for the table (:func:`_step_aside`), then one decision
    per request until told to stop (``None``) or its table goes (end of the pipe)."""
    _step_aside()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        ticket, bot, knowledge = request
        try:
            action = bot.choose(knowledge)
            conn.send((ticket, action, bot.rng.getstate(), bot.last))
        except Exception as exc:  # noqa: BLE001 - a game's bot hooks failed: the table falls back
            conn.send((ticket, None, None, {"error": repr(exc)}))


class SearchWorker:
    """The one process where every bot of the table searches, started on first use.
    Thread-safe: the table asks, the bots' timers collect the answers."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._send = threading.Lock()
        self._answers: dict[int, tuple] = {}
        self._asked: dict[int, int] = {}  # ticket -> the generation it was sent to
        self._process: Any = None
        self._conn: Any = None
        self._generation = 0
        self._closed = False

    @property
    def pid(self) -> int | None:
        """The worker's process id (None until started, or once it died)."""
        with self._lock:
            alive = self._process is not None and self._process.is_alive()
            return self._process.pid if alive else None

    def start(self) -> None:
        """Start the process now (a bot sat down: its first decision need not wait)."""
        with self._lock:
            if not self._closed and (self._process is None or not self._process.is_alive()):
                self._spawn()

    def _spawn(self) -> None:
        # Callers hold the lock. Spawned, not forked: the table's threads and locks stay
        # behind, and the worker imports only what a bot needs.
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=_search_loop, args=(theirs,), daemon=True,
                                  name="mutiny-bot-search")
        process.start()
        theirs.close()
        self._generation += 1
        self._process, self._conn = process, mine
        threading.Thread(target=self._read, args=(mine, self._generation), daemon=True,
                         name="bot-answers").start()
        log.info("bot search worker started (pid %s)", process.pid)

    def _read(self, conn: Any, generation: int) -> None:
        while True:
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                if answer[0] in self._asked:
                    self._answers[answer[0]] = answer
                self._lock.notify_all()
        with self._lock:
            if generation == self._generation:
                self._process = None  # dead: the next question starts another
            self._lock.notify_all()

    def ask(self, ticket: int, bot: Bot, knowledge: SeatKnowledge) -> None:
        """Send one decision to the worker (starting it if it is not running)."""
        with self._lock:
            if self._closed:
                return
            if self._process is None or not self._process.is_alive():
                self._spawn()
            self._asked[ticket] = self._generation
            conn = self._conn
        try:
            with self._send:
                conn.send((ticket, bot, knowledge))
        except (OSError, ValueError) as exc:
            log.warning("bot search worker: could not send a decision (%s)", exc)

    def answer(self, ticket: int, timeout: float | None) -> tuple | None:
        """The worker's answer to ``ticket``, waiting at most ``timeout`` seconds (None:
        until it answers or dies); None when it died, was never asked, or did not answer
        in time."""
        deadline = time.monotonic() + (timeout if timeout is not None else float("inf"))
        with self._lock:
            try:
                while ticket not in self._answers:
                    left = deadline - time.monotonic()
                    sent_to = self._asked.get(ticket)
                    if left <= 0 or self._closed or sent_to != self._generation or \
                            self._process is None:
                        return None
                    self._lock.wait(min(left, 0.5))
                return self._answers.pop(ticket)
            finally:
                self._asked.pop(ticket, None)

    def answered(self, ticket: int) -> bool:
        """Has the worker answered ``ticket`` (the answer waiting for its pace)?"""
        with self._lock:
            return ticket in self._answers

    def forget(self, ticket: int) -> None:
        """A decision no longer wanted: its answer, when it comes, is dropped."""
        with self._lock:
            self._asked.pop(ticket, None)
            self._answers.pop(ticket, None)

    def close(self) -> None:
        """Stop the worker (idempotent): asked to end, then ended."""
        with self._lock:
            self._closed = True
            process, conn = self._process, self._conn
            self._process = None
            self._lock.notify_all()
        if process is None:
            return
        try:
            with self._send:
                conn.send(None)
        except (OSError, ValueError):
            pass
        process.join(2)
        if process.is_alive():
            process.terminate()
            process.join(2)
        conn.close()


# -- the bots at the table -------------------------------------------------------------
@dataclass
class Thinking:
    """One decision under way: the turn it answers, and when it is due."""

    match_id: str
    choices: str  # the seat's legal actions when its turn began, spelled
    began: float
    due: float
    ticket: int
    chosen: dict[str, Any] | None = None  # decided at once (one choice, an entry)
    timer: Timer | None = None


@dataclass
class Seated:
    """A bot in a seat: its level and seed; this match's :class:`Bot` (its memory)."""

    level: str
    seed: str
    bot: Bot | None = None
    match_id: str | None = None
    thinking: Thinking | None = None


class TableBots:
    """The bots of one table. The table calls it under its lock: :meth:`display` and
    :meth:`payload` as it builds, :meth:`watch` with every seat's view, :meth:`follow`
    after every change is shown. A bot acts through ``submit(seat, action)``, as a
    seat's phone does (the journal's actor is the seat)."""

    def __init__(self, clock: Clock, lock: Any, match: Callable[[], Match | None],
                 submit: Callable[[int, Any], Any], phones: Callable[[int], list],
                 notes: Any = None, pace: Pace | None = None,
                 worker: SearchWorker | None = None):
        self.clock = clock
        self.lock = lock
        self._match = match
        self._submit = submit
        self._phones = phones
        self.notes = notes
        self.pace = pace or Pace.from_env()
        self.worker = worker or SearchWorker()
        self._owns_worker = worker is None
        self.seats: dict[int, Seated] = {}
        #: The latest decisions, oldest first: seat, began, due, acted (the table's
        #: clock) and how (``search``, ``at_once``, ``fallback``). For tests and the log.
        self.acted: list[dict[str, Any]] = []
        #: False on a twin table (``Table.twin``): shown alike, never thinking.
        self.active = True
        #: False: every search takes its level's whole worlds, never cut short by a
        #: clock, and the bot waits for it past its pace however long it takes. For
        #: tables that must decide alike wherever they run (the twin tables of
        #: tests/secrecy): a clock that bites makes the choice depend on the load.
        self.search_clock = True
        self._tickets = itertools.count(1)
        self._moved: tuple[int, str] | None = None  # (seat, label) to copy with real pieces
        self._acting: int | None = None
        self._kept: Any = None

    # -- who sits where -----------------------------------------------------------------
    def sits(self, seat: int) -> bool:
        return seat in self.seats

    def name(self, seat: int) -> str:
        return bot_name(self.seats[seat].level)

    def named(self, names: list[str]) -> list[str]:
        """``names`` with each bot's seat named by the bot."""
        return [self.name(s) if s in self.seats else name for s, name in enumerate(names)]

    def sit(self, seat: int, level: str, seed: str | None = None) -> None:
        """A bot at ``level`` sits in ``seat`` (the table checked the seat is empty)."""
        if level not in LEVELS:
            raise MutinyError(f"no bot level {level!r}")
        self.seats[seat] = Seated(level, seed if seed is not None else secrets.token_hex(8))
        self._keep()
        if self.active:
            self.worker.start()

    def stand(self, seat: int) -> None:
        """The bot in ``seat`` stands up (its decision under way is dropped)."""
        seated = self.seats.pop(seat, None)
        if seated is not None:
            self._drop(seated)
            self._keep()

    def resume(self, match: Match) -> list[int]:
        """Re-seat the bots that played ``match`` before a restart; their seats."""
        kept = self.notes.setting(SETTING, None) if self.notes is not None else None
        if not kept or kept.get("match") != match.id:
            return []
        for seat, bot in kept.get("seats", {}).items():
            if bot.get("level") in LEVELS and 0 <= int(seat) < match.seats:
                self.seats[int(seat)] = Seated(bot["level"], str(bot.get("seed", "")))
        if self.seats and self.active:
            self.worker.start()
        return sorted(self.seats)

    def _keep(self, match: Match | None = None) -> None:
        """Note the bots, with the match they play, in the table's notes."""
        match = match if match is not None else self._match()
        record = {"match": match.id if match is not None else None,
                  "seats": {str(s): {"level": b.level, "seed": b.seed}
                            for s, b in sorted(self.seats.items())}}
        if self.notes is not None and self.active and record != self._kept:
            self._kept = record
            self.notes.set(SETTING, record)

    # -- what the table shows -----------------------------------------------------------
    def display(self, seat: int, match: Match | None, views: Any) -> Display:
        """The bot's seat screen: its name, and whether it is thinking (its light,
        which the whole table sees); never the seat's own view."""
        name = self.name(seat)
        if match is None:
            return Display(title=name, lines=("A bot sits here.", "It plays every game."))
        if seat >= match.seats:
            return Display(title=name, lines=("This bot sits out", "this match."))
        led = match.display(seat, views[seat]).led
        thinking = led in ("on", "blink")
        return Display(title=name, lines=("Thinking..." if thinking else "A bot plays here.",),
                       led=led)

    def payload(self, displays: list[Display]) -> list[dict[str, Any] | None]:
        """Each seat's bot for the pages (None: no bot): its level, name and whether it
        is thinking (shown by its light alone, so a secret step shows nothing)."""
        return [{"level": self.seats[s].level, "name": self.name(s),
                 "thinking": s < len(displays) and displays[s].led in ("on", "blink")}
                if s in self.seats else None for s in range(len(displays))]

    def pieces(self, match: Match | None, acting: Any) -> str | None:
        """What the table display asks of the players after a bot's open move in a
        match with real pieces; kept until someone else acts."""
        if acting is not None and acting != self._acting:
            self._moved = None
        if match is None or self._moved is None or not real_pieces(match):
            return None
        seat, label = self._moved
        who = self.name(seat) if seat in self.seats else "the bot"
        return f"Move the bot's pieces: {who} (seat {seat + 1}) chose {label}."

    def watch(self, match: Match | None, views: Any) -> None:
        """Each bot that remembers is shown its seat's view (every change)."""
        if match is None:
            return
        for seat in self.seats:
            if seat < match.seats:
                bot = self._bot(seat, match)
                if bot.watches:
                    bot.watch(views[seat])

    def _bot(self, seat: int, match: Match) -> Bot:
        seated = self.seats[seat]
        if seated.bot is None or seated.match_id != match.id:
            seated.bot = Bot(match.game, seat, seated.level, seed=seated.seed)
            seated.match_id = match.id
        return seated.bot

    # -- turns --------------------------------------------------------------------------
    def follow(self, match: Match | None) -> None:
        """After every change: a bot whose turn began starts thinking; one whose turn
        ended (or whose choices changed) drops what it was thinking."""
        if not self.active:
            return
        if match is not None:
            self._keep(match)
        starting = []
        for seat, seated in sorted(self.seats.items()):
            legal = match.legal_actions(seat) if match and seat < match.seats else []
            if legal and self._phones(seat):  # never for a seat a phone holds
                log.warning("seat %d: a phone holds it: the bot stands up", seat + 1)
                self.stand(seat)
                continue
            choices = canonical(legal)
            now = seated.thinking
            if match is not None and now is not None and legal and \
                    now.match_id == match.id and now.choices == choices:
                continue
            self._drop(seated)
            if legal:
                starting.append((seat, seated, legal, choices))
        if starting and match is not None:  # a seat has legal actions: there is a match
            public = match.view(PUBLIC)
            said = canonical([public["step"], public["state"]])
            thinking = sum(s.thinking is not None for s in self.seats.values()) + len(starting)
            for seat, seated, legal, choices in starting:
                self._begin(seat, seated, match, legal, choices, said, thinking)

    def _begin(self, seat: int, seated: Seated, match: Match, legal: list, choices: str,
               said: str, thinking: int) -> None:
        pace = self.pace.draw(seated.level, f"{seat}|{said}")
        now = self.clock.now()
        bot = self._bot(seat, match)
        ticket = next(self._tickets)
        think = Thinking(match.id, choices, now, now + pace, ticket)
        if len(legal) == 1:
            think.chosen = legal[0]
        elif all(a.get("type") == "enter" for a in legal):
            # Real pieces' faces: a fair draw, never searched (a bot picks no die).
            think.chosen = bot.rng.choice(legal)
        else:
            knowledge = knowledge_of(match, seat)  # the fence: nothing of the match goes
            cap = min(LEVELS[seated.level].seconds or pace, SEARCH_SHARE * pace / thinking) \
                if self.search_clock else None
            sent = Bot(match.game, seat, bot_level(seated.level, seconds=cap))
            sent.rng, sent.memory = bot.rng, bot.memory
            self.worker.ask(ticket, sent, knowledge)
        seated.thinking = think
        think.timer = self.clock.call_later(pace, lambda: self._due(seat, think))

    def _drop(self, seated: Seated) -> None:
        think, seated.thinking = seated.thinking, None
        if think is not None:
            if think.timer is not None:
                think.timer.cancel()
            self.worker.forget(think.ticket)

    def _due(self, seat: int, think: Thinking) -> None:
        """The pace is over: the bot acts (on the clock's thread, the table lock taken
        only once the answer is in)."""
        answer = None
        if think.chosen is None:
            answer = self.worker.answer(think.ticket,
                                        LATE_SECONDS if self.search_clock else None)
        with self.lock:
            seated = self.seats.get(seat)
            match = self._match()
            if seated is None or seated.thinking is not think or match is None or \
                    match.id != think.match_id or not self.active:
                return
            seated.thinking = None
            legal = match.legal_actions(seat)
            if not legal:
                return
            action, how = think.chosen, "at_once"
            if action is None:
                action, how = (answer[1], "search") if answer and answer[1] else (None, "")
                if answer and answer[2] is not None and seated.bot is not None:
                    seated.bot.rng.setstate(answer[2])
            if action not in legal:
                log.warning("seat %d's bot: no answer from its search (%s): a random legal"
                            " action instead", seat + 1,
                            answer[3] if answer else "the worker died or was late")
                action, how = random.Random().choice(legal), "fallback"
            self._note_move(seat, match, action)
            self.acted = self.acted[-199:] + [{"seat": seat, "began": think.began,
                                               "due": think.due, "acted": self.clock.now(),
                                               "how": how, "action": action}]
            self._acting = seat
            try:
                self._submit(seat, action)
            except MutinyError as exc:  # (a journal that cannot write: logged, tried again)
                log.warning("seat %d's bot could not act: %s", seat + 1, exc)
                self.follow(match)
            finally:
                self._acting = None

    def _note_move(self, seat: int, match: Match, action: dict[str, Any]) -> None:
        """Remember the bot's move for the real pieces' line: an open choice's words
        (a secret choice moves no piece anyone may see)."""
        self._moved = None
        if real_pieces(match):
            shown = match.display(seat)
            found = next((c for c in shown.choices if c.action == action), None)
            if found is not None and not found.secret:
                self._moved = (seat, found.label)

    # -- twins and closing ---------------------------------------------------------------
    def copy(self, lock: Any, match: Callable[[], Match | None],
             submit: Callable[[int, Any], Any]) -> "TableBots":
        """A still copy for a twin table: the same bots, shown alike, never thinking."""
        twin = TableBots(self.clock, lock, match, submit, self._phones, None, self.pace,
                         self.worker)
        twin.active = False
        twin.seats = {s: Seated(b.level, b.seed) for s, b in self.seats.items()}
        twin._moved = self._moved
        return twin

    def close(self) -> None:
        """Drop every decision under way and stop the worker (idempotent)."""
        with self.lock:
            self.active = False
            for seated in self.seats.values():
                self._drop(seated)
        if self._owns_worker:
            self.worker.close()
