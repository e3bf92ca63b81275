"""The host payload lists the seat pods, so the host page can show them."""
from __future__ import annotations


def test_the_host_payload_carries_the_pod_report(table, host):
    assert host.get("/api/host/view").json["pods"] == []
    table.pod_report = lambda: [{"id": "e661410", "seat": 3, "port": "/dev/ttyACM0",
                                 "firmware": "1.0", "connected": True, "dropped": 0,
                                 "state": "linked"}]
    table.refresh()
    pods = host.get("/api/host/view").json["pods"]
    assert pods[0]["seat"] == 3 and pods[0]["connected"] is True
    assert "pods" not in table.payload("public")[1]  # the public does not need them
