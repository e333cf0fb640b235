# shellcheck shell=bash
# check-docker.sh: buildah with the check's own image storage, and the storage driver that works here.

DRIVER=""
BH=()
set_driver() {
    DRIVER=$1
    # Run state belongs to one store: one folder per cache and driver.
    local key
    key=$(printf '%s' "$CACHE_DIR" | sha256sum | cut -c1-12)
    BH=(buildah --root "$CACHE_DIR/storage-$DRIVER" --runroot "/run/linkhost-check/$key-$DRIVER" --storage-driver "$DRIVER")
}
bh() { "${BH[@]}" "$@"; }

probe_driver() {
    local ctr
    ctr=$(bh from --pull=never scratch 2>"$WORK/driver-$DRIVER.log") || return 1
    if bh mount "$ctr" >>"$WORK/driver-$DRIVER.log" 2>&1; then
        bh umount "$ctr" >/dev/null 2>&1 || true
        bh rm "$ctr" >/dev/null 2>&1 || true
        return 0
    fi
    bh rm "$ctr" >/dev/null 2>&1 || true
    return 1
}

choose_driver() {
    if [[ -n ${LINKHOST_CHECK_STORAGE_DRIVER:-} ]]; then
        set_driver "$LINKHOST_CHECK_STORAGE_DRIVER"
        probe_driver || fail storage "storage driver $DRIVER does not work here: $(tail -n 3 "$WORK/driver-$DRIVER.log")"
        return
    fi
    set_driver overlay
    if ! probe_driver; then
        warn "overlay storage cannot mount here ($(grep -m 1 -i 'not supported\|overlay' "$WORK/driver-overlay.log" || tail -n 1 "$WORK/driver-overlay.log")); falling back to vfs, which copies every layer (slower, more disk)"
        set_driver vfs
        probe_driver || fail storage "neither overlay nor vfs storage works: $(tail -n 3 "$WORK/driver-vfs.log")"
    fi
}
