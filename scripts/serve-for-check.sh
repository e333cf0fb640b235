#!/usr/bin/env bash
# Shared by the page checks: starts linkhost on a free loopback port with the shipped config and public/
# (or the config given as the first argument), exporting LINKHOST_CHECK_URL; the caller's EXIT trap must
# call stop_linkhost.
set -euo pipefail

start_linkhost() {
    local binary=${LINKHOST_BINARY:-.build/debug/linkhost}
    [ -x "$binary" ] || swift build >/dev/null
    local out
    out=$(mktemp)
    # The start line is on stderr; stdout is the access log alone.
    "$binary" serve ${1:+--config "$1"} --host 127.0.0.1 --port 0 2>"$out" >/dev/null &
    LINKHOST_CHECK_PID=$!
    for _ in $(seq 1 100); do
        if grep -q '^linkhost: listening on ' "$out"; then break; fi
        sleep 0.05
    done
    LINKHOST_CHECK_URL=$(sed -n 's/^linkhost: listening on //p' "$out" | head -n 1)
    rm -f "$out"
    if [ -z "$LINKHOST_CHECK_URL" ]; then
        echo "linkhost did not start" >&2
        return 1
    fi
    export LINKHOST_CHECK_URL LINKHOST_CHECK_PID
}

stop_linkhost() {
    if [ -n "${LINKHOST_CHECK_PID:-}" ]; then kill "$LINKHOST_CHECK_PID" 2>/dev/null || true; fi
}
