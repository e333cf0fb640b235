"""The timed wrk rounds (throughput, latency, CPU per request), free and pinned to cores, their warm-up, and
what linkhost's access log recorded of them."""

import os
import time

from harness import log
from harness.routes import MODES, ROUTE, ROUTES, SERVERS
from harness.settings import DURATION, PINNED_ROUTES, ROUNDS
from harness.wrk import measured_wrk, run_wrk, wrk_command


def warm_up(testbed):
    log("warm-up: 1 s per route per server")
    for route in ROUTES:
        for kind in SERVERS:
            run_wrk(wrk_command(testbed.servers[kind].port, route.path, 1, script=route.script), 1)


def measure_rounds(testbed, phase, route_keys, pinned=False):
    """ROUNDS rounds of every route × mode × server; the servers swap order every round, so drift hits both."""
    runs = []
    for round_index in range(ROUNDS):
        order = SERVERS if round_index % 2 == 0 else SERVERS[::-1]
        for key in route_keys:
            for mode, _ in MODES:
                for kind in order:
                    server = testbed.servers[kind]
                    result = measured_wrk(server, ROUTE[key].path, DURATION, close=(mode == "close"), client_cpu=1 if pinned else None, script=ROUTE[key].script)
                    result.update({"phase": phase, "round": round_index + 1, "route": key, "mode": mode, "server": kind})
                    runs.append(result)
                    log(f"{phase} round {round_index + 1}/{ROUNDS} {ROUTE[key].title:10} {mode:9} {kind:8} "
                        f"{result['rps']:>9,.0f} req/s  p99 {result['p99_ms'] or 0:7.2f} ms  "
                        f"{(result['cpu_us_per_request'] or 0):6.2f} µs CPU/req  load {result['load1']:.2f}  others {result['other_cores']:.2f} cores"
                        + (f"  errors {result['socket_errors']}" if result["socket_errors"] else ""))
                    time.sleep(1.0)
    return runs


def measure_pinned(testbed):
    """The rounds of PINNED_ROUTES with every server thread on core 0 and wrk on core 1."""
    log("pinned: servers on core 0, wrk on core 1")
    for kind in SERVERS:
        testbed.servers[kind].set_affinity({0})
    try:
        return measure_rounds(testbed, "pinned", PINNED_ROUTES, pinned=True)
    finally:
        for kind in SERVERS:
            testbed.servers[kind].set_affinity(set(range(os.cpu_count())))


# The phases whose requests the main servers answer (the ones `Testbed.start_main_servers` starts).
MAIN_PROCESS_PHASES = ("main", "pinned")


def access_log_summary(testbed, runs):
    """linkhost's access-log lines (read back from its sink after it stopped) beside the requests wrk counted."""
    linkhost = testbed.make_server("linkhost")
    lines = linkhost.log_lines()
    # Only the main linkhost process writes to this sink: the HTTPS and image rows run processes of their own.
    requests = sum(run["requests"] for run in runs if run["server"] == "linkhost" and run["phase"] in MAIN_PROCESS_PHASES)
    sample = next((line for line in linkhost.output().splitlines() if line.startswith("{")), None)
    if lines is not None:
        log(f"linkhost wrote {lines:,} access-log lines for {requests:,} requests counted by wrk (plus warm-up, idle, reload runs)")
    return {"lines": lines, "wrk_requests": requests, "sample": sample}
