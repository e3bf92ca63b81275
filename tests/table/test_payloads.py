"""What each viewer is sent: turn versions, payload serials and the score chart."""
from __future__ import annotations

from companion.engine import HOST, PUBLIC, Journal
from companion.table.payloads import chart


def test_another_seats_move_does_not_make_a_seats_choices_stale(table):
    table.start("moon-yeti", 4, seed="stale-free")
    table.submit(0, {"type": "declare"})
    for seat in range(4):
        table.submit(seat, {"type": "ready"})
    versions = [table.turn_version(s) for s in range(4)]
    target = table.match.legal_actions(0)[0]
    table.submit(0, target, version=versions[0])
    # Seat 2's choices did not change when seat 1 voted: its version still holds.
    vote = table.match.legal_actions(1)[0]
    table.submit(1, vote, version=versions[1])


def test_a_serial_moves_only_when_that_viewers_payload_changed(table):
    table.start("booty-dice", 2, seed="serials")
    before = {viewer: table.payload(viewer)[0] for viewer in (0, 1, 2, PUBLIC, HOST)}
    table.refresh()  # nothing changed
    assert {viewer: table.payload(viewer)[0] for viewer in before} == before
    table.submit(0, {"type": "hold", "die": 1})
    after = {viewer: table.payload(viewer)[0] for viewer in before}
    assert after[0] == before[0] + 1
    assert after[2] == before[2]  # sits out: its screen and payload did not change
    serial, text = table.payload_text(0)
    assert serial == after[0] and '"viewer":0' in text.replace(" ", "")


def test_the_score_chart_gets_a_point_when_the_scores_change():
    history: list[list[float]] = []
    chart(history, {"scores": None})
    chart(history, {"scores": [0, 0]})
    chart(history, {"scores": [0, 0]})
    chart(history, {"scores": [3, 0]})
    assert history == [[0, 0, 0], [1, 3, 0]]


def test_a_twin_table_plays_a_fork_and_sends_the_same(table, tmp_path):
    table.start("booty-dice", 2, seed="twin")
    table.submit(0, {"type": "hold", "die": 1})
    entries = len(table.journal.entries(table.match.id))
    scratch = Journal(":memory:")
    twin = table.twin(table.match.fork(), scratch)
    for viewer in (0, 1, PUBLIC, HOST):
        assert twin.payload_text(viewer) == table.payload_text(viewer)
        assert twin.turn_version(viewer) == table.turn_version(viewer)
    twin.submit(0, {"type": "roll"})
    assert table.match.snapshot() != twin.match.snapshot()
    assert len(table.journal.entries(table.match.id)) == entries  # the twin's own journal
    scratch.close()


def test_the_story_keeps_what_a_log_window_or_a_new_turn_would_drop():
    from companion.table.payloads import told
    story: list[str] = []
    told(story, ["a", "b", "c"])
    told(story, ["b", "c", "d"])      # a window that moved on by one
    told(story, ["e"])                # a log that started again this turn
    told(story, ["e"])                # nothing new
    assert story == ["a", "b", "c", "d", "e"]


def test_the_board_goes_to_everyone_and_a_panel_to_its_seat_alone(table):
    table.start("booty-dice", 2, seed="boards")
    public = table.payload(PUBLIC)[1]
    assert public["board"] and "panel" not in public
    for seat in (0, 1):
        payload = table.payload(seat)[1]
        assert payload["board"] == public["board"]
        assert payload["panel"] == table.match.panel(seat)
    assert table.payload(2)[1]["board"] == [] == table.payload(2)[1]["panel"]  # sits out


def test_a_payload_is_built_again_only_for_a_viewer_whose_view_changed(table, monkeypatch):
    """A seat's panel and help are made for its payload only when something its payload
    is made of changed; what it is sent is still exactly what its own view makes."""
    table.start("booty-dice", 4, seed="built-again")  # (no clock: the same every run)
    made: list[int] = []
    game = table.match.game
    panel = game.panel  # (counted, and still the game's own)
    monkeypatch.setattr(game, "panel", lambda view, seat: made.append(seat) or panel(view, seat))
    table.refresh()  # nothing changed
    assert made == []
    table.tell(2, "Phone joined")  # seat 3's screen (and payload) alone
    assert made == [2]
    assert "Phone joined" in table.payload_text(2)[1]
    made.clear()
    table.submit(0, {"type": "hold", "die": 1})  # public: every seat's view moved
    assert sorted(made) == [0, 1, 2, 3]
    scratch = Journal(":memory:")
    twin = table.twin(table.match.fork(), scratch)  # built from scratch: the same texts
    for viewer in (0, 1, 2, 3, PUBLIC, HOST):
        assert twin.payload_text(viewer) == table.payload_text(viewer)
    scratch.close()


def test_no_payload_carries_the_games_how_to_texts_only_its_name(table):
    table.start("booty-dice", 2, seed="howto-out")
    goal = table.match.game.how_to_play()["goal"]
    for viewer in (0, 1, PUBLIC, HOST):
        assert goal not in table.payload_text(viewer)[1]
    assert table.payload(0)[1]["help"]["game"] == "booty-dice"
    assert table.payload(PUBLIC)[1]["howto"] == {"game": "booty-dice",
                                                 "before_first_action": True}
