#!/usr/bin/env bash
# The printed Kotlin parser decides like CallLinkParser and the server (issue 23), over the shared corpus
# Tests/CallLinksTests/Corpus/call-links.tsv, whose expected column CallLinkCorpusTests holds CallLinkParser to:
#   1. a config saying what the corpus's parser says (checked: print swift-parser gives the corpus's line);
#   2. the real binary serving it: every http(s) row the parser reaches its templates for gets the call page
#      of the table's call, or none;
#   3. the call pages of the table's calls: every link they offer (canonical, open-in-app scheme, intent,
#      the Play referrer) is claimed by the printed manifest, and becomes a corpus row of its own;
#   4. linkhost match over every url row: the app parsers it names (CallLinkParser for iOS, which opens http
#      and https; the Kotlin one for Android, which gets only the schemes the printed manifest declares) read
#      the table's call, and every URL iOS opens in the app is read as a call (issue 32);
#   5. linkhost print kotlin-parser, compiled once with Debian's kotlinc, run over the corpus and the page's
#      links: every answer equals the table's (its android column where a row has one).
# Usage: scripts/check-kotlin-parser.sh [LINKHOST_BINARY]   (default .build/debug/linkhost, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=$root/Tests/CallLinksTests/Corpus/call-links.tsv
helper=$root/scripts/kotlin/corpus_server.py
binary=${1:-$root/.build/debug/linkhost}
[ -x "$binary" ] || swift build --product linkhost
command -v kotlinc >/dev/null || { echo "kotlinc is missing: apt-get install kotlin" >&2; exit 2; }

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/public"
# Port 0: the server binds a free port itself and says which; nothing picks a port, releases it and races for it.
python3 "$helper" config "$corpus" "$work" 0

echo "== the config says what the corpus's parser says"
expected=$(python3 "$helper" swift-line "$corpus")
printed=$("$binary" print swift-parser --config "$work/linkhost.json")
if [ "$printed" != "$expected" ]; then
    echo "print swift-parser: $printed"; echo "the corpus's parser: $expected"; exit 1
fi
echo "$printed"

echo "== the server over the corpus"
"$binary" serve --config "$work/linkhost.json" >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log"; echo "the server did not say where it listens within 10 s" >&2; exit 1; }
status=0
python3 "$helper" answers "$corpus" "$port" || status=1
"$binary" print android-manifest --config "$work/linkhost.json" >"$work/AndroidManifest.xml"
python3 "$helper" page-links "$corpus" "$port" "$work/AndroidManifest.xml" "$work/page-links.tsv" || status=1

echo "== linkhost match over the corpus: which parser reads each URL, as which call"
python3 "$helper" match "$corpus" "$binary" "$work/linkhost.json" || status=1

echo "== the printed Kotlin parser, compiled once, over the corpus and the page's links"
"$binary" print kotlin-parser --config "$work/linkhost.json" --package linkhost.corpus >"$work/CallLinks.kt"
started=$(date +%s)
# -Werror: the printed file must compile without a warning in an app that treats warnings as errors.
compiled=0
kotlinc -Werror "$work/CallLinks.kt" "$root/scripts/kotlin/CorpusRunner.kt" -include-runtime -d "$work/corpus.jar" >"$work/kotlinc.log" 2>&1 || compiled=$?
grep -v -e '^OpenJDK 64-Bit Server VM warning' "$work/kotlinc.log" || true
[ "$compiled" = 0 ] || { echo "kotlinc failed ($compiled)"; exit 1; }
echo "kotlinc: $(( $(date +%s) - started )) s"
java -jar "$work/corpus.jar" "$corpus" "$work/page-links.tsv" || status=1
exit $status
