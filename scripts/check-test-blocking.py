#!/usr/bin/env python3
"""No blocking call in async test code: blocking work runs on threads of its own.

Swift's cooperative pool has one thread per core (two here); a test that blocks one — a socket read, a connect,
a sleep, a wait on a child process — stalls every other test's waits, and timing assertions measure the stall.
The integration tests' blocking work belongs in the helpers made for it (HELPER_FILES), in an
`onThread { … }` / `onThreads(…) { … }` / `Thread { … }` body or the closure given to a function whose `///`
comment says "Off-pool:" (it runs the closure on a thread of its own), or in a function whose `///` comment
says "Blocking:" (it runs on such a thread; calling it is then a blocking call like the others).
Anything else is reported as FILE:LINE with the call, and the check fails.

    scripts/check-test-blocking.py [FOLDER…]  check these test folders (default: Tests/IntegrationTests and
                                              Tests/LinkHostQRTests, the targets that run sockets and processes)
    scripts/check-test-blocking.py --self-test   plant blocking calls in a copy and show each is reported
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Files whose whole purpose is to run blocking work where it belongs (see each file's header).
HELPER_FILES = {"OffPool.swift", "ChildProcess.swift", "RawHTTPClient.swift", "LinkHostProcess.swift", "HostileExchange.swift"}

# Calls that block the calling thread, whatever the context. (name, pattern)
ALWAYS_BLOCKING = [
    ("usleep", r"\busleep\s*\("),
    ("sleep", r"(?<![.\w])sleep\s*\("),
    ("nanosleep", r"\bnanosleep\s*\("),
    ("Thread.sleep", r"\bThread\.sleep\b"),
    ("RawHTTPClient(…) (a blocking connect; await RawHTTPClient.open)", r"(?<![.\w])RawHTTPClient\s*\((?!\s*deferredHost:)"),
    ("lhtest_connect", r"\blhtest_connect(?:_from)?\s*\("),
    ("lhtest_wait_readable", r"\blhtest_wait_readable\s*\("),
    ("lhtest_wait", r"\blhtest_wait\s*\("),
    ("waitForExitBlocking", r"\bwaitForExitBlocking\s*\("),
    ("waitUntilFinished", r"\.waitUntilFinished\s*\("),
    ("blockingRequest", r"\bblockingRequest\s*\("),
    ("DispatchSemaphore.wait", r"\bsemaphore\.wait\s*\("),
    ("SocketReader.read (a poll)", r"\bSocketReader\s*\("),
    ("HostileExchange.run (raw socket exchange)", r"\bHostileExchange\.run\s*\("),
]
# Calls with an async form of the same name: blocking unless awaited.
BLOCKING_UNLESS_AWAITED = ["request", "readResponse", "readUntilClosed", "runTool"]

# Where blocking is fine: the body of a closure passed to these.
THREAD_OPENERS = re.compile(r"\bonThreads?\b|\bThread\s*(\{|\()")


def strip_literals(text):
    """The text with string-literal contents and comments blanked (same length, newlines kept), so braces and
    names inside them are not read as code."""
    out, index, length = [], 0, len(text)
    while index < length:
        if text.startswith('"""', index):
            end = text.find('"""', index + 3)
            end = length if end < 0 else end + 3
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        elif text[index] == '"':
            end = index + 1
            while end < length and text[end] != '"' and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            out.append(" " * (min(end + 1, length) - index))
            index = end + 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            out.append(" " * (end - index))
            index = end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def documented_functions(folder, marker):
    """Names of the functions whose /// comment says `marker` ("Blocking:" or "Off-pool:"), across the folder."""
    names = set()
    for path in swift_files(folder):
        if os.path.basename(path) in HELPER_FILES:
            continue  # their blocking entry points are named in ALWAYS_BLOCKING
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines):
            match = re.match(r"\s*(?:@\w+\s+)*(?:(?:private|fileprivate|internal|static|final|nonisolated)\s+)*func\s+(\w+)", line)
            if match and documented(lines, number, marker):
                names.add(match.group(1))
    return names


def documented(lines, number, marker="Blocking:"):
    """True when the /// comment right above line `number` says `marker`."""
    above = number - 1
    while above >= 0 and lines[above].strip().startswith(("///", "@")):
        if re.search(r"(^|[.:]\s|///\s*)" + re.escape(marker), lines[above]):
            return True
        above -= 1
    return False


def allowed_regions(code, raw_lines, off_pool):
    """Character ranges of the code where blocking is allowed: thread bodies, closures given to Off-pool functions
    and the bodies of functions documented as blocking."""
    regions, pending = [], []
    line_starts = [0]
    for line in code.split("\n"):
        line_starts.append(line_starts[-1] + len(line) + 1)
    for match in THREAD_OPENERS.finditer(code):
        pending.append(match.start())
    for name in off_pool:
        for match in re.finditer(r"(?<![\w])" + re.escape(name) + r"\s*\(", code):
            if not re.match(r"[^\n]*\bfunc\s*$", code[max(0, match.start() - 80):match.start()].split("\n")[-1] + " "):
                pending.append(match.start())
    for number, line in enumerate(raw_lines):
        if re.match(r"\s*(?:@\w+\s+)*(?:(?:private|fileprivate|internal|static|final|nonisolated)\s+)*(?:func\s+\w+|init\b)", line) and documented(raw_lines, number):
            pending.append(line_starts[number])
    for start in pending:
        opening = code.find("{", start)
        if opening < 0:
            continue
        depth, index = 0, opening
        while index < len(code):
            if code[index] == "{":
                depth += 1
            elif code[index] == "}":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        regions.append((opening, index))
    return regions


def swift_files(folder):
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(root, name)


def findings(folder):
    """(path, line, what) for each blocking call outside the places made for it."""
    documented = documented_functions(folder, "Blocking:")
    off_pool = documented_functions(folder, "Off-pool:")
    found = []
    for path in swift_files(folder):
        if os.path.basename(path) in HELPER_FILES:
            continue
        raw = open(path, encoding="utf-8").read()
        code = strip_literals(raw)
        regions = allowed_regions(code, raw.split("\n"), off_pool)
        patterns = list(ALWAYS_BLOCKING)
        patterns += [(f"{name} (unawaited)", r"(?<![\w])" + re.escape(name) + r"\s*\(") for name in BLOCKING_UNLESS_AWAITED]
        patterns += [(f"{name} (documented Blocking:)", r"(?<![\w])" + re.escape(name) + r"\s*\(") for name in sorted(documented)]
        line_starts = [0]
        for line in code.split("\n"):
            line_starts.append(line_starts[-1] + len(line) + 1)
        for what, pattern in patterns:
            for match in re.finditer(pattern, code):
                position = match.start()
                if any(start <= position <= end for start, end in regions):
                    continue
                line_number = next(i for i, start in enumerate(line_starts) if start > position) - 1
                line = code.split("\n")[line_number]
                if re.match(r"\s*(?:@\w+\s+)*(?:(?:private|fileprivate|internal|static|final|nonisolated)\s+)*func\s", line):
                    continue  # the declaration itself
                if "(unawaited)" in what or "(documented" in what:
                    before = line[: position - line_starts[line_number]]
                    if "await" in before:
                        continue
                found.append((os.path.relpath(path), line_number + 1, what, raw.split("\n")[line_number].strip()))
    return sorted(set(found))


def check(folder):
    problems = findings(folder)
    for path, line, what, text in problems:
        print(f"{path}:{line}: blocking call {what} in async test code: {text}", file=sys.stderr)
    if problems:
        print(f"check-test-blocking: {len(problems)} blocking call(s) outside the helpers made for them; run them in "
              "onThread { … } (Tests/IntegrationTests/OffPool.swift) or await their async form", file=sys.stderr)
        return 1
    print(f"check-test-blocking: no blocking call in async test code under {os.path.relpath(folder)}")
    return 0


def self_test():
    """Plants blocking calls in a copy of the integration tests and requires each to be reported by file and line,
    and the same calls inside an onThread body to be accepted."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="check-test-blocking-") as copy:
        folder = os.path.join(copy, "IntegrationTests")
        shutil.copytree(os.path.join(package, "Tests", "IntegrationTests"), folder)
        plants = {
            "usleep": "        usleep(300_000)",
            "RawHTTPClient(": "        _ = try RawHTTPClient(port: 1).request(\"GET\", \"/\")",
            "runTool (unawaited)": "        _ = try runTool(\"true\", [])",
            "readUntilClosed (unawaited)": "        _ = client.readUntilClosed(wait: .seconds(2))",
        }
        body = "\n".join(plants.values())
        planted = ("import Foundation\n\nstruct PlantedTests {\n    func planted(client: RawHTTPClient) async throws {\n" + body
                   + "\n        await onThread {\n            usleep(1)\n        }\n    }\n}\n")
        with open(os.path.join(folder, "PlantedTests.swift"), "w", encoding="utf-8") as file:
            file.write(planted)
        script = os.path.abspath(__file__)
        run = subprocess.run([sys.executable, script, folder], capture_output=True, text=True, cwd=copy)
        reported = [line for line in run.stderr.splitlines() if "PlantedTests.swift" in line]
        expected_lines = {5 + index for index in range(len(plants))}
        got_lines = {int(line.split(":")[1]) for line in reported}
        if run.returncode == 0 or got_lines != expected_lines:
            print(f"self-test: expected lines {sorted(expected_lines)} of PlantedTests.swift reported and exit 1; got exit "
                  f"{run.returncode}, lines {sorted(got_lines)}\n{run.stderr}", file=sys.stderr)
            return 1
        print("check-test-blocking self-test: planted blocking calls are reported by file and line; the one inside onThread is not:")
        for line in reported:
            print("  " + line)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests")
    # The test targets that run sockets or processes (LinkHostQRTests runs tools through ChildProcess.swift).
    folders = sys.argv[1:] or [os.path.join(tests, "IntegrationTests"), os.path.join(tests, "LinkHostQRTests")]
    sys.exit(max(check(folder) for folder in folders))
