"""GET /api/howto/<game>: a game's how-to texts, fetched once by the pages instead of
riding in every payload."""
from __future__ import annotations

import companion.games
from tests.conftest import join


def test_the_how_to_is_fetched_by_the_games_name(app, client, table):
    table.start("moon-yeti", 4, seed="howto-api")
    phone = join(app, table, 1)
    named = phone.get("/api/seat/view").get_json()["help"]["game"]
    answer = client.get(f"/api/howto/{named}")
    assert answer.status_code == 200
    assert answer.get_json() == companion.games.get("moon-yeti").how_to_play()
    assert client.get("/api/public/view").get_json()["howto"]["game"] == named


def test_an_unknown_game_has_no_how_to(client):
    answer = client.get("/api/howto/no-such-game")
    assert answer.status_code == 404
    assert answer.get_json()["code"] == "not_found"
