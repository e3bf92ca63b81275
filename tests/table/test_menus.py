"""Browsing a menu is the seat's business: opening and leaving groups never reaches the
engine or the journal; only the whole decision at the end does."""
from __future__ import annotations

from tests.table.conftest import claim_all


def _open_and_leave(hardware, seat: int, group: str) -> None:
    """Scroll onto ``group`` at the top level, open it, look, and come back out."""
    device = hardware[seat]
    for _ in range(len(device.menu_lines)):
        if device.menu_lines[device.highlight].label == group:
            break
        hardware.click(seat, "next")
    assert device.menu_lines[device.highlight].label == group
    hardware.click(seat, "select")  # into the group: free
    assert device.menu_path == (group,)
    inside = device.menu_lines
    assert inside[-1].label == "< Back" and len(inside) > 1
    while device.highlight != len(inside) - 1:
        hardware.click(seat, "next")
    hardware.click(seat, "select")  # "< Back": out again, free
    assert device.menu_path == ()


def test_a_player_opens_and_leaves_discover_captain_five_times_then_plays_an_order(
        table, hardware):
    claim_all(hardware)
    table.start("captains-orders", 4, seed="menus")
    match = table.match
    seat = match.acting()[0]
    version, entries = match.version, len(table.journal.entries(match.id))
    offered = list(hardware[seat].display.choices)
    for _ in range(5):
        _open_and_leave(hardware, seat, "Discover Captain")
        assert match.version == version  # nothing reached the engine
        assert len(table.journal.entries(match.id)) == entries  # nor the journal
        assert list(hardware[seat].display.choices) == offered  # nor forced anything
    device = hardware[seat]
    order = next(i for i, c in enumerate(device.display.choices)
                 if c.action["type"] == "play")
    played = device.display.choices[order].action
    for button in device.presses_to_choose(order):
        hardware.click(seat, button)
    assert match.version == version + 1
    assert table.journal.entries(match.id)[-1].action == played
