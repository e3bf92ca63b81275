"""SeatAccess answers from memory and writes every change through to its file."""
from __future__ import annotations

import sqlite3

from companion.access import BOOT_STRIDE, GRANT_SECONDS, HostPin, SeatAccess


def test_tokens_generations_and_names_survive_a_restart(tmp_path):
    path = tmp_path / "access.sqlite3"
    first = SeatAccess(path, 4)
    tokens = [first.token(s) for s in range(4)]
    new = first.replace(2)
    first.rename(1, "Anne")
    first.close()
    first.close()  # idempotent

    again = SeatAccess(path, 4)
    assert [again.token(s) for s in range(4)] == [tokens[0], tokens[1], new, tokens[3]]
    assert [again.generation(s) for s in range(4)] == [0, 0, 1, 0]
    assert again.names() == ["Seat 1", "Anne", "Seat 3", "Seat 4"]
    assert again.seat_for(new.lower()) == 2
    assert again.seat_for(tokens[2]) is None
    again.close()


def test_every_change_is_in_the_file_at_once(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 2)
    token = access.replace(0)
    access.rename(0, "Bo")
    # Another reader sees it before this one closes: nothing waits in memory.
    with sqlite3.connect(path) as other:
        row = other.execute("SELECT token, generation, name FROM seats WHERE seat = 0").fetchone()
    assert row == (token, 1, "Bo")
    assert access.generation(5) == -1
    access.close()


def test_each_phone_gets_its_own_grant_which_the_host_can_revoke(tmp_path):
    access = SeatAccess(tmp_path / "access.sqlite3", 4)
    (seat, first), (_seat, other) = access.join(access.token(2), "Phone A"), access.join(
        access.token(1))
    assert seat == 2 and first != other
    assert access.phone_seat(first) == 2 and access.phone_seat(other) == 1
    listed = access.phones(2)
    assert [p["device"] for p in listed] == ["Phone A"]
    assert listed[0]["id"] != first  # a short id, not the grant
    assert access.revoke(2, listed[0]["id"]) and not access.revoke(2, "nope")
    assert access.phone_seat(first) is None and access.phone_seat(other) == 1
    assert access.taken_over(first) is None  # let go by the host, not taken over
    assert access.join("0" * 32) is None and access.phone_seat(None) is None
    access.close()


def test_a_seat_has_one_phone_and_a_second_one_takes_it_over(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 2)
    _seat, first = access.join(access.token(0), "Phone A")
    _seat, second = access.join(access.token(0).lower(), "Phone B")
    assert access.phone_seat(first) is None and access.phone_seat(second) == 0
    assert [p["device"] for p in access.phones(0)] == ["Phone B"]
    seat, _when = access.taken_over(first)
    assert seat == 0 and access.taken_over(second) is None
    access.close()
    again = SeatAccess(path, 2)  # a restart that resumes the match still knows why
    assert again.taken_over(first)[0] == 0 and again.phone_seat(second) == 0
    again.replace(0)  # a new code: the old phones are simply gone, taken over or not
    assert again.taken_over(first) is None and again.phone_seat(second) is None
    again.close()


def test_a_taken_over_phone_is_forgotten_with_the_night():
    now = [1000.0]
    access = SeatAccess(":memory:", 1, clock=lambda: now[0])
    _seat, first = access.join(access.token(0))
    access.join(access.token(0))
    assert access.taken_over(first) is not None
    now[0] += GRANT_SECONDS + 1
    assert access.taken_over(first) is None
    _seat, third = access.join(access.token(0))
    access.join(access.token(0))
    assert access.taken_over(third) is not None
    access.new_night()
    assert access.taken_over(third) is None and access.phones(0) == []


def test_replacing_a_seat_ends_its_phones_and_a_new_match_only_its_link():
    access = SeatAccess(":memory:", 2)
    old = access.token(1)
    _seat, phone = access.join(old)
    access.new_match()
    assert access.seat_for(old) is None and access.phone_seat(phone) == 1
    access.replace(1)
    assert access.phone_seat(phone) is None and access.phones(1) == []


def test_a_new_night_ends_every_link_phone_and_cookie_key_and_keeps_names(tmp_path):
    path = tmp_path / "access.sqlite3"
    access = SeatAccess(path, 2)
    access.rename(0, "Anne")
    token, key = access.token(0), access.secret_key
    _seat, phone = access.join(token)
    access.close()
    again = SeatAccess(path, 2)  # a restart that resumes a match: all still there
    assert again.phone_seat(phone) == 0 and again.secret_key == key
    again.new_night()
    assert again.phone_seat(phone) is None and again.seat_for(token) is None
    assert again.secret_key != key and again.names()[0] == "Anne"
    again.close()
    third = SeatAccess(path, 2)
    assert third.phone_seat(phone) is None and third.secret_key != key
    third.close()


def test_every_open_is_a_new_boot_whose_versions_lie_above_the_last(tmp_path):
    path = tmp_path / "access.sqlite3"
    boots = []
    for _ in range(3):
        access = SeatAccess(path, 2)
        boots.append(access.first_version)
        access.close()
    assert boots == [BOOT_STRIDE, 2 * BOOT_STRIDE, 3 * BOOT_STRIDE]
    assert SeatAccess(":memory:", 2).first_version == 0


def test_host_logins_are_sessions_ended_by_logout():
    pin = HostPin("123456")
    first, second = pin.open_session(), pin.open_session()
    assert first != second and pin.has_session(first) and pin.has_session(second)
    pin.close_session(first)
    assert not pin.has_session(first) and pin.has_session(second)
    assert not pin.has_session(None) and not pin.has_session(["x"])


def test_a_grant_ends_a_night_after_its_phone_joined(tmp_path):
    now = [1_000_000.0]
    access = SeatAccess(tmp_path / "access.sqlite3", 2, clock=lambda: now[0])
    _seat, phone = access.join(access.token(1))
    now[0] += GRANT_SECONDS
    assert access.phone_seat(phone) == 1
    now[0] += 1
    assert access.phone_seat(phone) is None  # a copied cookie dies with the night
    access.close()
