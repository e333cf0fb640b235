# shellcheck shell=bash
# check-docker.sh: the EXIT trap's cleanup (the server's process tree, working containers, the work folder)
# and the process-tree helpers it shares with the run stage.

WORK=""
CTR=""
SERVER_PID=""
CLEANUP_CTRS=()
cleanup() {
    local rc=$?
    set +e
    if ((rc != 0 && ${#TIMINGS[@]} > 0)); then
        printf 'check-docker: failed after %s s (%s)\n' "$(elapsed)" "$(timings)" >&2
    fi
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        stop_server_gently
    fi
    if ((KEEP)); then
        [[ -n $CTR ]] && note "kept container $CTR (${BH[*]} ...)"
        [[ -n $WORK ]] && note "kept $WORK"
    else
        local c
        for c in "${CLEANUP_CTRS[@]}"; do
            bh rm "$c" >/dev/null 2>&1
        done
        [[ -n $WORK ]] && rm -rf --one-file-system "$WORK"
    fi
    exit "$rc"
}

# All processes below SERVER_PID (the `timeout` wrapping `buildah run`), deepest first.
descendants() {
    local child
    for child in $(pgrep -P "$1" || true); do
        descendants "$child"
        printf '%s\n' "$child"
    done
}

stop_server_tree() {
    local sig=$1 pid
    for pid in $(descendants "$SERVER_PID") "$SERVER_PID"; do
        kill -s "$sig" "$pid" 2>/dev/null || true
    done
}

# After a failure: SIGTERM to the innermost process (the server) so that buildah can clean up
# after it, then to the rest, and SIGKILL whatever is left after 10 s.
stop_server_gently() {
    local innermost deadline=$(($(date +%s) + 10))
    innermost=$(descendants "$SERVER_PID" | head -n 1)
    [[ -n $innermost ]] && kill -TERM "$innermost" 2>/dev/null
    while kill -0 "$SERVER_PID" 2>/dev/null && (($(date +%s) < deadline)); do
        sleep 0.2
    done
    kill -0 "$SERVER_PID" 2>/dev/null && stop_server_tree KILL
    wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
}
