#!/usr/bin/env bash
# Mutiny Table installer for Raspberry Pi OS (Bookworm or later). Run once, as root:
#
#   sudo hardware/install.sh                          # I2C, user, venv, service
#   sudo hardware/install.sh --seats 6 --hotspot MutinyTable --password 'aye aye cap'
#   sudo hardware/install.sh --dry-run                # print every change, make none
#
# Running it again changes nothing that is already as it should be; it prints each
# change it makes (or would make) and a count at the end.
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
HOTSPOT_PASSWORD=""
HOTSPOT_ADDRESS=10.42.0.1
HOST_NAME=""
CHANGES=0

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'USAGE'
Options:
  --seats 4|6|8        the table config to start from (hardware/table-N.toml)
  --config FILE        start from this table config instead
  --port N             web port (default 80)
  --hotspot SSID       make a Wi-Fi hotspot with this name (NetworkManager)
  --password PASS      the hotspot's WPA2 password (8 to 63 characters)
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
        --password) HOTSPOT_PASSWORD=$2; shift 2 ;;
        --hostname) HOST_NAME=$2; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        --root) ROOT=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

# -- how every change is made -----------------------------------------------------------
say() { printf '%s\n' "$*"; }

# masked TEXT: TEXT with the hotspot password starred out, so a dry run (often pasted
# into a chat for help) never shows it.
masked() {
    local text=$1
    [ -z "$HOTSPOT_PASSWORD" ] || text=${text//"$HOTSPOT_PASSWORD"/********}
    printf '%s\n' "$text"
}

# change DESCRIPTION COMMAND...: run a command that changes the system (or, with
# --dry-run, say that it would).
change() {
    local what=$1; shift
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would: $what  [$(masked "$*")]"
    else
        say "change: $what"
        "$@"
    fi
}

# put_file PATH MODE: write stdin to PATH (below ROOT) unless it already holds exactly that.
put_file() {
    local path=$ROOT$1 mode=$2 content
    content=$(cat)
    if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
        return 1
    fi
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would: write $1"
    else
        say "change: write $1"
        mkdir -p "$(dirname "$path")"
        printf '%s\n' "$content" > "$path"
        chmod "$mode" "$path"
    fi
}

# ensure_line PATH LINE: append LINE to PATH (below ROOT) unless it is there already.
ensure_line() {
    local path=$ROOT$1 line=$2
    if [ -f "$path" ] && grep -qxF -- "$line" "$path"; then
        return 0
    fi
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would: add '$line' to $1"
    else
        say "change: add '$line' to $1"
        mkdir -p "$(dirname "$path")"
        printf '%s\n' "$line" >> "$path"
    fi
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
    if [ -n "$HOTSPOT_SSID" ] && { [ ${#HOTSPOT_PASSWORD} -lt 8 ] || [ ${#HOTSPOT_PASSWORD} -gt 63 ]; }; then
        echo "install.sh: --hotspot needs a --password of 8 to 63 characters" >&2
        exit 2
    fi
    check_system
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        echo "install.sh: run it as root (sudo hardware/install.sh), or with --dry-run" >&2
        exit 2
    fi
}

# -- the steps ------------------------------------------------------------------------------
step_i2c() {
    say "1. I2C at 400 kHz"
    if command -v raspi-config >/dev/null && [ "$(raspi-config nonint get_i2c)" != 0 ]; then
        change "enable I2C" raspi-config nonint do_i2c 0
    fi
    local boot=/boot/firmware/config.txt
    [ -f "$ROOT$boot" ] || [ ! -f "$ROOT/boot/config.txt" ] || boot=/boot/config.txt
    local before=$CHANGES lines line
    # Bus 1 always; bus 0 (GPIO0/1, the HAT ID pins) only for a table config with
    # screens on it (table-6/8.toml), a second bus drawn at the same time as bus 1.
    lines=$(overlay_lines "$(table_config)")
    while IFS= read -r line; do
        if [ -n "$line" ]; then ensure_line "$boot" "$line"; fi
    done <<< "$lines"
    [ "$CHANGES" = "$before" ] || REBOOT=1
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
    if printf '%s\n' "$unit" | put_file /etc/systemd/system/mutiny.service 0644; then
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

# The security `nmcli device wifi hotspot` itself gives an access point on a card with
# WPA2 (RSN): WPA2-PSK with AES (CCMP) only, and protected management frames off (the
# Pi's brcmfmac Wi-Fi and many phones fail to associate with PMF on in AP mode).
HOTSPOT_SECURITY=(wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp
                  wifi-sec.group ccmp wifi-sec.pmf disable)

step_hotspot() {
    [ -n "$HOTSPOT_SSID" ] || return 0
    say "7. Wi-Fi hotspot '$HOTSPOT_SSID' with a captive portal"
    if ! nmcli -t -f NAME connection show 2>/dev/null | grep -qx mutiny-hotspot; then
        change "create the hotspot" nmcli connection add type wifi ifname wlan0 \
            con-name mutiny-hotspot autoconnect yes connection.autoconnect-priority 100 \
            ssid "$HOTSPOT_SSID" \
            802-11-wireless.mode ap 802-11-wireless.band bg ipv4.method shared \
            ipv4.addresses "$HOTSPOT_ADDRESS/24" "${HOTSPOT_SECURITY[@]}" \
            wifi-sec.psk "$HOTSPOT_PASSWORD"
    fi
    # NetworkManager's shared mode runs dnsmasq: answer every name with the Pi, so a
    # phone's "am I online?" check lands on the game.
    printf 'address=/#/%s\n' "$HOTSPOT_ADDRESS" |
        put_file /etc/NetworkManager/dnsmasq-shared.d/mutiny-portal.conf 0644 || true
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
        say "Check the table (the doctor needs the seats to itself):"
        say "  sudo systemctl stop mutiny"
        say "  sudo -u $SERVICE_USER mutiny doctor --config /etc/mutiny/table.toml"
        say "  sudo systemctl start mutiny"
    fi
}

main
