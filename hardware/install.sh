#!/usr/bin/env bash
# Mutiny Table installer for Raspberry Pi OS (Bookworm or later). Run once, as root:
#
#   sudo hardware/install.sh                          # I2C, user, venv, service
#   sudo hardware/install.sh --seats 6 --hotspot MutinyTable   # asks for the password
#   sudo hardware/install.sh --dry-run                # print every change, make none
#
# Running it again changes nothing that is already as it should be; it prints each
# change it makes (or would make) and a count at the end. The hotspot's password is
# never an argument (every user sees arguments in ps): it is asked for, or read from
# --hotspot-password-file FILE, or from standard input when that is not a terminal.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_IN=$(cd "$HERE/.." && pwd)

ROOT=""              # a directory to install into instead of / (for tests)
DRY_RUN=0
SEATS=4
CONFIG_FROM=""
SERVICE_USER=mutiny
PREFIX=/opt/mutiny
DATA=/var/lib/mutiny
PORT=80
HOTSPOT_SSID=""
HOTSPOT_PASSWORD=""  # read by read_hotspot_password, never from an argument
HOTSPOT_PASSWORD_FILE=""
HOTSPOT=mutiny-hotspot  # the NetworkManager connection's name
NM_CONNECTIONS=/etc/NetworkManager/system-connections
HOTSPOT_ADDRESS=10.42.0.1
HOST_NAME=""
CHANGES=0

usage() {
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'USAGE'
Options:
  --seats 4|6|8        the table config to start from (hardware/table-N.toml)
  --config FILE        start from this table config instead
  --port N             web port (default 80)
  --hotspot SSID       make a Wi-Fi hotspot with this name (NetworkManager); its
                       WPA2 password (8 to 63 characters) is asked for
  --hotspot-password-file FILE
                       read the password from FILE's first line instead (- for
                       standard input)
  --hostname NAME      set the Pi's name (phones can use http://NAME.local/)
  --dry-run            print every change that would be made, and make none
  --root DIR           install below DIR instead of / (for tests)
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --seats) SEATS=$2; shift 2 ;;
        --config) CONFIG_FROM=$2; shift 2 ;;
        --port) PORT=$2; shift 2 ;;
        --hotspot) HOTSPOT_SSID=$2; shift 2 ;;
        --hotspot-password-file) HOTSPOT_PASSWORD_FILE=$2; shift 2 ;;
        --password|--password=*)
            echo "install.sh: the hotspot password is not taken as an argument (every user" \
                 "sees arguments in ps, and the shell keeps them in its history): leave it" \
                 "out to be asked, or use --hotspot-password-file FILE (- for standard input)" >&2
            exit 2 ;;
        --hostname) HOST_NAME=$2; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        --root) ROOT=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

# -- how every change is made -----------------------------------------------------------
say() { printf '%s\n' "$*"; }

# change DESCRIPTION COMMAND...: run a command that changes the system (or, with
# --dry-run, say that it would).
change() {
    local what=$1; shift
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would: $what  [$*]"
    else
        say "change: $what"
        "$@"
    fi
}

# put_text PATH MODE TEXT [WHAT]: make PATH (below ROOT) hold TEXT with MODE, unless it
# already does (status 1). A shell function, so TEXT (a keyfile with a password) is in
# no process's arguments; the file is made with MODE from the start (umask), written
# beside its place and renamed over it, so no one reads it half written or too open.
put_text() {
    local path=$ROOT$1 mode=$2 content=$3 what=${4:-write $1}
    if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
        return 1
    fi
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would: $what"
    else
        say "change: $what"
        mkdir -p "$(dirname "$path")"
        (umask 077 && printf '%s\n' "$content" > "$path.mutiny-new")
        chmod "$mode" "$path.mutiny-new"
        mv -f "$path.mutiny-new" "$path"
    fi
}

# put_file PATH MODE: put_text with stdin's text.
put_file() {
    put_text "$1" "$2" "$(cat)"
}

# table_config: the table config the companion will run with: the one already in
# /etc/mutiny (never overwritten), else the one step_config copies there.
table_config() {
    if [ -f "$ROOT/etc/mutiny/table.toml" ]; then
        printf '%s\n' "$ROOT/etc/mutiny/table.toml"
    else
        printf '%s\n' "${CONFIG_FROM:-$SRC_IN/hardware/table-$SEATS.toml}"
    fi
}

# overlay_lines FILE: the config.txt lines table config FILE needs for its I2C buses,
# one a line (bus 1 always; bus 0 when a screen is on it). Decided by
# companion/seats/overlays.py, which the companion also uses to name a missing line
# when it refuses to start; it needs only the standard library, so the system's
# python3 runs it before the virtual environment exists.
overlay_lines() {
    python3 "$SRC_IN/companion/seats/overlays.py" "$1"
}

# check_system: Raspberry Pi OS Bookworm (Python 3.11) or later, Trixie (Python 3.13)
# included; an older system is refused before anything changes, with what it has.
check_system() {
    local python release=""
    if ! python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); then
        echo "install.sh: python3 is missing; Raspberry Pi OS Bookworm or later has it" >&2
        exit 2
    fi
    if [ -f "$ROOT/etc/os-release" ]; then
        # shellcheck source=/dev/null
        release=$(. "$ROOT/etc/os-release" && printf '%s' "${PRETTY_NAME:-}")
    fi
    if [ "${python%%.*}" -lt 3 ] || { [ "${python%%.*}" = 3 ] && [ "${python#*.}" -lt 11 ]; }; then
        echo "install.sh: Mutiny Table needs Python 3.11 or later (Raspberry Pi OS Bookworm or" \
             "later); this system${release:+ ($release)} has Python $python" >&2
        exit 2
    fi
    SYSTEM="${release:-this system}, Python $python"
}

check_arguments() {
    case "$SEATS" in 4|6|8) ;; *) echo "install.sh: --seats takes 4, 6 or 8" >&2; exit 2 ;; esac
    if [ -n "$HOTSPOT_PASSWORD_FILE" ] && [ -z "$HOTSPOT_SSID" ]; then
        echo "install.sh: --hotspot-password-file goes with --hotspot NAME" >&2
        exit 2
    fi
    if [ -n "$HOTSPOT_SSID" ]; then
        check_hotspot_name
        read_hotspot_password
    fi
    check_system
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        echo "install.sh: run it as root (sudo hardware/install.sh), or with --dry-run" >&2
        exit 2
    fi
}

# -- the steps ------------------------------------------------------------------------------
#: On a Pi 3, Zero 2 W and Pi 4 the I2C controllers divide their clock from the GPU core
#: clock, which the firmware scales with load (400/250 MHz on a Pi 3 and Zero 2 W,
#: 500/200 MHz on a Pi 4): the bus would run slower, or briefly faster, than its
#: baudrate. Pinned as Raspberry Pi's documentation does for clocks divided from the
#: core (the mini UART, SPI): at 250 MHz on a Pi 3 and Zero 2 W, at 500 on a Pi 4 (its
#: displays need 500). A Pi 5's I2C is on its RP1 chip, on a clock of its own.
CORE_CLOCK=(pi3:core_freq=250 pi3:core_freq_min=250 pi02:core_freq=250
            pi02:core_freq_min=250 pi4:core_freq=500 pi4:core_freq_min=500)

step_i2c() {
    say "1. I2C at 400 kHz, the core clock fixed"
    if command -v raspi-config >/dev/null && [ "$(raspi-config nonint get_i2c)" != 0 ]; then
        change "enable I2C" raspi-config nonint do_i2c 0
    fi
    local boot=/boot/firmware/config.txt
    [ -f "$ROOT$boot" ] || [ ! -f "$ROOT/boot/config.txt" ] || boot=/boot/config.txt
    local lines line wanted=() new notes
    # Bus 1 always; bus 0 (GPIO0/1, the HAT ID pins) only for a table config with
    # screens on it (table-6/8.toml), a second bus drawn at the same time as bus 1.
    lines=$(overlay_lines "$(table_config)")
    while IFS= read -r line; do
        if [ -n "$line" ]; then wanted+=("all:$line"); fi
    done <<< "$lines"
    new=$(mktemp)
    notes=$(boot_config "$ROOT$boot" "$new" "${wanted[@]}" "${CORE_CLOCK[@]}")
    [ -z "$notes" ] || printf '%s\n' "$notes" | sed 's/^/  /'
    if [ ! -f "$ROOT$boot" ] || ! cmp -s "$new" "$ROOT$boot"; then
        change "write the settings above to $boot" replace_file "$new" "$ROOT$boot"
        REBOOT=1
    fi
    rm -f "$new"
}

# replace_file NEW PATH: PATH gets NEW's text, renamed into place (a power cut leaves
# the old file or the new one, never half of one).
replace_file() {
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.mutiny-new"
    mv -f "$2.mutiny-new" "$2"
}

# boot_config FILE NEW FILTER:LINE...: write to NEW config.txt FILE with each LINE set
# once, and print what it keeps, sets, adds and removes. A LINE for [all] that FILE
# already sets for every model is put right where it stands; the rest go in the
# installer's own block, which starts with [all] and ends with [all], so no model
# section above it can swallow them and nothing after it lands in a model section. A
# baudrate is the builder's once set (tuned down for long leads): the default is
# written only where no line sets that bus's baudrate. The system's python3 runs it.
boot_config() {
    python3 - "$@" <<'PY'
import sys

path, out, *wanted = sys.argv[1:]
BEGIN = "# >>> Mutiny Table: hardware/install.sh keeps the lines down to the <<< line"
END = "# <<< Mutiny Table"
ABOUT = "# I2C for the seats' screens; the core clock fixed where the I2C clock follows it"
ALIASES = {"i2c": "i2c_arm", "i2c1": "i2c_arm", "i2c0": "i2c_vc",
           "i2c_baudrate": "i2c_arm_baudrate", "i2c1_baudrate": "i2c_arm_baudrate",
           "i2c0_baudrate": "i2c_vc_baudrate"}
ON = {"", "on", "true", "yes", "okay", "1"}


def settings(line):
    """What an active line sets: [(key, value)]; dtparam=a=on,b -> dtparam:a, dtparam:b."""
    text = line.strip()
    if not text or text[0] in "#[" or "=" not in text:
        return []
    name, _, value = text.partition("=")
    if name.strip() != "dtparam":
        return [(name.strip(), value.strip())]
    out = []
    for part in value.split(","):
        param, _, val = part.partition("=")
        out.append(("dtparam:" + ALIASES.get(param.strip(), param.strip()), val.strip()))
    return out


def same(key, have, want):
    if key.startswith("dtparam:") and not key.endswith("_baudrate"):
        return (have.lower() in ON) == (want.lower() in ON)
    return have == want


def set_in(line, key, value):
    """LINE with KEY set to VALUE (one parameter of a dtparam list, or the whole line)."""
    name, _, rest = line.strip().partition("=")
    if name.strip() != "dtparam":
        return "%s=%s" % (name.strip(), value)
    parts = []
    for part in rest.split(","):
        param = part.partition("=")[0].strip()
        hit = "dtparam:" + ALIASES.get(param, param) == key
        parts.append("%s=%s" % (key.split(":", 1)[1], value) if hit else part.strip())
    return "dtparam=" + ",".join(parts)


try:
    with open(path) as file:
        lines = file.read().splitlines()
except FileNotFoundError:
    lines = []
outside, old_block, at = [], [], None
for line in lines:
    if line.strip() == BEGIN and at is None:
        at = len(outside)
        old_block.append(line)
    elif at is not None and old_block and old_block[-1].strip() != END:
        old_block.append(line)
    else:
        outside.append(line)

section = {}  # index in outside -> the filter it is under, None for every model
current = None
for index, line in enumerate(outside):
    text = line.strip()
    if text.startswith("["):
        current = None if text.lower() == "[all]" else text
    section[index] = current

notes, block_all, models = [], [], {}
for item in wanted:
    where, line = item.split(":", 1)
    key, value = settings(line)[0]
    found = [(index, have) for index, text in enumerate(outside)
             for k, have in settings(text) if k == key]
    if key.endswith("_baudrate"):
        if found:
            index, have = found[-1]
            under = ", only under %s" % section[index] if section[index] else ""
            notes.append("keep %s (line %d%s): a baudrate set is yours; %s is written "
                         "only where none is" % (outside[index].strip(), index + 1, under,
                                                 value))
            continue
        mine = [text for text in old_block for k, _ in settings(text) if k == key]
        if mine and mine[-1].strip() != line:
            notes.append("keep %s in the installer's block: a baudrate set is yours"
                         % mine[-1].strip())
        block_all.append(mine[-1].strip() if mine else line)
        continue
    if where == "all":
        every = [(index, have) for index, have in found if section[index] is None]
        if every:
            index, have = every[-1]
            if not same(key, have, value):
                fixed = set_in(outside[index], key, value)
                notes.append("set %s in place of %s (line %d)"
                             % (fixed, outside[index].strip(), index + 1))
                outside[index] = fixed
            continue
        block_all.append(line)
    else:
        models.setdefault(where, []).append(line)

block = []
if block_all or models:
    block = [BEGIN, ABOUT, "[all]"]
    if block_all:
        # Ends any overlay's parameters above, so these dtparams reach the Pi's own tree.
        block += ["dtoverlay="] + block_all
    for where, model_lines in models.items():
        block += ["[%s]" % where] + model_lines
    block += ["[all]", END]
old_set = {text.strip() for text in old_block}
new_set = {text.strip() for text in block}
under = "all"
for text in block:
    if text.startswith("["):
        under = text.strip("[]")
    elif settings(text) and text not in old_set and text != "dtoverlay=":
        notes.append("add %s (under [%s], in the installer's block)" % (text, under))
for text in old_block:
    if settings(text) and text.strip() not in new_set | {"dtoverlay="}:
        notes.append("remove %s from the installer's block" % text.strip())
if at is None:
    at = len(outside)
with open(out, "w") as file:
    file.write("\n".join(outside[:at] + block + outside[at:]) + "\n")
print("\n".join(notes))
PY
}

step_packages() {
    say "2. System packages"
    local wanted=(python3-venv python3-lgpio i2c-tools avahi-daemon) missing=() pkg
    for pkg in "${wanted[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [[ " ${missing[*]} " = *" python3-lgpio "* ]] && venv_has_lgpio; then
        # A system without python3-lgpio, whose venv got lgpio from PyPI last time.
        missing=("${missing[@]/python3-lgpio}")
        read -r -a missing <<< "${missing[*]}"
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        # A fresh image's package lists are weeks old: their versions are gone from the
        # mirror and the install fails with 404s until they are read again.
        change "update the package lists" apt-get update -q
        change "install ${missing[*]}" install_packages "${missing[@]}"
    fi
}

# venv_has_lgpio: whether the venv holds lgpio of its own (from PyPI), or an earlier run
# found none to be had (install_companion).
venv_has_lgpio() {
    [ -f "$ROOT$PREFIX/venv/.mutiny-no-lgpio" ] ||
        compgen -G "$ROOT$PREFIX/venv/lib/python3*/site-packages/lgpio*" >/dev/null
}

# install_packages PACKAGE...: apt-get install them. python3-lgpio is Raspberry Pi OS's own
# package (plain Debian bookworm has none): where the archive lacks it, the rest are
# installed and step_software puts lgpio from PyPI into the venv instead.
install_packages() {
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"; then
        return 0
    fi
    local rest=() pkg
    for pkg in "$@"; do [ "$pkg" = python3-lgpio ] || rest+=("$pkg"); done
    [ ${#rest[@]} -lt $# ] || return 1
    say "  python3-lgpio is not in this system's package archive: lgpio comes from PyPI"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${rest[@]}"
}

step_user() {
    say "3. The service user '$SERVICE_USER'"
    if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
        change "create user $SERVICE_USER" useradd --system --home-dir "$DATA" \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    local group
    for group in gpio i2c spi dialout; do
        getent group "$group" >/dev/null || continue
        if ! id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            change "add $SERVICE_USER to group $group" usermod -aG "$group" "$SERVICE_USER"
        fi
    done
    if [ ! -d "$ROOT$DATA" ]; then
        change "make $DATA" install -d -m 0750 "$ROOT$DATA"
        change "give $DATA to $SERVICE_USER" chown "$SERVICE_USER:" "$ROOT$DATA"
    fi
}

#: What a checkout holds that is not the software (diff and tar take the same options):
#: build leftovers and the caches a test run writes, which would count as a change.
NOT_SOURCE=(--exclude=.git --exclude=.venv --exclude=__pycache__ --exclude='*.egg-info'
            --exclude=node_modules --exclude=data --exclude=.pytest_cache
            --exclude=.hypothesis --exclude=build --exclude=dist)

step_software() {
    say "4. Mutiny Table in $PREFIX"
    local src=$PREFIX/src venv=$PREFIX/venv
    if ! diff -rq "${NOT_SOURCE[@]}" "$SRC_IN" "$ROOT$src" >/dev/null 2>&1; then
        change "copy the source to $src" copy_source "$ROOT$src"
        SOURCE_CHANGED=1
    fi
    if [ ! -x "$ROOT$venv/bin/python" ]; then
        # System site packages: lgpio comes from Raspberry Pi OS, not from PyPI.
        change "make the virtual environment $venv" python3 -m venv --system-site-packages "$ROOT$venv"
        SOURCE_CHANGED=1
    fi
    # The stamp is written only once pip has finished: a pip that failed (no network,
    # a full card) is run again next time, not taken for done.
    local stamp=$venv/.mutiny-installed
    if [ "${SOURCE_CHANGED:-0}" = 1 ] || [ ! -f "$ROOT$stamp" ]; then
        # The pod extra (mpremote): `mutiny pod install` works from this venv, and nobody
        # runs pip by hand against Raspberry Pi OS's externally managed Python.
        local lgpio=""
        # lgpio from the system (python3-lgpio) when it has it, else from PyPI.
        python3 -c 'import lgpio' >/dev/null 2>&1 || lgpio=lgpio
        change "install the companion (with mpremote for pods) into $venv" \
            install_companion "$ROOT$venv/bin/python" "$ROOT$stamp" "${ROOT}${src}[pod]" $lgpio
    fi
    # `mutiny` on every user's PATH (sudo mutiny pod install ..., mutiny doctor ...).
    if [ "$(readlink "$ROOT/usr/local/bin/mutiny" 2>/dev/null)" != "$venv/bin/mutiny" ]; then
        change "put mutiny on the PATH (/usr/local/bin/mutiny)" \
            link_mutiny "$venv/bin/mutiny" "$ROOT/usr/local/bin/mutiny"
    fi
}

# install_companion PYTHON STAMP SOURCE [lgpio]: pip install SOURCE (editable) into
# PYTHON's venv, and lgpio from PyPI when asked, then write STAMP. PyPI's lgpio has wheels
# up to Python 3.12 only: elsewhere it needs swig and a compiler, so a failure there is
# said, remembered (the next run does not ask again) and not fatal; the sim backend and
# pods need no lgpio, and Raspberry Pi OS has python3-lgpio.
install_companion() {
    local python=$1 stamp=$2 source=$3 lgpio=${4:-}
    rm -f "$stamp"
    "$python" -m pip install --quiet --editable "$source"
    if [ -n "$lgpio" ] && ! "$python" -m pip install --quiet lgpio; then
        say "  warning: no lgpio for this Python (apt has no python3-lgpio, PyPI no wheel):"
        say "  the pi backend cannot drive GPIO here; the sim backend and pods work."
        touch "$(dirname "$stamp")/.mutiny-no-lgpio"
    fi
    touch "$stamp"
}

link_mutiny() {
    mkdir -p "$(dirname "$2")"
    ln -sfn "$1" "$2"
}

copy_source() {
    local dest=$1
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -C "$SRC_IN" "${NOT_SOURCE[@]}" -cf - . | tar -C "$dest" -xf -
}

step_config() {
    say "5. The table config /etc/mutiny/table.toml"
    local from
    from=$(table_config)
    if [ ! -f "$ROOT/etc/mutiny/table.toml" ]; then
        # Never overwritten: it is the group's own file once it exists.
        put_file /etc/mutiny/table.toml 0644 < "$from" || true
    fi
}

step_service() {
    say "6. The service (starts at power-on, restarts on failure)"
    local unit
    unit=$(sed -e "s#@USER@#$SERVICE_USER#g" -e "s#@VENV@#$PREFIX/venv#g" \
               -e "s#@SRC@#$PREFIX/src#g" -e "s#@DATA@#$DATA#g" \
               -e "s#@CONFIG@#/etc/mutiny/table.toml#g" -e "s#@PORT@#$PORT#g" \
               "$SRC_IN/hardware/mutiny.service.in")
    if put_text /etc/systemd/system/mutiny.service 0644 "$unit"; then
        change "reload systemd" systemctl daemon-reload
        SOURCE_CHANGED=1
    fi
    if ! systemctl is-enabled --quiet mutiny.service 2>/dev/null; then
        change "enable mutiny.service" systemctl enable mutiny.service
    fi
    if [ "${SOURCE_CHANGED:-0}" = 1 ]; then
        change "(re)start mutiny.service" systemctl restart mutiny.service
    elif ! systemctl is-active --quiet mutiny.service 2>/dev/null; then
        change "start mutiny.service" systemctl start mutiny.service
    fi
}

# -- the hotspot -------------------------------------------------------------------------
# check_hotspot_name: a Wi-Fi name of 1 to 32 bytes that the keyfile holds as it is.
check_hotspot_name() {
    local LC_ALL=C name=$HOTSPOT_SSID
    if [ ${#name} -lt 1 ] || [ ${#name} -gt 32 ] || [[ $name == *[\\\;]* ]] ||
        [[ $name =~ [[:cntrl:]] ]] || [[ $name == " "* ]] || [[ $name == *" " ]]; then
        echo "install.sh: --hotspot takes a name of 1 to 32 bytes, without \\ or ;" \
             "and not starting or ending with a space" >&2
        exit 2
    fi
}

# read_hotspot_password: the password from --hotspot-password-file (- for standard
# input), else asked for twice on a terminal, else read from standard input. Only
# shell builtins touch it, so it is in no process's arguments.
read_hotspot_password() {
    local file=$HOTSPOT_PASSWORD_FILE again
    if [ "$file" = - ]; then
        IFS= read -r HOTSPOT_PASSWORD || true
    elif [ -n "$file" ]; then
        if [ ! -r "$file" ]; then
            echo "install.sh: cannot read the password file $file" >&2
            exit 2
        fi
        IFS= read -r HOTSPOT_PASSWORD < "$file" || true
    elif [ -t 0 ]; then
        IFS= read -r -s -p "Password for the Wi-Fi '$HOTSPOT_SSID' (8 to 63 characters): " \
            HOTSPOT_PASSWORD
        echo >&2
        IFS= read -r -s -p "The same again: " again
        echo >&2
        if [ "$again" != "$HOTSPOT_PASSWORD" ]; then
            echo "install.sh: the two passwords differ" >&2
            exit 2
        fi
    else
        IFS= read -r HOTSPOT_PASSWORD || true
    fi
    HOTSPOT_PASSWORD=${HOTSPOT_PASSWORD%$'\r'}
    local LC_ALL=C
    if ! [[ $HOTSPOT_PASSWORD =~ ^[[:print:]]{8,63}$ ]]; then
        echo "install.sh: the hotspot needs a password of 8 to 63 characters (letters," \
             "digits, spaces and ASCII signs), WPA2's rule" >&2
        exit 2
    fi
}

# keyfile_escape TEXT: TEXT as a string value of a NetworkManager keyfile (a GLib key
# file): backslashes doubled, spaces as \s (a leading or trailing one would be lost).
keyfile_escape() {
    local text=${1//\\/\\\\}
    printf '%s' "${text// /\\s}"
}

# hotspot_keyfile UUID: the connection as NetworkManager keeps it, password included.
# The security is what `nmcli device wifi hotspot` itself sets up on a card with WPA2
# (RSN): WPA2-PSK with AES (CCMP) only, and protected management frames off (pmf=1:
# the Pi's brcmfmac Wi-Fi and many phones fail to associate with PMF on in AP mode).
# printf is a builtin: the password is in no process's arguments.
hotspot_keyfile() {
    printf '%s\n' "[connection]" "id=$HOTSPOT" "uuid=$1" "type=wifi" \
        "interface-name=wlan0" "autoconnect=true" "autoconnect-priority=100" "" \
        "[wifi]" "band=bg" "mode=ap" "ssid=$HOTSPOT_SSID" "" \
        "[wifi-security]" "group=ccmp;" "key-mgmt=wpa-psk" "pairwise=ccmp;" "pmf=1" \
        "proto=rsn;" "psk=$(keyfile_escape "$HOTSPOT_PASSWORD")" "" \
        "[ipv4]" "address1=$HOTSPOT_ADDRESS/24" "method=shared" "" \
        "[ipv6]" "addr-gen-mode=default" "method=auto"
}

nm_has_hotspot() {
    nmcli -t -f NAME connection show 2>/dev/null | grep -qx "$HOTSPOT"
}

# hotspot_uuid: the connection's UUID: the keyfile's, else the one NetworkManager has
# (a hotspot an earlier installer made with `nmcli connection add`), else a new one.
hotspot_uuid() {
    local keyfile=$ROOT$NM_CONNECTIONS/$HOTSPOT.nmconnection uuid=""
    if [ -f "$keyfile" ]; then
        uuid=$(sed -n 's/^uuid=//p' "$keyfile" 2>/dev/null | head -n 1 || true)
    fi
    if [ -z "$uuid" ] && nm_has_hotspot; then
        uuid=$(nmcli -g connection.uuid connection show "$HOTSPOT" 2>/dev/null || true)
    fi
    [ -n "$uuid" ] || uuid=$(cat /proc/sys/kernel/random/uuid)
    printf '%s\n' "$uuid"
}

# The hotspot is a keyfile NetworkManager is told to load, not `nmcli connection add` or
# `modify`: those take the password as an argument (seen in ps by every user), and a
# keyfile written by a builtin, mode 600 from the start, shows it to no one. Comparing
# the file also tells a changed name or password from an unchanged one.
step_hotspot() {
    [ -n "$HOTSPOT_SSID" ] || return 0
    say "7. Wi-Fi hotspot '$HOTSPOT_SSID' with a captive portal"
    local keyfile=$NM_CONNECTIONS/$HOTSPOT.nmconnection what="create the hotspot" text
    if [ -f "$ROOT$keyfile" ] || nm_has_hotspot; then
        what="change the hotspot (its name or password)"
    fi
    text=$(hotspot_keyfile "$(hotspot_uuid)")
    if put_text "$keyfile" 0600 "$text" "write $keyfile (mode 600)"; then
        change "$what: NetworkManager loads $keyfile" nmcli connection load "$ROOT$keyfile"
        HOTSPOT_CHANGED=1
    fi
    # NetworkManager's shared mode runs dnsmasq: answer every name with the Pi, so a
    # phone's "am I online?" check lands on the game.
    put_text /etc/NetworkManager/dnsmasq-shared.d/mutiny-portal.conf 0644 \
        "address=/#/$HOTSPOT_ADDRESS" || true
}

step_hostname() {
    [ -n "$HOST_NAME" ] || return 0
    say "8. The name $HOST_NAME.local (mDNS by avahi)"
    if [ "$(hostname)" != "$HOST_NAME" ]; then
        change "name this Pi $HOST_NAME" hostnamectl set-hostname "$HOST_NAME"
    fi
}

main() {
    check_arguments
    [ "$DRY_RUN" = 1 ] && say "Dry run: nothing will be changed."
    say "System: $SYSTEM"
    step_i2c
    step_packages
    step_user
    step_software
    step_config
    step_service
    step_hotspot
    step_hostname
    if [ "$CHANGES" = 0 ]; then
        say "Nothing to change: Mutiny Table is installed."
    elif [ "$DRY_RUN" = 1 ]; then
        say "$CHANGES changes would be made."
    else
        say "$CHANGES changes made."
        if [ "${REBOOT:-0}" = 1 ]; then
            say "The I2C settings in config.txt take effect after a reboot: sudo reboot"
        fi
        if [ "${HOTSPOT_CHANGED:-0}" = 1 ]; then
            say "The hotspot '$HOTSPOT_SSID' is on from the next boot (or now, ending any"
            say "Wi-Fi session: sudo nmcli connection up $HOTSPOT)."
        fi
        say "Check the table (the doctor needs the seats to itself):"
        say "  sudo systemctl stop mutiny"
        say "  sudo -u $SERVICE_USER mutiny doctor --config /etc/mutiny/table.toml"
        say "  sudo systemctl start mutiny"
    fi
}

main
