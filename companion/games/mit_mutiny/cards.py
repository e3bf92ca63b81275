"""The card data of Mutiny (``mit-mutiny``): its islands and mystery cards, from TOML, and
the data a match dealt (kept in its state as one frozen string).

The data lives in ``cards.toml`` next to the game so a group can edit it (rulings M3
and M5, see docs/games/mit-mutiny.md). :func:`load_data` reads and checks it, and refuses a broken file with a
:class:`~companion.errors.ConfigError` naming the entry and the field. A match copies
what it deals into its journal (the deal is a chance action), so editing the file never
changes a match already under way, nor its replay.
"""
from __future__ import annotations

import functools
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from companion.engine import State
from companion.errors import ConfigError

#: The default data file, shipped with the package.
DATA_FILE = Path(__file__).with_name("cards.toml")
#: The four kinds of loot cube, in the order every loot list uses.
KINDS = ("sugar", "orange", "gold", "plantain")
#: The map has 12 island spaces.
MAX_ISLANDS = 12
#: The most cubes of one kind a data island (or an entered island) may show.
MAX_CUBES = 6
MAX_COPIES = 40
NAME_LENGTH = 16

#: Card effects and their parameters with defaults (see the data file's comments).
EFFECTS: dict[str, dict[str, int]] = {
    "cannon": {"dice": 1},
    "reload": {},
    "madness": {"dice": 1},
    "storm": {},
    "stowaway": {"crew": 1},
    "pressgang": {"crew": 1},
    "treasure": {"loot": 3},
    "infamy": {"infamy": 1, "captain_infamy": 2},
}
#: Effects played in the battle window (M4); the others in the owner's buying turn.
BATTLE_EFFECTS = frozenset({"cannon", "reload", "madness", "storm"})
#: The largest value a card parameter may take (a bound that keeps play finite).
MAX_PARAM = 9

_ID = re.compile(r"^[a-z][a-z_]{0,23}$")
_cache: dict[tuple[str, int], dict[str, Any]] = {}


def load_data(path: str | Path | None = None) -> dict[str, Any]:
    """The checked data: ``{"islands": [...], "cards": [...]}`` (see :func:`check_data`).

    Cached per file and modification time, so an edited file is read again."""
    path = Path(path) if path is not None else DATA_FILE
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError as exc:
        raise ConfigError(f"{path.name}: cannot read the card data ({exc.strerror})") from None
    key = (str(path), stamp)
    if key not in _cache:
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path.name}: cannot read the card data ({exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path.name}: not valid TOML ({exc})") from None
        _cache[key] = check_data(raw, path.name)
    return _cache[key]


def check_data(raw: dict[str, Any], where: str = "card data") -> dict[str, Any]:
    """Check parsed TOML and return it in the game's shape.

    Islands become ``{"name": str, "loot": [sugar, orange, gold, plantain]}``; cards
    become ``{"id", "name", "count", "effect", <parameters>}`` with every parameter
    of the effect filled in."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: the file must hold [[island]] and [[card]] tables")
    extra = sorted(set(raw) - {"island", "card"})
    if extra:
        raise ConfigError(f"{where}: unknown section {extra[0]!r} (only [[island]] and"
                          " [[card]] are allowed)")
    islands = [_island(entry, n, where)
               for n, entry in enumerate(_tables(raw, "island", where), 1)]
    if not 1 <= len(islands) <= MAX_ISLANDS:
        raise ConfigError(f"{where}: give 1 to {MAX_ISLANDS} [[island]] entries, not"
                          f" {len(islands)}")
    _unique([i["name"] for i in islands], "island name", where)
    cards = [_card(entry, n, where) for n, entry in enumerate(_tables(raw, "card", where), 1)]
    _unique([c["id"] for c in cards], "card id", where)
    if sum(c["count"] for c in cards) < 1:
        raise ConfigError(f"{where}: the mystery deck needs at least one card")
    return {"islands": islands, "cards": cards}


def _tables(raw: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    tables = raw.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ConfigError(f"{where}: {key!r} must be written as [[{key}]] tables")
    return tables


def _unique(values: list[str], what: str, where: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ConfigError(f"{where}: the {what} {value!r} is used twice")
        seen.add(value)


def _name(entry: dict[str, Any], label: str) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH:
        raise ConfigError(f"{label}: 'name' must be text of 1 to {NAME_LENGTH} characters")
    return name.strip()


def _whole(value: Any, low: int, high: int, label: str, field: str) -> int:
    # bool is an int in Python: refuse it explicitly so `gold = true` is an error.
    if type(value) is not int or not low <= value <= high:
        raise ConfigError(f"{label}: {field!r} must be a whole number from {low} to"
                          f" {high}, not {value!r}")
    return value


def _island(entry: dict[str, Any], number: int, where: str) -> dict[str, Any]:
    label = f"{where}: island {number}"
    extra = sorted(set(entry) - {"name", *KINDS})
    if extra:
        raise ConfigError(f"{label}: unknown field {extra[0]!r} (an island has name,"
                          f" {', '.join(KINDS)})")
    name = _name(entry, label)
    label = f"{label} ({name!r})"
    loot = [_whole(entry.get(kind, 0), 0, MAX_CUBES, label, kind) for kind in KINDS]
    if sum(loot) < 1:
        raise ConfigError(f"{label}: an island needs at least one loot cube")
    return {"name": name, "loot": loot}


def _card(entry: dict[str, Any], number: int, where: str) -> dict[str, Any]:
    label = f"{where}: card {number}"
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not _ID.match(card_id):
        raise ConfigError(f"{label}: 'id' must be lower-case letters and _ (up to 24),"
                          f" not {card_id!r}")
    label = f"{where}: card {card_id!r}"
    effect = entry.get("effect")
    if effect not in EFFECTS:
        raise ConfigError(f"{label}: 'effect' must be one of {', '.join(EFFECTS)},"
                          f" not {effect!r}")
    params = EFFECTS[effect]
    extra = sorted(set(entry) - {"id", "name", "count", "effect", *params})
    if extra:
        allowed = ", ".join(params) or "no parameters"
        raise ConfigError(f"{label}: unknown field {extra[0]!r} (effect {effect!r} takes"
                          f" {allowed})")
    card = {"id": card_id, "name": _name(entry, label),
            "count": _whole(entry.get("count"), 0, MAX_COPIES, label, "count"),
            "effect": effect}
    low = 0 if effect == "infamy" else 1
    for param, default in params.items():
        card[param] = _whole(entry.get(param, default), low, MAX_PARAM, label, param)
    return card


# -- the data a match dealt ---------------------------------------------------------------

def freeze(data: dict[str, Any]) -> str:
    """The dealt data (island table, card definitions) as canonical JSON text.

    It never changes during a match, and the engine copies the whole state on every
    action: as one string it is copied in one piece instead of object by object."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def keep_deal(state: State, islands: list[Any], cards: list[dict[str, Any]],
              deck: list[str]) -> None:
    """Put the deal into ``state``: the dealt data frozen into one string (:func:`freeze`),
    which the engine's copy of the state on every action takes in one piece. A speed
    trick, fenced here: the rest of the game reads the deal through :func:`dealt`. The
    benchmark behind it is ``bench/engine_bench.py`` (mit-mutiny's apply, the state's
    copy its largest part; the figures in docs/performance.md, "Why each speed trick is
    there")."""
    state["data"] = freeze({"islands": islands, "cards": cards})
    state["deck"] = list(deck)


@functools.lru_cache(maxsize=32)
def _thaw(text: str) -> dict[str, Any]:
    raw = json.loads(text)
    return {"islands": raw["islands"], "cards": {c["id"]: c for c in raw["cards"]},
            "card_ids": [c["id"] for c in raw["cards"]]}


def dealt(state: State) -> dict[str, Any]:
    """The match's dealt data: ``islands`` (a list), ``cards`` (by id), ``card_ids``
    (in the data file's order). Shared and cached: never change what it returns."""
    return _thaw(state["data"])


def card_def(state: State, card: str) -> dict[str, Any]:
    return dealt(state)["cards"][card]


def effect_of(state: State, card: str) -> str:
    return card_def(state, card)["effect"]


def is_battle_card(state: State, card: str) -> bool:
    return effect_of(state, card) in BATTLE_EFFECTS
