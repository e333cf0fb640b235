#!/usr/bin/env python3
"""Every `import` of a package module is a dependency its target declares in Package.swift.

SwiftPM's --explicit-target-dependency-import-check does not catch an import that compiles through a
transitive dependency on this toolchain, so `make test` runs this first. It reads Package.swift's targets
(name, path, dependencies), then every Swift file under each target's folder (symbolic links followed),
and fails naming the target, the module and the file:line of each import that is neither a declared
dependency nor a system module.

    scripts/check-imports.py [PACKAGE_FOLDER]     check (default: the folder above this script)
    scripts/check-imports.py --self-test          plant an undeclared import in a copy and show the check fails
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Modules that come with the toolchain or the system, never a package target.
SYSTEM_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Observation", "Distributed",
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "Dispatch", "Synchronization", "Testing", "XCTest",
    "Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "ucrt", "WinSDK", "CRT", "os",
    "PackageDescription",
}

TARGET_KINDS = {"target": "Sources", "executableTarget": "Sources", "testTarget": "Tests",
                "systemLibrary": "Sources", "plugin": "Plugins", "macro": "Sources"}

IMPORT_LINE = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def matching_paren(text, start):
    """The index just past the parenthesis that closes the one at `start`, skipping string literals."""
    depth, index, in_string = 0, start, False
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "/" and text.startswith("//", index):
            index = text.find("\n", index)
            if index < 0:
                return len(text)
            continue
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    raise ValueError("unbalanced parentheses in Package.swift")


def read_targets(package_folder):
    """Package.swift's targets as {name: (folder, set of declared dependency names)}."""
    with open(os.path.join(package_folder, "Package.swift"), encoding="utf-8") as file:
        text = file.read()
    targets = {}
    for match in re.finditer(r"\.(" + "|".join(TARGET_KINDS) + r")\s*\(", text):
        call = text[match.end() - 1:matching_paren(text, match.end() - 1)]
        name = re.search(r'\bname:\s*"([^"]+)"', call)
        if not name:
            continue
        path = re.search(r'\bpath:\s*"([^"]+)"', call)
        dependencies = set()
        listed = re.search(r"\bdependencies:\s*\[", call)
        if listed:
            body = call[listed.end() - 1:matching_paren(call, listed.end() - 1)]
            # "Name", .target(name: "Name"), .product(name: "Name", package: ...), .byName(name: "Name")
            dependencies = set(re.findall(r'"([^"]+)"', re.sub(r'package:\s*"[^"]*"', "", body)))
        folder = path.group(1) if path else os.path.join(TARGET_KINDS[match.group(1)], name.group(1))
        targets[name.group(1)] = (folder, dependencies)
    return targets


def imports_in(path):
    """(line number, module) for each import line of a Swift file, outside multi-line string literals."""
    found, in_literal = [], False
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, 1):
            if line.count('"""') % 2 == 1:
                in_literal = not in_literal
                continue
            if in_literal:
                continue
            match = IMPORT_LINE.match(line)
            if match:
                found.append((number, match.group(1)))
    return found


def swift_files(folder):
    """Every .swift file under `folder`, following symbolic links (a target may link a file of another)."""
    for root, _, names in os.walk(folder, followlinks=True):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(root, name)


def undeclared_imports(package_folder):
    """One message per import of a module its target does not declare (nor is a system module)."""
    targets = read_targets(package_folder)
    problems = []
    for target, (folder, dependencies) in sorted(targets.items()):
        absolute = os.path.join(package_folder, folder)
        if not os.path.isdir(absolute):
            continue
        for path in swift_files(absolute):
            for number, module in imports_in(path):
                if module == target or module in dependencies or module in SYSTEM_MODULES:
                    continue
                why = "a package target it does not declare" if module in targets else "not a package target nor a system module"
                relative = os.path.relpath(path, package_folder)
                problems.append(f"{relative}:{number}: target {target} imports {module} ({why}); "
                                f"add \"{module}\" to {target}'s dependencies in Package.swift or remove the import")
    return problems, targets


def check(package_folder):
    problems, targets = undeclared_imports(package_folder)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-imports: {len(problems)} undeclared import(s)", file=sys.stderr)
        return 1
    print(f"check-imports: every import of {len(targets)} targets is declared in Package.swift")
    return 0


def self_test():
    """Copies the package's manifest and Swift sources, checks the copy passes, plants `import LinkHostJSON`
    in LinkHostServer (it compiles: LinkHostServer → LinkHostCore → LinkHostJSON) and `import CallLinks` in
    LinkHostCheckTests (→ LinkHostCheck → CallLinks), and requires the check to fail naming each target and module."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="check-imports-") as copy:
        shutil.copy(os.path.join(package, "Package.swift"), copy)
        for top in ("Sources", "Tests", "Fuzz"):
            shutil.copytree(os.path.join(package, top), os.path.join(copy, top), symlinks=True,
                            ignore=lambda folder, names: [n for n in names if n.startswith(".")])
        script = os.path.abspath(__file__)
        clean = subprocess.run([sys.executable, script, copy], capture_output=True, text=True)
        if clean.returncode != 0:
            print("self-test: the unchanged copy should pass, but:\n" + clean.stderr, file=sys.stderr)
            return 1
        plants = [("Sources/LinkHostServer", "LinkHostServer", "LinkHostJSON"),
                  ("Tests/LinkHostCheckTests", "LinkHostCheckTests", "CallLinks")]
        for folder, _, module in plants:
            victim = next(swift_files(os.path.join(copy, folder)))
            with open(victim, encoding="utf-8") as file:
                text = file.read()
            with open(victim, "w", encoding="utf-8") as file:
                file.write(f"import {module}\n" + text)
        planted = subprocess.run([sys.executable, script, copy], capture_output=True, text=True)
        missed = [f"{target} imports {module}" for _, target, module in plants
                  if f"target {target} imports {module} " not in planted.stderr]
        if planted.returncode == 0 or missed:
            print(f"self-test: the planted imports were not all reported (exit {planted.returncode}); missed: {missed}\n"
                  + planted.stderr, file=sys.stderr)
            return 1
        print("check-imports self-test: a clean copy passes; planted imports fail, naming them:")
        for line in planted.stderr.splitlines():
            print("  " + line.replace(copy + "/", ""))
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.exit(check(folder))
