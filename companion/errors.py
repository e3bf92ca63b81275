"""One exception tree for the whole companion.

Every class also inherits the matching built-in, so callers that only know Python's own
exceptions (``except ValueError``) still catch ours.
"""
from __future__ import annotations


class MutinyError(Exception):
    """Base of every error the companion raises on purpose."""


class ActionRejected(MutinyError, ValueError):
    """An action the rules refuse. The match it was offered to is left unchanged.

    ``code`` is stable (tests, the web API and translations key on it); ``message`` is
    a sentence a player can read.
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class OptionError(MutinyError, ValueError):
    """A game option that does not exist or has a value the game cannot take."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class UnknownGame(MutinyError, KeyError):
    """No game is registered under that id."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class JournalError(MutinyError, RuntimeError):
    """The journal on disk cannot be read or written as it should."""


class ConfigError(MutinyError, ValueError):
    """A table config file the companion refuses, with the line and the fix."""


class SeatError(MutinyError, RuntimeError):
    """A seat's hardware (buttons, screen, pod) is missing or misbehaving."""
