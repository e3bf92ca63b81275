"""Game specs: what a game is called, how many seats it takes, which options it has."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from companion.errors import OptionError


@dataclass(frozen=True)
class Option:
    """A named option of a game, with its default and what values it accepts.

    The kind of the default decides the kind of the option: a ``bool`` is a switch, an
    ``int`` has ``minimum``/``maximum``, a ``str`` must be one of ``choices``.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def validate(self, value: Any) -> Any:
        """Return ``value`` if this option accepts it, else raise :class:`OptionError`."""
        kind = type(self.default)
        if type(value) is not kind:
            raise OptionError(
                "bad_option",
                f"option {self.name!r} takes a {kind.__name__}, not {value!r}",
            )
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(
                "bad_option", f"option {self.name!r} must be one of: {allowed}"
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionError(
                "bad_option", f"option {self.name!r} must be at least {self.minimum}"
            )
        if self.maximum is not None and value > self.maximum:
            raise OptionError(
                "bad_option", f"option {self.name!r} must be at most {self.maximum}"
            )
        return value

    def to_dict(self) -> dict[str, Any]:
        """The option for ``GET /api/games``: ``help`` as written (rule ids, values as
        the API takes them) and ``words``, ``choice_words``: the same as the host page
        shows them (see :func:`host_words`)."""
        out: dict[str, Any] = {"name": self.name, "default": self.default, "help": self.help,
                               "words": host_words(self.help)}
        if self.choices:
            out["choices"] = list(self.choices)
            out["choice_words"] = [value_words(choice) for choice in self.choices]
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


#: A ruling's id where an option's help names it (``Y1: ...``, ``... (B2)``): the
#: docs' cross-reference, nothing a host needs to read.
_RULE_ID = re.compile(r"^[A-Z]\d+:\s*|\s*\([A-Z]\d+\)")
#: A value quoted in a help as the API takes it (``'player_recasts'``).
_VALUE = re.compile(r"'([a-z0-9]+(?:_[a-z0-9]+)*)'")


def value_words(value: Any) -> str:
    """An option's value as a host reads it: ``player_recasts`` -> ``player recasts``."""
    return str(value).replace("_", " ")


def host_words(help_: str) -> str:
    """An option's help as the host page shows it: without the rulings' ids, each
    quoted value in the words its list shows (``"player recasts"``)."""
    return _VALUE.sub(lambda m: f'"{value_words(m.group(1))}"', _RULE_ID.sub("", help_))


#: The longest step timer a host may set, in seconds.
TIMER_MAX = 900


def timer_option(name: str, what: str) -> Option:
    """The option that sets a step timer (``Timed``): seconds, 0 for no timer."""
    return Option(name, 0, f"{what}: seconds on the timer, 0 for none",
                  minimum=0, maximum=TIMER_MAX)


@dataclass(frozen=True)
class GameSpec:
    """The declarative card of a game: id, title, seat range, options."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = field(default_factory=tuple)
    summary: str = ""
    #: The version of the game's actions as the journal records them. Raise it when a
    #: recorded match would no longer replay to the same state; the journal then
    #: refuses older matches of the game by name instead of loading them wrong.
    rules: int = 1

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise OptionError("unknown_option", f"{self.title} has no option {name!r}")

    def check_seats(self, seats: int) -> int:
        """Return ``seats`` if the game can be played by that many, else raise."""
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise OptionError(
                "bad_seats",
                f"{self.title} takes {self.min_seats} to {self.max_seats} seats,"
                f" not {seats!r}",
            )
        return seats

    def resolve_options(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every option of the game, with ``given`` values checked and defaults filled in."""
        given = dict(given or {})
        resolved = {}
        for opt in self.options:
            resolved[opt.name] = opt.validate(given.pop(opt.name, opt.default))
        if given:
            name = sorted(given)[0]
            self.option(name)  # raises unknown_option
        return resolved

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "summary": self.summary,
            "options": [o.to_dict() for o in self.options],
        }
