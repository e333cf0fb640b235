#!/usr/bin/env bash
# The systemd units in deploy/, checked three ways (called by scripts/check-deploy.sh; REPO, BINARY and
# WORK come from it):
#
#   1. the directives the units must keep (hardening, notify, names of the sockets)
#   2. systemd-analyze verify and systemd-analyze security (exposure at most 2.0) for each set:
#        plain    linkhost.service + linkhost.socket
#        https    linkhost-https.service alone (binds 443 and 80 with CAP_NET_BIND_SERVICE)
#        sockets  linkhost-https.service + linkhost-https.service.d/sockets.conf + both socket units
#   3. a socket-activated start of each socket set: systemd-socket-activate binds free loopback ports
#      in place of ListenStream=, names them as FileDescriptorName= does, passes the unit's Environment=
#      and runs its ExecStart=; curl then checks what each socket answers
set -euo pipefail

: "${REPO:?}" "${BINARY:?}" "${WORK:?}"
DEPLOY=$REPO/deploy

log() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
fail() {
    printf 'FAIL[systemd]: %s\n' "$*" >&2
    exit 1
}

# ---- 1. directives --------------------------------------------------------------------------

log "systemd: directives of linkhost.service, linkhost-https.service and their sockets"
# shellcheck disable=SC2016 # $MAINPID is systemd's, not ours
for unit in linkhost.service linkhost-https.service; do
    for directive in 'DynamicUser=yes' 'ProtectSystem=strict' 'NoNewPrivileges=yes' 'ExecReload=/bin/kill -HUP $MAINPID' \
        'Type=notify' 'NotifyAccess=main' 'RestartPreventExitStatus=2'; do
        grep -qxF "$directive" "$DEPLOY/$unit" || fail "$unit lacks $directive"
    done
    # The notify socket is a unix socket: the address-family filter must let it through.
    grep -qE '^RestrictAddressFamilies=.*AF_UNIX' "$DEPLOY/$unit" || fail "$unit: RestrictAddressFamilies must keep AF_UNIX for sd_notify"
done
grep -qxF 'Requires=linkhost.socket' "$DEPLOY/linkhost.service" || fail "linkhost.service lacks Requires=linkhost.socket"
for directive in 'StateDirectory=linkhost' 'StateDirectoryMode=0700' 'Environment=LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=/var/lib/linkhost' \
    'AmbientCapabilities=CAP_NET_BIND_SERVICE' 'CapabilityBoundingSet=CAP_NET_BIND_SERVICE'; do
    grep -qxF "$directive" "$DEPLOY/linkhost-https.service" || fail "linkhost-https.service lacks $directive"
done
for directive in 'Sockets=linkhost-https.socket linkhost-http.socket' 'AmbientCapabilities=' 'CapabilityBoundingSet='; do
    grep -qxF "$directive" "$DEPLOY/linkhost-https.service.d/sockets.conf" || fail "sockets.conf lacks $directive"
done
for pair in 'linkhost-https.socket https' 'linkhost-http.socket http'; do
    read -r socket name <<<"$pair"
    grep -qxF "FileDescriptorName=$name" "$DEPLOY/$socket" || fail "$socket must name its socket $name"
    grep -qxF "Service=linkhost-https.service" "$DEPLOY/$socket" || fail "$socket must pass its socket to linkhost-https.service"
done
for socket in linkhost.socket linkhost-https.socket linkhost-http.socket; do
    for directive in 'Accept=no' 'BindIPv6Only=both'; do
        grep -qxF "$directive" "$DEPLOY/$socket" || fail "$socket lacks $directive"
    done
    grep -qE '^ListenStream=' "$DEPLOY/$socket" || fail "$socket listens on nothing"
done

# ---- 2. verify and security -----------------------------------------------------------------

# systemd-analyze checks that the programs exist, so each set is verified in a small root that has them.
make_root() {
    local root=$1
    mkdir -p "$root/usr/bin" "$root/usr/local/bin" "$root/usr/lib/systemd" "$root/etc/systemd/system"
    ln -s usr/bin "$root/bin"
    ln -s usr/lib "$root/lib"
    cp /usr/bin/kill "$root/usr/bin/kill"
    cp "$BINARY" "$root/usr/local/bin/linkhost"
    cp -r /usr/lib/systemd/system "$root/usr/lib/systemd/system"
}

# analyze SET SERVICE FILE...: verify FILEs (relative to deploy/) in a root of their own, then score SERVICE.
analyze() {
    local set=$1 service=$2
    shift 2
    local root=$WORK/root-$set file
    make_root "$root"
    local paths=()
    for file in "$@"; do
        mkdir -p "$(dirname "$root/etc/systemd/system/$file")"
        cp "$DEPLOY/$file" "$root/etc/systemd/system/$file"
        [[ $file == *.d/* ]] || paths+=("$root/etc/systemd/system/$file")
    done
    timeout 60 systemd-analyze verify --root="$root" --man=no --generators=no "${paths[@]}" >"$WORK/verify-$set.txt" 2>&1 || {
        cat "$WORK/verify-$set.txt" >&2
        fail "$set: systemd-analyze verify failed"
    }
    # verify exits 0 on some problems (unknown directives, for one), which it only prints.
    if [[ -s $WORK/verify-$set.txt ]]; then
        cat "$WORK/verify-$set.txt" >&2
        fail "$set: systemd-analyze verify printed problems"
    fi
    # Its exit status only says whether the score passed a threshold; the score itself is what counts.
    timeout 60 systemd-analyze security --offline=true --root="$root" "$service" >"$WORK/security-$set.txt" 2>&1 || true
    local exposure
    exposure=$(sed -nE "s/.*Overall exposure level for $service: ([0-9.]+).*/\1/p" "$WORK/security-$set.txt")
    if [[ -z $exposure ]]; then
        tail -n 20 "$WORK/security-$set.txt" >&2
        fail "$set: systemd-analyze security gave no exposure level"
    fi
    awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' ||
        fail "$set: exposure level $exposure of $service is above 2.0: the unit lost some of its hardening"
    note "$set: verify ok ($*); security exposure $exposure (0 best, 10 worst; want at most 2.0)"
}

log "systemd: systemd-analyze verify and security"
analyze plain linkhost.service linkhost.socket linkhost.service
analyze https linkhost-https.service linkhost-https.service
analyze sockets linkhost-https.service linkhost-https.socket linkhost-http.socket linkhost-https.service linkhost-https.service.d/sockets.conf

# ---- 3. socket-activated starts -------------------------------------------------------------

command -v systemd-socket-activate >/dev/null || fail "systemd-socket-activate is missing (Debian's systemd)"
command -v curl >/dev/null || fail "curl is missing"
command -v openssl >/dev/null || fail "openssl is missing"

# unit_values FILE... KEY: every value of KEY in the files, in order (an empty assignment resets).
unit_values() {
    local key=${*: -1}
    python3 - "$key" "${@:1:$#-1}" <<'EOF'
import sys
key, values = sys.argv[1], []
for path in sys.argv[2:]:
    for line in open(path):
        line = line.strip()
        if line.startswith(("#", "[")) or "=" not in line:
            continue
        name, value = line.split("=", 1)
        if name == key:
            values = [] if value == "" else values + [value]
print("\n".join(values))
EOF
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# activate SET CONFIG SERVICE-FILES -- SOCKET...: starts the unit's ExecStart= through systemd-socket-activate
# with a free loopback port per socket unit and its FileDescriptorName=; sets PORTS (socket → port) and PID.
declare -A PORTS
activate() {
    local set=$1 config=$2
    shift 2
    local files=() sockets=() socket arguments=() names=()
    while [[ $1 != -- ]]; do files+=("$DEPLOY/$1"); shift; done
    shift
    sockets=("$@")
    for socket in "${sockets[@]}"; do
        PORTS[$socket]=$(free_port)
        arguments+=(-l "127.0.0.1:${PORTS[$socket]}")
        names+=("$(unit_values "$DEPLOY/$socket" FileDescriptorName)")
    done
    local joined
    joined=$(IFS=:; echo "${names[*]}")
    [[ -z ${joined//:/} ]] || arguments+=("--fdname=$joined")
    local line assignment
    while read -r line; do
        for assignment in $line; do
            case $assignment in
                LINKHOST_CONFIG=*) assignment=LINKHOST_CONFIG=$config ;;
                LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=*) assignment=LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=$WORK/state-$set ;;
            esac
            arguments+=("-E$assignment")
        done
    done < <(unit_values "${files[@]}" Environment)
    local command
    command=$(unit_values "${files[@]}" ExecStart | tail -n 1)
    [[ $command == "/usr/local/bin/linkhost serve" ]] || fail "$set: ExecStart is \"$command\", not /usr/local/bin/linkhost serve"
    # systemd-socket-activate binds the ports this script picked: one taken in between ends it with "Address
    # already in use" before it listens on every socket, and the start is tried again on new ports.
    local attempt last
    for attempt in 1 2 3; do
        (cd "$REPO" && exec systemd-socket-activate "${arguments[@]}" -- "$BINARY" serve) >"$WORK/start-$set.out" 2>"$WORK/start-$set.err" &
        PID=$!
        last=${PORTS[${sockets[-1]}]}
        for _ in $(seq 100); do
            grep -q "Listening on 127.0.0.1:$last" "$WORK/start-$set.err" && break
            kill -0 "$PID" 2>/dev/null || break
            sleep 0.05
        done
        grep -q 'Address already in use' "$WORK/start-$set.err" || break
        wait "$PID" 2>/dev/null || true
        note "$set: a picked port was taken before systemd-socket-activate bound it (attempt $attempt); new ports"
        local index=0
        for socket in "${sockets[@]}"; do
            PORTS[$socket]=$(free_port)
            arguments[index * 2 + 1]="127.0.0.1:${PORTS[$socket]}"
            index=$((index + 1))
        done
    done
    note "$set: systemd-socket-activate ${arguments[*]} -- linkhost serve"
}

# answer URL [curl options]: "STATUS" and the response head in $WORK/head.
answer() {
    local url=$1
    shift
    curl --noproxy '*' -sS -k --max-time 10 -D "$WORK/head" -o /dev/null -w '%{http_code}' "$@" "$url" 2>&1 || true
}

stop() {
    local set=$1
    kill -TERM "$PID" 2>/dev/null || true
    local status=0
    wait "$PID" || status=$?
    ((status == 0)) || { cat "$WORK/start-$set.err" >&2; fail "$set: linkhost exited $status after SIGTERM"; }
}

log "systemd: socket-activated start of linkhost.service (+ linkhost.socket), the shipped config"
activate plain "$REPO/config/linkhost.json" linkhost.service -- linkhost.socket
status=$(answer "http://127.0.0.1:${PORTS[linkhost.socket]}/.well-known/apple-app-site-association")
[[ $status == 200 ]] || { cat "$WORK/start-plain.err" >&2; fail "plain: the AASA on the passed socket answered $status"; }
grep -q 'socket passed by systemd' "$WORK/start-plain.err" || fail "plain: linkhost did not say it serves systemd's socket"
stop plain
note "plain: AASA 200 on the passed socket"

log "systemd: socket-activated start of linkhost-https.service + sockets.conf, a self-signed certificate"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null || fail "openssl req failed"
cat >"$WORK/https.json" <<EOF
{"server": {"host": "127.0.0.1", "httpPort": 8080, "tls": {"certificateFile": "$WORK/cert.pem", "privateKeyFile": "$WORK/key.pem"}},
 "apps": [{"name": "Deploy Check", "teamID": "QRSTU67890", "bundleID": "com.acme.deploycheck"}]}
EOF
activate sockets "$WORK/https.json" linkhost-https.service linkhost-https.service.d/sockets.conf -- linkhost-https.socket linkhost-http.socket
https_port=${PORTS[linkhost-https.socket]}
http_port=${PORTS[linkhost-http.socket]}
status=$(answer "https://127.0.0.1:$https_port/.well-known/apple-app-site-association")
[[ $status == 200 ]] || { cat "$WORK/start-sockets.err" >&2; fail "sockets: HTTPS on the socket named https answered $status"; }
grep -qi '^strict-transport-security: max-age=' "$WORK/head" || fail "sockets: HTTPS without Strict-Transport-Security"
status=$(answer "http://127.0.0.1:$http_port/.well-known/apple-app-site-association")
[[ $status == 200 ]] || fail "sockets: the AASA on the socket named http answered $status"
! grep -qi '^strict-transport-security' "$WORK/head" || fail "sockets: Strict-Transport-Security on plain HTTP"
status=$(answer "http://127.0.0.1:$http_port/call/abc")
[[ $status == 308 ]] || fail "sockets: a call page on the socket named http answered $status, not the 308 to HTTPS"
grep -q 'named https, http' "$WORK/start-sockets.err" || { cat "$WORK/start-sockets.err" >&2; fail "sockets: linkhost did not take the sockets by name"; }
stop sockets
note "sockets: HTTPS 200 with HSTS on the socket named https; AASA 200 and 308 on the socket named http"
