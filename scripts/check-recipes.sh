#!/usr/bin/env bash
# Runs the commands of the README and the deployment docs as a reader would type them (docs/recipes.md):
# the marked ```sh blocks of README.md, docs/https.md, docs/docker.md, docs/kubernetes.md and docs/call-page.md
# (scripts/recipes/run-blocks.py), in a network and mount namespace of their own, with stand-ins for what
# cannot be real here, first on PATH (scripts/recipes/): Pebble for Let's Encrypt, the namespace's
# loopback for links.example.com and its ports 80 and 443, systemctl/journalctl/ssh/scp/apt-get/make/
# kubectl/docker as docs/recipes.md lists them. Done when a new user's systemd path and Docker path — the
# README's blocks — each end with the AASA served over HTTPS with a certificate Pebble issued.
#
#   scripts/check-recipes.sh [--binary PATH]     as root; BINARY defaults to the test build (.build/debug)
#
# Nothing outside the namespace changes: /etc, /usr/local, /srv and /var/lib are overlays whose writes
# land in a temporary folder, removed at the end.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BINARY=""
while (($#)); do
    case $1 in
        --binary) BINARY=${2:?--binary needs a path}; shift ;;
        -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "check-recipes: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
fail() { printf 'FAIL[%s]: %s\n' "$1" "$2" >&2; exit 1; }
log() { printf '==> %s\n' "$*"; }

[[ $(id -u) == 0 ]] || fail root "needs root (a mount and network namespace, overlays over /etc and /srv)"
if [[ -z $BINARY ]]; then
    for candidate in "$REPO/.build/debug/linkhost" "$REPO/.build/release/linkhost"; do
        [[ -x $candidate ]] && { BINARY=$candidate; break; }
    done
fi
[[ -x $BINARY ]] || fail binary "no linkhost build: run swift build (or make test) first, or pass --binary"
for tool in unshare setpriv pebble openssl curl systemd-analyze systemd-socket-activate python3; do
    command -v "$tool" >/dev/null || fail tools "$tool is missing (make test-deps installs it)"
done
command -v ip >/dev/null || fail tools "ip is missing (Debian's iproute2): the namespace's loopback is brought up with it"
command -v kubernetes-validate >/dev/null || fail tools "kubernetes-validate is missing (scripts/check-deploy.sh installs it with pip)"

python3 "$REPO/scripts/recipes/run-blocks.py" list || fail unmarked "a shell block in the docs is neither a recipe nor marked as not run"

if [[ -z ${RECIPES_IN_NAMESPACE:-} ]]; then
    started=$(date +%s)
    # A PID namespace too: whatever a recipe leaves running ends with the script.
    RECIPES_IN_NAMESPACE=1 unshare --mount --net --pid --fork --mount-proc --propagation private "$0" --binary "$BINARY"
    log "check-recipes: passed in $(($(date +%s) - started)) s"
    exit 0
fi

# ---- inside the namespace -------------------------------------------------------------------
WORK=$(mktemp -d /tmp/check-recipes.XXXXXX)
cleanup() {
    for pidfile in "$WORK"/state/*.pid "$WORK"/pebble.pid; do
        [[ -f $pidfile ]] && kill -- "-$(cat "$pidfile")" 2>/dev/null || true
    done
    sleep 0.2
    for dir in /etc /usr/local /srv /var/lib; do umount -l "$dir" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
ip link set lo up
for dir in /etc /usr/local /srv /var/lib; do
    name=${dir//\//_}
    mkdir -p "$WORK/overlay/$name/up" "$WORK/overlay/$name/work"
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$WORK/overlay/$name/up,workdir=$WORK/overlay/$name/work" "$dir"
done
# links.example.com is this namespace's loopback (as DNS would point it at the server).
echo "127.0.0.1 links.example.com staging.links.example.com" >>/etc/hosts
rm -f /usr/local/bin/linkhost /etc/systemd/system/linkhost* && rm -rf /etc/linkhost /srv/linkhost /var/lib/linkhost

log "Pebble as the CA (its directory at https://localhost:14000/dir, HTTP-01 checked on port 80)"
mkdir -p "$WORK/pebble"
(
    cd "$WORK/pebble"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=recipes-minica \
        -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost -keyout listener.key -out listener.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >ext
    openssl x509 -req -in listener.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext -out listener.pem 2>/dev/null
    cat >pebble.json <<JSON
{"pebble": {"listenAddress": "127.0.0.1:14000", "managementListenAddress": "127.0.0.1:15000",
  "certificate": "$WORK/pebble/listener.pem", "privateKey": "$WORK/pebble/listener.key",
  "httpPort": 80, "tlsPort": 5001, "ocspResponderURL": "", "externalAccountBindingRequired": false}}
JSON
)
PEBBLE_VA_NOSLEEP=1 setsid pebble -config "$WORK/pebble/pebble.json" >"$WORK/pebble/log" 2>&1 &
echo $! >"$WORK/pebble.pid"
for _ in $(seq 100); do
    curl -fsS --cacert "$WORK/pebble/ca.pem" https://localhost:15000/roots/0 -o "$WORK/pebble/root.pem" 2>/dev/null && break
    sleep 0.1
done
[[ -s $WORK/pebble/root.pem ]] || { cat "$WORK/pebble/log" >&2; fail pebble "Pebble did not start"; }
# The machine's trust store (in the overlay) trusts Pebble's listener and the roots it issues under, as
# the real one trusts Let's Encrypt: curl, linkhost's ACME client and `linkhost check` need no option.
cat "$WORK/pebble/ca.pem" "$WORK/pebble/root.pem" >>/etc/ssl/certs/ca-certificates.crt
export LINKHOST_ACME_DIRECTORY=https://localhost:14000/dir

# The reader's checkout (a copy: the recipes write linkhost.json and .build/linkhost.tar.gz into it), with
# the test build where `make release` would have put the release build.
CHECKOUT=$WORK/checkout
mkdir -p "$CHECKOUT/.build/release" "$WORK/server-home" "$WORK/state"
cp -r "$REPO/Makefile" "$REPO/Dockerfile" "$REPO/config" "$REPO/public" "$REPO/deploy" "$REPO/scripts" "$CHECKOUT/"
cp "$BINARY" "$CHECKOUT/.build/release/linkhost"
export RECIPES_STATE=$WORK/state RECIPES_SERVER_HOME=$WORK/server-home RECIPES_BINARY=$BINARY
export PATH="$REPO/scripts/recipes:$PATH"
# served_aasa URL: the AASA at URL names the recipes' app (read whole first: grep -q would cut curl short).
served_aasa() { local body; body=$(curl -fsS "$1/.well-known/apple-app-site-association") && grep -q '"A1B2C3D4E5.com.acmemeet.app"' <<<"$body"; }
run() { python3 "$REPO/scripts/recipes/run-blocks.py" run "$1" "$2" || fail "$1" "the recipe failed as written (above)"; }

log "quick start: make run's server (the release build serving config/linkhost.json on :8080), then the README's curls"
setsid bash -c 'cd "$1" && exec .build/release/linkhost serve --config config/linkhost.json' _ "$CHECKOUT" >"$WORK/state/make-run.log" 2>&1 &
echo $! >"$WORK/state/make-run.pid"
for _ in $(seq 100); do grep -q "listening on" "$WORK/state/make-run.log" && break; sleep 0.1; done
run quick-start "$CHECKOUT"
run quick-start-all "$CHECKOUT"
run validate "$CHECKOUT"
kill -- "-$(cat "$WORK/state/make-run.pid")"
rm "$WORK/state/make-run.pid"

log "A VPS with systemd, with automatic HTTPS: the README's block"
run systemd "$CHECKOUT" | tee "$WORK/systemd.out"
grep -q '"A1B2C3D4E5.com.acmemeet.app"' "$WORK/systemd.out" || fail systemd "the AASA served over HTTPS does not name the config's app"
issuer=$(openssl s_client -connect 127.0.0.1:443 -servername links.example.com </dev/null 2>/dev/null | openssl x509 -noout -issuer)
[[ $issuer == *Pebble* ]] || fail systemd "the certificate on 443 is not Pebble's: $issuer"
log "served over HTTPS with Pebble's certificate ($issuer)"

log "docs/https.md: validate and check with the unit's environment, then socket activation"
run systemd-env-file "$WORK/server-home"
run systemd-sockets "$WORK/server-home"
served_aasa https://links.example.com || fail systemd-sockets "no AASA over HTTPS after the restart on systemd's sockets"

log "the README's 'Why doesn't my link open the app?' and 'The app's side', against that server"
run why "$CHECKOUT"
run app-side "$CHECKOUT"

log "the units' own comments: linkhost-https.service (and its sockets), then linkhost.service on its own"
unit_commands() { sed -n 's/^#   //p' "$@"; }
systemctl stop linkhost-https
rm -rf /etc/systemd/system/linkhost* "$WORK/state/enabled"
(cd "$WORK/server-home" && unit_commands "$CHECKOUT/deploy/linkhost-https.service" | bash -ex) || fail unit-comments "linkhost-https.service's install comment failed as written"
served_aasa https://links.example.com || fail unit-comments "no AASA after linkhost-https.service's comment"
systemctl stop linkhost-https
rm -rf /etc/systemd/system/linkhost* "$WORK/state/enabled"
cp "$CHECKOUT/config/examples/minimal.json" "$WORK/server-home/linkhost.json"   # plain HTTP: a config without TLS
(cd "$WORK/server-home" && unit_commands "$CHECKOUT/deploy/linkhost.service" | bash -ex) || fail unit-comments "linkhost.service's install comment failed as written"
served_aasa http://links.example.com:8080 || fail unit-comments "no AASA from linkhost.service"
for file in linkhost.socket linkhost-https.socket linkhost-http.socket linkhost-https.service.d/sockets.conf; do
    (cd "$WORK/server-home" && unit_commands "$CHECKOUT/deploy/$file" | bash -ex) || fail unit-comments "$file's comment failed as written"
done
systemctl stop linkhost

log "Docker, with automatic HTTPS: the README's block (the Dockerfile's runtime settings with the test build; the image itself is check-docker.sh's)"
run docker "$CHECKOUT" | tee "$WORK/docker.out"
grep -q '"A1B2C3D4E5.com.acmemeet.app"' "$WORK/docker.out" || fail docker "the AASA served over HTTPS does not name the config's app"
container_uid=$(awk '/^Uid:/ { print $2 }' "/proc/$(cat "$WORK/state/container-linkhost.pid")/status")
[[ $container_uid == 10001 ]] || fail docker "the container's linkhost runs as uid $container_uid, not the image's 10001"
issuer=$(openssl s_client -connect 127.0.0.1:443 -servername links.example.com </dev/null 2>/dev/null | openssl x509 -noout -issuer)
[[ $issuer == *Pebble* ]] || fail docker "the certificate on 443 is not Pebble's: $issuer"
log "served over HTTPS through the published port, by the image's user, with Pebble's certificate"

log "Kubernetes: the README's block (manifests validated; no cluster, no registry)"
if [[ -n ${RECIPES_SKIP_CHECK_DEPLOY:-} ]]; then
    # CI ran scripts/check-deploy.sh as the step before this one; a stand-in says so instead of running it twice.
    mkdir -p "$WORK/skip/scripts" && printf '#!/bin/sh\necho "scripts/check-deploy.sh: run by the CI step before this one"\n' >"$WORK/skip/scripts/check-deploy.sh"
    chmod +x "$WORK/skip/scripts/check-deploy.sh" && cp -r "$CHECKOUT/deploy" "$WORK/skip/" && run kubernetes "$WORK/skip"
else
    run kubernetes "$CHECKOUT"
fi
log "docs/kubernetes.md: the hosts of the multi-tenant example as Ingress objects for cert-manager (validated)"
run kubernetes-hosts "$CHECKOUT"
grep -q '"secretName": "linkhost-tls-globex"' "$CHECKOUT/tenant-ingresses.yaml" || fail kubernetes-hosts "the Ingresses give tenant globex no certificate of its own"
