"""Finding pods among the serial ports."""
from __future__ import annotations

from types import SimpleNamespace

from companion.seats.pods import find_pods


def test_find_pods_by_usb_id_prefers_by_id_names(tmp_path):
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    acm0, acm1 = tmp_path / "ttyACM0", tmp_path / "ttyACM1"
    acm0.touch()
    acm1.touch()
    (by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7000001-if00").symlink_to(acm0)
    ports = [SimpleNamespace(device=str(acm0), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device=str(acm1), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001)]
    assert find_pods(lambda: ports, str(by_id)) == [
        str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7000001-if00"), str(acm1)]
