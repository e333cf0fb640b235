#!/usr/bin/env python3
"""Runs the marked shell blocks of the README and the deployment docs, as written (scripts/check-recipes.sh).

A ```sh block in one of DOCS is preceded by `<!-- recipe: NAME -->` (run) or `<!-- recipe: not run: WHY -->`
(shown to the reader, with why it cannot run here); an unmarked one fails the check, so a new command is
either run or explained. `run-blocks.py list` prints the marked blocks; `run-blocks.py run NAME [DIR]` runs
one with bash -e in DIR (the stand-ins of docs/recipes.md come first on PATH).
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
DOCS = ["README.md", "docs/https.md", "docs/docker.md", "docs/kubernetes.md", "docs/call-page.md"]
MARK = re.compile(r"^<!-- recipe: (.+?) -->$")


def blocks():
    found, problems = {}, []
    for doc in DOCS:
        lines = (ROOT / doc).read_text().splitlines()
        for index, line in enumerate(lines):
            if line.strip() not in ("```sh", "```bash", "```console", "```shell"):
                continue
            mark = MARK.match(lines[index - 1]) if index else None
            if not mark:
                problems.append(f"{doc}:{index + 1}: a shell block without <!-- recipe: NAME --> or <!-- recipe: not run: WHY -->")
                continue
            end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
            name = mark.group(1)
            text = "\n".join(lines[index + 1:end]) + "\n"
            if name.startswith("not run: "):
                found.setdefault("not run", []).append((doc, index + 1, name[len("not run: "):]))
            elif name in found:
                problems.append(f"{doc}:{index + 1}: recipe {name} is also at {found[name][0]}:{found[name][1]}")
            else:
                found[name] = (doc, index + 1, text)
    return found, problems


def main():
    found, problems = blocks()
    if sys.argv[1] == "list":
        for problem in problems:
            print("FAIL " + problem)
        for name, value in found.items():
            if name == "not run":
                for doc, line, why in value:
                    print(f"not run  {doc}:{line}: {why}")
            else:
                print(f"recipe   {name}  {value[0]}:{value[1]}")
        return 1 if problems else 0
    name = sys.argv[2]
    directory = sys.argv[3] if len(sys.argv) > 3 else "."
    if name not in found:
        print(f"FAIL no recipe named {name} in {', '.join(DOCS)}")
        return 1
    doc, line, text = found[name]
    print(f"--- {name} ({doc}:{line}) in {directory}")
    print(text, end="")
    print("---")
    return subprocess.run(["bash", "-e", "-c", text], cwd=directory).returncode


if __name__ == "__main__":
    sys.exit(main())
