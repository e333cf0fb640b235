"""The engine's ceiling: Benchmarks/engine/bare_mhd.c (libmicrohttpd with linkhost's daemon options and one
response prepared at start) beside linkhost and nginx, on the AASA and on the rendered call page, so that every
ratio has its physical limit next to it."""

import os
import subprocess
import time

from harness import BenchError, log
from harness.http_client import fetch
from harness.routes import AASA_PATH, ROUTE
from harness.server import Server, wait_for_line
from harness.settings import BENCHMARKS_DIR, DURATION, PORTS, ROUNDS
from harness.wrk import measured_wrk

# The engine rows: (route key, what the bare program serves). For the page, linkhost renders a new call ID every
# request (route "calls"); the bare program sends one page of the same size, prepared at start.
ENGINE_ROUTES = [("aasa", "the AASA's bytes and header fields"), ("calls", "one rendered call page of the same size and header fields")]
# Fields libmicrohttpd writes itself; everything else linkhost sent is given to the bare program.
OWN_FIELDS = {"content-length", "date", "connection", "transfer-encoding"}


def build_bare(workdir):
    """Compiles the bare program with the same libmicrohttpd linkhost links (pkg-config), -O2."""
    source = os.path.join(BENCHMARKS_DIR, "engine", "bare_mhd.c")
    binary = os.path.join(workdir, "bare_mhd")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], capture_output=True, text=True, check=True).stdout.split()
    result = subprocess.run(["cc", "-O2", "-o", binary, source] + flags, capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"cannot build bare_mhd: {result.stderr}")
    return binary


def prepared_answer(testbed, key):
    """linkhost's answer on `key`'s first URL: its body and the header fields the bare program should send."""
    status, head, body = fetch(testbed.servers["linkhost"].port, ROUTE[key].path)
    if status != 200:
        raise BenchError(f"linkhost answered {status} on {ROUTE[key].path}")
    fields = []
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name and name.strip().lower() not in OWN_FIELDS:
            fields.append(f"{name.strip()}: {value.strip()}")
    return body, fields


def measure_engine(testbed):
    """ROUNDS rounds of linkhost, the bare program and nginx on each engine route, keep-alive and close, the order
    rotating every round; the bare program runs only while its route is measured."""
    binary = build_bare(testbed.workdir)
    runs, sizes = [], {}
    for key, what in ENGINE_ROUTES:
        body, fields = prepared_answer(testbed, key)
        sizes[key] = len(body)
        body_path = os.path.join(testbed.workdir, f"bare-{key}.body")
        with open(body_path, "wb") as handle:
            handle.write(body)
        bare = Server(f"bare-{key}", [binary, str(PORTS["bare"]), body_path] + fields, testbed.workdir, cwd=testbed.workdir, port=PORTS["bare"])
        bare.start()
        try:
            wait_for_line(bare, "listening on", 10)
            status, _, served = fetch(PORTS["bare"], ROUTE[key].path)
            if status != 200 or served != body:
                raise BenchError(f"bare_mhd does not serve linkhost's {key} bytes")
            log(f"engine: bare_mhd serves {what} ({len(body):,} bytes)")
            servers = {"linkhost": testbed.servers["linkhost"], "bare": bare, "nginx": testbed.servers["nginx"]}
            kinds = list(servers)
            for round_index in range(ROUNDS):
                order = kinds[round_index % 3:] + kinds[:round_index % 3]
                for mode in ("keepalive", "close"):
                    for kind in order:
                        # The same request script for all three, so the client's work is the same.
                        result = measured_wrk(servers[kind], ROUTE[key].path, DURATION, close=(mode == "close"), script=ROUTE[key].script)
                        result.update({"phase": "engine", "round": round_index + 1, "route": key, "mode": mode, "server": kind})
                        runs.append(result)
                        log(f"engine round {round_index + 1}/{ROUNDS} {ROUTE[key].title:18} {mode:9} {kind:8} {result['rps']:>9,.0f} req/s  "
                            f"{(result['cpu_us_per_request'] or 0):6.2f} µs CPU/req  load {result['load1']:.2f}")
                        time.sleep(1.0)
        finally:
            bare.stop()
    return {"runs": runs, "body_bytes": sizes, "aasa_path": AASA_PATH}
