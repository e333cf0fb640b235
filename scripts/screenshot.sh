#!/usr/bin/env bash
# Renders the shipped call page, 404 and home page with headless Chromium at phone and desktop widths.
# Usage: scripts/screenshot.sh [OUTPUT_DIR]   (default docs/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
mkdir -p "$out"
command -v chromium >/dev/null || { echo "installing chromium"; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
# shellcheck source=scripts/serve-for-check.sh
source scripts/serve-for-check.sh
trap stop_linkhost EXIT
start_linkhost
# The page's absolute URLs name the Host header Chromium sends: 127.0.0.1:PORT.
iphone="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
android="Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"
desktop="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
shoot() { # name width height user-agent path
    chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$2,$3" --user-agent="$4" --screenshot="$out/$1.png" "$LINKHOST_CHECK_URL$5" >/dev/null 2>&1
    echo "$out/$1.png"
}
shoot call-iphone 390 844 "$iphone" "/call/abc_DEF-123?type=video"
shoot call-android 412 915 "$android" "/call/abc_DEF-123?type=video"
shoot call-desktop 1280 900 "$desktop" "/call/abc_DEF-123?type=video"
shoot not-found-iphone 390 844 "$iphone" "/call/<bad>"
shoot home-desktop 1280 900 "$desktop" "/"
# The QR code on the rendered desktop page must scan back to the call link.
if command -v zbarimg >/dev/null; then
    scanned=$(zbarimg -q --raw -Sdisable -Sqrcode.enable "$out/call-desktop.png")
    expected="https://${LINKHOST_CHECK_URL#http://}/call/abc_DEF-123?type=video"
    [ "$scanned" = "$expected" ] || { echo "QR code on the page reads '$scanned', expected '$expected'" >&2; exit 1; }
    echo "QR code on the desktop page scans to $scanned"
fi
