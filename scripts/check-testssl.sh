#!/usr/bin/env bash
# testssl.sh (Debian's `testssl.sh` package) over linkhost's HTTPS on a loopback port: every check it runs,
# and no finding of severity MEDIUM or above, nor any "NOT ok" or "VULNERABLE", that applies to a server
# with its own certificate. The waivers below say why each one does not apply; a false positive is waived
# only where a test proves it false (named in its reason).
#
#   scripts/check-testssl.sh [BINARY]     (default: $LINKHOST_BINARY, else .build/debug/linkhost)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BINARY=${1:-${LINKHOST_BINARY:-$REPO/.build/debug/linkhost}}
[[ -x $BINARY ]] || (cd "$REPO" && swift build --product linkhost >/dev/null)
if ! command -v testssl >/dev/null; then
    echo "check-testssl: installing testssl.sh (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends testssl.sh >/dev/null
fi

WORK=$(mktemp -d /tmp/check-testssl.XXXXXX)
PID=""
cleanup() {
    [[ -z $PID ]] || kill "$PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# A certificate of the test's own (self-signed, two days): the findings about it are the certificate's, not
# the server's, and are waived below.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
# Port 0: linkhost binds a free port itself and prints it, so no port is picked, released and raced for.
cat >"$WORK/linkhost.json" <<EOF
{"server": {"host": "127.0.0.1", "port": 0, "tls": {"certificateFile": "$WORK/cert.pem", "privateKeyFile": "$WORK/key.pem"}},
 "apps": [{"name": "TLS Check", "teamID": "QRSTU67890", "bundleID": "com.acme.tlscheck"}]}
EOF
(cd "$REPO" && exec "$BINARY" serve --config "$WORK/linkhost.json") >/dev/null 2>"$WORK/server.err" &
PID=$!
for _ in $(seq 1 100); do grep -q 'listening on https://' "$WORK/server.err" && break; sleep 0.1; done
grep -q 'listening on https://' "$WORK/server.err" || { cat "$WORK/server.err" >&2; echo "check-testssl: linkhost did not start" >&2; exit 1; }
PORT=$(sed -n 's|.*listening on https://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$WORK/server.err" | head -n 1)
[[ $PORT =~ ^[0-9]+$ ]] || { cat "$WORK/server.err" >&2; echo "check-testssl: no port in linkhost's 'listening on' line" >&2; exit 1; }

echo "check-testssl: testssl.sh $(dpkg-query -W -f '${Version}' testssl.sh 2>/dev/null) against https://localhost:$PORT (about 5 minutes)"
timeout 900 testssl --quiet --color 0 --warnings batch --ip one --nodns min --jsonfile "$WORK/testssl.json" "localhost:$PORT" >"$WORK/testssl.txt" 2>&1 || true
[[ -s $WORK/testssl.json ]] || { tail -n 30 "$WORK/testssl.txt" >&2; echo "check-testssl: testssl wrote no findings" >&2; exit 1; }

python3 - "$WORK/testssl.json" "$WORK/testssl.txt" <<'EOF'
import json, sys

# id (or id prefix, ending in "*") -> why the finding does not apply to linkhost with its own certificate.
WAIVED = {
    "cert_chain_of_trust": "the test's certificate is self-signed; a server with its own (public CA) certificate has a chain",
    "cert_trust": "the test's certificate names localhost only",
    "cert_revocation": "the test's self-signed certificate has no CRL or OCSP URI; a CA's certificate carries them",
    "cert_expirationStatus": "the test's certificate lives two days; ACME renews at a third of the lifetime left",
    "cert_notAfter": "the test's certificate lives two days",
    "cert_validityPeriod": "the test's certificate lives two days",
    "OCSP_stapling": "no OCSP URI in the test's certificate to staple",
    "DNS_CAArecord": "a DNS record of the domain, not the server's behaviour",
    "engine_problem": "the scanning machine's openssl lacks GOST engines; not about the server",
    "secure_client_renego": "false positive: Tests/IntegrationTests/TLSRenegotiationTests.swift proves the mid-session "
                            "ClientHello gets close_notify and no handshake",
}
BAD_SEVERITIES = {"MEDIUM", "HIGH", "CRITICAL"}

findings = json.load(open(sys.argv[1]))
problems, waived = [], []
for f in findings:
    ident, severity, text = f.get("id", ""), f.get("severity", ""), f.get("finding", "")
    bad = severity in BAD_SEVERITIES or "NOT ok" in text or "VULNERABLE" in text.upper().replace("NOT VULNERABLE", "")
    if not bad:
        continue
    reason = WAIVED.get(ident)
    (waived if reason else problems).append(f"{ident} [{severity}] {text}" + (f" -- waived: {reason}" if reason else ""))

text = open(sys.argv[2]).read()
# testssl 3.0 reports the max-age as HSTS_time ("365 days=31536000 s"), a missing header as HSTS.
hsts = next((f["finding"] for f in findings if f.get("id") in ("HSTS_time", "HSTS")), "none")
print(f"    {len(findings)} findings; HSTS: {hsts}")
for line in waived:
    print("    waived:", line)
for line in problems:
    print("    PROBLEM:", line, file=sys.stderr)
if "31536000" not in hsts:
    problems.append("no Strict-Transport-Security")
    print("    PROBLEM: Strict-Transport-Security not offered", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
echo "check-testssl: OK"
