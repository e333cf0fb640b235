#!/usr/bin/env python3
"""Slowloris against a local linkhost: many connections trickle a request header a byte at a time
while a normal client keeps fetching the AASA, which must arrive within --deadline every time.

By default the script starts the release binary itself on 127.0.0.1 with config/linkhost.json
(plus any --set overrides) and stops it at the end; --port attacks a server already running on
127.0.0.1 instead. The attackers connect from --attacker-source and the normal client from
--client-source: libmicrohttpd's per-IP limit counts source addresses, so only a client whose
address differs from the attacker's can be protected by it (all of 127.0.0.0/8 is loopback here).

--attacker-sources N spreads the attackers over N addresses (127.1.0.1, 127.1.0.2, …), as a botnet
or a proxy with perIPConnectionLimit 0 would, so that the per-IP limit cannot help and only the header
deadline (server.headerTimeout) frees the slots; --expect-closed-within S then also requires the server
to have closed every attacker, each at most S seconds after it connected.

Bounded: at most --connections sockets, for at most --duration seconds, then everything is closed.
Python standard library only. Prints one summary line; exits 0 on PASS, 1 on FAIL.

    python3 scripts/slowloris.py                                  # defaults: 1000 connections, 30 s
    python3 scripts/slowloris.py --set server.perIPConnectionLimit=0 --set server.connectionLimit=500
    python3 scripts/slowloris.py --connections 300 --attacker-sources 30 --interval 1 --duration 12 \
        --set server.headerTimeout=3 --expect-closed-within 4.5       # the header deadline, many addresses
"""

import argparse
import errno
import os
import select
import socket
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loadlib  # noqa: E402

# The head every attacker starts with; the rest of the header section never comes.
OPENING = (f"GET {loadlib.AASA_PATH} HTTP/1.1\r\nHost: {loadlib.HOST_HEADER}\r\nUser-Agent: slowloris\r\n").encode()
TRICKLE = b"X-Slow: 0123456789abcdef\r\n"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=1000, help="attacker connections (default 1000)")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between two bytes on one connection (default 5)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds the attack lasts (default 30)")
    parser.add_argument("--deadline", type=float, default=1.0, help="seconds the normal client's AASA may take (default 1)")
    parser.add_argument("--probe-every", type=float, default=0.25, help="seconds between the normal client's requests")
    parser.add_argument("--attacker-source", default="127.0.0.1", help="address the attackers connect from")
    parser.add_argument("--attacker-sources", type=int, default=1,
                        help="spread the attackers over this many addresses 127.1.0.1, 127.1.0.2, ... (default 1: --attacker-source)")
    parser.add_argument("--expect-closed-within", type=float, metavar="SECONDS",
                        help="also require the server to close every attacker within SECONDS of its connecting (the header deadline)")
    parser.add_argument("--client-source", default="127.0.0.2", help="address the normal client connects from")
    parser.add_argument("--port", type=int, help="attack a linkhost already listening on 127.0.0.1:PORT")
    parser.add_argument("--binary", help="linkhost binary (default: LINKHOST_BINARY or .build/release/linkhost)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="config override, e.g. server.connectionTimeout=5 (repeatable)")
    return parser.parse_args()


class Attacker:
    """One trickling connection: opened, sent the opening head, then one byte per interval."""

    def __init__(self, sock):
        self.sock = sock
        self.position = 0
        self.next_send = 0.0
        self.connected_at = time.monotonic()


def attacker_source(args, index):
    """The address attacker `index` connects from: --attacker-source, or one of --attacker-sources addresses."""
    if args.attacker_sources <= 1:
        return args.attacker_source
    number = index % args.attacker_sources
    return f"127.1.{number // 250}.{number % 250 + 1}"


def open_attackers(count, args, port, interval, stats):
    attackers = []
    start = time.monotonic()
    for index in range(count):
        try:
            sock = loadlib.connect_from(attacker_source(args, index), "127.0.0.1", port, timeout=2.0)
            sock.setblocking(False)
            sock.send(OPENING)
        except OSError as error:
            stats["connect_failed"] += 1
            stats.setdefault("connect_errors", {}).setdefault(errno.errorcode.get(error.errno, str(error)), 0)
            stats["connect_errors"][errno.errorcode.get(error.errno, str(error))] += 1
            continue
        attacker = Attacker(sock)
        # Spread the bytes over the interval so the server sees a steady trickle, not bursts.
        attacker.next_send = start + interval * (index / max(1, count))
        attackers.append(attacker)
    return attackers


def probe_loop(args, port, stop, results):
    """The normal client: a fresh connection and one AASA GET every --probe-every seconds."""
    while not stop.is_set():
        started = time.monotonic()
        try:
            status, body = loadlib.http_get(args.client_source, "127.0.0.1", port, loadlib.AASA_PATH, timeout=max(5.0, args.deadline * 3))
            elapsed = time.monotonic() - started
            results.append((status == 200 and b"applinks" in body, elapsed, status))
        except (OSError, TimeoutError, ValueError) as error:
            results.append((False, time.monotonic() - started, type(error).__name__))
        stop.wait(max(0.0, args.probe_every - (time.monotonic() - started)))


def main():
    args = parse_arguments()
    limit = loadlib.raise_fd_limit(args.connections + 256)
    if limit < args.connections + 64:
        loadlib.log(f"slowloris: RLIMIT_NOFILE is {limit}, fewer than {args.connections} connections fit")
    server = None
    port = args.port
    if port is None:
        server = loadlib.Server(args.binary, loadlib.parse_overrides(args.set))
        port = server.port
        settings = server.config.get("server", {})
        loadlib.log(f"slowloris: linkhost pid {server.pid} on 127.0.0.1:{port}, server settings {settings}")

    stats = {"connect_failed": 0, "closed_by_server": 0, "bytes_sent": 0}
    rss_samples = []
    if server:
        rss_samples.append(server.rss_kb())
    attack_start = time.monotonic()
    attackers = open_attackers(args.connections, args, port, args.interval, stats)
    close_times = []
    connected = len(attackers)
    loadlib.log(f"slowloris: {connected} of {args.connections} attacker connections opened in {time.monotonic() - attack_start:.1f}s")

    stop = threading.Event()
    probes = []
    prober = threading.Thread(target=probe_loop, args=(args, port, stop, probes), daemon=True)
    prober.start()

    poller = select.poll()
    by_descriptor = {}
    for attacker in attackers:
        poller.register(attacker.sock.fileno(), select.POLLIN)
        by_descriptor[attacker.sock.fileno()] = attacker.sock
    end = attack_start + args.duration
    last_rss = 0.0
    while attackers and time.monotonic() < end:
        now = time.monotonic()
        # A connection the server closed reads as end of file (or a reset): count it and drop it.
        # poll, not select: select cannot watch descriptors above 1023.
        closed = set()
        for descriptor, _ in poller.poll(0):
            sock = by_descriptor[descriptor]
            try:
                if not sock.recv(4096):
                    closed.add(sock)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(sock)
        for attacker in attackers:
            if attacker.sock in closed or now < attacker.next_send:
                continue
            byte = TRICKLE[attacker.position % len(TRICKLE):attacker.position % len(TRICKLE) + 1]
            try:
                attacker.sock.send(byte)
                attacker.position += 1
                stats["bytes_sent"] += 1
            except BlockingIOError:
                pass
            except OSError:
                closed.add(attacker.sock)
            attacker.next_send = now + args.interval
        if closed:
            stats["closed_by_server"] += len(closed)
            close_times += [now - attacker.connected_at for attacker in attackers if attacker.sock in closed]
            for sock in closed:
                poller.unregister(sock.fileno())
                del by_descriptor[sock.fileno()]
                sock.close()
            attackers = [a for a in attackers if a.sock not in closed]
        if server and now - last_rss >= 1.0:
            rss_samples.append(server.rss_kb())
            last_rss = now
        time.sleep(0.05)
    # Runs the remaining time even when every attacker was dropped, so the client is measured as long.
    while time.monotonic() < end:
        time.sleep(0.1)
    stop.set()
    prober.join(timeout=10)
    open_at_end = len(attackers)
    for attacker in attackers:
        attacker.sock.close()

    alive = server.alive() if server else True
    if server:
        rss_samples.append(server.rss_kb())
    ok_probes = [elapsed for ok, elapsed, _ in probes if ok and elapsed <= args.deadline]
    failures = [(round(elapsed, 3), what) for ok, elapsed, what in probes if not (ok and elapsed <= args.deadline)]
    latencies = [elapsed for _, elapsed, _ in probes]
    passed = alive and probes and len(ok_probes) == len(probes)
    if args.expect_closed_within is not None:
        # The header deadline: every attacker cut by the server, none later than the bound.
        passed = passed and open_at_end == 0 and close_times and max(close_times) <= args.expect_closed_within
    sources = args.attacker_source if args.attacker_sources <= 1 else f"{args.attacker_sources}_addresses"
    fields = [
        ("connections", args.connections), ("interval_s", args.interval), ("duration_s", args.duration),
        ("attacker", sources), ("client", args.client_source),
        ("attackers_connected", connected), ("attackers_connect_failed", stats["connect_failed"]),
        ("attackers_closed_by_server", stats["closed_by_server"]), ("attackers_open_at_end", open_at_end),
        ("closed_after_min_s", round(min(close_times), 2) if close_times else "-"),
        ("closed_after_p50_s", round(statistics.median(close_times), 2) if close_times else "-"),
        ("closed_after_max_s", round(max(close_times), 2) if close_times else "-"),
        ("probes", len(probes)), ("probes_ok_within_deadline", len(ok_probes)),
        ("probe_p50_ms", round(statistics.median(latencies) * 1000, 1) if latencies else "-"),
        ("probe_max_ms", round(max(latencies) * 1000, 1) if latencies else "-"),
        ("server_alive", alive),
    ]
    if server:
        valid = [sample for sample in rss_samples if sample]
        fields += [("rss_start_kb", valid[0] if valid else "-"), ("rss_max_kb", max(valid) if valid else "-")]
        fields += [("libmicrohttpd", server.library()), ("settings", loadlib.effective_settings(server.config))]
    print(loadlib.summary_line("slowloris", passed, fields), flush=True)
    if failures:
        loadlib.log(f"slowloris: failed probes (seconds, why): {failures[:10]}{' …' if len(failures) > 10 else ''}")
    if stats.get("connect_errors"):
        loadlib.log(f"slowloris: attacker connect errors: {stats['connect_errors']}")
    if server:
        code = server.stop()
        if server.stderr_lines:
            loadlib.log("slowloris: server stderr: " + " | ".join(server.stderr_lines[-5:]))
        loadlib.log(f"slowloris: server exit code {code}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
