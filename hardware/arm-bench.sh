#!/usr/bin/env bash
# The benchmarks on a Debian arm64 root under qemu-user (docs/performance.md, "Emulated
# arm64 (qemu-user)"). Every figure is EMULATED: a proxy for a slow arm64 board, not a Pi.
# As root, on a Debian host, or from `./dev arm-bench`:
#
#   sudo hardware/arm-bench.sh                  # press-to-screen, press-to-phones, journal,
#                                               # engine, cpu-budget, footprint (--quick)
#   sudo hardware/arm-bench.sh --only journal   # one benchmark (repeat --only for more)
#   sudo hardware/arm-bench.sh --profile 30     # and where the CPU of a press goes
#
# What it does:
#   1. binfmt       qemu-aarch64 registered with the kernel (as hardware/arm-root-check.sh)
#   2. root         a KEPT copy of the cached root of `./dev arm-check`
#                   (/var/cache/mutiny-arm-root/bookworm-arm64 -> ...-arm64.bench), made once
#   3. deps         a venv in it with the project's dependencies, as arm64 wheels from the
#                   package index (the host's CA bundle, env -i); again only when
#                   pyproject.toml changed
#   4. project      the current tree copied in and the project reinstalled (never its
#                   dependencies), so each run measures the tree as it is now
#   5. wheels       which dependencies came compiled and which run as pure Python
#   6. bench        `python -m bench --quick` inside the root, niced; its JSON labelled
#                   emulated and judged met / not met per target on the host, written to
#                   bench/results/emulated-arm64-DATE.json
#
# One emulated run at a time (a lock); the whole run is niced (MUTINY_ARM_BENCH_NICE, 10).
set -euo pipefail

BENCH_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The root's helpers: binfmt, mount_root, unmount_root, remove_root, chroot_env, in_root.
# shellcheck source=hardware/arm-root-check.sh
source "$BENCH_HERE/arm-root-check.sh"
TREE=$(cd "$BENCH_HERE/.." && pwd)

BENCHMARKS=(press-to-screen press-to-phones journal engine cpu-budget footprint)
FULL_COUNT=(press-to-screen press-to-phones)
ONLY=()
QUICK=--quick
PROFILE=0
RUN_BENCH=1
PEER=0
FRESH_COPY=0
COMMITTED=0
BENCH_ROOT=""
LOCK=/run/lock/mutiny-arm-bench.lock
NICE=${MUTINY_ARM_BENCH_NICE:-10}

#: Inside the root.
BENCH_VENV=/opt/mutiny-bench/venv
BENCH_SRC=/usr/local/src/mutiny-bench
BENCH_RUN=/tmp/arm-bench

# -- the pure parts (tests/hardware/test_arm_bench.py sources this file) -----------------

# deps_stamp FILE: what decides whether the dependencies must be installed again (the
# pyproject.toml they come from).
deps_stamp() {
    sha256sum "$1" | cut -d' ' -f1
}

# bench_args: the arguments of `python -m bench` for this run.
bench_args() {
    local names=("${ONLY[@]}") name
    [ ${#names[@]} -gt 0 ] || names=("${BENCHMARKS[@]}")
    [ -z "$QUICK" ] || printf '%s\n' "$QUICK"
    # The two latency targets are p99s: at their full counts (1000 and 300 presses), a
    # p99 is a p99, not the slowest of 60 samples.
    [ -z "$QUICK" ] || printf -- '--full-count\n%s\n' "${FULL_COUNT[@]}"
    for name in "${names[@]}"; do printf '%s\n' --only "$name"; done
    printf '%s\n' --json "$BENCH_RUN/raw.json"
}

# -- running it ----------------------------------------------------------------------------

kept_root() {
    if [ "$FRESH_COPY" = 1 ]; then
        unmount_root "$BENCH_ROOT"
        remove_root "$BENCH_ROOT"
    fi
    if [ -f "$BENCH_ROOT/.mutiny-bench-root" ]; then
        say "kept: $BENCH_ROOT ($(cat "$BENCH_ROOT/.mutiny-bench-root"))"
        return 0
    fi
    [ -f "$ROOT/.mutiny-root-ready" ] || {
        echo "arm-bench: no cached root at $ROOT: run ./dev arm-check once first" >&2
        return 1
    }
    unmount_root "$BENCH_ROOT"
    remove_root "$BENCH_ROOT"
    cp -a "$ROOT" "$BENCH_ROOT"
    printf 'copied from %s on %s\n' "$ROOT" "$(date -u +%FT%TZ)" > "$BENCH_ROOT/.mutiny-bench-root"
    say "copied: $ROOT -> $BENCH_ROOT ($(du -sh "$BENCH_ROOT" | cut -f1))"
}

bring_tree() {
    mkdir -p "$ROOT$(dirname "$CHECK_CA")"
    cp -L "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$ROOT$CHECK_CA"
    rm -rf "$ROOT$BENCH_SRC"
    mkdir -p "$ROOT$BENCH_SRC"
    if [ "$COMMITTED" = 1 ]; then
        git -C "$TREE" archive HEAD | tar -C "$ROOT$BENCH_SRC" -xf -
        say "brought in: the commit $(git -C "$TREE" rev-parse --short HEAD) (git archive)"
        return 0
    fi
    tar -C "$TREE" --exclude=.git --exclude=.venv --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=node_modules --exclude=data --exclude=build \
        --exclude=dist --exclude=bench/results -cf - . | tar -C "$ROOT$BENCH_SRC" -xf -
    say "brought in: the tree at $(git -C "$TREE" rev-parse --short HEAD 2>/dev/null || echo '?')$(
        git -C "$TREE" diff --quiet HEAD 2>/dev/null || echo ' (with changes not committed)')"
}

deps() {
    local want have=""
    want=$(deps_stamp "$TREE/pyproject.toml")
    [ -f "$ROOT/opt/mutiny-bench/deps-stamp" ] && have=$(cat "$ROOT/opt/mutiny-bench/deps-stamp")
    if [ "$want" = "$have" ] && [ -x "$ROOT$BENCH_VENV/bin/python" ]; then
        say "dependencies installed already (pyproject.toml unchanged)"
        return 0
    fi
    # Each step checked here: a stage runs as an `||` condition, where bash ignores -e.
    in_root bash -c "set -e
        dpkg -s python3-venv >/dev/null 2>&1 && exit 0
        apt-get update -q
        apt-get install -y -q --no-install-recommends python3-venv" || return 1
    in_root bash -c "set -e
        python3 --version
        [ -x $BENCH_VENV/bin/pip ] || { rm -rf $BENCH_VENV; python3 -m venv $BENCH_VENV; }
        $BENCH_VENV/bin/python -m pip install --quiet --upgrade pip 'setuptools>=68' wheel
        $BENCH_VENV/bin/python -m pip install --quiet --no-build-isolation $BENCH_SRC
        $BENCH_VENV/bin/python -m pip install --quiet lgpio || echo 'lgpio: no install for arm64 from the index'
        $BENCH_VENV/bin/python -m pip list --format=freeze" || return 1
    printf '%s\n' "$want" > "$ROOT/opt/mutiny-bench/deps-stamp"
}

project() {
    # The project alone: its dependencies stay as installed (nothing downloaded again).
    in_root "$BENCH_VENV/bin/python" -m pip install --quiet --no-build-isolation --no-deps \
        --force-reinstall "$BENCH_SRC" || return 1
    in_root "$BENCH_VENV/bin/python" -c \
        'import companion, platform; print(platform.machine(), companion.__file__)'
}

wheels() {
    in_root bash -c "cd $BENCH_SRC && $BENCH_VENV/bin/python -m bench.arm wheels"
}

nodejs_in_root() {
    # Debian's own Node.js for arm64; boardgame.io is plain JavaScript, so the host's
    # node_modules (installed by `./dev bench --only peer`) serve as they are.
    [ -f "$TREE/bench/peer/node_modules/.mutiny-bench-stamp" ] || {
        echo "arm-bench: no bench/peer/node_modules here: run ./dev bench --only peer once" >&2
        return 1
    }
    in_root bash -c "set -e
        command -v node >/dev/null && exit 0
        apt-get update -q
        apt-get install -y -q --no-install-recommends nodejs" || return 1
    in_root node --version
}

bench() {
    local args=()
    mapfile -t args < <(bench_args)
    [ "$PEER" = 0 ] || args=(--only peer "${args[@]}")
    # From a folder of bench/ and hardware/ only, so `companion` is the installed one.
    in_root bash -c "set -e
        rm -rf $BENCH_RUN && mkdir -p $BENCH_RUN
        cp -r $BENCH_SRC/bench $BENCH_SRC/hardware $BENCH_RUN/
        cd $BENCH_RUN" || return 1
    if [ "$PEER" = 1 ]; then
        cp -a "$TREE/bench/peer/node_modules" "$ROOT$BENCH_RUN/bench/peer/"
    fi
    in_root bash -c "cd $BENCH_RUN && $BENCH_VENV/bin/python -m bench ${args[*]}" || return 1
    local host qemu
    host=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
    qemu=$(qemu-aarch64-static --version 2>/dev/null | head -n 1 || echo qemu-aarch64)
    say ""
    (cd "$TREE" && python3 -m bench.arm report "$ROOT$BENCH_RUN/raw.json" \
        --results "$TREE/bench/results" --host "$host" --qemu "$qemu")
}

profile() {
    # Where the CPU goes, by area, for each of the two latency targets.
    in_root bash -c "set -e
        rm -rf $BENCH_RUN/bench $BENCH_RUN/hardware && mkdir -p $BENCH_RUN
        cp -r $BENCH_SRC/bench $BENCH_SRC/hardware $BENCH_RUN/
        cd $BENCH_RUN
        $BENCH_VENV/bin/python -m bench.arm profile phones $PROFILE
        echo
        $BENCH_VENV/bin/python -m bench.arm profile screen $((PROFILE * 3))
        echo
        $BENCH_VENV/bin/python -m bench.arm timeline $((PROFILE * 6))"
}

usage() {
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
    cat <<'USAGE'
Options:
  --only NAME     one benchmark of python -m bench (repeat for more; default: the six above)
  --full          the full counts instead of --quick (several times longer)
  --profile N     after the bench, where the CPU goes (cProfile, all threads, by area):
                  N press-to-phones presses and 3N press-to-screen presses; then the
                  moments from a pin edge to the acting seat's frame (6N presses)
  --no-bench      only the profile (with --profile)
  --peer          also the peer (boardgame.io on Debian's arm64 Node.js, emulated too);
                  its node_modules (plain JavaScript) copied from bench/peer/ here
  --fresh         make the kept copy again from the cached root
  --committed     measure the last commit (git archive HEAD), not the working tree
  --root DIR      the kept copy here (default /var/cache/mutiny-arm-root/bookworm-arm64.bench)
USAGE
}

main() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --only) ONLY+=("$2"); shift 2 ;;
            --full) QUICK=""; shift ;;
            --profile) PROFILE=$2; shift 2 ;;
            --no-bench) RUN_BENCH=0; shift ;;
            --peer) PEER=1; shift ;;
            --fresh) FRESH_COPY=1; shift ;;
            --committed) COMMITTED=1; shift ;;
            --root) BENCH_ROOT=$2; shift 2 ;;
            -h|--help) usage; exit 0 ;;
            *) echo "arm-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
        esac
    done
    if [ "$(id -u)" != 0 ]; then
        echo "arm-bench: run it as root (it chroots into the arm64 root)" >&2
        exit 2
    fi
    renice -n "$NICE" -p $$ >/dev/null
    exec 9>"$LOCK"
    if ! flock -n 9; then
        echo "arm-bench: another emulated run holds $LOCK; one at a time" >&2
        exit 1
    fi
    ROOT=$CACHE_BASE/$SUITE-$ARCH
    BENCH_ROOT=${BENCH_ROOT:-$ROOT.bench}
    QEMU=$(qemu_arch "$ARCH")
    say "Benchmarks on Debian $SUITE $ARCH, EMULATED by qemu-$QEMU, in $BENCH_ROOT"
    stage binfmt binfmt || exit 1
    stage root kept_root || exit 1
    ROOT=$BENCH_ROOT
    trap unmount_root EXIT
    mount_root
    bring_tree
    stage deps deps || exit 1
    stage project project || exit 1
    stage wheels wheels || true
    if [ "$PEER" = 1 ]; then stage node nodejs_in_root || PEER=0; fi
    if [ "$RUN_BENCH" = 1 ]; then stage bench bench || true; fi
    if [ "$PROFILE" != 0 ]; then stage profile profile || true; fi
    say ""
    say "Summary: Debian $SUITE $ARCH, emulated by qemu-$QEMU (every time far slower than native)"
    printf '  %s\n' "${SUMMARY[@]}"
    return "$FAILED"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
