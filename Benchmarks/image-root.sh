#!/usr/bin/env bash
# The Docker image's runtime root file system with a given linkhost binary in it, for the benchmark's
# "image" rows: Debian 13 slim, libmicrohttpd 1.0.1 and trixie's GnuTLS, as the Dockerfile's runtime stage
# builds them. Uses scripts/check-docker.sh's own stages (its modules, sourced; its cache and image store):
# the binary in the build stage's layout, the debootstrap stand-in for debian:trixie-slim, the runtime stage
# built by buildah from the unchanged Dockerfile; then copies the image's files to DEST and removes the
# working container, so the benchmark runs its linkhost in a chroot of DEST (loopback only, as the check's
# hostile stage does).
#
#   Benchmarks/image-root.sh BINARY DEST     (as root; installs buildah and debootstrap when missing)
set -euo pipefail

[[ $# == 2 ]] || { printf 'usage: %s BINARY DEST\n' "$0" >&2; exit 2; }
BINARY=$(readlink -f "$1")
DEST=$2
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODULES=$REPO/scripts/check-docker
DOCKERFILE=$REPO/Dockerfile
TAG=localhost/linkhost:bench
CACHE_DIR=${LINKHOST_CHECK_CACHE:-/var/cache/linkhost-check}
MIRROR=${LINKHOST_CHECK_MIRROR:-}
SECURITY_MIRROR=${LINKHOST_CHECK_SECURITY_MIRROR:-}
INSTALL=1
KEEP=0

# shellcheck source=../scripts/check-docker/output.sh
source "$MODULES/output.sh"
# shellcheck source=../scripts/check-docker/cleanup.sh
source "$MODULES/cleanup.sh"
# shellcheck source=../scripts/check-docker/tools.sh
source "$MODULES/tools.sh"
# shellcheck source=../scripts/check-docker/storage.sh
source "$MODULES/storage.sh"
# shellcheck source=../scripts/check-docker/binary.sh
source "$MODULES/binary.sh"
# shellcheck source=../scripts/check-docker/base.sh
source "$MODULES/base.sh"
# shellcheck source=../scripts/check-docker/image.sh
source "$MODULES/image.sh"

((EUID == 0)) || fail setup "run as root: buildah's chroot isolation and debootstrap need it"
[[ -x $BINARY ]] || fail setup "no linkhost binary at $BINARY"
mkdir -p "$DEST"
[[ -z $(ls -A "$DEST") ]] || fail setup "$DEST is not empty"

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$CACHE_DIR"
WORK=$(mktemp -d /tmp/image-root.XXXXXX)
mkdir -p "$WORK/tmp"
export TMPDIR=$WORK/tmp

# One user of the cache at a time, as check-docker.sh itself takes it.
exec 9>"$CACHE_DIR/lock"
flock -w 1800 9 || fail setup "another check-docker run held $CACHE_DIR/lock for 30 minutes"

missing=()
for pair in buildah:buildah debootstrap:debootstrap strip:binutils; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
[[ -r /usr/share/keyrings/debian-archive-keyring.gpg ]] || missing+=(debian-archive-keyring)
((${#missing[@]} == 0)) || apt_install "${missing[@]}"

stage_binary
choose_driver
stage_base
stage_image
CTR=$(bh from --pull=never "$TAG")
CLEANUP_CTRS+=("$CTR")
root=$(bh mount "$CTR") || fail image "cannot mount the image's container"
cp -a "$root/." "$DEST/"
bh umount "$CTR" >/dev/null 2>&1 || true
printf 'image-root: %s (%s)\n' "$DEST" "$(timings)"
