"""CPU samples of the servers under wrk with `perf record -e cpu-clock` (hardware counters are not available on
these machines; the software clock samples fine), by shared object and by symbol, kernel included."""

import os
import re
import shutil
import subprocess

from harness import log
from harness.routes import ROUTE, SERVERS
from harness.server import wait_until_serving
from harness.settings import DURATION, PORTS
from harness.symbols import demangle
from harness.wrk import run_wrk, wrk_command

# (server, sample name, route, Connection: close)
PLAN = [("linkhost", "aasa", "aasa", False), ("linkhost", "aasa-close", "aasa", True), ("linkhost", "calls", "calls", False),
        ("nginx", "nginx-aasa", "aasa", False), ("nginx", "nginx-calls", "calls", False)]


def perf_report(data_file, sort):
    """Shares of the samples (percent, name) of `perf report --sort SORT`."""
    text = subprocess.run(["perf", "report", "-i", data_file, "--no-children", "--sort", sort, "--stdio", "-g", "none"],
                          capture_output=True, text=True, timeout=120).stdout
    return [(float(m.group(1)), demangle(re.sub(r"(\s+-)+$", "", " ".join(m.group(2).split()))))
            for m in re.finditer(r"^\s+([\d.]+)%\s+(.+?)\s*$", text, re.M)]


def perf_sample(testbed):
    """The samples of PLAN, or None without perf."""
    if not shutil.which("perf"):
        return None
    check = subprocess.run(["perf", "stat", "-e", "instructions", "true"], capture_output=True, text=True)
    counters = "<not supported>" not in check.stderr and check.returncode == 0
    log(f"perf: hardware counters {'work' if counters else 'are not supported here'}; sampling cpu-clock under wrk")
    samples = {}
    for kind in SERVERS:
        server = testbed.linkhost_server("perf-linkhost", PORTS["linkhost"], log_sink=True) if kind == "linkhost" \
            else testbed.nginx_server("perf-nginx", testbed.nginx_conf, PORTS["nginx"])
        server.start()
        try:
            wait_until_serving(server)
            for owner, name, key, close in PLAN:
                if owner != kind:
                    continue
                data_file = os.path.join(testbed.workdir, f"perf-{name}.data")
                seconds = max(3, DURATION // 2)
                pids = ",".join(str(pid) for pid in server.pids())
                recorder = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-o", data_file, "-p", pids, "--", "sleep", str(seconds)],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                run_wrk(wrk_command(server.port, ROUTE[key].path, seconds, close=close, script=ROUTE[key].script, latency=False), seconds)
                recorder.wait(timeout=60)
                samples[name] = {"title": f"{kind}: {ROUTE[key].title}, {'Connection: close' if close else 'keep-alive'}",
                                 "by_dso": perf_report(data_file, "dso")[:12], "by_symbol": perf_report(data_file, "dso,symbol")[:30]}
        finally:
            server.stop()
    return {"hardware_counters": counters, "samples": samples}
