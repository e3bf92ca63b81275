"""Two podlink ends on a faulty wire, for the tests; runs on CPython and MicroPython.

Each frame on its way gets a *fate*: delivered, dropped, corrupted, truncated,
duplicated or delayed (which reorders it behind later frames). Fates come from a
function, so CPython and MicroPython can replay the same faults (``lcg_fates``), and
Hypothesis can choose them (a list turned into a function).
"""
try:
    from companion.seats import podlink
except ImportError:  # under MicroPython: podlink.py sits in /lib
    import podlink

DELIVER, DROP, CORRUPT, TRUNCATE, DUPLICATE, DELAY = range(6)
FATES = 6
DELAY_ROUNDS = 3
TICK_MS = 50


class Lcg:
    """A tiny seeded generator: the same numbers on both Pythons (no ``random``)."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def __call__(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state >> 16


def lcg_fates(seed, faulty):
    """Random fates for the first ``faulty`` frames, then a clean wire."""
    rng = Lcg(seed)
    count = [0]

    def fate():
        count[0] += 1
        return rng() % FATES if count[0] <= faulty else DELIVER
    return fate


def list_fates(fates):
    """The given fates in order, then a clean wire."""
    queue = list(fates)

    def fate():
        return queue.pop(0) if queue else DELIVER
    return fate


def _carry(frame, wire, now_round, fate):
    kind = fate()
    if kind == DROP:
        return
    if kind == CORRUPT:
        body = bytearray(frame)
        spot = len(body) // 2
        body[spot] ^= 0x55
        frame = bytes(body)
    elif kind == TRUNCATE:
        frame = frame[:len(frame) // 2] + b"\x00"
    due = now_round + 1 + (DELAY_ROUNDS if kind == DELAY else 0)
    wire.append((due, frame))
    if kind == DUPLICATE:
        wire.append((due, frame))


def exchange(pod_messages, table_messages, fate, rounds=600):
    """Send both lists of ``(type, payload)`` across; return what each side delivered.

    Returns ``{"table": [...], "pod": [...], "pod_stats": {...}, "table_stats": {...},
    "rounds": n}``; delivered messages are ``[type, payload hex]`` (reliable ones only).
    """
    links = {"pod": podlink.Link("pod"), "table": podlink.Link("table")}
    deframers = {"pod": podlink.Deframer(), "table": podlink.Deframer()}
    waiting = {"pod": list(pod_messages), "table": list(table_messages)}
    wires = {"pod": [], "table": []}  # frames on their way *to* that side
    got = {"pod": [], "table": []}
    peer = {"pod": "table", "table": "pod"}
    done = 0
    for now_round in range(rounds):
        now = now_round * TICK_MS
        for side in ("pod", "table"):
            link = links[side]
            while waiting[side] and link.send(waiting[side][0][0], waiting[side][0][1]):
                waiting[side].pop(0)
            for frame in link.output(now):
                _carry(frame, wires[peer[side]], now_round, fate)
        for side in ("pod", "table"):
            _deliver(side, wires, deframers[side], links[side], got[side], now_round, now)
        done = now_round
        if _settled(links, waiting, wires):
            break
    return {"table": got["table"], "pod": got["pod"], "rounds": done,
            "pod_stats": links["pod"].stats, "table_stats": links["table"].stats}


def _deliver(side, wires, deframer, link, got, now_round, now):
    due = [frame for when, frame in wires[side] if when <= now_round]
    wires[side] = [(when, frame) for when, frame in wires[side] if when > now_round]
    for frame in due:
        for raw in deframer.feed(frame, now):
            message = link.receive(raw, now)
            if message is not None and message[0] & podlink.RELIABLE:
                got.append([message[0], podlink.to_hex(message[1])])


def _settled(links, waiting, wires):
    for side in ("pod", "table"):
        if waiting[side] or links[side].queue or wires[side]:
            return False
    return True


def messages(count, side):
    """``count`` distinct reliable messages a side could send."""
    out = []
    for index in range(count):
        if side == "pod":
            out.append((podlink.BUTTON, podlink.pack_button(index % 3, index % 3)))
        else:
            out.append((podlink.PAGE, podlink.pack_page(index % 8, bytes([index]) * 16,
                                                        index)))
    return out
