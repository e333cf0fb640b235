"""Load from wrk: its command line, its output parsed, and one run measured together with the server's CPU time
and what else the machine was doing meanwhile."""

import re
import resource
import subprocess
import time

from harness import BenchError
from harness.procfs import CLK_TCK, heavy_processes, loadavg, machine_busy_ticks
from harness.routes import HOST_HEADER
from harness.settings import CONNECTIONS, WRK_THREADS

LATENCY_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def parse_duration_ms(text):
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(match.group(1)) * LATENCY_UNITS[match.group(2)] if match else None


def wrk_command(port, path, seconds, close=False, script=None, latency=True, host=HOST_HEADER, scheme="http"):
    command = ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "-H", f"Host: {host}"]
    if close:
        command += ["-H", "Connection: close"]
    if latency:
        command.append("--latency")
    if script:
        command += ["-s", script]
    command.append(f"{scheme}://127.0.0.1:{port}{path}")
    return command


def parse_wrk_output(text):
    """Requests, req/s, latency percentiles (ms) and error counts from wrk's report."""
    parsed = {}
    match = re.search(r"(\d+) requests in ([\d.]+\w+)", text)
    parsed["requests"] = int(match.group(1)) if match else 0
    match = re.search(r"Requests/sec:\s+([\d.]+)", text)
    parsed["rps"] = float(match.group(1)) if match else 0.0
    for percent in ("50", "90", "99"):
        match = re.search(rf"^\s+{percent}(?:\.000)?%\s+(\S+)", text, re.M)
        parsed[f"p{percent}_ms"] = parse_duration_ms(match.group(1)) if match else None
    match = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    parsed["socket_errors"] = sum(int(group) for group in match.groups()) if match else 0
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    parsed["non_2xx"] = int(match.group(1)) if match else 0
    return parsed


def run_wrk(command, seconds):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    if result.returncode != 0:
        raise BenchError(f"wrk failed ({result.returncode}): {result.stderr.strip()} {result.stdout.strip()}")
    return {"elapsed": time.monotonic() - started, **parse_wrk_output(result.stdout)}


def measured_wrk(server, path, seconds, close=False, client_cpu=None, script=None, host=HOST_HEADER, port=None, scheme="http"):
    """One wrk run with the server's CPU time, the machine's other load and the load average around it
    (`port` when the server listens on more than one, e.g. nginx's HTTPS listener)."""
    command = wrk_command(port or server.port, path, seconds, close=close, script=script, host=host, scheme=scheme)
    if client_cpu is not None:
        command = ["taskset", "-c", str(client_cpu)] + command
    load = loadavg()[0]
    heavy = heavy_processes()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy_before = machine_busy_ticks()
    ticks_before = server.cpu_ticks()
    wall_before = time.monotonic()
    parsed = run_wrk(command, seconds)
    wall = time.monotonic() - wall_before
    ticks = server.cpu_ticks() - ticks_before
    busy = machine_busy_ticks() - busy_before
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (children_after.ru_utime + children_after.ru_stime) - (children_before.ru_utime + children_before.ru_stime)
    server_cpu = ticks / CLK_TCK
    parsed.update({
        "command": command,
        "server_cpu_s": server_cpu,
        "wrk_cpu_s": wrk_cpu,
        "cpu_us_per_request": server_cpu / parsed["requests"] * 1e6 if parsed["requests"] else None,
        "other_cores": max(0.0, busy / CLK_TCK - server_cpu - wrk_cpu) / wall,
        "load1": load,
        "heavy": heavy,
    })
    return parsed
