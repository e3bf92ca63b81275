"""The per-seat display model: what a seat's OLED and phone draw.

A game builds it from the seat's own view (never from the full state), so a screen can
only ever show what that seat is allowed to know. Screens only draw it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Choice:
    """One whole decision the seat can make now, and the engine action that makes it.

    ``label`` is the decision in full words (the phone shows it as it is; the OLED fits
    it, or shows ``short`` when the game gives a form made for 21 columns). ``group``
    files the choice in a menu: ``("Pass a card", "7")`` puts it two levels down, so a
    seat pages into "Pass a card", then "7", then picks the target; browsing the menu
    is the seat's own business and never reaches the engine.
    """

    label: str
    action: dict[str, Any]
    #: True when the label (and the group path below its first level) is a secret (a
    #: card in hand, a vote's target): a seat's screen shows it only while the player
    #: is using the buttons, never at rest.
    secret: bool = False
    group: tuple[str, ...] = ()
    short: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"label": self.label, "action": self.action, "secret": self.secret}
        if self.group:
            out["group"] = list(self.group)
        if self.short:
            out["short"] = self.short
        return out

    @property
    def screen_label(self) -> str:
        """What a small screen shows: the short form when there is one."""
        return self.short or self.label


@dataclass(frozen=True)
class MenuItem:
    """One line of a menu level: a group to open, or a choice to make.

    ``index`` is the choice's position in ``Display.choices`` (None for a group);
    ``count`` is how many choices a group holds; ``secret`` is true when the line's
    words must not show at rest."""

    label: str
    index: int | None = None
    count: int = 0
    secret: bool = False

    @property
    def is_group(self) -> bool:
        return self.index is None


def menu(choices: tuple[Choice, ...] | list[Choice], path: tuple[str, ...] = ()
         ) -> list[MenuItem]:
    """The lines of the menu level at ``path``: groups and choices in first-seen order.

    A group's line is secret only if every choice in it is secret and the group sits
    below the top level (the top level names a kind of move, which is public)."""
    items: list[MenuItem] = []
    groups: dict[str, int] = {}
    depth = len(path)
    for index, choice in enumerate(choices):
        if choice.group[:depth] != path:
            continue
        if len(choice.group) == depth:
            items.append(MenuItem(choice.label, index, 0, choice.secret))
            continue
        name = choice.group[depth]
        secret = choice.secret and depth > 0
        if name in groups:
            old = items[groups[name]]
            items[groups[name]] = MenuItem(name, None, old.count + 1, old.secret and secret)
        else:
            groups[name] = len(items)
            items.append(MenuItem(name, None, 1, secret))
    return items


@dataclass(frozen=True)
class Display:
    """What one seat shows: a title, a few public-safe lines, choices, private details.

    ``lines`` hold nothing another player may not see (they show at rest), in full
    words: the phone shows them as they are, the seat's screen fits them, or shows
    ``short_lines`` in their place when the game gives forms made for 21 columns (as a
    choice's ``short``). ``private`` holds the seat's secrets, shown while select is
    held or behind hold-to-reveal on the phone, in full words too: the seat's screen
    shows ``short_private`` in their place when the game gives forms made for 21
    columns. ``led`` is ``"on"`` when the seat is expected to act, ``"blink"`` when
    it is the seat's turn to decide something urgent (a vote), else ``"off"``.
    ``timer`` is the step timer as a seat's screen shows it (``"0:42"``), set by the
    table, never by a game: phones count the time down themselves. ``confirm`` gives,
    per action type, what select does on such a choice, for the seat's hint row
    (``{"vote": "cast vote"}``; docs/seats.md); a phone does not need it.
    """

    title: str
    lines: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    private: tuple[str, ...] = ()
    led: str = "off"
    confirm: Mapping[str, str] = field(default_factory=dict)
    timer: str = ""
    short_lines: tuple[str, ...] = ()
    short_private: tuple[str, ...] = ()

    @property
    def screen_lines(self) -> tuple[str, ...]:
        """What a small screen shows of the lines: the short forms when there are."""
        return self.short_lines or self.lines

    @property
    def screen_private(self) -> tuple[str, ...]:
        """What a small screen shows of the private lines: the short forms when there are."""
        return self.short_private or self.private

    def chosen(self, line: MenuItem) -> Choice:
        """The choice a menu line makes (a group's line makes none: ValueError)."""
        if line.index is None:
            raise ValueError(f"{line.label!r} opens a group: it makes no choice")
        return self.choices[line.index]

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "lines": list(self.lines),
            "choices": [c.to_dict() for c in self.choices],
            "private": list(self.private),
            "led": self.led,
        }
