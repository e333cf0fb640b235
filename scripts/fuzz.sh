#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Swift with -sanitize=fuzzer,address) and runs each for a set time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     (default 60 s; targets: config router template matcher)
# Crashes are written to Fuzz/crashes/<target>/; copy each into Fuzz/regressions/<target>/ once fixed,
# where `swift test` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config router template matcher)
build=.fuzz/build
mkdir -p "$build"
# The library without the libmicrohttpd adapter: the harnesses exercise pure code only. A copy of the
# sources is compiled, so editing the tree during a long run cannot break its build.
rm -rf "$build/src" && mkdir -p "$build/src" && cp -R Sources/LinkHost Fuzz/Harnesses "$build/src/"
mapfile -t sources < <(find "$build/src/LinkHost" -name '*.swift' ! -path '*/Server/Server.swift' ! -path '*/Server/Supervisor.swift' | sort)
for target in "${targets[@]}"; do
    name="$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}"
    binary="$build/fuzz-$target"
    echo "== building $binary"
    swiftc -swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -module-name LinkHost \
        "${sources[@]}" "$build/src/Harnesses/${name}Fuzz.swift" -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
    [ -x "$binary" ] || { echo "fuzz: building $binary failed" >&2; exit 1; }
    corpus=".fuzz/corpus/$target"
    mkdir -p "$corpus" "Fuzz/crashes/$target"
    cp -n Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    echo "== fuzzing $target for $seconds s"
    "$binary" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1 "$corpus" 2>&1 | tee ".fuzz/$target.log" | grep -E "^#[0-9]+.*(DONE|pulse)|stat::|ERROR|SUMMARY" || true
    if grep -q "ERROR: libFuzzer\|ERROR: AddressSanitizer\|SUMMARY: AddressSanitizer" ".fuzz/$target.log"; then
        echo "fuzz: $target found a crash; see .fuzz/$target.log and Fuzz/crashes/$target/" >&2
        exit 1
    fi
done
