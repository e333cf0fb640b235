# shellcheck shell=bash
# check-docker.sh --self-test: the check must pass on the real image and fail, for the right reason, on
# broken ones (a runtime package missing, the binary not static).

# expect_run NAME WANT CODE ARGS...: runs check-docker.sh with ARGS; WANT is pass or fail, CODE the
# FAIL[...] code a failing run must print.
SELF_RESULTS=()
SELF_BAD=0
expect_run() {
    local name=$1 want=$2 code=$3 rc=0 t0
    shift 3
    log "self-test: $name (want: $want${code:+ with FAIL[$code]})"
    t0=$(now)
    "$BASH" "$THIS_SCRIPT" --no-install --cache "$CACHE_DIR" "$@" >"$WORK/self-$name.log" 2>&1 || rc=$?
    sed 's/^/    | /' "$WORK/self-$name.log"
    local verdict
    if [[ $want == pass ]]; then
        ((rc == 0)) && verdict=ok || verdict="WRONG: exited $rc"
    elif ((rc == 0)); then
        verdict="WRONG: passed"
    elif grep -q "^FAIL\[$code\]" "$WORK/self-$name.log"; then
        verdict="ok (exit $rc, FAIL[$code])"
    else
        verdict="WRONG: exit $rc without FAIL[$code]"
    fi
    [[ $verdict == ok* ]] || SELF_BAD=1
    SELF_RESULTS+=("$(printf '%-22s want %-4s -> %s (%s s)' "$name" "$want" "$verdict" "$(seconds_since "$t0")")")
}

self_test() {
    log "self-test: the check must pass on the real image and fail on broken ones"
    ensure_tools
    local static dynamic
    if [[ -n $BINARY ]]; then
        static=$BINARY
    else
        swift_build static --static-swift-stdlib
        static=$WORK/linkhost-static
        cp "$SWIFT_BIN" "$static"
    fi
    if [[ -n $DYNAMIC_BINARY ]]; then
        dynamic=$DYNAMIC_BINARY
    else
        # Its own scratch path: the flag changes every compile command, so sharing one would
        # rebuild everything twice per self-test.
        local static_scratch=$SCRATCH
        SCRATCH=$static_scratch/self-test-dynamic
        swift_build "not static, for the self-test"
        SCRATCH=$static_scratch
        dynamic=$WORK/linkhost-dynamic
        cp "$SWIFT_BIN" "$dynamic"
    fi

    # A Dockerfile whose runtime stage lacks libmicrohttpd12t64; everything else unchanged.
    local broken=$WORK/Dockerfile.no-libmicrohttpd
    sed '/^[[:space:]]*#/! s/ libmicrohttpd12t64\b//' "$DOCKERFILE" >"$broken"
    if cmp -s "$DOCKERFILE" "$broken"; then
        fail self-test "could not remove libmicrohttpd12t64 from a copy of $DOCKERFILE"
    fi
    note "broken Dockerfile: $(diff "$DOCKERFILE" "$broken" | grep '^>' | sed 's/^> *//')"

    expect_run real pass "" --binary "$static" --dockerfile "$DOCKERFILE"
    expect_run missing-runtime-lib fail ldd --binary "$static" --dockerfile "$broken" \
        --tag localhost/linkhost:self-test-nolib
    expect_run not-static fail not-static --binary "$dynamic" --dockerfile "$DOCKERFILE" \
        --tag localhost/linkhost:self-test-dynamic

    choose_driver
    bh rmi localhost/linkhost:self-test-nolib localhost/linkhost:self-test-dynamic >/dev/null 2>&1 || true
    bh rmi --prune >/dev/null 2>&1 || true

    printf '\nself-test results:\n'
    printf '  %s\n' "${SELF_RESULTS[@]}"
    if ((SELF_BAD)); then
        printf 'check-docker --self-test: FAILED\n'
        exit 1
    fi
    printf 'check-docker --self-test: OK in %s s\n' "$(elapsed)"
}
