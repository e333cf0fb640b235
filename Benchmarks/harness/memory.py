"""Memory of the running servers: readings per server, and RSS while a client holds IDLE_CONNECTIONS idle
keep-alive connections open."""

import time

from harness import BenchError, log
from harness.http_client import KeepAliveClient
from harness.routes import AASA_PATH, SERVERS
from harness.settings import IDLE_CONNECTIONS


def per_server(servers, reading):
    """`reading(server)` for each server kind, e.g. per_server(servers, Server.rss_kb)."""
    return {kind: reading(servers[kind]) for kind in SERVERS}


def hold_idle_connections(testbed):
    log(f"RSS while holding {IDLE_CONNECTIONS} idle keep-alive connections")
    results = {}
    for kind in SERVERS:
        server = testbed.servers[kind]
        clients = []
        deadline = time.monotonic() + 120
        try:
            for _ in range(IDLE_CONNECTIONS):
                if time.monotonic() > deadline:
                    raise BenchError("opening idle connections took more than 120 s")
                client = KeepAliveClient(server.port)
                clients.append(client)
                status, _, _ = client.get(AASA_PATH)
                if status != 200:
                    raise BenchError(f"{kind} answered {status} on idle connection {len(clients)}")
            time.sleep(1.0)
            results[kind] = {"rss_kb": server.rss_kb(), "pss_kb": server.pss_kb(), "sockets": server.sockets(), "held": len(clients)}
            # Every connection is still usable: one more request on the first and the last.
            for client in (clients[0], clients[-1]):
                if client.get(AASA_PATH)[0] != 200:
                    raise BenchError(f"{kind} dropped an idle connection")
        finally:
            for client in clients:
                client.close()
        time.sleep(1.5)
        results[kind]["rss_after_close_kb"] = server.rss_kb()
        log(f"{kind}: {results[kind]['held']} connections held, server sockets {results[kind]['sockets']}, RSS {results[kind]['rss_kb'] / 1024:.1f} MB")
    return results
