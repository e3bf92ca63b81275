"""The display model's two forms of a seat's words: full words for the phone, the short
forms a game gives for a 21-column seat screen (``short_lines``, ``short_private``)."""
from __future__ import annotations

from companion.engine.display import Display
from companion.seats import ScreenState, render


def test_a_seat_screen_shows_the_short_private_lines_and_a_phone_the_full_ones():
    shown = Display(title="Your turn", private=("Your loot: 1 Sugar and 2 Gold",),
                    short_private=("Loot S1 O0 G2 P0",))
    assert shown.screen_private == ("Loot S1 O0 G2 P0",)
    assert shown.to_dict()["private"] == ["Your loot: 1 Sugar and 2 Gold"]
    assert "short_private" not in shown.to_dict()  # a phone never gets the OLED's form


def test_without_short_forms_the_seat_screen_shows_the_private_lines_themselves():
    shown = Display(title="Your turn", private=("Row A, column 5: Silver coin",))
    assert shown.screen_private == shown.private


def test_the_seat_screen_draws_the_short_private_lines():
    full = Display(title="Your turn", private=("Your loot: 1 Sugar and 2 Gold",))
    short = Display(title="Your turn", private=full.private, short_private=("Loot S1 O0 G2 P0",))
    as_drawn = Display(title="Your turn", private=("Loot S1 O0 G2 P0",))
    # (The private frame of the display with short forms is the one of those forms.)
    assert (render(ScreenState("private", short)).tobytes()
            == render(ScreenState("private", as_drawn)).tobytes())
    assert (render(ScreenState("private", short)).tobytes()
            != render(ScreenState("private", full)).tobytes())
