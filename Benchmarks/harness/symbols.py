"""Readable names for what valgrind and callgrind print: Swift symbols demangled, addresses and object paths dropped."""

import os
import re
import shutil
import subprocess

SWIFT_SYMBOL = r"\$s[\w.$]+"

_demangled = {}


def demangle(text):
    """Demangles the Swift symbols in a valgrind frame or function name (cached; `swift demangle` when present)."""
    symbols = [s for s in re.findall(SWIFT_SYMBOL, text) if s not in _demangled]
    if symbols and shutil.which("swift"):
        result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols), capture_output=True, text=True)
        lines = result.stdout.splitlines()
        for symbol, line in zip(symbols, lines):
            _demangled[symbol] = line.strip()
    for symbol in re.findall(SWIFT_SYMBOL, text):
        text = text.replace(symbol, _demangled.get(symbol, symbol))
    return text


def frame_name(frame):
    """A valgrind frame without its address; an unnamed one becomes its library's name."""
    match = re.match(r"^\?\?\? \(in (.*)\)$", frame)
    if match:
        return os.path.basename(match.group(1)) + " (no symbol)"
    return re.sub(r" \(in .*\)$", "", frame).strip()


def callgrind_name(text):
    """'file:function [object]' from callgrind_annotate as 'function — object' (unnamed code: object and address)."""
    match = re.match(r"^(.*?):(.*?)(?: \[(.*)\])?$", text)
    if not match:
        return demangle(text)
    source, function, obj = match.groups()
    library = os.path.basename(obj) if obj else os.path.basename(source) if source != "???" else ""
    if function.startswith("0x"):
        return f"{library or 'unknown'} {function} (no symbol)"
    if library == "linkhost" or (not obj and source.endswith(".swift")):
        library = "linkhost"
    return f"{demangle(function)} — {library}" if library else demangle(function)
