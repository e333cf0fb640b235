#!/usr/bin/env python3
"""Checks that every fact of an old README landed somewhere (README.md or docs/*.md), and that links resolve.

Issue 31 cut the README from 975 lines to a page a newcomer reads whole and moved the rest into docs/.
This reads the old README (default: the one at commit a31f234, before the move), takes each line that
carries text (prose, table rows, list items, code; not blank lines, fences or bare headings' hashes), and
looks for it, normalized (links without their targets, whitespace collapsed), in the new files. Lines
replaced on purpose are listed in scripts/docs-moved-allowlist.txt, each with the reason; the script fails
on any other line it cannot find, and on an allowlist entry that is no longer needed.

    scripts/check-docs-moved.py [OLD_README]
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def normalize(text: str) -> str:
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets moved with the text; the words did not
    text = text.replace("[docs/", "[")
    text = re.sub(r"^#+\s*", "", text.strip())
    return re.sub(r"\s+", " ", text).strip()


def anchors(path: pathlib.Path) -> set:
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add("".join("-" if c == " " else c for c in title if c.isalnum() or c in " -_"))
    return found


def broken_links() -> list:
    """Relative links of README.md and docs/*.md whose file or heading does not exist (sections moved)."""
    broken = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
            if target.startswith(("http:", "https:", "mailto:")):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.exists():
                broken.append(f"link in {path.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"link in {path.relative_to(ROOT)}: {target} (no such heading)")
    return broken


def main() -> int:
    if len(sys.argv) > 1:
        old = pathlib.Path(sys.argv[1]).read_text()
    else:
        old = subprocess.run(["git", "-C", str(ROOT), "show", "a31f234:README.md"], check=True, capture_output=True, text=True).stdout
    new = "\n".join(normalize(line) for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
                    for line in path.read_text().splitlines())
    allow = {}
    allow_file = ROOT / "scripts" / "docs-moved-allowlist.txt"
    for line in allow_file.read_text().splitlines() if allow_file.exists() else []:
        if "\t# " in line:
            text, _, reason = line.partition("\t# ")
            allow[normalize(text)] = reason
    missing, used = [], set()
    for number, line in enumerate(old.splitlines(), 1):
        key = normalize(line)
        if not key or key.startswith("```") or key in {"|---|---|", "|---|---|---|", "|---|---|---|---|---|---|"}:
            continue
        if key in new:
            continue
        if key in allow:
            used.add(key)
            continue
        missing.append(f"{number}: {line}")
    stale = [text for text in allow if text not in used]
    missing += broken_links()
    for line in missing:
        print(f"not found: {line}")
    for text in stale:
        print(f"allowlist entry no longer needed: {text}")
    lines = len([l for l in old.splitlines() if normalize(l)])
    print(f"check-docs-moved: {lines} lines of the old README, {len(missing)} not found, {len(used)} replaced on purpose (allowlist)")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
