"""hardware/README.md's parts list adds up: its counts are worked out again here from the
table configs and from the page's own cable plan and connector tables, and its words
agree with the configs' comments and the docs beside it."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from companion.seats import load_table_config

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
GUIDE = (HARDWARE / "README.md").read_text()
SIZES = (4, 6, 8)
COLUMNS = {4: "4 seats", 6: "6 seats", 8: "8 seats"}

# The physical facts the counts rest on (the page says each of them in words):
GROUND_FEEDS = 2        # two wires from two header GND pins feed the ground block
GLANDS_PER_CABLE = 2    # a gland where a cable leaves its seat box, one where it enters the Pi end
WAGO_WAYS = 5           # a WAGO 221-415 has five ways; a link between two blocks takes one of each
BUTTONS_PER_SEAT = 3
GPIO_VOLTS = 3.3


def section(title: str, text: str = GUIDE) -> str:
    """The body of the section headed ``title``, up to the next heading of its level or
    above."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", text, re.M)
    assert match, f"no section {title!r}"
    body = text[match.end():]
    end = re.search(rf"^#{{1,{len(match.group(1))}}} ", body, re.M)
    return body[:end.start()] if end else body


def tables(text: str) -> list[list[dict[str, str]]]:
    """Every markdown table in ``text`` (indented ones too), as rows of header -> cell."""
    found, rows, header = [], [], None
    for line in text.splitlines() + [""]:
        line = line.strip()
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if header is None:
                header = cells
            elif not set("".join(cells)) <= set("-: "):
                rows.append(dict(zip(header, cells, strict=True)))
        elif header is not None:
            found.append(rows)
            rows, header = [], None
    return found


def table_with(text: str, column: str) -> list[dict[str, str]]:
    """The first table in ``text`` with a column headed ``column``."""
    for rows in tables(text):
        if rows and column in rows[0]:
            return rows
    raise AssertionError(f"no table with a column {column!r}")


def row(rows: list[dict[str, str]], first: str) -> dict[str, str]:
    """The row whose first cell starts with ``first``."""
    for each in rows:
        if next(iter(each.values())).startswith(first):
            return each
    raise AssertionError(f"no row {first!r}")


def number(cell: str) -> float:
    """The first number in a cell ("40 (a bag of 100)" -> 40, "3.9 mA" -> 3.9)."""
    match = re.search(r"\d+(?:\.\d+)?", cell)
    assert match, f"no number in {cell!r}"
    return float(match.group())


SHOPPING = table_with(section("Shopping list"), "part number / example")
COUNTS = table_with(section("How the counts add up"), "how")


def shopping(part: str, seats: int) -> float:
    return number(row(SHOPPING, part)[COLUMNS[seats]])


def counted(what: str, seats: int) -> float:
    return number(row(COUNTS, what)[COLUMNS[seats]])


def config(seats: int):
    return load_table_config(HARDWARE / f"table-{seats}.toml", backend="sim")


def multiplexers(seats: int) -> set[tuple[int, int]]:
    """The (bus, address) of every TCA9548A the config's screens sit behind."""
    return {(seat.screen.bus, seat.screen.mux) for seat in config(seats).seats
            if seat.screen is not None and seat.screen.mux is not None}


def cable_plan() -> list[dict[str, str]]:
    return table_with(section("Wiring in short"), "screen cable (Cat5e/6)")


def cables_per_seat() -> int:
    return sum(1 for header in cable_plan()[0] if header.endswith("cable") or "cable (" in header)


def screen_ground_cores() -> int:
    return sum("GND" in each["cores"] for each in cable_plan())


def button_ground_cores() -> int:
    return sum(each["button cable (4-core)"] == "GND" for each in cable_plan())


def connectors() -> dict[int, list[dict[str, str]]]:
    """The seat's connectors from *Wiring in short*: pin count -> its rows."""
    found = {}
    for rows in tables(section("Wiring in short")):
        header = next(iter(rows[0])) if rows else ""
        pins = re.search(r"\((\d+)-pin\)", header)
        if pins:
            found[int(pins.group(1))] = rows
    assert found, "no connector tables in Wiring in short"
    return found


def ground_connections(seats: int) -> int:
    """Ways used on the Pi end's ground block: each cable of each seat lands its grounds
    on one way (the screen cable's in one ferrule), each mux one, each feed wire one."""
    return seats * cables_per_seat() + len(multiplexers(seats)) + GROUND_FEEDS


def wago_ways(blocks: int) -> int:
    """Free ways on ``blocks`` WAGO blocks linked in a row (each link takes two ways)."""
    return WAGO_WAYS * blocks - 2 * max(blocks - 1, 0)


@pytest.mark.parametrize("seats", SIZES)
def test_the_ground_connections_follow_from_the_config(seats):
    needed = ground_connections(seats)
    assert counted("ground connections at the Pi end", seats) == needed
    margins = " ".join(section("Electrical margins").split())
    assert f"{needed} for {['four', 'six', 'eight'][SIZES.index(seats)]}" in margins
    assert f"the {GROUND_FEEDS} feed wires" in row(COUNTS, "ground connections")["how"]


@pytest.mark.parametrize("seats", SIZES)
def test_the_wago_blocks_are_the_fewest_that_give_every_ground_a_way(seats):
    blocks = int(shopping("ground distribution block", seats))
    needed = ground_connections(seats)
    assert wago_ways(blocks) >= needed, f"{blocks} linked blocks give {wago_ways(blocks)} ways"
    assert wago_ways(blocks - 1) < needed, f"{blocks - 1} blocks would do"
    assert counted("WAGO 221-415 blocks", seats) == blocks
    assert f"{blocks} give {wago_ways(blocks)}" in " ".join(section("How the counts add up").split())


@pytest.mark.parametrize("seats", SIZES)
def test_two_glands_a_cable(seats):
    glands = seats * cables_per_seat() * GLANDS_PER_CABLE
    assert cables_per_seat() == 2
    assert shopping("cable glands", seats) == glands
    assert counted("cable glands", seats) == glands
    assert f"{cables_per_seat() * GLANDS_PER_CABLE} a seat" in row(COUNTS, "cable glands")["how"]


def test_the_grounds_of_a_seat_are_counted_alike_everywhere():
    assert screen_ground_cores() == 4 and button_ground_cores() == 1
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    per_seat = screen_ground_cores() + button_ground_cores()
    assert f"A seat has {words[per_seat]} ground cores" in GUIDE
    everywhere = GUIDE + (HARDWARE / "pi-end.svg").read_text()
    assert re.search(r"(?i)three ground cores", everywhere) is None
    assert f"{words[screen_ground_cores()]} ground cores of a seat's screen cable" in GUIDE
    assert f"{words[screen_ground_cores()].capitalize()} ground cores of a screen cable" in (
        HARDWARE / "pi-end.svg").read_text()
    # At the seat, every ground core reaches a connector pin: pairs 1-3 spliced to one
    # lead, pair 4's alone, the button cable's alone.
    landed = 0
    for rows in connectors().values():
        for each in rows:
            what = each["what is crimped into it"]
            if "GND" in what:
                spliced = re.search(r"pairs (\d)-(\d)", what)
                landed += int(spliced.group(2)) - int(spliced.group(1)) + 1 if spliced else 1
    assert landed == per_seat


def test_every_crimp_contact_holds_one_core():
    for pins, rows in connectors().items():
        assert [int(each["cores in the crimp"]) for each in rows] == [1] * pins
        assert [int(next(iter(each.values()))) for each in rows] == list(range(1, pins + 1))


@pytest.mark.parametrize("seats", SIZES)
def test_the_housings_and_contacts_fit_the_connectors(seats):
    pin_counts = sorted(connectors())
    assert pin_counts == [4, 6]
    listed = SHOPPING and " ".join(each["part number / example"] for each in SHOPPING)
    assert sorted(int(n) for n in re.findall(r"XHP-(\d+)", listed)) == pin_counts
    assert sorted(int(n) for n in re.findall(r"B(\d+)B-XH-A", listed)) == pin_counts
    for kit in re.findall(r"kit of 2- to (\d+)-pin", GUIDE):
        assert int(kit) >= max(pin_counts), f"a 2-{kit} pin kit has no {max(pin_counts)}-pin"
    assert shopping("screen connector", seats) == seats
    assert shopping("button connector", seats) == seats
    assert shopping("crimp contacts", seats) == seats * sum(pin_counts)
    assert counted("crimp contacts", seats) == seats * sum(pin_counts)


def test_the_seat_drawing_shows_the_same_screen_connector():
    svg = ElementTree.parse(ROOT / "docs" / "seat-box.svg")
    texts = [node.text or "" for node in svg.iter("{http://www.w3.org/2000/svg}text")]
    start = texts.index("screen connector") + 1
    pins = []
    for text in texts[start:]:
        if not re.match(r"\d ", text):
            break
        pins.append(text)
    assert len(pins) == max(connectors())
    assert not any(re.search(r"\(\d cores\)", text) for text in pins)  # one core a crimp


@pytest.mark.parametrize("seats", SIZES)
def test_the_per_seat_parts_follow_from_the_config(seats):
    table = config(seats)
    assert len(table.seats) == seats
    muxes = multiplexers(seats)
    leds = sum(seat.led is not None for seat in table.seats)
    buttons = sum(BUTTONS_PER_SEAT for seat in table.seats if seat.buttons is not None)
    assert shopping("OLED screen", seats) == seats
    assert shopping("I2C multiplexer", seats) == len(muxes) == counted("multiplexers", seats)
    assert shopping("pull-up resistors for bus 0", seats) == 2 * sum(bus == 0 for bus, _ in muxes)
    assert shopping("buttons", seats) == buttons
    assert shopping("button series resistors", seats) == buttons
    assert counted("button series resistors", seats) == buttons
    assert shopping("LED + resistor", seats) == leds
    assert shopping("seat box", seats) == seats
    assert row(SHOPPING, "screen cable")[COLUMNS[seats]].startswith(f"{seats} x ")
    assert row(SHOPPING, "button cable")[COLUMNS[seats]].startswith(f"{seats} x ")


def test_the_screen_named_is_a_four_pin_0x3c_module():
    screen = row(SHOPPING, "OLED screen")["part number / example"]
    assert "4 pins" in screen and "0x3C" in screen and "GND VCC SCL SDA" in screen
    assert "Adafruit 326" not in screen  # an 8-pin SPI/I2C board at 0x3D: see the note
    note = GUIDE[GUIDE.index("**Which screen, exactly.**"):]
    note = note[:note.index("\n\n")]
    assert "Adafruit 326" in note and "0x3D" in note and "SJ1 and SJ2" in note


def test_the_led_currents_are_the_arithmetic():
    rows = table_with(section("LED current"), "forward voltage, typical")
    assert len(rows) >= 2
    for each in rows:
        volts, ohms = number(each["forward voltage, typical"]), number(each["resistor"])
        assert number(each["current"]) == pytest.approx((GPIO_VOLTS - volts) / ohms * 1000,
                                                        abs=0.05), each
    assert "about 5 mA" not in GUIDE


def test_the_build_time_adds_up():
    rows = table_with(section("Time"), "each further seat")

    def hours(cell: str) -> float:
        if not cell:
            return 0.0
        value = number(cell)
        return value / 60 if "min" in cell else value

    whole = {n: 0.0 for n in SIZES}
    for each in rows[:-1]:
        table_wide = [hours(part) for part in each["whole table, 4 / 6 / 8 seats"].split("/")]
        for i, seats in enumerate(SIZES):
            if table_wide != [0.0]:
                whole[seats] += table_wide[min(i, len(table_wide) - 1)]
            whole[seats] += hours(each["first seat"]) + (seats - 1) * hours(
                each["each further seat"])
    stated = [number(part) for part in rows[-1]["whole table, 4 / 6 / 8 seats"].split("/")]
    assert stated == [pytest.approx(whole[n], abs=0.5) for n in SIZES]
    assert "weekend" in GUIDE.split("\n\n")[1]
    pi_guide = (ROOT / "docs" / "raspberry-pi.md").read_text()
    assert "takes about an hour the first time, most of it wiring" not in pi_guide


def test_tested_with_says_honestly_what_was_tested():
    rows = table_with(section("Tested with"), "tested with")
    whats = " ".join(each["what"] for each in rows)
    for part in ("Raspberry Pi model", "OS image", "OLED module", "TCA9548A"):
        assert part in whats
    untested = all(each["tested with"] == "not yet tested on real hardware" for each in rows)
    claim = "Nothing on this page has been tested on real hardware yet." in GUIDE
    assert untested == claim, "the page's claim must match the table's rows"


# Every mention of the kernel's i2c-mux overlay must come with a warning against it: it
# claims the TCA9548A the companion drives itself.
WARNING = re.compile(r"(?i)(do not|must \**not|never|no shipped|no i2c-mux)")


def comments(path: Path) -> str:
    return "\n".join(line for line in path.read_text().splitlines()
                     if line.lstrip().startswith("#"))


@pytest.mark.parametrize("seats", SIZES)
def test_the_table_configs_comments_are_current(seats):
    path = HARDWARE / f"table-{seats}.toml"
    text = comments(path)
    assert "coming later" not in text
    assert config(seats).seats  # and the config still loads
    if any(seat.buttons for seat in config(seats).seats):
        assert "1 kohm series resistor" in text
    for paragraph in re.split(r"(?<=\.)\s", text):
        if "i2c-mux" in paragraph:
            assert WARNING.search(paragraph), paragraph


@pytest.mark.parametrize("doc", ["hardware/README.md", "docs/seats.md", "docs/raspberry-pi.md"])
def test_no_doc_advises_a_kernel_i2c_mux_overlay(doc):
    text = (ROOT / doc).read_text()
    assert "coming later" not in text
    for paragraph in re.split(r"\n\s*\n", text):
        if "i2c-mux" in paragraph:
            assert WARNING.search(paragraph), paragraph
    if doc == "docs/seats.md":  # the config reference warns against it in so many words
        assert "**do not add a kernel `i2c-mux` overlay**" in text


def test_the_pod_tools_install_from_the_clone():
    pods = (ROOT / "docs" / "pods.md").read_text()
    assert "'mutiny-table[pod]'" not in pods  # not published on a package index
    assert "pip install '.[pod]'" in pods


def test_every_doctor_option_the_guide_names_exists(capsys):
    from companion.cli import main
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    known = set(re.findall(r"--[a-z][a-z-]*", capsys.readouterr().out))
    named = set()
    for command in re.findall(r"mutiny doctor[^`\n|]*", GUIDE):
        named |= set(re.findall(r"--[a-z][a-z-]*", command))
    assert "--seat" in named  # the bring-up checks one seat at a time
    assert named <= known, f"not options of mutiny doctor: {sorted(named - known)}"
