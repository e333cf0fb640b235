#!/usr/bin/env bash
# REDbot (lint for HTTP, from PyPI) over the call page, its QR images (SVG, PNG), the default preview picture and the AASA, served on loopback with the
# shipped config: no BAD note anywhere, and at most one WARN on each (issue 13). Prints every note's level.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v redbot >/dev/null || python3 -m pip install -q redbot 2>/dev/null || python3 -m pip install -q --break-system-packages redbot
# shellcheck source=scripts/serve-for-check.sh
source scripts/serve-for-check.sh
out=$(mktemp -d)
trap 'stop_linkhost; rm -rf "$out"' EXIT
start_linkhost
status=0
for path in "/call/abc_DEF-123?type=video" "/call/abc_DEF-123/qr.svg?type=video" "/call/abc_DEF-123/qr.png?type=video" "/linkhost-preview.png" "/.well-known/apple-app-site-association"; do
    timeout 120 redbot -o har "$LINKHOST_CHECK_URL$path" >"$out/report.har"
    python3 - "$out/report.har" "$path" <<'PY' || status=1
import json, sys
entries = json.load(open(sys.argv[1]))["log"]["entries"]
notes = [(n["level"], n["summary"]) for entry in entries for n in entry.get("_red_messages", [])]
for level, summary in notes:
    print(f"  {level:5} {summary}")
bad = sum(level == "BAD" for level, _ in notes)
warn = sum(level == "WARN" for level, _ in notes)
print(f"redbot {sys.argv[2]}: {len(notes)} notes, {bad} BAD, {warn} WARN")
sys.exit(1 if bad or warn > 1 or not notes else 0)
PY
done
exit $status
