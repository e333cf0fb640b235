#!/usr/bin/env bash
# Typechecks the CallLinks target for iOS 15 (simulator) and macOS 12 on Linux, where no Apple SDK exists:
# the Linux toolchain's textual interface of the standard library keeps Apple's @available attributes, so
# it is rebuilt as an Apple-target Swift module and CallLinks is typechecked against it with availability
# checking on. A probe that uses Duration (iOS 16 / macOS 13) must fail first, or the check proves nothing.
# Foundation does not exist for these targets here, so CallLinkParser+URL.swift compiles to nothing (its
# canImport guard) and only the Foundation-free code is checked; _StringProcessing and _Concurrency are not
# imported, so any use of them (iOS 16+) fails too.
set -euo pipefail
cd "$(dirname "$0")/.."
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
case "$(uname -m)" in
    x86_64) arch=x86_64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "check-apple-availability: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac
interface=$(find "$toolchain/lib/swift_static/linux/Swift.swiftmodule" "$toolchain/lib/swift/linux/Swift.swiftmodule" \
    -name '*.swiftinterface' ! -name '*.private.swiftinterface' 2>/dev/null | head -n 1)
[ -n "$interface" ] || { echo "check-apple-availability: no Swift.swiftinterface in $toolchain" >&2; exit 1; }
work=.build/apple-availability
mkdir -p "$work"
sources=(Sources/CallLinks/*.swift)
# -package-name as SwiftPM passes it: CallLinks shares `package` helpers (EditDistance) with the command line.
flags=(-swift-version 6 -disable-implicit-string-processing-module-import -disable-implicit-concurrency-module-import -disable-objc-interop -package-name linkhost)
printf 'func needsNewerOS() -> Duration { .seconds(1) }\n' > "$work/probe.swift"
for platform in "macosx:$arch-apple-macosx12.0:$arch-apple-macos" "iphonesimulator:$arch-apple-ios15.0-simulator:$arch-apple-ios-simulator"; do
    IFS=: read -r folder target module <<<"$platform"
    resources="$work/$folder"
    mkdir -p "$resources/$folder/Swift.swiftmodule"
    cp -r "$toolchain/lib/swift/shims" "$resources/"
    if [ ! -f "$resources/$folder/Swift.swiftmodule/$module.swiftmodule" ]; then
        echo "== building the standard library's interface for $target"
        # @backDeployed bodies are not in the interface; callers see the declarations' @available either way.
        sed -e "s/-target [^ ]*-unknown-linux-gnu/-target $target/" -e '/^ *@backDeployed/d' "$interface" > "$resources/Swift.swiftinterface"
        "$toolchain/bin/swift-frontend" -compile-module-from-interface -module-name Swift -target "$target" -resource-dir "$resources" \
            -parse-stdlib -disable-objc-interop -o "$resources/$folder/Swift.swiftmodule/$module.swiftmodule" "$resources/Swift.swiftinterface"
    fi
    if "$toolchain/bin/swift-frontend" -typecheck -target "$target" -resource-dir "$resources" -module-name Probe "${flags[@]}" "$work/probe.swift" 2>"$work/probe.log"; then
        echo "check-apple-availability: the probe typechecked for $target, so availability is not being checked" >&2; exit 1
    fi
    grep -q "only available in" "$work/probe.log" || { cat "$work/probe.log" >&2; exit 1; }
    echo "== CallLinks for $target"
    "$toolchain/bin/swift-frontend" -typecheck -target "$target" -resource-dir "$resources" -module-name CallLinks "${flags[@]}" "${sources[@]}"
done
echo "check-apple-availability: CallLinks typechecks for iOS 15 and macOS 12"
