#!/usr/bin/env python3
"""Connection flood against a local linkhost: --connections sockets open at once, each sends one
request and keeps its connection; the server must stay up, answer every connection it admits, close
the ones over its limits cleanly (no hang), and keep its resident memory bounded.

By default the script starts the release binary itself on 127.0.0.1 with config/linkhost.json
(plus any --set overrides) and stops it at the end; --port floods a server already running on
127.0.0.1 instead. Connections come from --sources loopback addresses (127.0.0.1, 127.0.0.2, …) in
turn, so the global connectionLimit is reached before the per-IP limit when --sources is large enough.

Bounded: at most --connections sockets, at most --duration seconds, then everything is closed.
Python standard library only. Prints one summary line; exits 0 on PASS, 1 on FAIL.

    python3 scripts/flood.py                                        # 5000 connections, 20 sources
    python3 scripts/flood.py --set server.connectionLimit=1000 --set server.perIPConnectionLimit=0
"""

import argparse
import collections
import errno
import os
import select
import signal
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loadlib  # noqa: E402

PATHS = [loadlib.AASA_PATH, "/call/abc123?type=video", "/.well-known/assetlinks.json", "/no-such-page", "/site.css"]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=5000, help="sockets opened at once (default 5000)")
    parser.add_argument("--sources", type=int, default=20, help="loopback source addresses used in turn (default 20)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds the flood may take at most (default 30)")
    parser.add_argument("--rss-limit-mb", type=float, default=256.0, help="the server's RSS must stay below this (default 256)")
    parser.add_argument("--server-nofile", type=int, help="the server's own RLIMIT_NOFILE (e.g. 1024, a common default)")
    parser.add_argument("--sighup", action="store_true",
                        help="reload the config (SIGHUP) while the flood holds its connections; the reload must succeed")
    parser.add_argument("--rounds", type=int, default=1, help="floods in a row against the same server (default 1): RSS must not grow from round to round")
    parser.add_argument("--port", type=int, help="flood a linkhost already listening on 127.0.0.1:PORT")
    parser.add_argument("--binary", help="linkhost binary (default: LINKHOST_BINARY or .build/release/linkhost)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="config override, e.g. server.connectionLimit=1000 (repeatable)")
    return parser.parse_args()


class Connection:
    __slots__ = ("sock", "state", "request", "data", "status", "opened")

    def __init__(self, sock, request):
        self.sock = sock
        self.state = "connecting"
        self.request = request
        self.data = b""
        self.status = None
        self.opened = time.monotonic()


def complete_response(data):
    """The status when `data` holds one whole response (head and Content-Length body), else None."""
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    length = 0
    for line in data[:head_end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if len(data) < head_end + 4 + length:
        return None
    if not data.startswith(b"HTTP/1."):
        raise ValueError("not a response")
    return int(data.split(b" ", 2)[1])


def sample_rss(server, stop, samples):
    while not stop.is_set():
        samples.append((time.monotonic(), server.rss_kb(), server.open_fds(), server.cpu_seconds()))
        stop.wait(0.2)


def flood_round(args, port, server):
    """One flood; returns (passed, fields, connect_errors)."""
    samples = []
    stop = threading.Event()
    if server:
        samples.append((time.monotonic(), server.rss_kb(), server.open_fds(), server.cpu_seconds()))
        threading.Thread(target=sample_rss, args=(server, stop, samples), daemon=True).start()

    poller = select.epoll()
    connections = {}
    outcomes = collections.Counter()
    connect_errors = collections.Counter()
    start = time.monotonic()
    sources = [f"127.0.0.{1 + index}" for index in range(max(1, args.sources))]
    for index in range(args.connections):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((sources[index % len(sources)], 0))
        except OSError as error:
            connect_errors[errno.errorcode.get(error.errno, str(error))] += 1
            sock.close()
            continue
        code = sock.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            connect_errors[errno.errorcode.get(code, str(code))] += 1
            outcomes["connect_failed"] += 1
            sock.close()
            continue
        path = PATHS[index % len(PATHS)]
        request = f"GET {path} HTTP/1.1\r\nHost: {loadlib.HOST_HEADER}\r\nUser-Agent: flood\r\n\r\n".encode()
        connections[sock.fileno()] = Connection(sock, request)
        poller.register(sock.fileno(), select.EPOLLOUT | select.EPOLLIN | select.EPOLLRDHUP)
    opened_in = time.monotonic() - start

    deadline = start + args.duration
    pending = len(connections)
    answered_at = []
    while pending and time.monotonic() < deadline:
        for descriptor, events in poller.poll(0.2):
            connection = connections[descriptor]
            if connection.state in ("answered", "closed"):
                continue
            if connection.state == "connecting" and events & select.EPOLLOUT:
                error = connection.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    connect_errors[errno.errorcode.get(error, str(error))] += 1
                    connection.state = "closed"
                    outcomes["connect_failed"] += 1
                    pending -= 1
                    poller.unregister(descriptor)
                    continue
                try:
                    connection.sock.send(connection.request)
                    connection.state = "sent"
                    poller.modify(descriptor, select.EPOLLIN | select.EPOLLRDHUP)
                except OSError:
                    connection.state = "closed"
                    outcomes["closed_before_answer"] += 1
                    pending -= 1
                    poller.unregister(descriptor)
                    continue
            if events & (select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR):
                try:
                    chunk = connection.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if chunk:
                    connection.data += chunk
                    try:
                        status = complete_response(connection.data)
                    except ValueError:
                        status = "garbage"
                    if status is not None:
                        connection.status = status
                        connection.state = "answered"
                        outcomes[f"answered_{status}"] += 1
                        answered_at.append(time.monotonic() - connection.opened)
                        pending -= 1
                        # Kept open (keep-alive): the server goes on holding every connection it admitted.
                        poller.unregister(descriptor)
                else:
                    connection.state = "closed"
                    outcomes["closed_before_answer" if not connection.data else "closed_mid_answer"] += 1
                    pending -= 1
                    poller.unregister(descriptor)
    for connection in connections.values():
        if connection.state in ("connecting", "sent"):
            outcomes["not_admitted_in_time"] += 1
    flood_seconds = time.monotonic() - start

    # Still serving while the admitted connections are held? A new client from its own address.
    try:
        health_status, _ = loadlib.http_get("127.0.0.254", "127.0.0.1", port, "/healthz", timeout=5.0)
    except (OSError, TimeoutError, ValueError) as error:
        health_status = type(error).__name__
    held = sum(1 for c in connections.values() if c.state == "answered")
    reload_result = None
    if args.sighup and server:
        # A reload opens the config and every static file: it needs descriptors the flood may have taken.
        before = len(server.stderr_lines)
        server.process.send_signal(signal.SIGHUP)
        wait_until = time.monotonic() + 5
        while time.monotonic() < wait_until and not any("reload" in line for line in server.stderr_lines[before:]):
            time.sleep(0.05)
        said = [line for line in server.stderr_lines[before:] if "reload" in line]
        reload_result = "ok" if said and "reloaded" in said[0] else ("failed" if said else "silent")
        if reload_result != "ok":
            loadlib.log(f"flood: reload during the flood: {said[0] if said else 'no answer on stderr'}")
    for connection in connections.values():
        connection.sock.close()
    poller.close()
    time.sleep(1.5)
    try:
        after_status, _ = loadlib.http_get("127.0.0.253", "127.0.0.1", port, loadlib.AASA_PATH, timeout=5.0)
    except (OSError, TimeoutError, ValueError) as error:
        after_status = type(error).__name__
    stop.set()

    alive = server.alive() if server else True
    fields = [("connections", args.connections), ("sources", len(sources)), ("opened_s", round(opened_in, 2)),
              ("flood_s", round(flood_seconds, 2))]
    fields += sorted(outcomes.items())
    answered = sum(count for name, count in outcomes.items() if name.startswith("answered_"))
    fields += [("answered", answered), ("held_open_at_end", held)]
    if answered_at:
        answered_at.sort()
        fields += [("answer_p50_ms", round(answered_at[len(answered_at) // 2] * 1000, 1)),
                   ("answer_max_ms", round(answered_at[-1] * 1000, 1))]
    fields += [("healthz_during", health_status), ("aasa_after", after_status), ("server_alive", alive)]
    if reload_result is not None:
        fields += [("reload_during", reload_result)]
    rss_ok = True
    if server and samples:
        rss = [sample[1] for sample in samples if sample[1]]
        fds = [sample[2] for sample in samples if sample[2]]
        cpu_end = server.cpu_seconds()
        rss_after = server.rss_kb()
        rss_ok = bool(rss) and max(rss) <= args.rss_limit_mb * 1024
        fields += [("rss_start_kb", rss[0] if rss else "-"), ("rss_peak_kb", max(rss) if rss else "-"),
                   ("rss_after_kb", rss_after), ("server_fds_peak", max(fds) if fds else "-"),
                   ("server_cpu_s", round((cpu_end or 0) - (samples[0][3] or 0), 2))]
        fields += [("settings", loadlib.effective_settings(server.config))]
    # Connections over the limits are never accepted (they wait in the listen backlog, or their SYNs are
    # dropped) until an admitted one goes; what must never happen is a wrong or cut-off answer, a dead
    # server, a server that cannot answer afterwards, or memory past the limit.
    passed = (alive and answered > 0 and outcomes["closed_mid_answer"] == 0 and outcomes["answered_garbage"] == 0
              and after_status == 200 and rss_ok and reload_result in (None, "ok"))
    return passed, fields, connect_errors


def main():
    args = parse_arguments()
    loadlib.raise_fd_limit(args.connections + 512)
    server = None
    port = args.port
    if port is None:
        server = loadlib.Server(args.binary, loadlib.parse_overrides(args.set), nofile=args.server_nofile)
        port = server.port
        loadlib.log(f"flood: linkhost pid {server.pid} on 127.0.0.1:{port}, settings {loadlib.effective_settings(server.config)}"
                    + (f", server RLIMIT_NOFILE {args.server_nofile}" if args.server_nofile else ""))
    all_passed = True
    after_rounds = []
    for round_number in range(1, args.rounds + 1):
        passed, fields, connect_errors = flood_round(args, port, server)
        all_passed = all_passed and passed
        name = "flood" if args.rounds == 1 else f"flood round {round_number}/{args.rounds}"
        print(loadlib.summary_line(name, passed, fields), flush=True)
        if connect_errors:
            loadlib.log(f"flood: connect errors: {dict(connect_errors)}")
        if server:
            after_rounds.append(server.rss_kb())
    if args.rounds > 1 and server:
        # Memory held after each round must level off, not climb with every flood.
        growth = after_rounds[-1] - after_rounds[0]
        bounded = growth <= 4096
        all_passed = all_passed and bounded
        print(loadlib.summary_line("flood rounds", all_passed, [("rss_after_each_round_kb", "/".join(map(str, after_rounds))),
                                                                ("growth_first_to_last_kb", growth)]), flush=True)
    if server:
        code = server.stop()
        if server.stderr_lines:
            loadlib.log("flood: server stderr (last lines): " + " | ".join(server.stderr_lines[-5:]))
        loadlib.log(f"flood: server exit code {code}, {len(server.stderr_lines)} stderr lines")
    return 0 if all_passed else 1


if __name__ == "__main__":
    sys.exit(main())
