"""Server CPU per `Connection: close` request, for two or more linkhost binaries side by side: the check
behind keeping or dropping a listener option (TCP_DEFER_ACCEPT) that wall-clock numbers on a shared
machine could not settle.

    python3 Benchmarks/oneoff/close_cost.py BINARY [BINARY ...] [--requests N] [--rounds R] [--strace]

Each round starts every binary in turn (A B, then B A), sends N sequential `Connection: close` AASA
requests from one client, and reads the server's utime + stime from /proc before and after; with
--strace, the system calls per request of one more such run each."""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.http_client import request_bytes  # noqa: E402
from harness.procfs import proc_cpu_ticks  # noqa: E402
from harness.routes import AASA_PATH  # noqa: E402
from harness.server import wait_until_serving  # noqa: E402
from harness.settings import PORTS  # noqa: E402
from harness.testbed import Testbed  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def close_requests(port, count):
    request = request_bytes(AASA_PATH, close=True)
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(request)
            while connection.recv(65536):
                pass


def measure(testbed, binary, count, trace=False):
    testbed.bin = binary
    server = testbed.linkhost_server(f"close-{os.path.basename(binary)}", PORTS["linkhost"])
    server.start()
    try:
        wait_until_serving(server)
        close_requests(server.port, 200)
        tracer = None
        if trace:
            out = os.path.join(testbed.workdir, "strace.txt")
            tracer = subprocess.Popen(["strace", "-c", "-f", "-o", out, "-p", str(server.pid)], stderr=subprocess.DEVNULL)
            time.sleep(1.0)
        before = sum(proc_cpu_ticks(server.pid))
        close_requests(server.port, count)
        after = sum(proc_cpu_ticks(server.pid))
        if tracer:
            time.sleep(0.5)
            tracer.send_signal(signal.SIGINT)
            tracer.wait(30)
            calls = {}
            for line in open(out):
                parts = line.split()
                if len(parts) >= 5 and parts[3].isdigit():
                    calls[parts[-1]] = int(parts[3]) / count
            return calls
        return (after - before) / TICK / count * 1e6
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--strace", action="store_true")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="close-cost-", dir="/tmp")
    testbed = Testbed(args.binaries[0], workdir)
    try:
        testbed.prepare()
        results = {binary: [] for binary in args.binaries}
        for round_index in range(args.rounds):
            order = args.binaries if round_index % 2 == 0 else list(reversed(args.binaries))
            for binary in order:
                results[binary].append(measure(testbed, binary, args.requests))
        for binary, values in results.items():
            print(f"{binary}: CPU per close request {', '.join(f'{v:.1f}' for v in values)} µs (load {os.getloadavg()[0]:.2f})")
        if args.strace and shutil.which("strace"):
            for binary in args.binaries:
                calls = measure(testbed, binary, 2000, trace=True)
                shown = ", ".join(f"{name} {value:.2f}" for name, value in sorted(calls.items(), key=lambda item: -item[1]) if value >= 0.2)
                print(f"{binary}: system calls per close request: {shown}")
    finally:
        testbed.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
