#!/usr/bin/env bash
# Screenshots of the shipped call page as a phone, a tablet and a computer in English, German and Arabic,
# an Android phone, Instagram's and WhatsApp's in-app browsers, Firefox for Android, a first config without
# web join or App Store ID (a computer, the open host's page), the copied-link line and the default preview picture,
# plus the 404 and home pages, taken by headless Chromium with each device emulated (scripts/chromium-visit.py:
# User-Agent, viewport, pixel ratio, touch), after call.js ran. The QR code on a desktop shot must scan back.
# Usage: scripts/screenshot.sh [OUTPUT_DIR]   (default docs/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
mkdir -p "$out"
missing=""
command -v chromium >/dev/null || missing="$missing chromium"
# Noto covers Latin, Arabic and the rest of the shipped locales' scripts.
[ -d /usr/share/fonts/truetype/noto ] || missing="$missing fonts-noto-core"
if [ -n "$missing" ]; then
    echo "installing$missing"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# shellcheck source=scripts/serve-for-check.sh
source scripts/serve-for-check.sh
# The shipped config with a public origin, so the pages show the link people would see, not 127.0.0.1.
config=$(mktemp --suffix=.json)
trap 'stop_linkhost; rm -f "$config"' EXIT
python3 - "$config" <<'PY'
import json, sys
config = json.load(open("config/linkhost.json"))
config["callLinks"]["baseURL"] = "https://links.example.com"
json.dump(config, open(sys.argv[1], "w"))
PY
start_linkhost "$config"
iphone="Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
ipad="Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"
desktop="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
shoot() { # name path user-agent width height scale [extra options]
    local name=$1 path=$2 agent=$3 width=$4 height=$5 scale=$6
    shift 6
    python3 scripts/chromium-visit.py "$LINKHOST_CHECK_URL$path" --user-agent "$agent" --width "$width" --height "$height" \
        --scale "$scale" --screenshot "$out/$name.png" "$@"
    echo "$out/$name.png"
}
link="/call/abc_DEF-123?type=video"
for lang in en de ar; do
    shoot "call-phone-$lang" "$link&lang=$lang" "$iphone" 390 844 2 --mobile --touch 5
    shoot "call-tablet-$lang" "$link&lang=$lang" "$ipad" 820 1180 1 --mobile --touch 5
    shoot "call-desktop-$lang" "$link&lang=$lang" "$desktop" 1280 860 1
done
# The guest journey (docs/guest-journey.md): Android's intent first, an in-app browser's way out, and the
# line an iPhone shows after its store tap copied the link.
android="Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
instagram="Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21E236 Instagram 326.0.3.29.95 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 590072163)"
shoot call-android-en "$link&lang=en" "$android" 412 915 2 --mobile --touch 5
shoot call-instagram-ios-en "$link&lang=en" "$instagram" 390 844 2 --mobile --touch 5 --full-page
shoot call-instagram-ios-ar "$link&lang=ar" "$instagram" 390 844 2 --mobile --touch 5 --full-page
shoot call-phone-en-link-copied "$link&lang=en" "$iphone" 390 844 2 --mobile --touch 5 --full-page --click app-store
curl -sS --fail --max-time 5 -o "$out/default-preview-image.png" "$LINKHOST_CHECK_URL/linkhost-preview.png" && echo "$out/default-preview-image.png"
shoot not-found-phone "/call/<bad>" "$iphone" 390 844 2 --mobile --touch 5
shoot not-found-phone-ar "/call/<bad>?lang=ar" "$iphone" 390 844 2 --mobile --touch 5
shoot home-desktop "/" "$desktop" 1280 860 1
# A team's first config (issue 41): no web join, no App Store ID, an App Clip, the open host. A computer gets the
# QR code first, captioned for the clip, with no empty block where the buttons were; an iPhone on the open host
# without the app is told where to join; WhatsApp's in-app browser gets the way out; Firefox for Android looks
# like Chrome (only the button's link differs).
stop_linkhost
python3 - "$config" <<'PY'
import json, sys
config = json.load(open("config/linkhost.json"))
config["callLinks"]["baseURL"] = "https://links.example.com"
del config["callLinks"]["webJoinURL"]
config["callLinks"]["openInAppHost"] = "localhost"
app = config["apps"][0]
del app["appStoreID"]
app["appClipBundleID"] = app["bundleID"] + ".Clip"
json.dump(config, open(sys.argv[1], "w"))
PY
start_linkhost "$config"
whatsapp="Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.124 Mobile Safari/537.36 [WA4A/2.25.32.75;]"
firefox="Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
shoot call-desktop-en-first-config "$link&lang=en" "$desktop" 1280 860 1
shoot call-desktop-ar-first-config "$link&lang=ar" "$desktop" 1280 860 1
LINKHOST_CHECK_URL=${LINKHOST_CHECK_URL/127.0.0.1/localhost} shoot call-phone-en-open-host "$link&lang=en" "$iphone" 390 844 2 --mobile --touch 5
LINKHOST_CHECK_URL=${LINKHOST_CHECK_URL/127.0.0.1/localhost} shoot call-phone-ar-open-host "$link&lang=ar" "$iphone" 390 844 2 --mobile --touch 5
shoot call-whatsapp-android-en "$link&lang=en" "$whatsapp" 412 915 2 --mobile --touch 5
shoot call-firefox-android-en "$link&lang=en" "$firefox" 412 915 2 --mobile --touch 5
# The QR code on the rendered desktop page must scan back to the call link.
if command -v zbarimg >/dev/null; then
    scanned=$(zbarimg -q --raw -Sdisable -Sqrcode.enable "$out/call-desktop-en.png")
    expected="https://links.example.com/call/abc_DEF-123?type=video"
    [ "$scanned" = "$expected" ] || { echo "QR code on the page reads '$scanned', expected '$expected'" >&2; exit 1; }
    echo "QR code on the desktop page scans to $scanned"
fi
