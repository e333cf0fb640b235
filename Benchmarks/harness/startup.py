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


def measure_startup(testbed):
    """Milliseconds to the first 200, per server kind."""
    log(f"start to first served request: {STARTS} starts of each server, alternating")
    times = {kind: [] for kind in SERVERS}
    for index in range(STARTS):
        order = SERVERS if index % 2 == 0 else SERVERS[::-1]
        for kind in order:
            server = testbed.make_server(kind)
            try:
                times[kind].append(time_to_first_ok(server, AASA_PATH) * 1000)
            finally:
                server.stop()
            time.sleep(0.2)
    return times
