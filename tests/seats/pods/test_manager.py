"""All the pods of a table: ports opened or not, seats bound, pods on ptys with the
manager's threads, and a whole match with two pods and two wired seats."""
from __future__ import annotations

from typing import Any

import pytest

from companion.errors import SeatError
from companion.seats import ManualClock, open_seats, parse_table_config
from companion.seats.pods import PodManager, PodSeat, pod_report
from companion.seats.ssd1306 import pack_pages
from tests.firmware.fakepod import UID_HEX
from tests.seats.pods.conftest import MixedTable, Wire, fast_manager, vote, wait_until


def test_a_port_that_will_not_open_is_reported_with_the_fix():
    now = [0]

    def refuse(name: str) -> Any:
        raise PermissionError(13, "Permission denied")
    manager = PodManager(ports=lambda: ["/dev/ttyACM0"], opener=refuse, clock=lambda: now[0])
    assert manager.scan(threads=False) == []
    (status,) = manager.report()
    assert status.port == "/dev/ttyACM0" and "dialout" in status.state
    opened: list[str] = []
    manager.opener = lambda name: opened.append(name) or Wire()
    manager.scan(threads=False)
    assert opened == []  # not before REOPEN_MS
    now[0] = 10_000
    assert len(manager.scan(threads=False)) == 1 and opened == ["/dev/ttyACM0"]
    manager.close()


def test_open_seats_binds_pod_seats_and_the_table_closes_their_manager():
    config = parse_table_config('[[seat]]\npod = "E6614103E7000001"\nname = "Stern"\n',
                                backend="pi", bus_exists=lambda bus: True)
    manager = PodManager(ports=lambda: [])
    with open_seats(config, "pi", clock=ManualClock(), pods=manager) as table:
        seat = table[0]
        assert isinstance(seat, PodSeat) and seat.pod.uid == UID_HEX and seat.name == "Stern"
        assert table.pods is manager
        (report,) = pod_report(table)
        assert report["id"] == UID_HEX and report["seat"] == 1 and not report["connected"]
    assert manager._closed


def test_two_seats_cannot_share_a_pod_even_in_other_case():
    manager = PodManager(ports=lambda: [])
    manager.bind("e6614103e7000001", 1)
    with pytest.raises(SeatError, match="seats 1 and 2 both name pod 'E6614103E7000001'"):
        manager.bind("E6614103E7000001", 2)


def test_the_sim_backend_refuses_pods_with_the_fix():
    config = parse_table_config('[[seat]]\npod = "pod-1"\n', backend="sim")
    with pytest.raises(SeatError, match=r"seat 1 uses pod 'pod-1'.*Fix: use the pi backend"):
        open_seats(config, "sim", clock=ManualClock())


def test_a_table_without_pods_reports_none():
    from companion.seats import sim_table_config
    with open_seats(sim_table_config(1), "sim", clock=ManualClock()) as table:
        assert table.pods is None and pod_report(table) == []


def test_a_pty_pod_is_found_linked_unplugged_and_plugged_back(pty_pods):
    pods, make = pty_pods
    pod = make()
    manager = fast_manager(pods)
    clock = ManualClock()
    seat = PodSeat(1, manager.bind(UID_HEX, 1), clock=clock)
    manager.start()
    try:
        seat.show(vote())
        wait_until(lambda: pod.fake.screen.pages() == pack_pages(seat.frame(), 8))
        assert seat.status().connected and seat.status().port == pod.path
        pod.unplug()
        wait_until(lambda: seat.status().state == "unplugged")
        pod.click("next")  # while unplugged: queued on the pod
        seat.show(vote(title="Mutiny at Noon"))
        pod.plug()
        wait_until(lambda: seat.highlight == 1)
        wait_until(lambda: pod.fake.screen.pages() == pack_pages(seat.frame(), 8))
        assert seat.status().connects == 2 and seat.highlight == 1
    finally:
        manager.close()
        seat.close()
    wait_until(lambda: pod.fake.screen.lines is not None)  # BYE: "waiting for the table"


def test_a_match_with_two_pods_survives_a_pod_pulled_out_during_the_vote(pty_pods):
    pods, make = pty_pods
    make(bytes.fromhex("e6614103e7000003"))
    make(bytes.fromhex("e6614103e7000004"))
    mixed = MixedTable(pods)
    table, hardware = mixed.table, mixed.hardware
    try:
        for seat in range(4):
            mixed.click(seat, "select")
            wait_until(lambda: table.is_claimed(seat))
        table.start("moon-yeti", 4, seed="pods", options={"time_source": "clock"})
        match = table.match
        mixed.choose(0, lambda a: a["type"] == "declare")
        for seat in range(4):
            mixed.choose(seat, lambda a: a["type"] == "ready")
        wait_until(lambda: match.step() == "vote1")
        pulled = mixed.pods[2]
        pulled.unplug()
        wait_until(lambda: hardware[2].status().state == "unplugged")
        before = mixed.ballots()["ballots_in"]
        mixed.choose(2, lambda a: a["type"] == "vote", wait=False)  # queued on the pod
        votes = {2: 1}
        assert mixed.ballots()["ballots_in"] == before
        pulled.plug()
        wait_until(lambda: mixed.ballots()["ballots_in"] == before + 1)
        wait_until(lambda: pulled.fake.screen.pages() == pack_pages(hardware[2].frame(), 8))
        while match.step() == "vote1":
            for seat in match.acting():
                mixed.choose(seat, lambda a: a["type"] == "vote")
                votes[seat] = votes.get(seat, 0) + 1
        for pod in pods:  # every press delivered and acknowledged
            wait_until(lambda: not pod.fake.pod.link.queue)
        public = match.view("public")["state"]["vote1"]
        assert public["revealed"] and public["ballots_in"] == public["ballots_total"]
        # Each ballot once: the pulled pod's included, its presses neither lost nor doubled.
        assert {seat: len(public["cast"][seat]) for seat in votes} == votes
        assert hardware[2].status().connects == 2
    finally:
        mixed.close()
