#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Swift with -sanitize=fuzzer,address) and runs each for a set time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     (default 60 s; targets: config router template matcher appfiles android)
# Crashes are written to Fuzz/crashes/<target>/; copy each into Fuzz/regressions/<target>/ once fixed,
# where `swift test` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config router template matcher appfiles android)
scratch=.fuzz/build
mkdir -p .fuzz
# The harnesses link the very modules the server is built from: the LinkHostFuzzTargets target and the
# pure targets under it, compiled by SwiftPM with the fuzzer and address sanitizers in a scratch path of
# their own (the only C below LinkHostFuzzTargets is the libqrencode shim, so nothing here needs libmicrohttpd).
echo "== building the fuzz targets"
swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path "$scratch" --target LinkHostFuzzTargets 2>&1 | tail -n 1
products=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
mapfile -t objects < <(for module in CQREncode CallLinks LinkHostJSON LinkHostQR LinkHostCore LinkHostFuzzTargets; do ls "$products/$module.build/"*.o; done)
for target in "${targets[@]}"; do
    name="$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}"
    binary=".fuzz/fuzz-$target"
    rm -f "$binary"
    echo "== linking $binary"
    # LinkHostQR's libqrencode shim is a C module: its module map comes from SwiftPM's build folder.
    swiftc -swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -I "$products/Modules" \
        -Xcc -fmodule-map-file="$products/CQREncode.build/module.modulemap" -I Sources/CQREncode/include \
        "Fuzz/Harnesses/${name}Fuzz.swift" "${objects[@]}" -lqrencode -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
    [ -x "$binary" ] || { echo "fuzz: linking $binary failed" >&2; exit 1; }
    corpus=".fuzz/corpus/$target"
    mkdir -p "$corpus" "Fuzz/crashes/$target"
    cp -n Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    # The shipped template is the best seed for the template parser; it is copied, not kept twice in the repo.
    [ "$target" != template ] || cp public/call.html "$corpus/shipped.html"
    echo "== fuzzing $target for $seconds s"
    "$binary" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Fuzz/crashes/$target/" -print_final_stats=1 "$corpus" 2>&1 | tee ".fuzz/$target.log" | grep -E "^#[0-9]+.*(DONE|pulse)|stat::|ERROR|SUMMARY" || true
    if grep -q "ERROR: libFuzzer\|ERROR: AddressSanitizer\|SUMMARY: AddressSanitizer" ".fuzz/$target.log"; then
        echo "fuzz: $target found a crash; see .fuzz/$target.log and Fuzz/crashes/$target/" >&2
        exit 1
    fi
done
