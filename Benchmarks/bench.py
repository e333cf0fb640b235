#!/usr/bin/env python3
"""linkhost beside nginx on one machine, in one run (issue 7).

Run it through Benchmarks/run.sh (which installs the tools and builds linkhost in release mode) or
Benchmarks/profile.sh. Standard library only. Every server started here listens on 127.0.0.1, runs in
its own session (so its process group is killed whole), is listed in WORKDIR/pids for the shell's trap,
and is stopped before this script returns; every load loop is bounded in time.

    bench.py bench   --bin LINKHOST --workdir DIR   throughput, latency, CPU, memory, start, reload, allocations
    bench.py engine  --bin LINKHOST --workdir DIR   the engine rows alone: linkhost, bare libmicrohttpd, nginx
    bench.py profile --bin LINKHOST --workdir DIR   callgrind instruction profiles and a perf sample
    bench.py tenants --bin LINKHOST --workdir DIR   thousands of tenants in site files (TENANT_ROWS, TENANTS)

Settings come from the environment (see Benchmarks/README.md): ROUNDS, DURATION, QUICK, CONNECTIONS,
WRK_THREADS, PORT_BASE, IDLE_CONNECTIONS, STARTS, ALLOC_REQUESTS, RELOAD_SECONDS, PINNED, VALGRIND, SCALE_SITES, TLS.
"""

import argparse
import datetime
import json
import os
import signal
import sys
import time

from harness import BenchError, log, settings
from harness.allocations import measure_allocations
from harness.callgrind import profile_callgrind
from harness.machine import machine_info, versions
from harness.memory import hold_idle_connections, per_server
from harness.parity import check_parity
from harness.perf import perf_sample
from harness.procfs import loadavg
from harness.profile_report import write_profile
from harness.reload import reload_cpu_cost, reload_under_load
from harness.engine_report import engine_section
from harness.results_report import runs_section, write_results
from harness.routes import ROUTES
from harness.scale import measure_scale
from harness.server import Server
from harness.startup import measure_startup
from harness.testbed import Testbed
from harness.throughput import access_log_summary, measure_pinned, measure_rounds, warm_up
from harness.engine import measure_engine
from harness.image import measure_image
from harness.tls import measure_tls, measure_tls_startup
from harness.tenants import measure_tenants, tenants_report


def now_iso():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def run_bench(testbed, results_path, raw_path, image_root=None):
    """Every phase in order; the key order of `data` is the layout of results.json."""
    started = time.time()
    data = {"settings": settings.as_record(), "runs": [], "notes": []}
    data["started"] = now_iso()
    data["machine"] = machine_info()
    data["versions"] = versions(testbed.bin)
    data["load_start"] = loadavg()
    testbed.prepare()
    data["observability"] = testbed.config["observability"]
    data["linkhost_config"] = testbed.config
    data["startup_ms"] = measure_startup(testbed)
    testbed.start_main_servers()
    servers = testbed.servers
    data["rss_idle_kb"] = per_server(servers, Server.rss_kb)
    data["pss_idle_kb"] = per_server(servers, Server.pss_kb)
    data["processes"] = per_server(servers, lambda server: len(server.pids()))
    data["threads"] = per_server(servers, Server.thread_count)
    data["parity"] = check_parity(testbed)
    warm_up(testbed)
    data["runs"] += measure_rounds(testbed, "main", [route.key for route in ROUTES])
    time.sleep(1.0)
    data["rss_after_load_kb"] = per_server(servers, Server.rss_kb)
    data["pss_after_load_kb"] = per_server(servers, Server.pss_kb)
    engine = measure_engine(testbed)
    data["runs"] += engine.pop("runs")
    data["engine"] = engine
    if settings.PINNED:
        data["runs"] += measure_pinned(testbed)
    data["idle"] = hold_idle_connections(testbed)
    data["reload"] = reload_under_load(testbed)
    data["reload_cpu_ms"] = reload_cpu_cost(testbed)
    if settings.TLS:
        data["runs"] += measure_tls(testbed)
    if image_root:
        image = measure_image(testbed, image_root)
        data["runs"] += image.pop("runs")
        data["image"] = image
    testbed.stop_main_servers()
    data["access_log"] = access_log_summary(testbed, data["runs"])
    if settings.TLS:
        data["tls_startup_ms"] = measure_tls_startup(testbed)
    data["scale"] = measure_scale(testbed)
    # Issue 33's rows, as `make bench-tenants` measures them (its own files, linkhost alone).
    data["tenants"] = measure_tenants(testbed.bin, testbed.workdir)
    allocations = measure_allocations(testbed)
    if allocations is None:
        data["notes"].append("Allocation counts skipped (VALGRIND=0 or valgrind missing).")
    else:
        data["allocations"] = allocations
    data["load_end"] = loadavg()
    data["elapsed_s"] = time.time() - started
    with open(raw_path, "w") as handle:
        json.dump(data, handle, indent=1, default=list)
    write_results(data, results_path)
    log(f"wrote {os.path.relpath(results_path, settings.REPO)} and {os.path.relpath(raw_path, settings.REPO)} in {data['elapsed_s'] / 60:.1f} min")


def run_engine(testbed, results_path, raw_path):
    """Only the engine rows (linkhost, bare libmicrohttpd, nginx on the AASA and the rendered page), into
    ENGINE.md and engine.json: the part of `bench` to run when the full one does not fit."""
    data = {"settings": settings.as_record(), "runs": [], "notes": [], "started": now_iso(), "machine": machine_info(), "versions": versions(testbed.bin)}
    testbed.prepare()
    testbed.start_main_servers()
    warm_up(testbed)
    engine = measure_engine(testbed)
    data["runs"] += engine.pop("runs")
    data["engine"] = engine
    testbed.stop_main_servers()
    with open(raw_path, "w") as handle:
        json.dump(data, handle, indent=1, default=list)
    machine, version = data["machine"], data["versions"]
    loads = [run["load1"] for run in data["runs"]]
    lines = ["# Engine rows alone (`make bench-engine`)", "",
             f"Started {data['started']}; {machine['cpu']}, `nproc` = {machine['nproc']}; linkhost {version['linkhost']} (release); "
             f"libmicrohttpd {version['libmicrohttpd']}; nginx {version['nginx']}; wrk {version['wrk']}; 1-min load {min(loads):.2f} – {max(loads):.2f}. "
             "linkhost as in `make bench` (access log `json` down a pipe, metrics on).", ""]
    with open(results_path, "w") as handle:
        handle.write("\n".join(lines + list(engine_section(data)) + list(runs_section(data))))
    log(f"wrote {os.path.relpath(results_path, settings.REPO)}")


def run_tenants(testbed, results_path, raw_path):
    """TENANTS.md and tenants.json: issue 33's scale targets, each row alone with TENANT_ROWS."""
    result = measure_tenants(testbed.bin, testbed.workdir)
    result.update({"started": now_iso(), "machine": machine_info(), "versions": versions(testbed.bin)})
    with open(raw_path, "w") as handle:
        json.dump(result, handle, indent=1)
    with open(results_path, "w") as handle:
        handle.write(tenants_report(result))
    log(f"wrote {os.path.relpath(results_path, settings.REPO)}")


def run_profile(testbed, results_path, raw_path):
    """Callgrind instruction counts per request (repeatable, whatever the load) and a perf sample under wrk."""
    testbed.prepare()
    report = {"started": now_iso(), "machine": machine_info(), "versions": versions(testbed.bin),
              "callgrind": profile_callgrind(testbed), "perf": perf_sample(testbed)}
    with open(raw_path, "w") as handle:
        json.dump(report, handle, indent=1)
    write_profile(report, results_path)
    log(f"wrote {os.path.relpath(results_path, settings.REPO)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["bench", "engine", "profile", "report", "tenants"])
    parser.add_argument("--bin", help="the release linkhost binary")
    parser.add_argument("--workdir", help="an empty temporary folder")
    parser.add_argument("--results", help="markdown output")
    parser.add_argument("--raw", help="JSON output")
    parser.add_argument("--image-root", help="the Docker image's root file system (Benchmarks/image-root.sh), for the image rows")
    args = parser.parse_args()
    here = settings.BENCHMARKS_DIR
    if args.command == "report":
        # Re-renders RESULTS.md from results.json, e.g. after changing the report's layout.
        with open(args.raw or os.path.join(here, "results.json")) as handle:
            data = json.load(handle)
        write_results(data, args.results or os.path.join(here, "RESULTS.md"))
        return 0
    if not args.bin or not args.workdir:
        parser.error("bench and profile need --bin and --workdir")
    if args.command == "bench":
        run, results, raw = run_bench, "RESULTS.md", "results.json"
    elif args.command == "engine":
        run, results, raw = run_engine, "ENGINE.md", "engine.json"
    elif args.command == "tenants":
        run, results, raw = run_tenants, "TENANTS.md", "tenants.json"
    else:
        run, results, raw = run_profile, "PROFILE.md", "profile.json"
    testbed = Testbed(args.bin, args.workdir)

    def on_signal(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        extra = {"image_root": args.image_root} if args.command == "bench" else {}
        run(testbed, args.results or os.path.join(here, results), args.raw or os.path.join(here, raw), **extra)
    except KeyboardInterrupt:
        log("interrupted; stopping the servers")
        return 130
    except BenchError as error:
        log(f"error: {error}")
        return 1
    finally:
        testbed.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
