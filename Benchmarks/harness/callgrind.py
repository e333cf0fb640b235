"""Instructions per request under callgrind: repeatable whatever else the machine is doing, for linkhost on four
routes and, for scale, nginx as one process."""

import os
import re
import shutil
import socket
import subprocess
import time

from harness import BenchError, log
from harness.http_client import KeepAliveClient
from harness.routes import HOST_HEADER, ROUTE
from harness.server import wait_for_line
from harness.settings import PORTS, PROFILE_REQUESTS
from harness.symbols import callgrind_name

LINKHOST_ROUTES = ("aasa", "call", "calls", "404")
NGINX_ROUTES = ("aasa", "calls")


def callgrind_wrapper(out_file):
    # Collection starts switched off: start-up and the first request stay out of the count.
    return ("valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}")


def profile_callgrind(testbed):
    """Costs per request by "server/route" (e.g. "linkhost/aasa")."""
    profiles = {}
    for key in LINKHOST_ROUTES:
        profiles[f"linkhost/{key}"] = callgrind_linkhost(testbed, ROUTE[key])
    for key in NGINX_ROUTES:
        profiles[f"nginx/{key}"] = callgrind_nginx(testbed, ROUTE[key])
    return profiles


def callgrind_linkhost(testbed, route):
    log(f"callgrind: linkhost, {PROFILE_REQUESTS} × {route.title}")
    out_file = os.path.join(testbed.workdir, f"callgrind-linkhost-{route.key}.out")
    server = testbed.linkhost_server(f"callgrind-{route.key}", PORTS["valgrind"], wrapper=callgrind_wrapper(out_file))
    return callgrind_run(testbed, server, route, out_file, wait_line="listening on")


def callgrind_nginx(testbed, route):
    log(f"callgrind: nginx (one process), {PROFILE_REQUESTS} × {route.title}")
    out_file = os.path.join(testbed.workdir, f"callgrind-nginx-{route.key}.out")
    conf = testbed.write_nginx_conf(PORTS["valgrind"], testbed.workdir, testbed.call_page, master=False, workers=1)
    server = testbed.nginx_server(f"callgrind-nginx-{route.key}", conf, PORTS["valgrind"], wrapper=callgrind_wrapper(out_file))
    return callgrind_run(testbed, server, route, out_file)


def wait_for_port(server, timeout=120):
    """Until the port accepts a connection: nginx prints nothing when it is ready."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or server.process.poll() is not None:
                raise BenchError(f"{server.name} did not start under callgrind:\n{server.errors()[-2000:]}")
            time.sleep(0.2)


def callgrind_run(testbed, server, route, out_file, wait_line=None, host=HOST_HEADER):
    server.start()
    try:
        if wait_line:
            wait_for_line(server, wait_line, 120)
        else:
            wait_for_port(server)
        client = KeepAliveClient(server.port, timeout=60, host=host)
        client.get(route.path_for(10_000_000 - 1))  # first-request costs (lazy binding, first touches) stay out of the count
        subprocess.run(["callgrind_control", "--instr=on", str(server.pid)], capture_output=True, timeout=60, check=True)
        for index in range(PROFILE_REQUESTS):
            client.get(route.path_for(index + 1))
        subprocess.run(["callgrind_control", "--instr=off", str(server.pid)], capture_output=True, timeout=60, check=True)
        client.close()
    finally:
        server.stop(timeout=120)
    return annotate(testbed.workdir, out_file)


def annotate(workdir, out_file):
    """Instructions per request, and the top functions inclusive and exclusive, from callgrind's output."""
    files = [name for name in os.listdir(workdir) if os.path.join(workdir, name).startswith(out_file)]
    path = os.path.join(workdir, sorted(files)[0])
    total = 0
    with open(path) as handle:
        for line in handle:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    result = {"instructions_per_request": total / PROFILE_REQUESTS, "inclusive": [], "exclusive": []}
    for inclusive in (True, False):
        text = subprocess.run(["callgrind_annotate", "--auto=no", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", path],
                              capture_output=True, text=True, timeout=120).stdout
        rows = {}
        for line in text.splitlines():
            match = re.match(r"^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(.*)$", line)
            if not match or "PROGRAM TOTALS" in line or match.group(3).startswith("*"):
                continue
            name = callgrind_name(match.group(3))
            cost = int(match.group(1).replace(",", "")) / PROFILE_REQUESTS
            # callgrind_annotate lists a function once per source file its inlined code came from: keep the largest.
            if name not in rows or rows[name]["per_request"] < cost:
                rows[name] = {"per_request": cost, "share": float(match.group(2)), "function": name}
        ranked = sorted(rows.values(), key=lambda row: -row["per_request"])
        result["inclusive" if inclusive else "exclusive"] = ranked[:40]
    shutil.copy(path, os.path.join(workdir, "keep-" + os.path.basename(path)))
    return result
