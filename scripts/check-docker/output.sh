# shellcheck shell=bash
# check-docker.sh: progress lines, warnings, FAIL[code] with its exit, and the stages' timings.

log() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'check-docker: warning: %s\n' "$*" >&2; }
# fail CODE MESSAGE: the CODE in brackets lets --self-test tell why a run failed.
fail() {
    printf 'FAIL[%s]: %s\n' "$1" "$2" >&2
    exit 1
}
now() { date +%s%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

T_START=$(now)
TIMINGS=()
T_STAGE=$T_START
stage_done() {
    TIMINGS+=("$1 $(seconds_since "$T_STAGE") s")
    T_STAGE=$(now)
}

# elapsed: seconds since the check started.
elapsed() { seconds_since "$T_START"; }
# timings: each finished stage and its seconds, "lint 1.0 s, binary 2.5 s, ...".
timings() {
    local IFS=,
    printf '%s' "${TIMINGS[*]}" | sed 's/,/, /g'
}
