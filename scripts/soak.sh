#!/usr/bin/env bash
# Soak: SOAK_MINUTES (default 10) of mixed load with wrk (scripts/soak.lua rotates AASA, assetlinks,
# call pages for iOS/Android/desktop, 404s, static files and 304s) against a release linkhost on
# 127.0.0.1, sampling the server's RSS every SOAK_SAMPLE_SECONDS (default 10) into a CSV.
#
# The rule it checks: once warmed up, RSS must not grow. Warm-up is the first 2 minutes, or the first
# third of a shorter run; the last sample must be at most the largest warm-up sample + SOAK_SLACK_KB
# (default 2048, i.e. 2 MB). It also fails when the server dies or wrk reports socket errors.
#
#   scripts/soak.sh                          # 10 minutes (make soak)
#   SOAK_MINUTES=1 scripts/soak.sh           # a quick run
#   LINKHOST_BINARY=path SOAK_CSV=/tmp/rss.csv SOAK_CONNECTIONS=32 scripts/soak.sh
#
# Everything is bounded: wrk stops after SOAK_MINUTES, then the server is stopped (SIGTERM, then KILL).
set -euo pipefail

cd "$(dirname "$0")/.."
MINUTES=${SOAK_MINUTES:-10}
SAMPLE_SECONDS=${SOAK_SAMPLE_SECONDS:-10}
CONNECTIONS=${SOAK_CONNECTIONS:-64}
THREADS=${SOAK_THREADS:-2}
SLACK_KB=${SOAK_SLACK_KB:-2048}
BINARY=${LINKHOST_BINARY:-.build/release/linkhost}
CSV=${SOAK_CSV:-${TMPDIR:-/tmp}/linkhost-soak-rss.csv}

command -v wrk >/dev/null || { echo "soak: wrk is not installed (apt-get install wrk)" >&2; exit 2; }
[ -x "$BINARY" ] || { echo "soak: no linkhost binary at $BINARY (swift build -c release, or set LINKHOST_BINARY)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/linkhost-soak.XXXXXX)
SERVER_PID=""
SAMPLER_PID=""
cleanup() {
    [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null || true
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The repository's config on 127.0.0.1 (access log on, as in production); the access log (stdout) is
# drained to /dev/null, and the port is read from the "linkhost: listening on" line on stderr.
python3 scripts/loadlib.py config ${SOAK_SET:+$(printf -- '--set %s ' $SOAK_SET)} > "$WORK/linkhost.json"
SETTINGS=$(python3 scripts/loadlib.py settings ${SOAK_SET:+$(printf -- '--set %s ' $SOAK_SET)})
"$BINARY" serve --config "$WORK/linkhost.json" --host 127.0.0.1 --port 0 > /dev/null 2> "$WORK/stderr" &
SERVER_PID=$!
LINE=""
for _ in $(seq 1 200); do
    LINE=$(sed -n 's/^linkhost: listening on //p' "$WORK/stderr" | head -n 1)
    [[ -n $LINE ]] && break
    sleep 0.05
done
[[ -n $LINE ]] || { echo "soak: linkhost did not start: $(cat "$WORK/stderr")" >&2; exit 1; }
PORT=${LINE##*:}
echo "soak: linkhost pid $SERVER_PID on 127.0.0.1:$PORT ($SETTINGS); wrk -t$THREADS -c$CONNECTIONS for ${MINUTES}m; RSS every ${SAMPLE_SECONDS}s into $CSV" >&2

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0; }
echo "seconds,rss_kb,threads,open_fds,load1" > "$CSV"
sample() {
    local start=$SECONDS
    while kill -0 "$SERVER_PID" 2>/dev/null; do
        local threads fds load
        threads=$(ls "/proc/$SERVER_PID/task" 2>/dev/null | wc -l)
        fds=$(ls "/proc/$SERVER_PID/fd" 2>/dev/null | wc -l)
        load=$(cut -d' ' -f1 /proc/loadavg)
        echo "$((SECONDS - start)),$(rss_kb),$threads,$fds,$load" >> "$CSV"
        sleep "$SAMPLE_SECONDS"
    done
}
sample &
SAMPLER_PID=$!

WRK_OUT=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${MINUTES}m" --timeout 5s --latency -s scripts/soak.lua "http://127.0.0.1:$PORT" 2>&1) || true
echo "$WRK_OUT" | grep -E "Requests/sec|Latency|Socket errors" >&2 || true
SUMMARY=$(echo "$WRK_OUT" | grep '^soak-wrk:' || echo "soak-wrk: no summary")
echo "$(rss_kb)" > "$WORK/final_rss"
kill "$SAMPLER_PID" 2>/dev/null || true
wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""
# One last sample after the load, so the CSV ends where the verdict is taken.
echo "$((MINUTES * 60)),$(cat "$WORK/final_rss"),$(ls "/proc/$SERVER_PID/task" 2>/dev/null | wc -l),$(ls "/proc/$SERVER_PID/fd" 2>/dev/null | wc -l),$(cut -d' ' -f1 /proc/loadavg)" >> "$CSV"

ALIVE=yes
kill -0 "$SERVER_PID" 2>/dev/null || ALIVE=no
WARMUP=$(( MINUTES * 60 / 3 < 120 ? MINUTES * 60 / 3 : 120 ))
VERDICT=$(awk -F, -v warmup="$WARMUP" -v slack="$SLACK_KB" '
    NR == 1 { next }
    { if ($1 <= warmup && $2 > warm) warm = $2; if ($2 > peak) peak = $2; if (first == "") first = $2; last = $2; n++ }
    END {
        ok = (n >= 2 && last <= warm + slack) ? "PASS" : "FAIL"
        printf "%s samples=%d rss_first_kb=%d rss_warmup_max_kb=%d rss_peak_kb=%d rss_last_kb=%d rule=last<=warmup_max+%dKB warmup_s=%d", ok, n, first, warm, peak, last, slack, warmup
    }' "$CSV")
ERRORS=$(echo "$SUMMARY" | sed -n 's/.*errors_connect=\([0-9]*\) errors_read=\([0-9]*\) errors_write=\([0-9]*\).*errors_timeout=\([0-9]*\).*/\1 \2 \3 \4/p')
SOCKET_ERRORS=0
for count in $ERRORS; do SOCKET_ERRORS=$((SOCKET_ERRORS + count)); done
STATUS=${VERDICT%% *}
[ "$ALIVE" = yes ] && [ "$SOCKET_ERRORS" -eq 0 ] || STATUS=FAIL
echo "$SUMMARY"
echo "soak: $STATUS minutes=$MINUTES connections=$CONNECTIONS server_alive=$ALIVE socket_errors=$SOCKET_ERRORS ${VERDICT#* } load_average_at_end=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/') settings=$SETTINGS csv=$CSV"
[ "$STATUS" = PASS ]
