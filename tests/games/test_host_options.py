"""Every game's options as the host page shows them (``GET /api/games``: ``words`` and
``choice_words`` beside ``help`` and ``choices``): no rulings' ids (``Y1:``, ``(B1)``)
and no value as the API spells it (``'player_recasts'``)."""
from __future__ import annotations

import re

import pytest

import companion.games
from companion.engine.spec import Option, host_words

RULE_ID = re.compile(r"\b[A-Z]\d+\b")
API_VALUE = re.compile(r"'?\b[a-z0-9]+_[a-z0-9_]+\b'?")


@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
def test_the_host_reads_each_option_without_rule_ids_or_api_values(game_id):
    for option in companion.games.get(game_id).spec.to_dict()["options"]:
        words = option["words"]
        assert not RULE_ID.search(words.replace("A1", "")), (option["name"], words)
        assert not API_VALUE.search(words), (option["name"], words)
        if "choices" in option:
            assert len(option["choice_words"]) == len(option["choices"])
            assert not any("_" in shown for shown in option["choice_words"])


def test_the_rulings_ids_stay_in_the_help_the_docs_and_the_command_line_read():
    options = {o.name: o for o in companion.games.get("moon-yeti").spec.options}
    assert options["mode"].help.startswith("Y1: ")
    shown = options["change_course"].to_dict()
    # The host page showed "Y3: Change Course - 'player_recasts': ..." and the value
    # player_recasts in the list.
    assert shown["words"] == ('Change Course - "player recasts": the chosen player picks '
                              'the new target; "navigator moves": the Navigator picks it')
    assert shown["choices"] == ["player_recasts", "navigator_moves"]
    assert shown["choice_words"] == ["player recasts", "navigator moves"]


def test_a_ruling_id_in_brackets_goes_and_other_words_stay():
    assert host_words("combo dice are used up by their combo (B1)") == \
        "combo dice are used up by their combo"
    assert host_words("F3: how many of the 8 duds are Rocks (they stay in the grid)") == \
        "how many of the 8 duds are Rocks (they stay in the grid)"
    assert Option("n", 3, "rows from A1 (the top)").to_dict()["words"] == \
        "rows from A1 (the top)"
