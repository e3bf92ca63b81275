"""The lobby: what the table shows between matches, and the two actions it takes itself.

With no match, seat 1 picks a game and the number of players, from its buttons or its
phone, so a group needs no host page to start playing. Each choice is a whole decision
("Booty Dice, 4 players") filed under its game (``Choice.group``): the seat's buttons
page into a game and pick the number of players, and back out for free; the phone shows
the same menu nested. When a match is over, seat 1 gets "Rematch" (the same game, seats,
names and options, dealt again) and "Another game" (back here, every phone still
joined).

Lobby actions are told apart from a game's by their type, one of :data:`ACTIONS`; the
table handles them itself and they never reach the engine.
"""
from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlsplit

import companion.games
from companion.bots import LEVELS
from companion.engine import Choice, Display

#: Start a match: ``{"type": START, "game": id, "players": n}``.
START = "lobby_start"
#: Leave a finished match for the lobby: ``{"type": NEW_MATCH}``.
NEW_MATCH = "lobby_back"
#: Play the finished match again: ``{"type": REMATCH}``.
REMATCH = "lobby_rematch"
#: Seat a bot in an empty seat: ``{"type": BOT, "seat": 2, "level": "easy"}``.
BOT = "lobby_bot"
#: Stand a seat's bot up: ``{"type": BOT_STANDS, "seat": 2}``.
BOT_STANDS = "lobby_bot_stands"
#: Every action type the lobby handles.
ACTIONS = frozenset({START, NEW_MATCH, REMATCH, BOT, BOT_STANDS})

TITLE = "Mutiny Table"

#: The public summary while no match is played (the same keys as a match's summary).
SUMMARY: dict[str, Any] = {
    "game": None, "title": TITLE, "headline": "Seat 1 is picking a game", "turn": [0],
    "scores": None, "score_label": "", "lines": [], "tallies": []}


def is_lobby_action(action: Any) -> bool:
    """True when ``action`` is one the table handles itself, not one for the match."""
    kind = action.get("type") if isinstance(action, dict) else None
    return isinstance(kind, str) and kind in ACTIONS


def start_choices(seat_count: int) -> tuple[Choice, ...]:
    """Every game this table can seat, with each number of players it can take, as
    whole decisions grouped by game."""
    return tuple(
        Choice(f"{game.spec.title}, {players} players",
               {"type": START, "game": game_id, "players": players},
               group=(game.spec.title,), short=f"{players} players")
        for game_id, game in companion.games.GAMES.items()
        for players in range(game.spec.min_seats, min(game.spec.max_seats, seat_count) + 1))


def new_match_choice() -> Choice:
    """Seat 1's choice once a match is over: back to picking a game."""
    return Choice("Another game: back to picking one", {"type": NEW_MATCH},
                  short="Another game")


def rematch_choice(title: str) -> Choice:
    """Seat 1's choice once a match is over: the same game again, same players."""
    return Choice(f"Rematch: {title} again, same players", {"type": REMATCH},
                  short="Rematch")


def play_again_choices(title: str) -> tuple[Choice, ...]:
    """What seat 1 (buttons or phone) is offered once a match of ``title`` is over."""
    return rematch_choice(title), new_match_choice()


def bot_choices(empty: list[int], bots: dict[int, str]) -> tuple[Choice, ...]:
    """Seat 1's choices under "Bots": a bot of each level in each ``empty`` seat, and
    each seated bot (``bots``: seat -> its name) standing up (docs/bots.md)."""
    seat_one = [Choice(f"Seat {seat + 1}: a bot, {level}",
                       {"type": BOT, "seat": seat, "level": level},
                       group=("Bots", f"Seat {seat + 1}"), short=f"{level.capitalize()} bot")
                for seat in empty for level in LEVELS]
    return tuple(seat_one) + tuple(
        Choice(f"Seat {seat + 1}: {name} stands up", {"type": BOT_STANDS, "seat": seat},
               group=("Bots",), short=f"Seat {seat + 1}: stand up")
        for seat, name in sorted(bots.items()))


def display(seat: int, seat_count: int, bots: tuple[Choice, ...] = ()) -> Display:
    """What seat ``seat`` shows in the lobby (its phone too): seat 1 picks the game, and
    seats or stands up bots (``bots``, :func:`bot_choices`). Seat 1's own screen adds
    the host PIN behind a held select (``Table``); the display itself never holds it."""
    if seat != 0:
        return Display(title=TITLE, lines=("Waiting for seat 1", "to pick a game."))
    return Display(title="Pick a game", lines=("Which game tonight?",),
                   choices=start_choices(seat_count) + bots, led="on")


def join_address(base_url: str) -> str:
    """The short address a phone types to join (``mutiny.local/join``, a laptop's
    ``192.168.1.20:8000/join``): the table's own address, without ``http://`` or the
    port every browser assumes."""
    parts = urlsplit(base_url if "//" in base_url else f"//{base_url}")
    where = (parts.hostname or "mutiny.local").lower()
    port = parts.port
    return f"{where}{f':{port}' if port not in (None, 80) else ''}/join"


def join_call(screens: bool, waiting: int, public: int, address: str,
              code: str | None) -> str:
    """What the table display says about joining: ``waiting`` seats still have no
    player, ``public`` of them show their code on the display (so the typed ``code``
    leads somewhere). Once every seat has a player it says nothing of codes."""
    if not waiting:
        return "Every seat has a player."
    if public and code:
        where = "a code here or on a free seat's screen" if screens else "a seat's code here"
        return f"Scan {where}, or open {address} and type the code {code}."
    if screens:
        return "Scan the code on a free seat's screen to join."
    return "The host shows a seat's code to join it again."


def payload() -> dict[str, Any]:
    """The ``lobby`` part of the public payload: what can be started."""
    return {"games": game_specs()}


@functools.lru_cache(maxsize=1)
def game_specs() -> list[dict[str, Any]]:
    """Every game's spec as JSON-able data (the registry does not change while running)."""
    return [g.spec.to_dict() for g in companion.games.GAMES.values()]
