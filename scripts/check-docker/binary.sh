# shellcheck shell=bash
# check-docker.sh, stage 2: the release binary (Swift runtime linked in statically), in the layout the
# Dockerfile's build stage leaves.

# swift_build WHAT FLAGS...: a release build of linkhost with FLAGS; sets SWIFT_BIN to the binary.
swift_build() {
    local what=$1
    shift
    log "binary: swift build -c release${*:+ $*} --product linkhost --scratch-path ${SCRATCH#"$REPO"/} ($what)"
    (cd "$REPO" && timeout 2400 swift build -c release "$@" --product linkhost --scratch-path "$SCRATCH") \
        >"$WORK/swift-build.log" 2>&1 || {
        tail -n 40 "$WORK/swift-build.log" >&2
        fail binary "swift build failed (time limit 40 min)"
    }
    SWIFT_BIN="$(cd "$REPO" && swift build -c release "$@" --scratch-path "$SCRATCH" --show-bin-path)/linkhost"
    [[ -x $SWIFT_BIN ]] || fail binary "swift build left no binary at $SWIFT_BIN"
}

# put_binary SOURCE DIR: DIR/out/linkhost, stripped, the layout the Dockerfile's build stage leaves.
put_binary() {
    mkdir -p "$2/out"
    cp "$1" "$2/out/linkhost"
    chmod 0755 "$2/out/linkhost"
    strip "$2/out/linkhost"
}

stage_binary() {
    if [[ -n $BINARY ]]; then
        [[ -x $BINARY ]] || fail binary "--binary $BINARY is not an executable file"
        log "binary: using $BINARY"
    else
        swift_build static --static-swift-stdlib
        BINARY=$SWIFT_BIN
    fi
    put_binary "$BINARY" "$WORK/build-context"
    local size
    size=$(stat -c %s "$WORK/build-context/out/linkhost")
    BINARY_SIZE="$size bytes ($(numfmt --to=iec-i --suffix=B "$size")) stripped"
    note "linkhost: $BINARY_SIZE"
    stage_done binary
}
