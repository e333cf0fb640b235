#!/usr/bin/env bash
# linkhost beside nginx on this machine, in one run (issue 7): installs wrk, nginx and valgrind when missing,
# builds linkhost in release mode, runs Benchmarks/bench.py and writes Benchmarks/RESULTS.md and results.json.
#
#   Benchmarks/run.sh                       full run: ROUNDS=3 DURATION=10 (about 20 minutes)
#   QUICK=1 Benchmarks/run.sh               smoke run: 1 round of 3 s per cell (about 4 minutes)
#   ROUNDS=5 DURATION=20 Benchmarks/run.sh  longer; see Benchmarks/README.md for every setting
#
# Servers listen on 127.0.0.1 only (ports PORT_BASE..PORT_BASE+2, default 18400..18402); every load is
# bounded in time; the trap below stops every server this run started, whatever happens.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
scratch="${SCRATCH:-/tmp/build-bench}"
mode="${BENCH_COMMAND:-bench}"

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Tools: command → Debian package.
declare -A packages=([wrk]=wrk [nginx]=nginx [valgrind]=valgrind [curl]=curl [taskset]=util-linux [python3]=python3 [pkg-config]=pkg-config [openssl]=openssl)
if [[ "$mode" == profile ]]; then packages[perf]=linux-perf; packages[callgrind_annotate]=valgrind; fi
missing=()
for tool in "${!packages[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${packages[$tool]}")
done
if ! pkg-config --exists libmicrohttpd 2>/dev/null; then missing+=(libmicrohttpd-dev); fi
if ((${#missing[@]})); then
    sudo=""
    if [[ "$(id -u)" != 0 ]]; then command -v sudo >/dev/null || die "need root or sudo to install: ${missing[*]}"; sudo=sudo; fi
    say "installing with apt-get: $(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')"
    # Installing nginx must not start the system nginx service: a policy-rc.d that refuses starts, for the install only.
    policy=/usr/sbin/policy-rc.d
    added_policy=""
    if [[ ! -e "$policy" ]]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod 755 "$policy" && added_policy=1
    fi
    status=0
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || status=$?
    if ((status == 0)); then
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${missing[@]}" | sort -u) >/dev/null || status=$?
    fi
    if [[ -n "$added_policy" ]]; then $sudo rm -f "$policy"; fi
    ((status == 0)) || die "apt-get failed ($status)"
fi

command -v swift >/dev/null || die "swift is not on PATH"
say "building linkhost in release mode (scratch path $scratch)"
# What the Docker image and `make release` ship: the Swift runtime linked in statically.
# -gdwarf-4: valgrind 3.19 (Debian 12) cannot read the DWARF 5 that clang writes for the C targets; code is unchanged.
build_flags=(-c release --static-swift-stdlib --scratch-path "$scratch" -Xcc -gdwarf-4)
(cd "$repo" && swift build "${build_flags[@]}" 2>&1 | tail -n 3) >&2
bin="$(cd "$repo" && swift build "${build_flags[@]}" --show-bin-path)/linkhost"
[[ -x "$bin" ]] || die "no linkhost binary at $bin"

# 2,000 idle connections need about 4,000 descriptors on this side and the servers'.
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"

workdir="$(mktemp -d /tmp/linkhost-bench.XXXXXX)"
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [[ -n "${bench_pid:-}" ]] && kill -0 "$bench_pid" 2>/dev/null; then
        kill -TERM "$bench_pid" 2>/dev/null || true
        wait "$bench_pid" 2>/dev/null || true
    fi
    # Each server was started in its own session: its process id is its process group (nginx workers included).
    if [[ -f "$workdir/pids" ]]; then
        while read -r pid; do
            [[ "$pid" =~ ^[0-9]+$ ]] || continue
            if kill -0 "-$pid" 2>/dev/null; then
                say "stopping leftover server process group $pid"
                kill -TERM "-$pid" 2>/dev/null || true
                sleep 0.5
                kill -KILL "-$pid" 2>/dev/null || true
            fi
        done <"$workdir/pids"
    fi
    if [[ -n "${KEEP_WORKDIR:-}" ]]; then say "kept $workdir"; else rm -rf --one-file-system "$workdir"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

image_args=()
if [[ "$mode" == bench && "${IMAGE:-1}" != 0 ]]; then
    # The image rows: linkhost in the Docker image's root file system (Debian 13, libmicrohttpd 1.0.1).
    if [[ "$(id -u)" == 0 ]]; then
        say "building the image's root file system with this binary (Benchmarks/image-root.sh)"
        "$here/image-root.sh" "$bin" "$workdir/image-root" >"$workdir/image-root.log" 2>&1 || { tail -n 20 "$workdir/image-root.log" >&2; die "image-root.sh failed"; }
        image_args=(--image-root "$workdir/image-root")
    else
        say "not root: skipping the image rows (IMAGE=0 to silence this)"
    fi
fi

say "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
python3 "$here/bench.py" "$mode" --bin "$bin" --workdir "$workdir" "${image_args[@]}" &
bench_pid=$!
wait "$bench_pid"
