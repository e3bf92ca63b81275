#!/usr/bin/env bash
# The install proven on a Debian root of another machine (docs/raspberry-pi.md, "Proven on
# an ARM root"). Slow: run it by hand or from `./dev arm-check`, as root, on a Debian host.
#
#   sudo hardware/arm-root-check.sh                      # Debian bookworm, arm64 (emulated)
#   sudo hardware/arm-root-check.sh --suite trixie --arch amd64   # Python 3.13, native
#
# Stages, each timed:
#   1. host tools   debootstrap, and qemu-user-static + binfmt-support for a foreign arch
#   2. binfmt       qemu-aarch64 registered with the kernel, so the root's programs run
#   3. root         debootstrap --foreign, then its second stage inside the root (cached)
#   4. copy         a fresh copy of that root to work in, so every run installs from scratch
#   5. install      hardware/install.sh inside the copy, with the commands that need a
#                   running Pi (systemctl, nmcli, raspi-config, hostnamectl) stubbed
#   6. wheel        the project's wheel with its dependencies, for the root's architecture,
#                   from the package index, into a venv of its own
#   7. doctor       `mutiny doctor --backend sim` from the installed service's venv, as root
#                   and as the service user (runuser -u mutiny) from a folder it cannot write
#   8. engine tests pytest tests/engine against the installed wheel: the unit tests, then
#                   the contract playouts for at most --contract-minutes (default 30)
#
# The root is kept in /var/cache/mutiny-arm-root/SUITE-ARCH (MUTINY_ARM_ROOT_CACHE), so a
# rerun starts at stage 4. A summary with every stage's time and verdict ends the output.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_IN=$(cd "$HERE/.." && pwd)

SUITE=bookworm
ARCH=arm64
MIRROR=http://deb.debian.org/debian
CACHE_BASE=${MUTINY_ARM_ROOT_CACHE:-/var/cache/mutiny-arm-root}
ROOT=""
WORK=""
FRESH=0
CONTRACT_MINUTES=30
MOUNTS=/proc/mounts

#: Where, inside the root, the check keeps what it brings in.
STUB_DIR=/usr/local/lib/mutiny-check/stubs
STUB_STATE=/var/lib/mutiny-check
CHECK_SRC=/usr/local/src/mutiny-table
CHECK_CA=/usr/local/share/mutiny-check/ca.crt
CHECK_VENV=/opt/mutiny-check/venv

# -- the pure parts (tests/hardware/test_arm_root.py runs these by sourcing this file) ----

# binfmt_line FILE: the registration line of a binfmt.d file (the first line that is not
# blank or a comment): ':name:type:offset:magic:mask:interpreter:flags'.
binfmt_line() {
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in ''|'#'*|';'*) continue ;; esac
        printf '%s\n' "$line"
        return 0
    done < "$1"
    echo "arm-root-check: no registration line in $1" >&2
    return 1
}

# binfmt_name LINE: the name a registration line gives (its first field; the separator
# is the line's first character, ':' by convention).
binfmt_name() {
    local line=$1 sep rest
    sep=${line:0:1}
    rest=${line:1}
    printf '%s\n' "${rest%%"$sep"*}"
}

# qemu_arch DEBIAN_ARCH: the qemu name of a Debian architecture ("" when the host runs it).
qemu_arch() {
    local host
    host=$(dpkg --print-architecture 2>/dev/null || echo amd64)
    if [ "$1" = "$host" ]; then echo ""; return 0; fi
    case "$1" in
        arm64) echo aarch64 ;;
        armhf|armel) echo arm ;;
        amd64) echo x86_64 ;;
        i386) echo i386 ;;
        *) echo "arm-root-check: no qemu name known for $1" >&2; return 1 ;;
    esac
}

# stub_body NAME: the script that stands in for NAME inside the root. Each stub logs its
# call to $STUB_STATE/log and keeps what it "changed" there, so a second install run sees
# its own first run, as on a real Pi.
stub_body() {
    local state=$STUB_STATE
    printf '#!/bin/sh\n# Stand-in for %s (hardware/arm-root-check.sh): no running Pi here.\n' "$1"
    printf 'mkdir -p %s; echo "%s $*" >> %s/log\n' "$state" "$1" "$state"
    case "$1" in
        systemctl) cat <<EOF
for unit; do :; done
case "\$1" in
    is-enabled|is-active) [ -f $state/\$1-\$unit ] ;;
    enable) touch $state/is-enabled-\$unit ;;
    start|restart) touch $state/is-active-\$unit ;;
    *) exit 0 ;;
esac
EOF
            ;;
        nmcli) cat <<EOF
case "\$*" in
    *"connection show"*) cat $state/nm 2>/dev/null; exit 0 ;;
    *"connection add"*) echo mutiny-hotspot >> $state/nm; printf '%s\n' "\$*" > $state/nm-add ;;
esac
EOF
            ;;
        raspi-config) cat <<EOF
case "\$2" in
    get_i2c) cat $state/i2c 2>/dev/null || echo 1 ;;
    do_i2c) echo "\$3" > $state/i2c ;;
esac
EOF
            ;;
        hostnamectl) cat <<EOF
echo "\$2" > $state/hostname
EOF
            ;;
        hostname) printf 'cat %s/hostname 2>/dev/null || echo raspberrypi\n' "$state" ;;
        *) echo "arm-root-check: no stub for $1" >&2; return 1 ;;
    esac
}

#: The commands stubbed inside the root: each needs a booted system, a Wi-Fi card or a Pi.
STUBBED=(systemctl nmcli raspi-config hostnamectl hostname)

# policy_rc_d: Debian's way to keep a package's postinst from starting its daemon in a
# root that is not booted (exit 101: "action forbidden").
policy_rc_d() {
    printf '#!/bin/sh\n# hardware/arm-root-check.sh: no daemons start in this root.\nexit 101\n'
}

# chroot_env: the clean environment every command inside the root runs with (env -i):
# nothing of the host leaks in but the CA bundle pip is pointed at.
chroot_env() {
    printf '%s\n' "PATH=$STUB_DIR:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        "PIP_CERT=$CHECK_CA" "REQUESTS_CA_BUNDLE=$CHECK_CA" "SSL_CERT_FILE=$CHECK_CA" \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180
}

# -- running it ----------------------------------------------------------------------------
SUMMARY=()
FAILED=0

say() { printf '%s\n' "$*"; }

# stage NAME COMMAND...: run one stage, time it, and keep its verdict for the summary.
stage() {
    local name=$1; shift
    local start end verdict
    say "== $name"
    start=$(date +%s)
    # In a subshell of its own with -e on (a function called as an `if` condition would
    # run with -e off and carry on past a failure).
    set +e
    (set -e; "$@")
    local rc=$?
    set -e
    if [ "$rc" = 0 ]; then
        verdict=ok
    elif [ "$rc" = 124 ]; then
        verdict="time limit (passes stand)"   # timeout(1): not a failure, not all run
    else
        verdict="FAILED (exit $rc)"
        FAILED=1
    fi
    end=$(date +%s)
    SUMMARY+=("$(printf '%-13s %-26s %5ds' "$name" "$verdict" $((end - start)))")
    say "== $name: $verdict in $((end - start)) s"
    [ "$verdict" != "FAILED (exit $rc)" ]
}

in_root() {
    local envs=()
    mapfile -t envs < <(chroot_env)
    chroot "$ROOT" /usr/bin/env -i "${envs[@]}" "$@"
}

host_tools() {
    local wanted=(debootstrap) missing=() pkg
    [ -z "$QEMU" ] || wanted+=(qemu-user-static binfmt-support)
    for pkg in "${wanted[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && { say "have: ${wanted[*]}"; return 0; }
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

binfmt() {
    local misc=/proc/sys/fs/binfmt_misc conf line name
    [ -e "$misc/register" ] || mount binfmt_misc -t binfmt_misc "$misc"
    conf=/usr/lib/binfmt.d/qemu-$QEMU.conf
    line=$(binfmt_line "$conf")
    name=$(binfmt_name "$line")
    if [ -e "$misc/$name" ]; then
        say "registered already: $name"
    else
        printf '%s\n' "$line" > "$misc/register"
        say "registered: $name"
    fi
    grep -qx enabled "$misc/$name"
}

build_root() {
    if [ -f "$ROOT/.mutiny-root-ready" ]; then
        say "cached: $ROOT ($(cat "$ROOT/.mutiny-root-ready"))"
        return 0
    fi
    remove_root "$ROOT"
    mkdir -p "$ROOT"
    local first second
    first=$(date +%s)
    # python3: Raspberry Pi OS Lite has it; the installer needs it before any package.
    debootstrap --arch="$ARCH" --foreign --variant=minbase --include=python3 \
        "$SUITE" "$ROOT" "$MIRROR"
    second=$(date +%s)
    chroot "$ROOT" /debootstrap/debootstrap --second-stage
    printf '%s %s built %s; first stage %ds, second stage %ds\n' "$SUITE" "$ARCH" \
        "$(date -u +%FT%TZ)" $((second - first)) $(($(date +%s) - second)) \
        > "$ROOT/.mutiny-root-ready"
    say "built: $(cat "$ROOT/.mutiny-root-ready")"
}

# remove_root DIR: delete a root, never one with anything still mounted in it (a bind
# mount of /dev would take the host's /dev with it).
remove_root() {
    [ -e "$1" ] || return 0
    if awk -v dir="$1/" 'index($2 "/", dir) == 1 { found = 1 } END { exit !found }' "$MOUNTS"; then
        echo "arm-root-check: something is still mounted below $1; not removing it" >&2
        return 1
    fi
    rm -rf --one-file-system "$1"
}

# copy_root: a fresh working copy of the cached root (the cache stays as debootstrap left it).
copy_root() {
    unmount_root "$WORK"
    remove_root "$WORK"
    cp -a "$ROOT" "$WORK"
    say "copied: $ROOT -> $WORK ($(du -sh "$WORK" | cut -f1))"
}

mount_root() {
    local fs
    for fs in proc sys dev dev/pts; do
        mountpoint -q "$ROOT/$fs" && continue
        mkdir -p "$ROOT/$fs"
        case $fs in
            proc) mount -t proc proc "$ROOT/proc" ;;
            sys) mount -t sysfs sys "$ROOT/sys" ;;
            *) mount --bind "/$fs" "$ROOT/$fs" ;;
        esac
    done
    # Name resolution for apt and pip: the host's.
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
}

# unmount_root [DIR]: undo mount_root (lazily: a process still inside cannot block it).
unmount_root() {
    local dir=${1:-$ROOT} fs
    for fs in dev/pts dev sys proc; do
        if mountpoint -q "$dir/$fs"; then umount -l "$dir/$fs" || true; fi
    done
}

bring_in() {
    local name
    mkdir -p "$ROOT$STUB_DIR" "$ROOT$(dirname "$CHECK_CA")"
    for name in "${STUBBED[@]}"; do
        stub_body "$name" > "$ROOT$STUB_DIR/$name"
        chmod 0755 "$ROOT$STUB_DIR/$name"
    done
    policy_rc_d > "$ROOT/usr/sbin/policy-rc.d"
    chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
    # The host's CA bundle: the package index is reached the way the host reaches it.
    cp -L "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$ROOT$CHECK_CA"
    # The source as a person would have it: a checkout without the build's leftovers.
    rm -rf "$ROOT$CHECK_SRC"
    mkdir -p "$ROOT$CHECK_SRC"
    tar -C "$SRC_IN" --exclude=.git --exclude=.venv --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=node_modules --exclude=data --exclude=build \
        --exclude=dist -cf - . | tar -C "$ROOT$CHECK_SRC" -xf -
    say "brought in: stubs for ${STUBBED[*]}, policy-rc.d, the CA bundle, the source"
}

install_in_root() {
    mkdir -p "$ROOT/boot/firmware"
    [ -f "$ROOT/boot/firmware/config.txt" ] || echo "# the Pi's own settings" \
        > "$ROOT/boot/firmware/config.txt"
    # The hotspot's password on standard input: install.sh takes none as an argument.
    printf 'aye aye cap\n' | in_root bash "$CHECK_SRC/hardware/install.sh" --seats 4 \
        --hotspot MutinyCheck --hostname mutiny
    say "-- stubbed calls:"
    sed 's/^/   /' "$ROOT$STUB_STATE/log"
    say "-- running it again changes nothing:"
    local again
    again=$(printf 'aye aye cap\n' | in_root bash "$CHECK_SRC/hardware/install.sh" --seats 4 \
        --hotspot MutinyCheck --hostname mutiny)
    printf '%s\n' "$again"
    [ "$(printf '%s\n' "$again" | tail -n 1)" = "Nothing to change: Mutiny Table is installed." ]
}

wheel() {
    in_root bash -c "set -e
        python3 --version
        rm -rf /tmp/wheels $CHECK_VENV
        python3 -m venv $CHECK_VENV
        $CHECK_VENV/bin/python -m pip install --quiet --upgrade pip build
        $CHECK_VENV/bin/python -m build --wheel --outdir /tmp/wheels $CHECK_SRC
        ls /tmp/wheels
        $CHECK_VENV/bin/python -m pip install --quiet \"\$(ls /tmp/wheels/*.whl)[pod]\" pytest hypothesis
        $CHECK_VENV/bin/python -m pip list --format=freeze"
}

doctor() {
    # As root from /tmp, then as the service user from a folder it cannot write (/), as
    # `sudo -u mutiny mutiny doctor` runs on the Pi: the PATH link, the venv, lgpio's FIFO.
    in_root bash -c "set -e
        ls -l /usr/local/bin/mutiny
        cd /tmp
        mutiny --help | head -n 3
        mutiny doctor --backend sim --config $CHECK_SRC/hardware/table-4.toml
        echo '-- as the service user, from /:'
        cd /
        runuser -u mutiny -- mutiny doctor --backend sim --no-buttons \
            --config /etc/mutiny/table.toml"
}

engine_tests() {
    # From a folder of the tests alone, so `companion` is the installed wheel's.
    # The contract playouts are most of the time (under qemu, hours): they get a limit.
    in_root bash -c "set -e
        rm -rf /tmp/check && mkdir -p /tmp/check
        cp -r $CHECK_SRC/tests $CHECK_SRC/docs $CHECK_SRC/pyproject.toml /tmp/check/
        cd /tmp/check
        $CHECK_VENV/bin/python -c 'import companion, platform; print(platform.machine(), companion.__file__)'
        $CHECK_VENV/bin/python -m pytest tests/engine -q -p no:cacheprovider -k 'not random_playouts'
        echo '-- the contract playouts, for at most $CONTRACT_MINUTES minutes:'
        timeout ${CONTRACT_MINUTES}m $CHECK_VENV/bin/python -m pytest tests/engine/test_contract.py \
            -v -p no:cacheprovider --durations=5 ||
            { rc=\$?; [ \$rc = 124 ] && echo '-- time limit reached (the passes above stand)'; exit \$rc; }"
}

usage() {
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
    cat <<'USAGE'
Options:
  --suite NAME     Debian suite of the root (bookworm, trixie)
  --arch ARCH      Debian architecture of the root (arm64, armhf, amd64)
  --root DIR       keep the root here instead of the cache folder
  --mirror URL     Debian mirror (default http://deb.debian.org/debian)
  --fresh          build the root again even if one is cached
  --contract-minutes N   time limit of the contract playouts (default 30)
USAGE
}

main() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --suite) SUITE=$2; shift 2 ;;
            --arch) ARCH=$2; shift 2 ;;
            --root) ROOT=$2; shift 2 ;;
            --mirror) MIRROR=$2; shift 2 ;;
            --fresh) FRESH=1; shift ;;
            --contract-minutes) CONTRACT_MINUTES=$2; shift 2 ;;
            -h|--help) usage; exit 0 ;;
            *) echo "arm-root-check: unknown option $1 (see --help)" >&2; exit 2 ;;
        esac
    done
    if [ "$(id -u)" != 0 ]; then
        echo "arm-root-check: run it as root (it builds a root and chroots into it)" >&2
        exit 2
    fi
    ROOT=${ROOT:-$CACHE_BASE/$SUITE-$ARCH}
    QEMU=$(qemu_arch "$ARCH")
    [ "$FRESH" = 0 ] || rm -f "$ROOT/.mutiny-root-ready"
    say "Checking the install on Debian $SUITE $ARCH${QEMU:+ (emulated by qemu-$QEMU)} in $ROOT"
    WORK=$ROOT.work
    stage "host tools" host_tools || exit 1
    if [ -n "$QEMU" ]; then stage binfmt binfmt || exit 1; fi
    stage root build_root || exit 1
    stage copy copy_root || exit 1
    # From here on every command works in the copy.
    ROOT=$WORK
    trap unmount_root EXIT
    mount_root
    bring_in
    stage install install_in_root || true
    stage wheel wheel || true
    stage doctor doctor || true
    stage "engine tests" engine_tests || true
    say ""
    local note=""
    [ -z "$QEMU" ] || note=" (emulated by qemu-$QEMU: every time is far slower than on a Pi)"
    say "Summary: Debian $SUITE $ARCH$note"
    printf '  %s\n' "${SUMMARY[@]}"
    return "$FAILED"
}

# Sourced (by the tests) it only defines the functions above.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
