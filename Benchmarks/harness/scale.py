"""Scale: the same server with 1, 100 and 1,000 sites of 10 link templates each. Start, reload and memory may
grow with the config; the CPU a request costs must not, since a site is found by its host in a hash table and
a template among its own site's ten."""

import json
import os
import shutil
import signal
import time

from harness import BenchError, log
from harness.callgrind import callgrind_run, callgrind_wrapper
from harness.routes import AASA_PATH, CALL_TYPE, ROUTE
from harness.server import Server
from harness.settings import BENCHMARKS_DIR, DURATION, PORTS, ROUNDS, SCALE_SITES, VALGRIND
from harness.startup import time_to_first_ok
from harness.wrk import measured_wrk

TEMPLATES_PER_SITE = 10


def site_host(index):
    return f"site{index}.example.com"


def site_links(index):
    """Ten shapes, the one measured last, so a request walks past the other nine first."""
    return [
        f"/s{index}/join/{{callType}}:{{callId}}",
        f"/s{index}/join/{{callId}}",
        f"/s{index}/video/demos/join/{{callId}}",
        f"/s{index}/join?call_id={{callId}}&call_type={{callType}}",
        f"/s{index}/meet/{{callId}}?type={{callType}}",
        f"/s{index}/room/{{callType}}:{{callId}}",
        f"/s{index}/r/{{callId}}",
        f"/s{index}/v/{{callId}}",
        f"/s{index}/call?id={{callId}}",
        "/call/{callId}?type={callType}",
    ]


def scale_config(base, count):
    """The benchmark's config with `count` sites; the top level stays the default site."""
    config = json.loads(json.dumps(base))
    shared = {key: value for key, value in config.get("callLinks", {}).items() if key != "paths"}
    config["sites"] = [{"hosts": [site_host(index)], "callLinks": {**shared, "links": site_links(index)}} for index in range(count)]
    return config


def reload_time(server, timeout=30):
    """Milliseconds from SIGHUP to the server's "reloaded" line: the whole new snapshot built and swapped in."""
    before = server.errors().count("reloaded")
    sent = time.perf_counter()
    server.signal(signal.SIGHUP)
    while server.errors().count("reloaded") == before:
        if time.perf_counter() - sent > timeout or server.process.poll() is not None:
            raise BenchError(f"{server.name} did not reload within {timeout} s:\n{server.errors()[-2000:]}")
        time.sleep(0.002)
    return (time.perf_counter() - sent) * 1000


def measure_scale(testbed):
    """Per site count: start, reload, RSS, and rounds of AASA and rendered call pages on the last site's host."""
    results = []
    script = os.path.join(BENCHMARKS_DIR, "distinct_calls.lua")
    for count in SCALE_SITES:
        path = os.path.join(testbed.workdir, f"linkhost-{count}-sites.json")
        with open(path, "w") as handle:
            json.dump(scale_config(testbed.config, count), handle)
        host = site_host(count - 1)
        log(f"scale: {count} sites × {TEMPLATES_PER_SITE} templates, requests for {host}")
        server = Server(f"linkhost-scale-{count}", [testbed.bin, "serve", "--config", path], testbed.workdir,
                        cwd=testbed.workdir, port=PORTS["linkhost"], log_sink=True)
        entry = {"sites": count, "templates": count * TEMPLATES_PER_SITE, "rounds": {"aasa": [], "calls": []}}
        try:
            entry["start_ms"] = time_to_first_ok(server, AASA_PATH, timeout=30, host=host) * 1000
            entry["rss_kb"] = server.rss_kb()
            entry["reload_ms"] = reload_time(server)
            entry["rss_after_reload_kb"] = server.rss_kb()
            for _ in range(ROUNDS):
                entry["rounds"]["aasa"].append(measured_wrk(server, AASA_PATH, DURATION, host=host))
                entry["rounds"]["calls"].append(measured_wrk(server, f"/call/Bq8-0000000?type={CALL_TYPE}", DURATION, script=script, host=host))
            for route, runs in entry["rounds"].items():
                if any(run["non_2xx"] or run["socket_errors"] for run in runs):
                    raise BenchError(f"scale: {route} on {host} with {count} sites answered errors")
        finally:
            server.stop()
        results.append(entry)
    if VALGRIND and shutil.which("valgrind"):
        # CPU time is noisy on a shared machine; instructions are not: the fewest and the most sites, under callgrind.
        for entry in (results[0], results[-1]) if len(results) > 1 else results:
            entry["instructions"] = {key: scale_instructions(testbed, entry["sites"], key) for key in ("aasa", "calls")}
    return results


def scale_instructions(testbed, count, key):
    """User-space instructions per request of a route on the last site's host, under callgrind."""
    log(f"scale: callgrind, {count} sites, {ROUTE[key].title}")
    path = os.path.join(testbed.workdir, f"linkhost-{count}-sites.json")
    out_file = os.path.join(testbed.workdir, f"callgrind-scale-{count}-{key}.out")
    server = Server(f"callgrind-scale-{count}-{key}", list(callgrind_wrapper(out_file)) + [testbed.bin, "serve", "--config", path, "--port", str(PORTS["valgrind"])],
                    testbed.workdir, cwd=testbed.workdir, port=PORTS["valgrind"])
    return callgrind_run(testbed, server, ROUTE[key], out_file, wait_line="listening on", host=site_host(count - 1))["instructions_per_request"]
