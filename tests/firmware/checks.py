"""Checks of the firmware code, run under MicroPython (WebAssembly) and under CPython.

``main(spec)`` runs each section ``spec`` asks for and returns plain data; the tests
compare what the two Pythons returned with each other and with the Pi side's answers.
Written in the subset both Pythons share, like the firmware itself.
"""
import binascii
import sys

try:
    from companion.seats import podlink
    from tests.firmware import fakepod, linksim, machine  # noqa: F401 (fakepod: the path)
except ImportError:  # under MicroPython everything sits in /lib
    import linksim
    import machine
    import podlink

from keys import Keys


def hexed(data):
    return binascii.hexlify(bytes(data)).decode()


def unhex(text):
    return binascii.unhexlify(text)


# -- the protocol vectors -----------------------------------------------------------------
def protocol(vectors):
    out = {"crc": [], "cobs": [], "frames": [], "encoded": [], "streams": []}
    for item in vectors["crc"]:
        out["crc"].append(podlink.crc16(unhex(item["data"])))
    for item in vectors["cobs"]:
        encoded = podlink.cobs_encode(unhex(item["data"]))
        out["cobs"].append([hexed(encoded), hexed(podlink.cobs_decode(encoded))])
    for item in vectors["frames"]:
        out["frames"].append(outcome(unhex(item["wire"])))
        if "fields" in item:
            kind, seq, ack, payload = item["fields"]
            out["encoded"].append(hexed(podlink.encode(kind, seq, ack, unhex(payload))))
    for item in vectors["streams"]:
        out["streams"].append(stream(item))
    return out


def outcome(wire):
    try:
        kind, seq, ack, payload = podlink.decode(wire)
        return {"seq": seq, "ack": ack, "message": podlink.describe(kind, payload)}
    except podlink.FrameError as exc:
        return {"error": exc.reason}


def stream(item):
    deframer = podlink.Deframer()
    frames = []
    for chunk in item["chunks"]:
        frames += deframer.feed(unhex(chunk), 0)
    if item.get("expire"):
        deframer.expire(podlink.PARTIAL_MS)
        frames += deframer.feed(unhex(item["then"]), podlink.PARTIAL_MS)
    return {"frames": len(frames), "oversize": deframer.oversize,
            "truncated": deframer.truncated}


# -- the link on a faulty wire --------------------------------------------------------------
def links(spec):
    out = []
    for seed in spec["seeds"]:
        result = linksim.exchange(linksim.messages(spec["count"], "pod"),
                                  linksim.messages(spec["count"], "table"),
                                  linksim.lcg_fates(seed, spec["faulty"]))
        out.append(result)
    return out


# -- the buttons ----------------------------------------------------------------------------
class StepClock:
    """A clock the checks move by hand: ``t`` in the handlers' units, ``per_ms`` of them
    a millisecond (1000: microseconds, so a spike can be 10 us)."""

    def __init__(self, per_ms=1):
        self.t = 0
        self.per_ms = per_ms

    def raw(self):
        return self.t

    def at(self, raw):
        return raw // self.per_ms


def keys(spec):
    """Drive three pins through ``spec["edges"]`` ([ms, button, level]); poll every 5 ms."""
    clock = StepClock()
    pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (10, 11, 12)]
    buttons = Keys(pins, clock, spec["hold_ms"], spec["bounce_ms"])
    edges = sorted(spec["edges"])
    events = []
    for now in range(0, spec["until"] + 1, 5):
        while edges and edges[0][0] <= now:
            when, button, level = edges.pop(0)
            clock.t = when
            pins[button].drive(level)
        clock.t = now
        for button, kind in buttons.events(now):
            events.append([now, button, kind])
    return events


#: What a timeline step does to its pin: move it (the handler runs at once, or not now),
#: or run the handler late, as MicroPython's scheduler may.
PIN_STEPS = {"low": (0, True), "high": (1, True), "low-quiet": (0, False),
             "high-quiet": (1, False)}


def glitches(spec):
    """Each of ``spec["timelines"]`` on fresh pins: ``start`` (three levels), ``steps``
    ([us, button, step], step a PIN_STEPS key or "irq"), the loop polling every
    ``poll_ms`` until ``until_ms``. Returns each timeline's [ms, button, kind] events."""
    out = []
    for timeline in spec["timelines"]:
        clock = StepClock(1000)
        pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (10, 11, 12)]
        for pin, level in zip(pins, timeline["start"]):  # noqa: B905 (MicroPython)
            pin.drive(level)  # before Keys: no handler yet
        buttons = Keys(pins, clock, spec["hold_ms"], spec["bounce_ms"])
        steps = sorted(timeline["steps"])
        events = []
        for now in range(0, timeline["until_ms"] + 1, timeline["poll_ms"]):
            while steps and steps[0][0] <= now * 1000:
                clock.t, button, step = steps.pop(0)
                if step == "irq":
                    pins[button].interrupt()
                else:
                    level, irq = PIN_STEPS[step]
                    pins[button].drive(level, irq)
            clock.t = now * 1000
            for button, kind in buttons.events(now):
                events.append([now, button, kind])
        out.append(events)
    return out


# -- the whole pod, replaying what the Pi sent (MicroPython: it needs framebuf) -----------
class ListPort:
    def __init__(self):
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read(self):
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.outbox += data

    def wait(self, ms):
        pass


def replay(spec):
    """Run the firmware's Pod on the oled driver and Keys, feeding it the table's bytes
    round by round as a CPython run recorded them; return what it sent and showed."""
    import podapp
    from oled import SSD1306

    clock = StepClock()
    pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (10, 11, 12)]
    led_pin = machine.Pin(15, machine.Pin.OUT, value=0)
    i2c = machine.I2C(0)
    screen = SSD1306(i2c)
    port = ListPort()
    pod = podapp.Pod(port, screen, Keys(pins, clock), podapp.Led(led_pin),
                     machine.unique_id(), spec["session"], spec["seat"])
    table = {}
    for round_, data in spec["table"]:
        table[round_] = unhex(data)
    edges = sorted(spec["edges"])
    outputs, snapshots = [], {}
    for round_ in range(spec["rounds"]):
        now = round_ * spec["tick"]
        clock.t = now
        while edges and edges[0][0] <= round_:
            _, button, level = edges.pop(0)
            pins[button].drive(level)
        pod.step(now)
        if port.outbox:
            outputs.append([round_, hexed(port.outbox)])
            port.outbox = bytearray()
        if round_ in table:
            port.inbox += table[round_]
        if round_ in spec["snapshots"]:
            snapshots[str(round_)] = hexed(screen.buffer)
    return {"outputs": outputs, "buffer": hexed(screen.buffer), "snapshots": snapshots,
            "i2c": [[address, hexed(data)] for address, data in i2c.writes],
            "led": led_pin.history, "errors": screen.errors, "contrast": screen.level,
            "dropped": pod.link.dropped()}


# -- the board glue and the screen driver (MicroPython: they need framebuf, micropython) ---
class FakeStdin:
    def __init__(self, data):
        self.data = bytearray(data)

    def read(self, count):
        taken = bytes(self.data[:count])
        self.data = self.data[count:]
        return taken


class FakePoller:
    def __init__(self, stdin):
        self.stdin = stdin

    def poll(self, timeout):
        return [1] if self.stdin.data else []


def hardware(spec):
    import podconfig
    import podhw
    from oled import SSD1306

    out = {}
    stdin = FakeStdin(unhex(spec["usb_input"]))
    usb = podhw.UsbPort(stdin, None, FakePoller(stdin))
    out["usb_read"] = hexed(usb.read())
    out["usb_left"] = hexed(stdin.data)

    clock = podhw.Clock()
    before = clock.now()
    raw = clock.raw()
    after = clock.now()
    out["clock_ok"] = before <= clock.at(raw) <= after

    with open("/pod_config.json", "w") as handle:
        handle.write(spec["config_file"])
    config = podconfig.load("/pod_config.json")
    out["config"] = {"seat": config["seat"], "led": config["led"], "error": config["error"],
                     "bogus": "bogus" in config}
    with open("/broken.json", "w") as handle:
        handle.write("{seat: 3")
    out["broken_error"] = podconfig.load("/broken.json")["error"] is not None
    out["missing"] = podconfig.load("/nowhere.json") == dict(podconfig.DEFAULTS, error=None)

    port = ListPort()
    pod, _ = podhw.build(podconfig.load("/nowhere.json"), clock, port, 7)
    pod.step(0)
    out["hello"] = outcome(bytes(port.outbox)[:-1])["message"]
    out["safe_mode"] = podhw.safe_mode(podconfig.DEFAULTS)
    board = ListPort()
    board.inbox += b"\x00" * 3 + b"\r\x03"  # mpremote's Ctrl-C ends the main loop
    podhw.run(board)
    out["run_returned"] = not board.inbox

    i2c = machine.I2C(0)
    screen = SSD1306(i2c)
    stages = []
    screen.page(0, b"\xff" * 128)
    screen.flush(0)  # init, then page 0
    stages.append(len(i2c.writes))
    i2c.fail = True
    screen.page(3, b"\x0f" * 128)
    screen.flush(10)  # fails: counted, not raised
    stages.append(len(i2c.writes))
    i2c.fail = False
    screen.flush(500)  # too soon to try again
    stages.append(len(i2c.writes))
    for now in range(1010, 1010 + 8):
        screen.flush(now)  # init again, then every page, one a call
    stages.append(len(i2c.writes))
    screen.contrast(0)
    screen.flush(2000)
    stages.append(len(i2c.writes))
    out["oled"] = {"stages": stages, "errors": screen.errors, "busy": screen.busy(),
                   "buffer": hexed(screen.buffer), "last": hexed(i2c.writes[-1][1]),
                   "i2c": [[address, hexed(data)] for address, data in i2c.writes]}
    return out


def main(spec):
    out = {"implementation": sys.implementation.name}
    if "protocol" in spec:
        out["protocol"] = protocol(spec["protocol"])
    if "links" in spec:
        out["links"] = links(spec["links"])
    if "keys" in spec:
        out["keys"] = keys(spec["keys"])
    if "glitches" in spec:
        out["glitches"] = glitches(spec["glitches"])
    if "replay" in spec:
        out["replay"] = replay(spec["replay"])
    if "hardware" in spec:
        out["hardware"] = hardware(spec["hardware"])
    return out
