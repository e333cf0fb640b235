"""The settings of a run, read once from the environment (the table in Benchmarks/README.md), and the paths and
ports that follow from them."""

import os

BENCHMARKS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCHMARKS_DIR)


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


QUICK = os.environ.get("QUICK", "") not in ("", "0")
ROUNDS = env_int("ROUNDS", 1 if QUICK else 3)
DURATION = env_int("DURATION", 3 if QUICK else 10)
CONNECTIONS = env_int("CONNECTIONS", 64)
WRK_THREADS = env_int("WRK_THREADS", 2)
PORT_BASE = env_int("PORT_BASE", 18400)
IDLE_CONNECTIONS = env_int("IDLE_CONNECTIONS", 2000)
STARTS = env_int("STARTS", 3 if QUICK else 7)
ALLOC_REQUESTS = env_int("ALLOC_REQUESTS", 200 if QUICK else 1000)
RELOAD_SECONDS = env_int("RELOAD_SECONDS", 6 if QUICK else 12)
RELOAD_COST_COUNT = env_int("RELOAD_COST_COUNT", 5 if QUICK else 20)
PINNED = env_int("PINNED", 1)
VALGRIND = env_int("VALGRIND", 1)
PROFILE_REQUESTS = env_int("PROFILE_REQUESTS", 2000)
PINNED_ROUTES = os.environ.get("PINNED_ROUTES", "aasa calls").split()
ACCESS_LOG = os.environ.get("ACCESS_LOG", "json")
SCALE_SITES = [int(count) for count in os.environ.get("SCALE_SITES", "1 100 1000").split()]

PORTS = {"linkhost": PORT_BASE, "nginx": PORT_BASE + 1, "valgrind": PORT_BASE + 2, "linkhost_tls": PORT_BASE + 3, "nginx_tls": PORT_BASE + 4,
         # Nothing listens here: the ACME directory of the HTTPS start-up figure.
         "closed": PORT_BASE + 5,
         # The bare libmicrohttpd program (Benchmarks/engine/bare_mhd.c): the engine's ceiling.
         "bare": PORT_BASE + 6}
TLS = env_int("TLS", 1)


def as_record():
    """The settings as results.json keeps them, so that a report can say how its numbers were taken."""
    return {
        "quick": QUICK, "rounds": ROUNDS, "duration": DURATION, "connections": CONNECTIONS, "wrk_threads": WRK_THREADS,
        "port_base": PORT_BASE, "idle_connections": IDLE_CONNECTIONS, "starts": STARTS, "alloc_requests": ALLOC_REQUESTS,
        "reload_seconds": RELOAD_SECONDS, "reload_cost_count": RELOAD_COST_COUNT, "pinned": PINNED, "pinned_routes": PINNED_ROUTES, "valgrind": VALGRIND,
        "scale_sites": SCALE_SITES, "tls": TLS,
    }
