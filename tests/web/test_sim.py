"""The /sim page: live OLED frames and clickable buttons that drive the mock pins."""
from __future__ import annotations

import base64
import json

import pytest

from companion.engine import HOST


def first_event(response):
    """The first Server-Sent Event of a stream, parsed; then the stream is closed."""
    text = ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "\n\n" in text:
            break
    response.close()
    fields = dict(line.split(": ", 1) for line in text.split("\n\n")[0].splitlines())
    return fields["event"], json.loads(fields["data"]), fields["id"]


def press(client, seat, button, down):
    return client.post("/sim/press", json={"seat": seat, "button": button, "down": down})


def test_the_page_shows_every_seat_with_three_buttons(client):
    page = client.get("/sim/").get_data(as_text=True)
    assert page.count('class="seat"') == 4
    assert page.count('data-button="select"') == 4
    assert "http" not in page.replace("http-equiv", "")  # nothing from the internet


def test_the_front_door_leads_to_the_simulated_table(client):
    assert client.get("/").headers["Location"].endswith("/sim/")
    assert client.get("/healthz").json == {"status": "ok"}


def test_the_stream_starts_with_every_seat_pixel_exact(client, hardware):
    event, data, event_id = first_event(client.get("/sim/stream"))
    assert event == "frames" and event_id == "1"
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    for seat in data["seats"]:
        assert base64.b64decode(seat["frame"]) == hardware.frame(seat["seat"]).tobytes()
        assert len(base64.b64decode(seat["frame"])) == 1024
    assert "seat 1 picks a game" in data["match"]


def test_the_match_line_says_what_the_table_display_says_not_the_engines_step(
        client, table):
    table.start("booty-dice", 4, names=["Anne", "Bonny", "Calico", "Drake"], seed="line")
    _event, data, _id = first_event(client.get("/sim/stream"))
    headline = table.match.summary()["headline"]
    assert headline and data["match"] == f"Booty Dice: {headline}."
    # It used to read "Booty Dice: step 'deciding', action 1.": the engine's words.
    assert "step" not in data["match"] and "action" not in data["match"]
    table.submit(HOST, {"type": "end"})
    _event, data, _id = first_event(client.get("/sim/stream"))
    assert data["match"] == "Booty Dice, over: The match has ended: the host ended it."


def test_pressing_a_button_on_the_page_drives_the_pin_and_the_screen(client, hardware):
    qr = hardware.frame(2)
    assert press(client, 2, "select", True).json == {"ok": True}
    assert hardware.pin(2, "select").state == 0  # pulled low: pressed
    press(client, 2, "select", False)
    assert hardware.pin(2, "select").state == 1
    assert hardware[2].mode == "rest" and hardware.frame(2) != qr


def test_a_held_select_shows_the_private_screen_until_released(client, hardware, table):
    for seat in range(4):
        press(client, seat, "select", True)
        press(client, seat, "select", False)
    table.start("moon-yeti", 4, seed="held")
    press(client, 1, "select", True)
    hardware.advance(1.0)  # longer than the hold time
    assert hardware[1].is_showing_private
    press(client, 1, "select", False)
    assert not hardware[1].is_showing_private


@pytest.mark.parametrize("body", [
    {"seat": 9, "button": "select", "down": True},
    {"seat": 0, "button": "jump", "down": True},
    {"seat": "0", "button": "select", "down": True},
    {"seat": 0, "button": "select", "down": 1},
    {"seat": True, "button": "select", "down": True},
    [1, 2],
])
def test_bad_presses_are_refused_without_touching_a_pin(client, hardware, body):
    response = client.post("/sim/press", json=body)
    assert response.status_code == 400 and response.json["code"]
    assert all(hardware.pin(s, b).state == 1 for s in range(4)
               for b in ("previous", "select", "next"))


def test_a_cross_site_form_post_cannot_press(client):
    response = client.post("/sim/press", data={"seat": "0", "button": "select", "down": "1"})
    assert response.status_code == 415
