"""Facts a report records about where it ran: the machine, and the versions of the tools and of linkhost."""

import os
import shutil
import subprocess
import sys

from harness.settings import REPO


def command_output(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return (result.stdout + result.stderr).strip()
    except (OSError, subprocess.TimeoutExpired):
        return "not found"


def machine_info():
    model = "unknown"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as handle:
        memory_kb = int(handle.readline().split()[1])
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": os.uname().release, "memory_gib": round(memory_kb / 1048576, 1)}


def versions(binary):
    dpkg = lambda name: command_output(["dpkg-query", "-W", "-f=${Version}", name])
    return {
        "swift": command_output(["swift", "--version"]).splitlines()[0] if shutil.which("swift") else "not found",
        "nginx": command_output(["nginx", "-v"]).replace("nginx version: ", ""),
        "wrk": command_output(["wrk", "-v"]).splitlines()[0].split(" [")[0],
        "libmicrohttpd": command_output(["pkg-config", "--modversion", "libmicrohttpd"]) + f" (deb {dpkg('libmicrohttpd12')})",
        "valgrind": command_output(["valgrind", "--version"]),
        "python": sys.version.split()[0],
        # The last commit that changed the server, not the benchmark's own commits.
        "linkhost": command_output(["git", "-C", REPO, "log", "-1", "--format=%h %s", "--", "Sources", "Package.swift"])
                    + (" (uncommitted changes)" if command_output(["git", "-C", REPO, "status", "--porcelain", "--", "Sources", "Package.swift"]) else ""),
        "binary": binary,
    }
