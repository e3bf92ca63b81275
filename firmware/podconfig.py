"""The pod's settings: its seat and its pins, from pod_config.json.

``mutiny pod install PORT --seat N`` writes pod_config.json with the seat number and any
pin it was told about; everything left out keeps the default below. Pin numbers are the
Pico's GPIO numbers (GP10 is 10). A file that cannot be parsed leaves the defaults in
place and says why in ``config["error"]`` (printed at boot), never fatal: a pod with a
bad config still talks to the table.
"""
import json

PATH = "pod_config.json"

DEFAULTS = {
    "seat": 0,  # the seat this pod was installed for (shown while waiting; 0: not set)
    "previous": 10, "select": 11, "next": 12,  # buttons, each to ground
    "led": 15,  # an LED through a resistor to ground; None: no LED
    "i2c": 0, "sda": 4, "scl": 5, "freq": 400000,  # the OLED's bus
    "address": 0x3C,  # 0x3D with the panel's address jumper moved
    "flip": False,  # the panel is mounted upside down
}


def load(path: str = PATH) -> dict:
    """DEFAULTS updated with the known keys of the file; unknown keys are ignored."""
    config = dict(DEFAULTS)
    config["error"] = None
    try:
        with open(path) as handle:
            data = json.load(handle)
    except OSError:
        return config  # no file: a Pico that was only flashed, the defaults fit
    except ValueError as exc:
        config["error"] = "bad %s: %s" % (path, exc)
        return config
    if not isinstance(data, dict):
        config["error"] = "%s is not an object" % path
        return config
    for key in DEFAULTS:
        if key in data:
            config[key] = data[key]
    return config
