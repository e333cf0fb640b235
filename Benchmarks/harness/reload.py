"""Reload under load: wrk counts responses per wall-clock second while the server gets a SIGHUP halfway
through; and the CPU time one reload costs an idle server."""

import os
import re
import signal
import statistics
import subprocess
import time

from harness import BenchError, log
from harness.procfs import CLK_TCK
from harness.routes import AASA_PATH, SERVERS
from harness.settings import BENCHMARKS_DIR, RELOAD_COST_COUNT, RELOAD_SECONDS, ROUNDS
from harness.wrk import wrk_command


def dip_statistics(buckets, reload_second):
    """The reload's dip and, for scale, the worst dip of seconds without a reload, both against the median second."""
    seconds = sorted(buckets)
    full = seconds[1:-1]  # the first and last seconds are partial
    window = [second for second in (reload_second, reload_second + 1) if second in full]
    baseline_seconds = [second for second in full if second not in window]
    baseline = statistics.median(buckets[s] for s in baseline_seconds) if baseline_seconds else 0
    dip = max(0.0, 1 - min(buckets[s] for s in window) / baseline) if baseline and window else None
    # The same statistic over every other pair of adjacent whole seconds: the worst that noise alone did.
    pairs = [(a, a + 1) for a in full if a + 1 in full and a not in window and a + 1 not in window]
    noise = max(max(0.0, 1 - min(buckets[a], buckets[b]) / baseline) for a, b in pairs) if baseline and pairs else None
    return baseline, dip, noise


def reload_round(server, round_number, kind, script):
    before_pids = set(server.pids())
    before_log = server.errors().count("reloaded")
    command = wrk_command(server.port, AASA_PATH, RELOAD_SECONDS, script=script, latency=False)
    started = time.time()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The middle of a wall-clock second, so the reload falls well inside one bucket.
    reload_at = int(started + RELOAD_SECONDS / 2) + 0.5
    time.sleep(max(0.0, reload_at - time.time()))
    server.signal(signal.SIGHUP)
    reload_sent = time.time()
    try:
        out, _ = process.communicate(timeout=RELOAD_SECONDS + 60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise BenchError("wrk did not finish the reload run")
    buckets = {int(a): int(b) for a, b in re.findall(r"^bucket (\d+) (\d+)$", out, re.M)}
    statuses = {int(a): int(b) for a, b in re.findall(r"^status (\d+) (\d+)$", out, re.M)}
    time.sleep(1.0)
    # linkhost says so in its log; nginx replaces its workers.
    if kind == "linkhost":
        reloaded = server.errors().count("reloaded") > before_log
    else:
        reloaded = bool(before_pids - set(server.pids()))
    seconds = sorted(buckets)
    reload_second = int(reload_sent)
    baseline, dip, noise = dip_statistics(buckets, reload_second)
    entry = {"round": round_number, "server": kind, "buckets": [buckets[s] for s in seconds],
             "reload_index": seconds.index(reload_second) if reload_second in seconds else None,
             "baseline": baseline, "dip": dip, "noise_dip": noise, "reloaded": reloaded, "statuses": statuses}
    log(f"reload round {round_number} {kind:8}: per second {entry['buckets']} (reload in bucket {entry['reload_index']}), "
        f"dip {dip * 100 if dip is not None else float('nan'):.1f}%, noise {noise * 100 if noise is not None else float('nan'):.1f}%, reloaded={reloaded}")
    return entry


def reload_under_load(testbed):
    log(f"reload under load: AASA keep-alive for {RELOAD_SECONDS} s, SIGHUP in the middle, {ROUNDS} round(s)")
    script = os.path.join(BENCHMARKS_DIR, "per_second.lua")
    reloads = []
    for round_index in range(ROUNDS):
        order = SERVERS if round_index % 2 == 0 else SERVERS[::-1]
        for kind in order:
            reloads.append(reload_round(testbed.servers[kind], round_index + 1, kind, script))
            time.sleep(1.0)
    return reloads


def reload_cpu_cost(testbed):
    """CPU time one reload costs an idle server: RELOAD_COST_COUNT SIGHUPs half a second apart, CPU before and after."""
    costs = {}
    for kind in SERVERS:
        server = testbed.servers[kind]
        before = server.cpu_ticks_with_exited_children()
        for _ in range(RELOAD_COST_COUNT):
            server.signal(signal.SIGHUP)
            time.sleep(0.5)
        time.sleep(1.0)
        costs[kind] = (server.cpu_ticks_with_exited_children() - before) / CLK_TCK / RELOAD_COST_COUNT * 1000
        log(f"{kind}: {costs[kind]:.1f} ms of CPU per reload (idle, {RELOAD_COST_COUNT} reloads)")
    return costs
