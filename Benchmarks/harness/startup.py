"""Start to first served request: each server spawned STARTS times, alternating, timed to its first 200."""

import socket
import time

from harness import BenchError, log
from harness.http_client import request_bytes
from harness.routes import AASA_PATH, HOST_HEADER, SERVERS
from harness.settings import STARTS


def time_to_first_ok(server, path, timeout=10.0, host=HOST_HEADER):
    """Spawns `server` and returns seconds from spawn to the first 200 on `path` (tight connect loop)."""
    request = request_bytes(path, close=True, host=host)
    server.start_sink()  # the log reader exists before the server, as journald would
    started = time.perf_counter()
    server.start()
    deadline = started + timeout
    while time.perf_counter() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=2) as sock:
                sock.sendall(request)
                data = b""
                while b"\r\n" not in data:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if data.startswith(b"HTTP/1.1 200"):
                    return time.perf_counter() - started
        except OSError:
            pass
        if server.process.poll() is not None:
            raise BenchError(f"{server.name} exited during start:\n{server.errors()[-2000:]}")
        time.sleep(0.0005)
    raise BenchError(f"{server.name} served no 200 within {timeout} s")


def alternating_starts(makers, first_ok):
    """STARTS starts of each server that `makers` (name → a function returning a fresh server and its port)
    makes, in turn and in reversed order every other time, so drift hits all; `first_ok(server, port)` times
    one start in seconds. Returns milliseconds per name."""
    times = {name: [] for name in makers}
    for index in range(STARTS):
        names = list(makers) if index % 2 == 0 else list(makers)[::-1]
        for name in names:
            server, port = makers[name]()
            try:
                times[name].append(first_ok(server, port) * 1000)
            finally:
                server.stop()
            time.sleep(0.2)
    return times


def measure_startup(testbed):
    """Milliseconds to the first 200, per server kind."""
    log(f"start to first served request: {STARTS} starts of each server, alternating")
    makers = {kind: (lambda kind=kind: (testbed.make_server(kind), None)) for kind in SERVERS}
    return alternating_starts(makers, lambda server, _: time_to_first_ok(server, AASA_PATH))
