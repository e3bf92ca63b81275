"""Seat screens: golden images of every kind of screen, text fitting and the QR code."""
from __future__ import annotations

import dataclasses

import pytest
import segno
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.engine.display import Choice, Display
from companion.seats import ScreenState, font, qr_matrix, render
from companion.seats.screen import qr_scale

from .conftest import assert_golden, vote_display

#: A join URL as the web side should make it: upper case (QR alphanumeric mode) with a
#: 128-bit token in hex; 56 characters.
JOIN_URL = "HTTP://10.42.0.1:8000/J/3F2A9C0D4E5B6A7988776655443322AA"

LONG = Display(
    title="A title far too long for any seat screen",
    lines=("This line is much longer than twenty-one characters",
           "Crème brûlée à bord", "3", "4", "5", "6", "7", "8", "9"),
)


@pytest.mark.parametrize("name, state, size", [
    ("rest", ScreenState("rest", vote_display(), 0), (128, 64)),
    ("rest_secret_masked", ScreenState("rest", vote_display(), 1), (128, 64)),
    ("rest_no_choices", ScreenState("rest", vote_display(choices=())), (128, 64)),
    ("browse_secret_shown", ScreenState("browse", vote_display(), 1), (128, 64)),
    ("private", ScreenState("private", vote_display()), (128, 64)),
    ("private_empty", ScreenState("private", vote_display(private=())), (128, 64)),
    ("qr", ScreenState("qr", None, seat_number=3, qr_url=JOIN_URL), (128, 64)),
    ("dim", ScreenState("dim", vote_display()), (128, 64)),
    ("no_choices_overflow", ScreenState("rest", LONG), (128, 64)),
    ("portrait_browse", ScreenState("browse", vote_display(), 2), (64, 128)),
    ("portrait_qr", ScreenState("qr", None, seat_number=8, qr_url=JOIN_URL), (64, 128)),
])
def test_golden(name, state, size):
    image = render(state, size)
    assert image.mode == "1" and image.size == size
    assert_golden(image, name)


def test_drawing_is_deterministic():
    state = ScreenState("browse", vote_display(), 2)
    assert render(state).tobytes() == render(state).tobytes()


def test_masked_and_shown_differ_only_in_the_hint_and_choice_rows():
    masked = render(ScreenState("rest", vote_display(), 1))
    shown = render(ScreenState("browse", vote_display(), 1))
    top = (0, 0, 128, 32)  # title and the first three lines (a fourth would stay too)
    assert masked.crop(top).tobytes() == shown.crop(top).tobytes()
    assert masked.crop((0, 56, 128, 64)).tobytes() != shown.crop((0, 56, 128, 64)).tobytes()
    assert shown.crop((0, 40, 128, 48)).tobytes() == text_image("select: choose this").tobytes()


def test_the_hint_row_says_what_select_does_on_each_kind_of_line():
    display = grouped_display()
    verbs = vote_display(choices=display.choices, confirm={"pass": "pass it"})
    hint = (0, 40, 128, 48)
    cases = [(ScreenState("browse", display, 0), "select: open"),
             (ScreenState("browse", display, 1), "select: choose this"),
             (ScreenState("browse", verbs, 0, path=("Pass a card", "7")), "select: pass it"),
             (ScreenState("browse", display, 2, path=("Pass a card",)), "select: back")]
    for state, words in cases:
        assert render(state).crop(hint).tobytes() == text_image(words).tobytes(), words


def test_choices_coming_and_going_change_only_the_choice_row():
    # At a vote's reveal every seat's choices appear or go: the rule stays where it
    # is, so only the choice row (one page) is redrawn, not a full-width rule too.
    for with_choices in (render(ScreenState("rest", vote_display(), 1)),
                         render(ScreenState("rest", vote_display(), 0))):
        without = render(ScreenState("rest", vote_display(choices=())))
        above = (0, 0, 128, 56)
        assert with_choices.crop(above).tobytes() == without.crop(above).tobytes()
        assert without.crop((0, 56, 128, 64)).getbbox() is None


def test_lines_that_need_the_choice_rows_still_get_them():
    seven = tuple(f"line {n}" for n in range(1, 8))
    image = render(ScreenState("rest", vote_display(lines=seven, choices=())))
    assert image.crop((0, 48, 128, 56)).tobytes() == text_image("line 6").tobytes()
    assert image.crop((0, 56, 128, 64)).tobytes() == text_image("line 7").tobytes()


def test_the_screen_shows_the_short_lines_a_game_gives_and_the_phone_the_words():
    words = ("Dice: Doubloon, Cutlass (held), Jolly Roger", "You: 10 Lives, 0 Shields")
    short = (" $ [C] J ", "You L10 S0")
    both = vote_display(lines=words, short_lines=short)
    for mode in ("rest", "browse"):
        assert render(ScreenState(mode, both)).tobytes() == render(
            ScreenState(mode, vote_display(lines=short))).tobytes()
    assert both.to_dict()["lines"] == list(words) and "short_lines" not in both.to_dict()


def text_image(text: str) -> Image.Image:
    image = Image.new("1", (128, 8))
    from PIL import ImageDraw
    font.draw_text(ImageDraw.Draw(image), (1, 0), text)
    return image


def test_masked_row_never_draws_the_secret_label():
    secret = "Defend the Captain"
    masked = render(ScreenState("rest", vote_display(), 1)).crop((0, 56, 128, 64))
    assert masked.tobytes() == text_image("? 2/3 - press to see").tobytes()
    assert "Defend" not in font.fit("? 2/3 - press to see", 21) and secret


def test_blank_and_unknown_modes():
    assert render(ScreenState("blank", vote_display())).getbbox() is None
    assert render(ScreenState("rest", None)).getbbox() is None
    with pytest.raises(ValueError):
        render(ScreenState("sparkle", vote_display()))


@given(st.text(max_size=60), st.integers(min_value=1, max_value=30))
def test_fit_never_overflows(text, width):
    cut = font.fit(text, width)
    assert len(cut) <= width
    if len(font.fold(text)) > width:
        assert cut.endswith(font.ELLIPSIS)
    else:  # (a text may end in an ellipsis of its own)
        assert cut == font.fold(text)
    assert set(cut) <= font.CHARSET


@pytest.mark.slow
@given(st.lists(st.text(max_size=40), max_size=12), st.text(max_size=40))
def test_any_lines_render_inside_the_screen(lines, title):
    display = Display(title=title, lines=tuple(lines),
                      choices=(Choice(title or "x", {"type": "t"}),))
    rule_rows = {3, 51}  # the private header's rule and the choice rule run full width
    for mode in ("rest", "browse", "private", "dim"):
        image = render(ScreenState(mode, display))
        # Text is cut to fit, never clipped by the edge: 21 glyphs end at x = 125.
        edge = {y for x in (126, 127) for y in range(64) if image.getpixel((x, y))}
        assert edge <= rule_rows, (mode, edge)


def test_fold_drops_accents_and_marks_the_unknown():
    assert font.fold("Crème brûlée") == "Creme brulee"
    assert font.fold("☠ ok") == "? ok"


def test_a_join_url_with_a_128_bit_token_fits_version_3_at_2_pixels():
    url = JOIN_URL.replace(":8000/J/", ":8000/SEAT/") + "0"  # 62 characters, still fine
    matrix = qr_matrix(url)
    assert len(matrix) == 29  # version 3
    assert qr_scale(len(matrix), 64) == 2  # 58 pixels + a lit border on a 64-pixel height
    assert segno.make_qr(url, error="l", boost_error=False).version == 3


def test_a_lower_case_url_falls_back_to_one_pixel_per_module():
    matrix = qr_matrix(JOIN_URL.lower())
    assert len(matrix) == 33 and qr_scale(33, 64) == 1
    image = render(ScreenState("qr", None, seat_number=1, qr_url=JOIN_URL.lower()))
    assert sample_qr(image, 33, 1) == matrix


def sample_qr(image: Image.Image, modules: int, scale: int) -> list[list[bool]]:
    """Read the drawn code back: a dark (unlit) module centre is a dark module."""
    origin = (64 - modules * scale) // 2
    return [[not image.getpixel((origin + x * scale, origin + y * scale))
             for x in range(modules)] for y in range(modules)]


def test_the_drawn_qr_code_is_the_url_module_for_module():
    image = render(ScreenState("qr", None, seat_number=3, qr_url=JOIN_URL))
    assert sample_qr(image, 29, 2) == qr_matrix(JOIN_URL)
    # and the quiet zone around it is lit
    assert all(image.getpixel((x, 1)) for x in range(64))


def test_a_url_too_long_for_the_screen_says_so():
    image = render(ScreenState("qr", None, seat_number=2, qr_url="http://x/" + "a" * 600))
    left = image.crop((0, 0, 64, 64))
    assert left.getbbox() is not None  # the words, not a clipped code
    assert not any(left.getpixel((x, 0)) for x in range(64))  # no lit square


def test_the_web_sides_join_url_fits_version_3():
    # companion.table makes f"{base_url}/seat/{secrets.token_urlsafe(16)}"
    url = "http://10.42.0.1:8000/seat/" + "Ab-_" * 5 + "xy"
    assert len(qr_matrix(url)) == 29


def test_an_equal_screen_reuses_its_frame_and_nothing_else_does():
    from companion.seats import screen as screen_module

    def vote(target_action, title="Vote"):
        return Display(title=title, lines=("Who goes overboard?",),
                       choices=(Choice("Seat 2", {"type": "vote", "seat": target_action}),))
    first = screen_module.render(screen_module.ScreenState("browse", vote(1)))
    # The pixels do not depend on the action behind a label: the same frame.
    assert screen_module.render(screen_module.ScreenState("browse", vote(7))) is first
    other = screen_module.render(screen_module.ScreenState("browse", vote(1, "Vote!")))
    assert other is not first and other.tobytes() != first.tobytes()
    assert screen_module.render(screen_module.ScreenState("rest", vote(1))) is not first
    # Bounded: old frames are let go.
    for n in range(screen_module.FRAMES_KEPT + 1):
        screen_module.render(screen_module.ScreenState("rest", Display(title=f"T{n}")))
    assert len(screen_module._frames) == screen_module.FRAMES_KEPT
    again = screen_module.render(screen_module.ScreenState("browse", vote(1)))
    assert again is not first and again.tobytes() == first.tobytes()


# -- menus ----------------------------------------------------------------------------------

def grouped_display() -> Display:
    """Pass a card: a public top-level group, a secret level of cards, secret targets."""
    choices = tuple(
        Choice(f"Pass your {card} to {name}", {"type": "pass", "card": card, "to": seat},
               secret=True, group=("Pass a card", str(card)))
        for card in (7, 9) for seat, name in ((1, "Bonny"), (2, "Drake")))
    return vote_display(choices=choices + (Choice("Rest", {"type": "rest"}),))


def choice_row(state: ScreenState) -> Image.Image:
    return render(state).crop((0, 56, 128, 64))


def test_a_secret_group_line_below_the_top_is_masked_at_rest():
    # A seat is always at the top level at rest; the screen masks secret lines anyway.
    state = ScreenState("rest", grouped_display(), 1, path=("Pass a card",))
    assert choice_row(state).tobytes() == text_image("? 2/3 - press to see").tobytes()
    assert render(state).crop((0, 40, 128, 48)).tobytes() == text_image("").tobytes()


def test_a_choice_shows_its_short_form_and_a_phone_its_full_label():
    display = vote_display(choices=(Choice("Pass your 7 to Drake the Younger", {"type": "p"},
                                           short="7 > Drake"),
                                    Choice("Pass your 7 to Drake the Younger", {"type": "q"})))
    assert choice_row(ScreenState("rest", display, 0)).tobytes() == \
        text_image("> 7 > Drake").tobytes()
    assert choice_row(ScreenState("rest", display, 1)).tobytes() == \
        text_image("> " + font.fit("Pass your 7 to Drake the Younger", 19)).tobytes()


def test_the_back_line_and_the_path_show_while_browsing_a_level():
    state = ScreenState("browse", grouped_display(), 2, path=("Pass a card",))
    image = render(state)
    assert image.crop((0, 32, 128, 40)).tobytes() == text_image("Pass a card:").tobytes()
    assert image.crop((0, 40, 128, 48)).tobytes() == text_image("select: back").tobytes()
    back = text_image("")
    from PIL import ImageDraw
    font.draw_text(ImageDraw.Draw(back), ((128 - font.text_width("< Back")) // 2, 0), "< Back")
    assert image.crop((0, 56, 128, 64)).tobytes() == back.tobytes()


def test_a_group_too_long_for_its_count_keeps_its_arrow():
    long = vote_display(choices=(Choice("x", {"type": "x"}, group=("Fire every cannon now",)),))
    row = choice_row(ScreenState("rest", long, 0))
    cut = font.fit("Fire every cannon now", 17)
    assert row.tobytes() == text_image(f"> {cut} >").tobytes()


def test_a_portrait_panel_fits_a_group_line():
    image = render(ScreenState("browse", grouped_display(), 0), (64, 128))
    edge = {y for y in range(128) if image.getpixel((63, y)) or image.getpixel((62, y))}
    assert edge <= {y for y in range(128) if image.getpixel((0, y))}  # only the rules


@given(st.text(max_size=60), st.integers(min_value=1, max_value=30))
def test_fit_tail_never_overflows_and_keeps_the_end(text, width):
    cut = font.fit_tail(text, width)
    folded = font.fold(text)
    assert len(cut) <= width
    assert cut.startswith(font.ELLIPSIS) == (len(folded) > width)
    if len(folded) > width and width > 1:
        assert folded.endswith(cut[1:])


def test_the_step_timer_shows_in_the_rule_and_a_second_changes_that_page_alone():
    rule = (0, 48, 128, 56)
    for choices in (vote_display().choices, ()):
        plain = vote_display(choices=choices)
        at_42, at_41 = (dataclasses.replace(plain, timer=face) for face in ("0:42", "0:41"))
        images = [render(ScreenState("rest", shown, 1)) for shown in (plain, at_42, at_41)]
        outside = [image.copy() for image in images]
        for image in outside:
            image.paste(0, rule)
        assert outside[0].tobytes() == outside[1].tobytes() == outside[2].tobytes()
        assert len({image.crop(rule).tobytes() for image in images}) == 3
    # While browsing the rule shows the page ("< 2/3 >"), not the time.
    browsing = render(ScreenState("browse", dataclasses.replace(vote_display(), timer="0:42"), 1))
    assert browsing.crop(rule).tobytes() == render(
        ScreenState("browse", vote_display(), 1)).crop(rule).tobytes()
