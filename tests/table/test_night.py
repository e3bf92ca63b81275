"""The game night: play again (rematch, another game), the night's standings kept
across a restart, and every game played by phones alone (a laptop table)."""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

import companion.games
from companion.engine import HOST, PUBLIC, Journal
from companion.errors import ActionRejected
from companion.table import Table, lobby
from companion.table.night import NIGHT_GAP, Night
from tests.table.conftest import choose, claim_all


def play_out(table: Table, seed: str) -> dict:
    """Play the match to its end with random legal actions; return its result."""
    rng = random.Random(seed)
    match = table.match
    while not match.is_over:
        actor = match.acting()[0]
        table.submit(actor, rng.choice(match.legal_actions(actor)))
    return match.result().to_dict()


def test_rematch_replays_the_same_game_players_and_options(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 3, options={"first_seat": 2}, names=["Ann", "Bo", "Cy"],
                seed="first")
    first = table.match
    with pytest.raises(ActionRejected) as info:  # not while it is played
        table.rematch()
    assert info.value.code == "not_now"
    play_out(table, "a")
    assert [c.action["type"] for c in table.display(0).choices][-2:] == [
        lobby.REMATCH, lobby.NEW_MATCH]
    assert all(not table.display(s).choices for s in (1, 2))
    choose(hardware, 0, lambda a: a["type"] == lobby.REMATCH)
    second = table.match
    assert second.id != first.id and not second.is_over
    assert (second.game.spec.id, second.seats, second.names, second.options) == (
        "booty-dice", 3, ["Ann", "Bo", "Cy"], first.options)


def test_seat_ones_phone_gets_the_same_play_again_choices(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 2, seed="phone")
    table.submit(HOST, {"type": "end"})
    offered = [c["action"] for c in table.payload(0)[1]["display"]["choices"]]
    assert offered == [{"type": lobby.REMATCH}, {"type": lobby.NEW_MATCH}]
    with pytest.raises(ActionRejected) as info:
        table.submit(1, {"type": lobby.REMATCH})
    assert info.value.code == "not_your_turn"
    table.submit(0, {"type": lobby.NEW_MATCH}, version=table.turn_version(0))
    assert table.match is None


def test_the_night_keeps_every_match_and_the_standings_across_a_restart(hardware, tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = Table(Journal(path), [])
    names = ["Ann", "Bo", "Cy", "Di"]
    played = []
    for game, seed in (("booty-dice", "n1"), ("booty-dice", "n2"), ("moon-yeti", "n3")):
        if table.match is not None:
            table.back_to_lobby()
        table.start(game, 4, names=names, seed=seed)
        played.append((game, play_out(table, seed)))
    table.close()

    again = Table(Journal(path), list(hardware))  # a restart
    again.resume()
    night = again.payload(PUBLIC)[1]["night"]
    assert night["count"] == 3
    assert [m["title"] for m in night["matches"]] == ["Moon Yeti", "Booty Dice", "Booty Dice"]
    wins = {name: 0 for name in names}
    dice = {name: 0 for name in names}
    for game, result in played:
        for winner in result["winners"]:
            wins[names[winner]] += 1
        if game == "booty-dice":
            for seat, score in enumerate(result["scores"]):
                dice[names[seat]] += score
    standings = {row["name"]: row for row in night["standings"]}
    assert {name: row["wins"] for name, row in standings.items()} == wins
    assert {name: row["played"] for name, row in standings.items()} == dict.fromkeys(names, 3)
    assert {name: row["games"]["booty-dice"]["score"] for name, row in standings.items()} \
        == dice
    assert [row["wins"] for row in night["standings"]] == sorted(wins.values(), reverse=True)

    exported = again.night.to_dict()
    assert [m["game"] for m in exported["matches"]] == [g for g, _r in played]
    assert [m["winners"] for m in exported["matches"]] == [
        [names[w] for w in r["winners"]] for _g, r in played]
    rows = again.night.to_csv().splitlines()
    assert rows[0].startswith("match,ended,game,player,seat,won,score")
    assert len(rows) == 1 + 3 * 4
    again.new_night()
    assert again.payload(PUBLIC)[1]["night"] == {"count": 0, "standings": [], "matches": []}
    again.close()


def test_a_match_seen_over_again_after_a_restart_is_counted_once(tmp_path):
    night = Night(tmp_path / "night.sqlite3")
    table = Table(Journal(tmp_path / "journal.sqlite3"), [], night=night)
    table.start("booty-dice", 2, seed="once")
    table.submit(HOST, {"type": "end"})
    assert night.record(table.match) is False  # recorded when it ended
    ended = night.matches()
    assert len(ended) == 1 and ended[0]["winners"] == []
    assert ended[0]["reason"] == "ended by the host"
    table.close()


def test_a_name_a_spreadsheet_would_run_is_exported_as_text(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), [])
    table.start("booty-dice", 2, names=["=SUM(A1)", "Bo"], seed="csv")
    table.submit(HOST, {"type": "end"})
    assert "'=SUM(A1)" in table.night.to_csv()
    table.close()


def test_a_night_with_nothing_played_for_hours_is_over(tmp_path):
    now = [1_000_000.0]
    path = tmp_path / "night.sqlite3"
    night = Night(path, clock=lambda: now[0])
    table = Table(Journal(tmp_path / "journal.sqlite3"), [], night=night)
    table.start("booty-dice", 2, seed="last-week")
    table.submit(HOST, {"type": "end"})
    night.close()
    table.journal.close()
    now[0] += 3600  # an hour later: the same night
    later = Night(path, clock=lambda: now[0])
    assert len(later.matches()) == 1
    later.close()
    now[0] += NIGHT_GAP + 1  # next week
    next_week = Night(path, clock=lambda: now[0])
    assert next_week.matches() == []
    next_week.close()


@pytest.mark.parametrize("game_id", sorted(companion.games.GAMES))
@pytest.mark.slow
def test_phones_alone_play_every_game_to_its_end(tmp_path, game_id):
    """A laptop table has no buttons or screens: every decision of every game must be
    on the phones, so a match ends with nothing but what each seat's payload offers."""
    table = Table(Journal(tmp_path / "journal.sqlite3"), [])
    spec = companion.games.get(game_id).spec
    table.start(game_id, max(spec.min_seats, min(4, spec.max_seats)), seed=game_id)
    rng = random.Random(game_id)
    for _turn in range(20_000):
        if table.match.is_over:
            break
        offered = [(seat, table.payload(seat)[1]) for seat in range(table.match.seats)]
        offered = [(seat, p) for seat, p in offered if p["display"]["choices"]]
        assert offered, f"{game_id}: nobody's phone has a choice at {table.match.step()!r}"
        seat, payload = rng.choice(offered)
        choice = rng.choice(payload["display"]["choices"])
        table.submit(seat, choice["action"], version=payload["version"])
    assert table.match.is_over
    table.close()


def _match(players: list[str], winners: list[str]) -> dict:
    """One of tonight's matches as the night keeps it (a game without a score)."""
    return {"game": "moon-yeti", "title": "Moon Yeti", "players": players,
            "winners": winners, "scores": [], "score_label": ""}


def test_tied_players_share_a_rank_and_the_next_rank_counts_them(tmp_path):
    night = Night(tmp_path / "night.sqlite3")
    four = ["Ann", "Bo", "Cy", "Di"]
    matches = [_match(four, [w]) for w in ("Ann", "Ann", "Bo", "Cy")]
    ranks = [(row["name"], row["rank"]) for row in night.standings(matches)]
    # Standard competition ranking: the two with one win each are both second (they were
    # ranked 2 and 3), and Di is fourth.
    assert ranks == [("Ann", 1), ("Bo", 2), ("Cy", 2), ("Di", 4)]
    everyone_won = [_match(four, [w]) for w in four]
    assert [row["rank"] for row in night.standings(everyone_won)] == [1, 1, 1, 1]
    # Fewer matches for the same wins ranks higher: not a tie.
    later = matches + [_match(["Eve", "Di"], ["Eve"])]
    assert [(row["name"], row["rank"]) for row in night.standings(later)] == [
        ("Ann", 1), ("Eve", 2), ("Bo", 3), ("Cy", 3), ("Di", 5)]
    night.close()


def _rows_in_file(path) -> list[str]:
    """The match ids the night's file holds, read by a connection of its own."""
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT id FROM matches ORDER BY rowid")]


def test_a_match_recorded_unsaved_is_in_the_standings_and_reaches_the_file_on_save(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), [])
    table.start("booty-dice", 2, names=["Ann", "Bo"], seed="unsaved")
    table.submit(HOST, {"type": "end"})  # the table's night saves once phones were told
    assert _rows_in_file(tmp_path / "night.sqlite3") == [table.match.id]

    path = tmp_path / "other.sqlite3"
    night = Night(path)
    assert night.record(table.match, save=False) is True
    assert [m["match"] for m in night.matches()] == [table.match.id]
    assert night.payload()["count"] == 1
    assert _rows_in_file(path) == []  # not yet
    assert night.record(table.match) is False  # recorded already, if not saved
    night.save()
    assert _rows_in_file(path) == [table.match.id]
    night.close()
    table.close()


def test_a_night_file_that_refuses_a_write_keeps_the_match_and_writes_it_later(tmp_path):
    path = tmp_path / "night.sqlite3"
    night = Night(path)
    table = Table(Journal(tmp_path / "journal.sqlite3"), [], night=night)
    table.start("booty-dice", 2, names=["Ann", "Bo"], seed="refused")
    night._db.execute("PRAGMA query_only = ON")  # SQLite refuses every write now
    table.submit(HOST, {"type": "end"})  # the action stands: the night is not the journal
    assert table.match.is_over
    assert table.payload(PUBLIC)[1]["night"]["count"] == 1
    assert _rows_in_file(path) == []
    night._db.execute("PRAGMA query_only = OFF")
    night.save()
    assert _rows_in_file(path) == [table.match.id]
    table.close()


def test_a_match_the_night_lost_to_a_power_cut_is_found_in_the_journal(tmp_path):
    # The phones are told of the end before the night's file has it: were the power to
    # go between the two, the next start finds the match in the journal, over.
    path = tmp_path / "night.sqlite3"
    table = Table(Journal(tmp_path / "journal.sqlite3"), [])
    table.start("booty-dice", 2, names=["Ann", "Bo"], seed="cut")
    result = play_out(table, "cut")
    match_id = table.match.id
    table.close()
    with sqlite3.connect(path) as db:  # the row the power cut would have lost
        db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
    note = Path(f"{path}.commits")  # and its commit note counted only what it holds
    note.write_text(str(int(note.read_text()) - 1))
    assert _rows_in_file(path) == []

    again = Table(Journal(tmp_path / "journal.sqlite3"), [])
    again.resume()
    assert _rows_in_file(path) == [match_id]
    (found,) = again.night.matches()
    assert found["match"] == match_id
    assert found["winners"] == [["Ann", "Bo"][w] for w in result["winners"]]
    again.close()
    third = Table(Journal(tmp_path / "journal.sqlite3"), [])  # and only once
    third.resume()
    assert [m["match"] for m in third.night.matches()] == [match_id]
    third.close()
