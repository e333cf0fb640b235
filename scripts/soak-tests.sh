#!/usr/bin/env bash
# The suite's proof under load: runs the README's test command (`make test`) N times in a row while another
# process keeps one core busy, and prints one line per run: pass or fail, how many tests, the wall time and
# the three slowest suites (and, for a failed run, the first failing tests). Each run's whole output is kept in
# .build/soak-tests/run-K.log. Exits 1 when any run failed.
#
#   scripts/soak-tests.sh 5            (make soak-tests N=5)
#
# A failure found here is fixed at its cause, never by a longer wait (docs/soak-tests.md).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
runs="${1:-5}"
case "$runs" in ''|*[!0-9]*) echo "usage: $0 N (how many runs of make test)" >&2; exit 2 ;; esac
logs=.build/soak-tests
mkdir -p "$logs"

# One core kept busy for the whole soak: a shell loop that never sleeps, at normal priority, ended with the script.
( while :; do :; done ) &
hog=$!
trap 'kill "$hog" 2>/dev/null' EXIT INT TERM

echo "soak: $runs runs of make test beside a one-core busy loop (pid $hog), on $(nproc) cores, commit $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC')"
passed=0
for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    started=$(date +%s)
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    make test >"$log" 2>&1
    status=$?
    wall=$(( $(date +%s) - started ))
    # The 1-minute load average at the run's start and end: the hog alone makes it about 1 beside the tests.
    load="load ${load_before}->$(cut -d' ' -f1 /proc/loadavg)"
    # Swift Testing's summary lines: one per pass of make test ("Test run with N tests in M suites passed after …").
    tests=$(grep -oE 'Test run with [0-9]+ tests' "$log" | awk '{ sum += $4 } END { print sum + 0 }')
    slowest=$(grep -oE 'Suite "[^"]+" (passed|failed) after [0-9.]+ seconds' "$log" \
        | sed -E 's/^Suite "([^"]+)" (passed|failed) after ([0-9.]+) seconds/\3 \1/' \
        | sort -rn | head -3 | awk '{ time = $1; $1 = ""; sub(/^ /, ""); printf "%s%s %.0f s", (NR > 1 ? ", " : ""), $0, time }')
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
        echo "run $run/$runs: PASS  $tests tests  ${wall} s wall  $load  slowest: ${slowest:-?}"
    else
        failing=$(grep -oE 'Test "[^"]+" failed' "$log" | sort -u | head -3 | sed -E 's/^Test "([^"]+)" failed/\1/' | paste -sd ';' -)
        [ -n "$failing" ] || failing=$(grep -E 'error:|Error ' "$log" | head -2 | cut -c1-200 | paste -sd ';' -)
        echo "run $run/$runs: FAIL (exit $status)  $tests tests  ${wall} s wall  $load  slowest: ${slowest:-?}  failing: ${failing:-see $log}"
    fi
done
echo "soak: $passed of $runs runs passed"
[ "$passed" -eq "$runs" ]
