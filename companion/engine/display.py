"""The per-seat display model: what a seat's OLED and phone draw.

A game builds it from the seat's own view (never from the full state), so a screen can
only ever show what that seat is allowed to know. Screens only draw it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One thing the seat can do now: a label for the screen and the engine action."""

    label: str
    action: dict[str, Any]
    #: True when the label itself is a secret (a card in hand, a vote's target): the
    #: OLED shows it only while the player is using the buttons, never at rest.
    secret: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "action": self.action, "secret": self.secret}


@dataclass(frozen=True)
class Display:
    """What one seat shows: a title, a few public-safe lines, choices, private details.

    ``lines`` hold nothing another player may not see (they show at rest); ``private``
    holds the seat's secrets, shown while select is held or behind hold-to-reveal on
    the phone. ``led`` is ``"on"`` when the seat is expected to act, ``"blink"`` when
    it is the seat's turn to decide something urgent (a vote), else ``"off"``.
    """

    title: str
    lines: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    private: tuple[str, ...] = ()
    led: str = "off"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "lines": list(self.lines),
            "choices": [c.to_dict() for c in self.choices],
            "private": list(self.private),
            "led": self.led,
            "extra": self.extra,
        }
