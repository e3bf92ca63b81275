"""press-to-screen and press-to-phones with a bot thinking (issue 30, docs/bots.md).

A table's bot searches in a process of its own, niced (``companion.table.bots``). This
runs the two press benchmarks twice: once as they are, once while a bot's worker
searches without a pause (hard-level MIT Mutiny decisions back to back, through the
table's own :class:`~companion.table.bots.SearchWorker`: the most a bot ever asks of the
machine), and prints p50 and p99 of each. Figures are printed, never asserted.

    python -m bench.bot_thinking [--presses 300] [--phone-presses 100]
"""
from __future__ import annotations

import argparse
import itertools
import random
import threading
from typing import Any

import companion.games
from bench import press_to_phones, press_to_screen
from bench.stats import machine, percentile
from companion.bots import Bot, knowledge_of, level
from companion.engine import Match
from companion.table.bots import SearchWorker


def _a_decision(seed: str = "bench-bot") -> tuple[Any, int]:
    """A MIT Mutiny position where some seat has several choices: (match, seat)."""
    rng = random.Random(seed)
    match = Match.create(companion.games.get("mit-mutiny"), 4, seed=seed)
    while True:
        seats = [s for s in match.acting() if isinstance(s, int)]
        for seat in seats:
            if len(match.legal_actions(seat)) > 2:
                return match, seat
        seat = rng.choice(seats)
        match.apply(seat, rng.choice(match.legal_actions(seat)))


class BotThinking:
    """A search worker kept busy while the block runs; counts the searches made."""

    def __init__(self) -> None:
        self.worker = SearchWorker()
        self.searches = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._think, daemon=True, name="bench-bot")

    def _think(self) -> None:
        match, seat = _a_decision()
        knowledge = knowledge_of(match, seat)
        for ticket in itertools.count(1):
            if self._stop.is_set():
                return
            self.worker.ask(ticket, Bot(match.game, seat, level("hard", seconds=4.0),
                                        seed=ticket), knowledge)
            if self.worker.answer(ticket, 30.0) is not None:
                self.searches += 1

    def __enter__(self) -> "BotThinking":
        self.worker.start()
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        self._thread.join(35)
        self.worker.close()


def run(presses: int = 300, phone_presses: int = 100) -> dict[str, dict[str, list[float]]]:
    """Each variant's latencies in ms: ``screen`` (the acting seat's screen) and
    ``phones`` (every phone and table display told)."""
    out: dict[str, dict[str, list[float]]] = {}
    for variant in ("no bot", "bot thinking"):
        if variant == "no bot":
            screen = press_to_screen.run(presses=presses)["act"]
            phones = press_to_phones.run(presses=phone_presses)
        else:
            with BotThinking() as bot:
                screen = press_to_screen.run(presses=presses)["act"]
                phones = press_to_phones.run(presses=phone_presses)
            print(f"(the bot's worker made {bot.searches} hard searches meanwhile)")
        out[variant] = {"screen": screen, "phones": phones}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--phone-presses", type=int, default=100)
    args = parser.parse_args()
    found = run(args.presses, args.phone_presses)
    print(f"machine: {machine()}")
    print(f"{'variant':<14} {'what':<16} {'n':>5} {'p50 ms':>8} {'p99 ms':>8}")
    for variant, rows in found.items():
        for what, samples in rows.items():
            print(f"{variant:<14} {'press-to-' + what:<16} {len(samples):>5}"
                  f" {percentile(samples, 0.5):>8.2f} {percentile(samples, 0.99):>8.2f}")


if __name__ == "__main__":
    main()
