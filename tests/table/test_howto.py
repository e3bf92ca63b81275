"""How to play at the table: the table display shows it until the first public move, and
each seat's help names its own part, never another seat's secret."""
from __future__ import annotations

import random

from companion.engine import HOST, PUBLIC


def test_the_table_shows_how_to_play_until_the_first_public_move(table):
    table.start("booty-dice", 4, seed="howto-table")
    howto = table.payload(PUBLIC)[1]["howto"]
    assert howto["game"] == "booty-dice" and howto["before_first_action"]
    table.submit(0, {"type": "hold", "die": 1})
    assert not table.payload(PUBLIC)[1]["howto"]["before_first_action"]
    help_ = table.payload(0)[1]["help"]
    assert help_["game"] == howto["game"] and help_["mine"]


def test_a_restart_in_the_middle_of_a_match_does_not_teach_it_again(tmp_path):
    from companion.engine import Journal
    from companion.table import Table
    path = tmp_path / "journal.sqlite3"
    table = Table(Journal(path))
    table.start("moon-yeti", 4, seed="howto-restart")
    table.close()
    resumed = Table(Journal(path))  # nothing done yet: still the opening
    assert resumed.resume() is not None
    assert resumed.payload(PUBLIC)[1]["howto"]["before_first_action"]
    resumed.submit(0, {"type": "declare"})
    assert not resumed.payload(PUBLIC)[1]["howto"]["before_first_action"]
    resumed.close()
    again = Table(Journal(path))  # a public move was made before this restart
    assert again.resume() is not None
    assert not again.payload(PUBLIC)[1]["howto"]["before_first_action"]
    again.close()


def test_the_moon_yeti_mutineer_never_shows_in_the_public_how_to(table):
    table.start("moon-yeti", 4, seed="howto-public")
    table.submit(0, {"type": "declare"})
    names = table.payload(PUBLIC)[1]["table"]["names"]
    rng = random.Random(7)
    seen = []
    while not table.match.is_over:
        seen.append(table.payload(PUBLIC)[1]["howto"])
        seen.append({k: v for k, v in table.payload(HOST)[1]["howto"].items()})
        actor = table.match.acting()[0]
        table.submit(actor, rng.choice(table.match.legal_actions(actor)))
    mutineer = table.match.snapshot()["state"]["mutineer"]
    texts = {repr({k: v for k, v in h.items() if k != "before_first_action"}) for h in seen}
    assert len(texts) == 1  # the same general text all match long, whoever is who
    text = texts.pop()
    assert "You are" not in text and names[mutineer] not in text
    # Each seat's help names its own role; only the Mutineer's secret lines say it is.
    for seat in range(4):
        help_ = table.payload(seat)[1]["help"]
        assert ("You are the Mutineer" in " ".join(help_["secret"])) == (seat == mutineer)
