# shellcheck shell=bash
# check-docker.sh, stage 5: the image's entrypoint as the image's user on 127.0.0.1, HTTP checks with curl
# and the image's own client, the image's HEALTHCHECK, then SIGTERM.

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# http_check PATH TYPE_PATTERN: 200 and a Content-Type matching TYPE_PATTERN; body in $WORK/body.
http_check() {
    local path=$1 type_pattern=$2 out code ctype
    out=$(curl --noproxy '*' -sS --max-time 5 -o "$WORK/body" -w '%{http_code} %{content_type}' \
        "http://127.0.0.1:$PORT$path") || fail http "GET $path: curl failed"
    code=${out%% *} ctype=${out#* }
    if [[ $code != 200 ]]; then
        head -c 500 "$WORK/body" >&2
        fail http "GET $path answered $code, want 200"
    fi
    shopt -s nocasematch
    [[ $ctype =~ $type_pattern ]] || fail http "GET $path: Content-Type '$ctype', want $type_pattern"
    shopt -u nocasematch
    note "GET $path -> $code $ctype, $(stat -c %s "$WORK/body") bytes"
}

# run_healthcheck [EXTRA ARGS]: the image's HEALTHCHECK command in the container; its status.
run_healthcheck() {
    local rc=0
    timeout $((HEALTH_TIMEOUT_S + 30)) "${BH[@]}" run --isolation chroot \
        --env LINKHOST_HOST=127.0.0.1 --env "LINKHOST_PORT=$PORT" "$CTR" -- "${HEALTH_ARGV[@]}" "$@" \
        </dev/null >"$WORK/health.log" 2>&1 || rc=$?
    return "$rc"
}

# start_server: the image's entrypoint in the background (SERVER_PID is the `timeout` around
# `buildah run`), up when it has said where it listens and /healthz answers; gone if it exits first.
# The port must be known before the start (the image's HEALTHCHECK reads LINKHOST_PORT), so a port this
# check picked may be taken before the server binds it: then it picks another, up to three times.
start_server() {
    local picked=0 attempt
    [[ -n $PORT ]] || picked=1
    for attempt in 1 2 3; do
        ((picked)) && PORT=$(free_port)
        start_server_once && return 0
        if ((!picked)) || ! grep -q 'Address already in use' "$WORK/server.log"; then break; fi
        log "run: 127.0.0.1:$PORT was taken before the server bound it (attempt $attempt); another port"
    done
    cat "$WORK/server.log" >&2
    fail start "the server exited during startup"
}

# start_server_once: one start on $PORT; status 1 when the server exited during startup.
start_server_once() {
    log "run: ${SERVER_ARGV[*]} as $IMAGE_USER on 127.0.0.1:$PORT (LINKHOST_HOST, LINKHOST_PORT)"
    timeout --kill-after=5 300 "${BH[@]}" run --isolation chroot \
        --env LINKHOST_HOST=127.0.0.1 --env "LINKHOST_PORT=$PORT" "$CTR" -- "${SERVER_ARGV[@]}" \
        </dev/null >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!

    local deadline=$(($(date +%s) + 30)) up=0 answer="no answer"
    while (($(date +%s) < deadline)); do
        kill -0 "$SERVER_PID" 2>/dev/null || return 1
        if grep -q 'listening on http://' "$WORK/server.log"; then
            answer=$(curl --noproxy '*' -sS --max-time 2 -o /dev/null -w '%{http_code}' \
                "http://127.0.0.1:$PORT/healthz" 2>&1) || true
            if [[ $answer == 200 ]]; then
                up=1
                break
            fi
        fi
        sleep 0.2
    done
    if ((!up)); then
        cat "$WORK/server.log" >&2
        fail start "the server did not answer GET /healthz with 200 on 127.0.0.1:$PORT within 30 s (last answer: $answer)"
    fi
    note "server: $(grep -m 1 'listening on' "$WORK/server.log")"
}

# server_process: prints the server process itself, found by its executable below our own
# `buildah run`; fails when there is none.
server_process() {
    local pid exe
    for pid in $(descendants "$SERVER_PID"); do
        exe=$(readlink "/proc/$pid/exe" 2>/dev/null || true)
        if [[ $exe == *"${SERVER_ARGV[0]}" ]]; then
            printf '%s\n' "$pid"
            return 0
        fi
    done
    return 1
}

# check_endpoints: the AASA and a call page over HTTP, then the association files as Apple's and
# Google's fetchers see them, by the image's own client.
check_endpoints() {
    http_check /.well-known/apple-app-site-association '^application/json'
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d, dict), "not an object"; print("    AASA keys:", ", ".join(d))' \
        "$WORK/body" || fail http "the AASA is not a JSON object"
    http_check '/call/abc123?type=default' '^text/html'

    timeout 60 "${BH[@]}" run --isolation chroot "$CTR" -- "${SERVER_ARGV[0]}" check \
        "http://127.0.0.1:$PORT" --allow-http </dev/null >"$WORK/check.log" 2>&1 || {
        cat "$WORK/check.log" >&2
        fail http "linkhost check http://127.0.0.1:$PORT --allow-http failed in the image"
    }
    note "linkhost check: $(grep -m 1 -E 'passed|failed' "$WORK/check.log" || tail -n 1 "$WORK/check.log")"
}

# check_healthcheck: the image's HEALTHCHECK passes while the server answers; when it does not,
# a second try with --url tells a wrong port from a broken command.
check_healthcheck() {
    local t0
    t0=$(now)
    if run_healthcheck; then
        note "HEALTHCHECK ${HEALTH_ARGV[*]} -> 0 in $(seconds_since "$t0") s"
    else
        cat "$WORK/health.log" >&2
        if run_healthcheck --url "http://127.0.0.1:$PORT/healthz"; then
            fail healthcheck "the image's HEALTHCHECK fails while the server is healthy, yet passes with --url: '${HEALTH_ARGV[*]}' does not probe the port the server uses (LINKHOST_PORT=$PORT)"
        fi
        fail healthcheck "the image's HEALTHCHECK '${HEALTH_ARGV[*]}' exits non-zero while the server answers"
    fi
}

# stop_server PID: SIGTERM to the server process PID, which must exit 0 within 20 s.
stop_server() {
    local server=$1 rc=0 deadline
    log "stop: SIGTERM to $server"
    kill -TERM "$server"
    deadline=$(($(date +%s) + 20))
    while kill -0 "$SERVER_PID" 2>/dev/null && (($(date +%s) < deadline)); do
        sleep 0.2
    done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        stop_server_tree KILL
        fail stop "the server was still running 20 s after SIGTERM"
    fi
    wait "$SERVER_PID" || rc=$?
    SERVER_PID=""
    ((rc == 0)) || {
        tail -n 20 "$WORK/server.log" >&2
        fail stop "the server exited with status $rc on SIGTERM, want 0"
    }
    note "server exited 0"
}

stage_run() {
    read_image_config
    CTR=$(bh from --pull=never "$TAG")
    CLEANUP_CTRS+=("$CTR")
    check_libraries

    local version
    version=$(timeout 30 "${BH[@]}" run --isolation chroot "$CTR" -- "${SERVER_ARGV[0]}" --version </dev/null 2>&1) ||
        fail run "${SERVER_ARGV[0]} --version failed in the image: $version"
    note "version: $version"

    start_server
    local server uid
    server=$(server_process) || fail run "cannot find the ${SERVER_ARGV[0]} process below buildah run ($SERVER_PID)"
    uid=$(awk '/^Uid:/ { print $2 }' "/proc/$server/status")
    [[ $uid == "$IMAGE_UID" && $uid != 0 ]] || fail user "the server runs as uid $uid, want the image's $IMAGE_UID"
    note "server process $server runs as uid $uid"

    check_endpoints
    check_healthcheck
    stop_server "$server"

    if run_healthcheck; then
        fail healthcheck "the HEALTHCHECK still passes after the server stopped: it probes something else"
    fi
    note "HEALTHCHECK after stop -> non-zero, as it should"
    stage_done run
}
