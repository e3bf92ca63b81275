"""``companion.games.kit``: events in words, for the table and for a seat's own screen."""
from __future__ import annotations

from companion.games import kit

TEXTS = {"steal": "{seat} steals {n} Doubloon{s} from {source}",
         "out": lambda event, names: f"{kit.seat_name(names, event['seat'])} is out"}
MINE = {"steal": "You steal {n} Doubloon{s} from {source}"}
NAMES = ["Anne", "Bonny", "Calico"]


def test_an_event_reads_with_every_seat_named_and_a_plural_s():
    assert kit.word({"kind": "steal", "seat": 0, "n": 2, "source": 2}, NAMES, TEXTS) == \
        "Anne steals 2 Doubloons from Calico"
    assert kit.word({"kind": "steal", "seat": 5, "n": 1, "source": 1}, NAMES, TEXTS) == \
        "Seat 6 steals 1 Doubloon from Bonny"


def test_on_a_seats_own_screen_its_moves_are_its_own_and_its_seat_is_you():
    steal = {"kind": "steal", "seat": 0, "n": 1, "source": 2}
    assert kit.word(steal, NAMES, TEXTS, viewer=0, own=MINE) == "You steal 1 Doubloon from Calico"
    assert kit.word(steal, NAMES, TEXTS, viewer=2, own=MINE) == "Anne steals 1 Doubloon from you"
    assert kit.word(steal, NAMES, TEXTS, viewer=1, own=MINE) == "Anne steals 1 Doubloon from Calico"
    # A move of its own with no words in "own" keeps its name: never "you is out".
    assert kit.word({"kind": "out", "seat": 1}, NAMES, TEXTS, viewer=1, own=MINE) == \
        "Bonny is out"
