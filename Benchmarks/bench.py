#!/usr/bin/env python3
"""linkhost beside nginx on one machine, in one run (issue 7).

Run it through Benchmarks/run.sh (which installs the tools and builds linkhost in release mode) or
Benchmarks/profile.sh. Standard library only. Every server started here listens on 127.0.0.1, runs in
its own session (so its process group is killed whole), is listed in WORKDIR/pids for the shell's trap,
and is stopped before this script returns; every load loop is bounded in time.

    bench.py bench   --bin LINKHOST --workdir DIR   throughput, latency, CPU, memory, start, reload, allocations
    bench.py profile --bin LINKHOST --workdir DIR   callgrind instruction profiles and a perf sample

Settings come from the environment (see Benchmarks/README.md): ROUNDS, DURATION, QUICK, CONNECTIONS,
WRK_THREADS, PORT_BASE, IDLE_CONNECTIONS, STARTS, ALLOC_REQUESTS, RELOAD_SECONDS, PINNED, VALGRIND.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CLK_TCK = os.sysconf("SC_CLK_TCK")
HOST_HEADER = "links.example.com"
CALL_ID = "Bq7-xK2f9Zt"
CALL_TYPE = "grp4"
AASA_PATH = "/.well-known/apple-app-site-association"


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

PORTS = {"linkhost": PORT_BASE, "nginx": PORT_BASE + 1, "valgrind": PORT_BASE + 2}


class Route:
    """A benchmarked URL; `script` (a wrk Lua file) and `path_for` vary it per request when set."""

    def __init__(self, key, title, path, script=None, path_for=None):
        self.key, self.title, self.path, self.script = key, title, path, script
        self.path_for = path_for or (lambda index: path)


def distinct_call_path(index):
    """The call page for the index-th distinct call ID, in the shape distinct_calls.lua sends (same length as CALL_ID)."""
    return f"/call/Bq8-{index % 10_000_000:07d}?type={CALL_TYPE}"


ROUTES = [
    Route("aasa", "AASA", AASA_PATH),
    # One URL over and over: what a cache of rendered pages answers.
    Route("call", "call page, one ID", f"/call/{CALL_ID}?type={CALL_TYPE}"),
    # A new call ID on every request: the render path itself.
    Route("calls", "call page, new IDs", distinct_call_path(0), script=os.path.join(HERE, "distinct_calls.lua"), path_for=distinct_call_path),
    Route("404", "404", "/no/such/page"),
    Route("css", "static CSS", "/site.css"),
]
ROUTE = {route.key: route for route in ROUTES}
MODES = [("keepalive", "keep-alive"), ("close", "Connection: close")]
SERVERS = ["linkhost", "nginx"]


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


# MARK: /proc readings

def proc_fields(pid):
    """utime and stime ticks of a process (all its threads)."""
    with open(f"/proc/{pid}/stat") as handle:
        text = handle.read()
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[11]), int(fields[12])


def proc_child_ticks(pid):
    """cutime and cstime: CPU of children the process has waited for (nginx's exited workers)."""
    with open(f"/proc/{pid}/stat") as handle:
        text = handle.read()
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[13]) + int(fields[14])


def proc_status_kb(pid, key):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def proc_pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def proc_children(pid):
    children = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as handle:
                children += [int(word) for word in handle.read().split()]
    except OSError:
        pass
    return children


def proc_threads(pid):
    try:
        return [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def proc_socket_count(pid):
    count = 0
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    count += 1
            except OSError:
                pass
    except OSError:
        pass
    return count


def machine_busy_ticks():
    with open("/proc/stat") as handle:
        values = [int(word) for word in handle.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    return user + nice + system + irq + softirq + steal


def loadavg():
    with open("/proc/loadavg") as handle:
        return [float(word) for word in handle.read().split()[:3]]


def heavy_processes():
    """Names of other CPU-heavy tools running now (compilers, linkers), to explain noise."""
    names = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as handle:
                name = handle.read().strip()
        except OSError:
            continue
        if name in ("swift-frontend", "swift-build", "swiftc", "clang", "ld", "ld.gold", "lld", "cc1", "swift-driver", "swift-test"):
            names[name] = names.get(name, 0) + 1
    return names


# MARK: servers

class Server:
    """A server process in its own session; `pids` covers nginx's master and workers."""

    def __init__(self, name, command, workdir, cwd=None, port=None, log_sink=False):
        self.name, self.command, self.workdir, self.cwd, self.port = name, command, workdir, cwd, port
        self.log_sink = log_sink
        self.process = None
        self.sink = None
        self.out_path = os.path.join(workdir, f"{name}.out")
        self.err_path = os.path.join(workdir, f"{name}.err")

    def start_sink(self):
        """stdout (the access log) goes down a pipe, as to journald or a container runtime: the first lines are kept
        (sed -u reads no further than it prints), the rest are counted by wc and dropped."""
        if self.log_sink and self.sink is None:
            with open(self.err_path, "ab") as err:
                self.sink = subprocess.Popen(["sh", "-c", 'sed -u 20q >"$0"; exec wc -l >"$0.count"', self.out_path],
                                             stdin=subprocess.PIPE, stderr=err, start_new_session=True)
            self.register(self.sink.pid)

    def start(self):
        err = open(self.err_path, "ab")
        if self.log_sink:
            self.start_sink()
            out = self.sink.stdin
        else:
            out = open(self.out_path, "ab")
        self.process = subprocess.Popen(self.command, cwd=self.cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        err.close()
        self.register(self.process.pid)
        return self.process

    def register(self, pid):
        with open(os.path.join(self.workdir, "pids"), "a") as handle:
            handle.write(f"{pid}\n")

    def log_lines(self):
        """Lines the server wrote to stdout, when it wrote them to the sink (read after stop)."""
        try:
            with open(self.out_path, "rb") as handle:
                kept = handle.read().count(b"\n")
            with open(self.out_path + ".count") as handle:
                return kept + int(handle.read().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    @property
    def pid(self):
        return self.process.pid

    def pids(self):
        if self.process is None or self.process.poll() is not None:
            return []
        return [self.process.pid] + proc_children(self.process.pid)

    def cpu_ticks(self):
        total = 0
        for pid in self.pids():
            try:
                total += sum(proc_fields(pid))
            except OSError:
                pass
        return total

    def cpu_ticks_with_exited_children(self):
        total = self.cpu_ticks()
        try:
            total += proc_child_ticks(self.process.pid)
        except OSError:
            pass
        return total

    def rss_kb(self):
        return sum(self._safe(proc_status_kb, pid, "VmRSS") for pid in self.pids())

    def pss_kb(self):
        return sum(self._safe(proc_pss_kb, pid) for pid in self.pids())

    def sockets(self):
        return sum(proc_socket_count(pid) for pid in self.pids())

    @staticmethod
    def _safe(function, *args):
        try:
            return function(*args)
        except OSError:
            return 0

    def set_affinity(self, cpus):
        for pid in self.pids():
            for tid in proc_threads(pid):
                try:
                    os.sched_setaffinity(tid, cpus)
                except OSError:
                    pass

    def signal(self, number):
        os.kill(self.process.pid, number)

    def stop(self, timeout=15):
        if self.process is None:
            return None
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                log(f"{self.name} did not stop within {timeout} s of SIGTERM; killing its process group")
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        # nginx workers may outlive a killed master; the group goes with them.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        code = self.process.returncode
        self.process = None
        if self.sink is not None:
            try:
                self.sink.wait(10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(self.sink.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.sink.wait(5)
            self.sink = None
        return code

    def output(self):
        try:
            with open(self.out_path, "rb") as handle:
                return handle.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def errors(self):
        with open(self.err_path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")


def wait_for_line(server, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in server.output():
            return True
        if server.process.poll() is not None:
            raise BenchError(f"{server.name} exited with {server.process.returncode} before printing {text!r}:\n{server.errors()[-2000:]}")
        time.sleep(0.02)
    raise BenchError(f"{server.name} did not print {text!r} within {timeout} s")


# MARK: HTTP clients (raw sockets: exact requests, no library surprises)

def request_bytes(path, close=False):
    connection = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST_HEADER}\r\n{connection}\r\n".encode()


class KeepAliveClient:
    """One keep-alive connection; `get` sends a request and reads exactly one response."""

    def __init__(self, port, timeout=10.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def get(self, path):
        self.sock.sendall(request_bytes(path))
        return self.read_response()

    def read_response(self):
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise BenchError("connection closed before a response header")
            self.buffer += chunk
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise BenchError("connection closed inside a response body")
            rest += chunk
        self.buffer = rest[length:]
        return status, head + b"\r\n\r\n", rest[:length]

    def close(self):
        self.sock.close()


def fetch(port, path):
    client = KeepAliveClient(port)
    try:
        return client.get(path)
    finally:
        client.close()


def time_to_first_ok(server, path, timeout=10.0):
    """Spawns `server` and returns seconds from spawn to the first 200 on `path` (tight connect loop)."""
    request = request_bytes(path, close=True)
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


# MARK: wrk

LATENCY_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def parse_duration_ms(text):
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(match.group(1)) * LATENCY_UNITS[match.group(2)] if match else None


def wrk_command(port, path, seconds, close=False, script=None, latency=True):
    command = ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "-H", f"Host: {HOST_HEADER}"]
    if close:
        command += ["-H", "Connection: close"]
    if latency:
        command.append("--latency")
    if script:
        command += ["-s", script]
    command.append(f"http://127.0.0.1:{port}{path}")
    return command


def run_wrk(command, seconds):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    if result.returncode != 0:
        raise BenchError(f"wrk failed ({result.returncode}): {result.stderr.strip()} {result.stdout.strip()}")
    text = result.stdout
    parsed = {"elapsed": time.monotonic() - started, "output": text}
    match = re.search(r"(\d+) requests in ([\d.]+\w+)", text)
    parsed["requests"] = int(match.group(1)) if match else 0
    match = re.search(r"Requests/sec:\s+([\d.]+)", text)
    parsed["rps"] = float(match.group(1)) if match else 0.0
    for percent in ("50", "90", "99"):
        match = re.search(rf"^\s+{percent}(?:\.000)?%\s+(\S+)", text, re.M)
        parsed[f"p{percent}_ms"] = parse_duration_ms(match.group(1)) if match else None
    match = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    parsed["socket_errors"] = sum(int(group) for group in match.groups()) if match else 0
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    parsed["non_2xx"] = int(match.group(1)) if match else 0
    return parsed


def measured_wrk(server, path, seconds, close=False, client_cpu=None, script=None):
    """One wrk run with the server's CPU time, the machine's other load and the load average around it."""
    command = wrk_command(server.port, path, seconds, close=close, script=script)
    if client_cpu is not None:
        command = ["taskset", "-c", str(client_cpu)] + command
    load = loadavg()[0]
    heavy = heavy_processes()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy_before = machine_busy_ticks()
    ticks_before = server.cpu_ticks()
    wall_before = time.monotonic()
    parsed = run_wrk(command, seconds)
    wall = time.monotonic() - wall_before
    ticks = server.cpu_ticks() - ticks_before
    busy = machine_busy_ticks() - busy_before
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (children_after.ru_utime + children_after.ru_stime) - (children_before.ru_utime + children_before.ru_stime)
    server_cpu = ticks / CLK_TCK
    parsed.update({
        "command": command,
        "server_cpu_s": server_cpu,
        "wrk_cpu_s": wrk_cpu,
        "cpu_us_per_request": server_cpu / parsed["requests"] * 1e6 if parsed["requests"] else None,
        "other_cores": max(0.0, busy / CLK_TCK - server_cpu - wrk_cpu) / wall,
        "load1": load,
        "heavy": heavy,
    })
    del parsed["output"]
    return parsed


# MARK: the benchmark

class Bench:
    def __init__(self, args):
        self.bin = os.path.abspath(args.bin)
        self.workdir = os.path.abspath(args.workdir)
        self.results_path = args.results
        self.raw_path = args.raw
        self.servers = {}
        self.data = {"settings": self.settings(), "runs": [], "notes": []}

    @staticmethod
    def settings():
        return {
            "quick": QUICK, "rounds": ROUNDS, "duration": DURATION, "connections": CONNECTIONS, "wrk_threads": WRK_THREADS,
            "port_base": PORT_BASE, "idle_connections": IDLE_CONNECTIONS, "starts": STARTS, "alloc_requests": ALLOC_REQUESTS,
            "reload_seconds": RELOAD_SECONDS, "reload_cost_count": RELOAD_COST_COUNT, "pinned": PINNED, "pinned_routes": PINNED_ROUTES, "valgrind": VALGRIND,
        }

    # Setup

    def prepare(self):
        os.chmod(self.workdir, 0o755)
        self.config_path = os.path.join(self.workdir, "linkhost.json")
        with open(os.path.join(REPO, "config", "linkhost.json")) as handle:
            config = json.load(handle)
        config.pop("$schema", None)
        server = config.setdefault("server", {})
        server.update({"host": "127.0.0.1", "port": PORTS["linkhost"]})
        # Every benchmark connection comes from 127.0.0.1, as behind a proxy: the per-IP limit would refuse them.
        server["perIPConnectionLimit"] = 0
        config.setdefault("callLinks", {})["template"] = os.path.join(REPO, config["callLinks"].get("template", "public/call.html"))
        static = config.setdefault("static", {})
        static["root"] = os.path.join(REPO, static.get("root", "public"))
        config = self.enable_observability(config)
        self.data["observability"] = config["observability"]
        with open(self.config_path, "w") as handle:
            json.dump(config, handle, indent=2)
        self.data["linkhost_config"] = config

        aasa = subprocess.run([self.bin, "print", "aasa", "--config", self.config_path], capture_output=True, check=True, cwd=self.workdir).stdout
        self.www = os.path.join(self.workdir, "www")
        shutil.copytree(static["root"], self.www)
        os.remove(os.path.join(self.www, os.path.basename(config["callLinks"]["template"])))
        os.makedirs(os.path.join(self.www, ".well-known"), exist_ok=True)
        with open(os.path.join(self.www, AASA_PATH.lstrip("/")), "wb") as handle:
            handle.write(aasa)
        for folder, dirs, files in os.walk(self.www):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o644)

        # linkhost's rendered call page, once, to give nginx the same bytes with the ID and type put back from the URL.
        linkhost = self.linkhost_server("linkhost-probe", PORTS["linkhost"])
        linkhost.start()
        wait_for_line(linkhost, "listening on", 30)
        status, head, page = fetch(linkhost.port, ROUTE["call"].path)
        linkhost.stop()
        if status != 200:
            raise BenchError(f"linkhost answered {status} for the call page")
        self.call_page = page
        self.nginx_conf = self.write_nginx_conf(PORTS["nginx"], self.workdir, page)

    @staticmethod
    def enable_observability(config):
        """The issue's targets are for linkhost with its access log and metrics on: say so explicitly."""
        observability = config.setdefault("observability", {})
        observability["accessLog"] = os.environ.get("ACCESS_LOG", "json")
        observability.setdefault("metrics", {})["enabled"] = True
        return config

    def write_nginx_conf(self, port, prefix, page, master=True, workers="auto"):
        text = page.decode("utf-8")
        if "$" in text:
            raise BenchError("the call page contains '$', which nginx's return text cannot hold literally")
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        escaped = escaped.replace(CALL_ID, "${callid}").replace(CALL_TYPE, "${arg_type}")
        with open(os.path.join(HERE, "nginx.conf.template")) as handle:
            template = handle.read()
        conf = (template.replace("@PREFIX@", prefix).replace("@PORT@", str(port)).replace("@ROOT@", self.www)
                .replace("@WORKER_PROCESSES@", str(workers)).replace("@MASTER_PROCESS@", "on" if master else "off")
                .replace("@CALL_BODY@", escaped))
        path = os.path.join(prefix, f"nginx-{port}.conf")
        with open(path, "w") as handle:
            handle.write(conf)
        return path

    def linkhost_server(self, name, port, wrapper=(), log_sink=False):
        command = list(wrapper) + [self.bin, "serve", "--config", self.config_path, "--host", "127.0.0.1", "--port", str(port)]
        return Server(name, command, self.workdir, cwd=self.workdir, port=port, log_sink=log_sink)

    def nginx_server(self, name, conf, port, wrapper=()):
        command = list(wrapper) + ["nginx", "-p", self.workdir, "-c", conf, "-e", os.path.join(self.workdir, "error.log")]
        return Server(name, command, self.workdir, cwd=self.workdir, port=port)

    def make_server(self, kind):
        if kind == "linkhost":
            return self.linkhost_server("linkhost", PORTS["linkhost"], log_sink=True)
        return self.nginx_server("nginx", self.nginx_conf, PORTS["nginx"])

    def start_main_servers(self):
        for kind in SERVERS:
            server = self.make_server(kind)
            server.start()
            deadline = time.monotonic() + 30
            while True:
                try:
                    if fetch(server.port, ROUTE["aasa"].path)[0] == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline or server.process.poll() is not None:
                    raise BenchError(f"{kind} did not start:\n{server.errors()[-2000:]}")
                time.sleep(0.05)
            self.servers[kind] = server
        time.sleep(1.0)
        self.data["rss_idle_kb"] = {kind: self.servers[kind].rss_kb() for kind in SERVERS}
        self.data["pss_idle_kb"] = {kind: self.servers[kind].pss_kb() for kind in SERVERS}
        self.data["processes"] = {kind: len(self.servers[kind].pids()) for kind in SERVERS}
        self.data["threads"] = {kind: sum(len(proc_threads(pid)) for pid in self.servers[kind].pids()) for kind in SERVERS}

    def check_parity(self):
        """Fetches every route from both servers: status, body digest and header size, to show the content is the same."""
        parity = {}
        for route in ROUTES:
            row = {}
            for kind in SERVERS:
                status, head, body = fetch(self.servers[kind].port, route.path)
                row[kind] = {"status": status, "header_bytes": len(head), "body_bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()[:16]}
            row["same_body"] = row["linkhost"]["sha256"] == row["nginx"]["sha256"] and row["linkhost"]["status"] == row["nginx"]["status"]
            if not row["same_body"] and route.key != "calls":
                log(f"warning: {route.title}: linkhost and nginx bodies differ ({row})")
            parity[route.key] = row
        self.data["parity"] = parity

    # Phases

    def phase_startup(self):
        log(f"start to first served request: {STARTS} starts of each server, alternating")
        times = {kind: [] for kind in SERVERS}
        for index in range(STARTS):
            order = SERVERS if index % 2 == 0 else SERVERS[::-1]
            for kind in order:
                server = self.make_server(kind)
                try:
                    times[kind].append(time_to_first_ok(server, AASA_PATH) * 1000)
                finally:
                    server.stop()
                time.sleep(0.2)
        self.data["startup_ms"] = times

    def phase_rounds(self, phase, route_keys, pinned=False):
        runs = 0
        for round_index in range(ROUNDS):
            order = SERVERS if round_index % 2 == 0 else SERVERS[::-1]
            for key in route_keys:
                for mode, _ in MODES:
                    for kind in order:
                        server = self.servers[kind]
                        result = measured_wrk(server, ROUTE[key].path, DURATION, close=(mode == "close"), client_cpu=1 if pinned else None, script=ROUTE[key].script)
                        result.update({"phase": phase, "round": round_index + 1, "route": key, "mode": mode, "server": kind})
                        self.data["runs"].append(result)
                        runs += 1
                        log(f"{phase} round {round_index + 1}/{ROUNDS} {ROUTE[key].title:10} {mode:9} {kind:8} "
                            f"{result['rps']:>9,.0f} req/s  p99 {result['p99_ms'] or 0:7.2f} ms  "
                            f"{(result['cpu_us_per_request'] or 0):6.2f} µs CPU/req  load {result['load1']:.2f}  others {result['other_cores']:.2f} cores"
                            + (f"  errors {result['socket_errors']}" if result["socket_errors"] else ""))
                        time.sleep(1.0)
        return runs

    def phase_warmup(self):
        log("warm-up: 1 s per route per server")
        for route in ROUTES:
            for kind in SERVERS:
                run_wrk(wrk_command(self.servers[kind].port, route.path, 1, script=route.script), 1)

    def phase_pinned(self):
        log("pinned: servers on core 0, wrk on core 1")
        for kind in SERVERS:
            self.servers[kind].set_affinity({0})
        try:
            self.phase_rounds("pinned", PINNED_ROUTES, pinned=True)
        finally:
            for kind in SERVERS:
                self.servers[kind].set_affinity(set(range(os.cpu_count())))

    def phase_idle(self):
        log(f"RSS while holding {IDLE_CONNECTIONS} idle keep-alive connections")
        results = {}
        for kind in SERVERS:
            server = self.servers[kind]
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
        self.data["idle"] = results

    def phase_reload(self):
        log(f"reload under load: AASA keep-alive for {RELOAD_SECONDS} s, SIGHUP in the middle, {ROUNDS} round(s)")
        script = os.path.join(HERE, "per_second.lua")
        reloads = []
        for round_index in range(ROUNDS):
            order = SERVERS if round_index % 2 == 0 else SERVERS[::-1]
            for kind in order:
                server = self.servers[kind]
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
                    out, err = process.communicate(timeout=RELOAD_SECONDS + 60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    raise BenchError("wrk did not finish the reload run")
                buckets = {int(a): int(b) for a, b in re.findall(r"^bucket (\d+) (\d+)$", out, re.M)}
                statuses = {int(a): int(b) for a, b in re.findall(r"^status (\d+) (\d+)$", out, re.M)}
                time.sleep(1.0)
                if kind == "linkhost":
                    reloaded = server.errors().count("reloaded") > before_log
                else:
                    reloaded = bool(before_pids - set(server.pids()))
                seconds = sorted(buckets)
                full = seconds[1:-1]  # the first and last seconds are partial
                reload_second = int(reload_sent)
                window = [second for second in (reload_second, reload_second + 1) if second in full]
                baseline_seconds = [second for second in full if second not in window]
                baseline = statistics.median(buckets[s] for s in baseline_seconds) if baseline_seconds else 0
                dip = max(0.0, 1 - min(buckets[s] for s in window) / baseline) if baseline and window else None
                # The same statistic over every other pair of adjacent whole seconds: the worst that noise alone did.
                pairs = [(a, a + 1) for a in full if a + 1 in full and a not in window and a + 1 not in window]
                noise = max(max(0.0, 1 - min(buckets[a], buckets[b]) / baseline) for a, b in pairs) if baseline and pairs else None
                entry = {"round": round_index + 1, "server": kind, "buckets": [buckets[s] for s in seconds],
                         "reload_index": seconds.index(reload_second) if reload_second in seconds else None,
                         "baseline": baseline, "dip": dip, "noise_dip": noise, "reloaded": reloaded, "statuses": statuses}
                reloads.append(entry)
                log(f"reload round {round_index + 1} {kind:8}: per second {entry['buckets']} (reload in bucket {entry['reload_index']}), "
                    f"dip {dip * 100 if dip is not None else float('nan'):.1f}%, noise {noise * 100 if noise is not None else float('nan'):.1f}%, reloaded={reloaded}")
                time.sleep(1.0)
        self.data["reload"] = reloads
        self.reload_cost()

    def reload_cost(self):
        """CPU time one reload costs an idle server: RELOAD_COST_COUNT SIGHUPs half a second apart, CPU before and after."""
        costs = {}
        for kind in SERVERS:
            server = self.servers[kind]
            before = server.cpu_ticks_with_exited_children()
            for _ in range(RELOAD_COST_COUNT):
                server.signal(signal.SIGHUP)
                time.sleep(0.5)
            time.sleep(1.0)
            costs[kind] = (server.cpu_ticks_with_exited_children() - before) / CLK_TCK / RELOAD_COST_COUNT * 1000
            log(f"{kind}: {costs[kind]:.1f} ms of CPU per reload (idle, {RELOAD_COST_COUNT} reloads)")
        self.data["reload_cpu_ms"] = costs

    def stop_main_servers(self):
        for kind, server in self.servers.items():
            server.stop()
        self.servers = {}
        linkhost = self.make_server("linkhost")
        lines = linkhost.log_lines()
        requests = sum(run["requests"] for run in self.data["runs"] if run["server"] == "linkhost")
        sample = next((line for line in linkhost.output().splitlines() if line.startswith("{")), None)
        self.data["access_log"] = {"lines": lines, "wrk_requests": requests, "sample": sample}
        if lines is not None:
            log(f"linkhost wrote {lines:,} access-log lines for {requests:,} requests counted by wrk (plus warm-up, idle, reload runs)")

    # Allocations

    def phase_allocations(self):
        if not VALGRIND or not shutil.which("valgrind"):
            self.data["notes"].append("Allocation counts skipped (VALGRIND=0 or valgrind missing).")
            return
        counts = (ALLOC_REQUESTS, 2 * ALLOC_REQUESTS)
        log(f"heap allocations: linkhost under valgrind --tool=dhat, {counts[0]} and {counts[1]} keep-alive requests per route")
        results = {}
        for route in ROUTES:
            runs = {}
            for count in counts:
                runs[count] = self.dhat_run(route, count)
            results[route.key] = self.difference_dhat(runs[counts[0]], runs[counts[1]], counts[1] - counts[0])
            summary = results[route.key]
            log(f"{route.title:10}: {summary['blocks_per_request']:.2f} allocations/request ({summary['own_blocks_per_request']:.2f} in linkhost's code), "
                f"{summary['bytes_per_request']:.0f} bytes/request")
        self.data["allocations"] = results

    def dhat_run(self, route, count):
        out_file = os.path.join(self.workdir, f"dhat-{route.key}-{count}.json")
        server = self.linkhost_server(f"dhat-{route.key}-{count}", PORTS["valgrind"], wrapper=("valgrind", "--tool=dhat", "--num-callers=60", f"--dhat-out-file={out_file}"))
        server.start()
        try:
            wait_for_line(server, "listening on", 120)
            client = KeepAliveClient(server.port, timeout=60)
            try:
                for index in range(count):
                    status, _, _ = client.get(route.path_for(index + 1))
                    if status not in (200, 404):
                        raise BenchError(f"linkhost under dhat answered {status} for {route.path}")
            finally:
                client.close()
            time.sleep(0.5)
        finally:
            server.stop(timeout=120)
        with open(out_file) as handle:
            return json.load(handle)

    @staticmethod
    def own_frame(frame):
        return "$s8LinkHost" in frame or "$s8linkhost" in frame or "cmhd_" in frame

    def difference_dhat(self, small, large, requests):
        def by_stack(document):
            table = document["ftbl"]
            stacks = {}
            for point in document["pps"]:
                frames = tuple(table[index] for index in point["fs"])
                key = tuple(re.sub(r"^0x[0-9A-F]+: ", "", frame) for frame in frames)
                entry = stacks.setdefault(key, [0, 0])
                entry[0] += point["tbk"]
                entry[1] += point["tb"]
            return stacks

        a, b = by_stack(small), by_stack(large)
        sites = {}
        total_blocks = total_bytes = own_blocks = background_blocks = 0
        for key in set(a) | set(b):
            blocks = b.get(key, [0, 0])[0] - a.get(key, [0, 0])[0]
            size = b.get(key, [0, 0])[1] - a.get(key, [0, 0])[1]
            if blocks == 0:
                continue
            total_blocks += blocks
            total_bytes += size
            own_index = next((index for index, frame in enumerate(key) if self.own_frame(frame)), None)
            own = key[own_index] if own_index is not None else None
            # On the request path a stack runs inside libmicrohttpd's callbacks; the access log's flusher task does not,
            # and its allocations follow the clock (flushes per second), not the request count.
            on_request_path = any("libmicrohttpd" in frame for frame in key)
            if own and on_request_path:
                own_blocks += blocks
            elif own:
                background_blocks += blocks
            allocator_frame = lambda frame: re.search(r"malloc|calloc|realloc|swift_slowAlloc|swift_allocObject|memalign|strdup", frame)
            site = own or next((frame for frame in key if not allocator_frame(frame)), key[-1])
            # What the site called on the way to the allocator: the frame just below it.
            below = key[own_index - 1] if own_index else next((frame for frame in key if not allocator_frame(frame)), "")
            allocator = "" if allocator_frame(below) else below
            entry = sites.setdefault(site, {"blocks": 0, "bytes": 0, "own": bool(own), "via": set()})
            entry["blocks"] += blocks
            entry["bytes"] += size
            entry["via"].add(frame_name(allocator))
        ranked = sorted(sites.items(), key=lambda item: -item[1]["blocks"])
        return {
            "blocks_per_request": total_blocks / requests,
            "bytes_per_request": total_bytes / requests,
            "own_blocks_per_request": own_blocks / requests,
            "background_blocks_per_request": background_blocks / requests,
            "sites": [{"site": demangle(site), "per_request": entry["blocks"] / requests, "bytes_per_request": entry["bytes"] / requests,
                       "own": entry["own"], "via": sorted(demangle(v) for v in entry["via"] if v)[:2]} for site, entry in ranked[:12]],
        }

    # Driver

    def run(self):
        started = time.time()
        self.data["started"] = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        self.data["machine"] = machine_info()
        self.data["versions"] = versions(self.bin)
        self.data["load_start"] = loadavg()
        self.prepare()
        self.phase_startup()
        self.start_main_servers()
        self.check_parity()
        self.phase_warmup()
        self.phase_rounds("main", [route.key for route in ROUTES])
        time.sleep(1.0)
        self.data["rss_after_load_kb"] = {kind: self.servers[kind].rss_kb() for kind in SERVERS}
        self.data["pss_after_load_kb"] = {kind: self.servers[kind].pss_kb() for kind in SERVERS}
        if PINNED:
            self.phase_pinned()
        self.phase_idle()
        self.phase_reload()
        self.stop_main_servers()
        self.phase_allocations()
        self.data["load_end"] = loadavg()
        self.data["elapsed_s"] = time.time() - started
        with open(self.raw_path, "w") as handle:
            json.dump(self.data, handle, indent=1, default=list)
        write_results(self.data, self.results_path, self.nginx_conf)
        log(f"wrote {os.path.relpath(self.results_path, REPO)} and {os.path.relpath(self.raw_path, REPO)} in {self.data['elapsed_s'] / 60:.1f} min")

    def cleanup(self):
        for server in list(self.servers.values()):
            try:
                server.stop(timeout=5)
            except Exception as error:  # keep stopping the others
                log(f"could not stop {server.name}: {error}")


# MARK: machine facts

def command_output(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return (result.stdout + result.stderr).strip()
    except (OSError, subprocess.TimeoutExpired):
        return "not found"


def machine_info():
    model = "unknown"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as handle:
        memory_kb = int(handle.readline().split()[1])
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": os.uname().release, "memory_gib": round(memory_kb / 1048576, 1)}


def versions(binary):
    dpkg = lambda name: command_output(["dpkg-query", "-W", "-f=${Version}", name])
    return {
        "swift": command_output(["swift", "--version"]).splitlines()[0] if shutil.which("swift") else "not found",
        "nginx": command_output(["nginx", "-v"]).replace("nginx version: ", ""),
        "wrk": command_output(["wrk", "-v"]).splitlines()[0].split(" [")[0],
        "libmicrohttpd": command_output(["pkg-config", "--modversion", "libmicrohttpd"]) + f" (deb {dpkg('libmicrohttpd12')})",
        "valgrind": command_output(["valgrind", "--version"]),
        "python": sys.version.split()[0],
        # The last commit that changed the server, not the benchmark's own commits.
        "linkhost": command_output(["git", "-C", REPO, "log", "-1", "--format=%h %s", "--", "Sources", "Package.swift"])
                    + (" (uncommitted changes)" if command_output(["git", "-C", REPO, "status", "--porcelain", "--", "Sources", "Package.swift"]) else ""),
        "binary": binary,
    }


def frame_name(frame):
    """A valgrind frame without its address; an unnamed one becomes its library's name."""
    match = re.match(r"^\?\?\? \(in (.*)\)$", frame)
    if match:
        return os.path.basename(match.group(1)) + " (no symbol)"
    return re.sub(r" \(in .*\)$", "", frame).strip()


_demangled = {}


def demangle(text):
    """Demangles the Swift symbols in a valgrind frame or function name (cached; `swift demangle` when present)."""
    symbols = [s for s in re.findall(r"\$s[\w.$]+", text) if s not in _demangled]
    if symbols and shutil.which("swift"):
        result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols), capture_output=True, text=True)
        lines = result.stdout.splitlines()
        for symbol, line in zip(symbols, lines):
            _demangled[symbol] = line.strip()
    for symbol in re.findall(r"\$s[\w.$]+", text):
        text = text.replace(symbol, _demangled.get(symbol, symbol))
    return text


# MARK: RESULTS.md

def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cell(data, phase, route, mode, kind, key):
    return median([run[key] for run in data["runs"] if run["phase"] == phase and run["route"] == route and run["mode"] == mode and run["server"] == kind])


def spread(data, phase, route, mode, kind, key):
    values = [run[key] for run in data["runs"] if run["phase"] == phase and run["route"] == route and run["mode"] == mode and run["server"] == kind and run[key] is not None]
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    middle = statistics.median(values)
    return f" ±{(high - low) / 2 / middle * 100:.0f}%" if middle else ""


def round_ratios(data, phase, route, mode, key):
    """linkhost ÷ nginx within each round: the two ran back to back, so these pair up the noise."""
    ratios = []
    for number in sorted({run["round"] for run in data["runs"] if run["phase"] == phase}):
        pick = lambda kind: [run[key] for run in data["runs"] if run["phase"] == phase and run["round"] == number and run["route"] == route and run["mode"] == mode and run["server"] == kind and run[key]]
        mine, theirs = pick("linkhost"), pick("nginx")
        if mine and theirs:
            ratios.append(mine[0] / theirs[0])
    return ratios


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(value):
    return f"{value:.2f}×" if value is not None else "n/a"


def fmt_num(value, digits=0):
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}"


def throughput_table(data, phase, route_keys):
    lines = [
        "| route | connections | linkhost req/s | nginx req/s | ratio | linkhost p99 | nginx p99 | ratio | linkhost CPU/req | nginx CPU/req | ratio |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key in route_keys:
        for mode, mode_title in MODES:
            get = lambda kind, field: cell(data, phase, key, mode, kind, field)
            rps = {kind: get(kind, "rps") for kind in SERVERS}
            p99 = {kind: get(kind, "p99_ms") for kind in SERVERS}
            cpu = {kind: get(kind, "cpu_us_per_request") for kind in SERVERS}
            if rps["linkhost"] is None:
                continue
            lines.append(
                f"| {ROUTE[key].title} | {mode_title} | {fmt_num(rps['linkhost'])}{spread(data, phase, key, mode, 'linkhost', 'rps')} "
                f"| {fmt_num(rps['nginx'])}{spread(data, phase, key, mode, 'nginx', 'rps')} | **{fmt_ratio(ratio(rps['linkhost'], rps['nginx']))}** "
                f"| {fmt_num(p99['linkhost'], 2)} ms | {fmt_num(p99['nginx'], 2)} ms | {fmt_ratio(ratio(p99['linkhost'], p99['nginx']))} "
                f"| {fmt_num(cpu['linkhost'], 2)} µs | {fmt_num(cpu['nginx'], 2)} µs | {fmt_ratio(ratio(cpu['linkhost'], cpu['nginx']))} |")
    return lines


def targets(data):
    rows = []

    def add(name, value, reference, required, passed):
        rows.append((name, value, reference, required, "n/a" if passed is None else ("**PASS**" if passed else "**FAIL**")))

    def add_ratio(name, route, mode, key, reference, required, test):
        """A ratio target: the median of the per-round ratios decides; their range shows how firm it is."""
        ratios = round_ratios(data, "main", route, mode, key)
        if not ratios:
            return add(name, "n/a", reference, required, None)
        value = statistics.median(ratios)
        shown = fmt_ratio(value) + (f" (rounds {min(ratios):.2f}–{max(ratios):.2f})" if len(ratios) > 1 else "")
        passed = test(value)
        verdict = "**PASS**" if passed else "**FAIL**"
        if len(ratios) > 1 and any(test(r) != passed for r in ratios):
            verdict += " (rounds disagree)"
        rows.append((name, shown, reference, required, verdict))

    add_ratio("AASA keep-alive req/s", "aasa", "keepalive", "rps", "nginx static file", "≥ 1.30×", lambda v: v >= 1.3)
    add_ratio("AASA keep-alive CPU per request", "aasa", "keepalive", "cpu_us_per_request", "nginx static file", "≤ 0.60×", lambda v: v <= 0.6)
    add_ratio("call page keep-alive req/s, new ID every request (rendered)", "calls", "keepalive", "rps", "nginx `return 200`", "≥ 1.00×", lambda v: v >= 1.0)
    add_ratio("call page keep-alive req/s, one ID (linkhost's page cache answers)", "call", "keepalive", "rps", "nginx `return 200`", "≥ 1.00×", lambda v: v >= 1.0)
    for route in ROUTES:
        add_ratio(f"{route.title} `Connection: close` req/s", route.key, "close", "rps", "nginx", "≥ 1.00×", lambda v: v >= 1.0)
    for route in ROUTES:
        for mode, mode_title in MODES:
            mine, theirs = cell(data, "main", route.key, mode, "linkhost", "p99_ms"), cell(data, "main", route.key, mode, "nginx", "p99_ms")
            add_ratio(f"{route.title} {mode_title} p99 at {CONNECTIONS} connections (median {fmt_num(mine, 1)} vs {fmt_num(theirs, 1)} ms)",
                      route.key, mode, "p99_ms", "nginx", "≤ 1.00×", lambda v: v <= 1.0)
    idle = data["rss_idle_kb"]["linkhost"] / 1024
    add("RSS idle", f"{idle:.1f} MB", f"{data['rss_idle_kb']['nginx'] / 1024:.1f} MB", "≤ 12 MB", idle <= 12)
    if "idle" in data:
        held = data["idle"]["linkhost"]["rss_kb"] / 1024
        add(f"RSS with {IDLE_CONNECTIONS:,} idle keep-alive connections", f"{held:.1f} MB", f"{data['idle']['nginx']['rss_kb'] / 1024:.1f} MB", "≤ 40 MB", held <= 40)
    start = median(data["startup_ms"]["linkhost"])
    add("start to first served request", f"{start:.1f} ms", f"{median(data['startup_ms']['nginx']):.1f} ms", "≤ 50 ms", start <= 50)
    reloads = [entry for entry in data.get("reload", []) if entry["server"] == "linkhost"]
    if reloads:
        dip = median([entry["dip"] for entry in reloads]) or 0
        noise = median([entry["noise_dip"] for entry in reloads]) or 0
        theirs = median([entry["dip"] for entry in data["reload"] if entry["server"] == "nginx"]) or 0
        done = all(entry["reloaded"] for entry in reloads)
        verdict = done and dip <= 0.10
        name = "reload under load: 1-s dip (median of rounds)"
        cost = data.get("reload_cpu_ms", {}).get("linkhost")
        if done and noise >= 0.10:
            # Seconds without a reload dipped more than the target: this machine cannot resolve a 10 % dip in this run.
            note = f"**INCONCLUSIVE** (noise {noise * 100:.0f}%; a reload costs {cost:.1f} ms CPU)" if cost is not None else "**INCONCLUSIVE** (noise)"
            rows.append((name, f"{dip * 100:.1f}% (noise {noise * 100:.1f}%)", f"{theirs * 100:.1f}%", "≤ 10%", note))
        else:
            add(name, f"{dip * 100:.1f}% (noise {noise * 100:.1f}%)", f"{theirs * 100:.1f}%", "≤ 10%", verdict)
    allocations = data.get("allocations")
    if allocations:
        own = allocations["aasa"]["own_blocks_per_request"]
        # Timer-driven allocations (the access log's flusher) do not scale with requests and leave a few hundredths either way.
        add("heap allocations per AASA request, linkhost's code", f"{own:.2f}", f"{allocations['aasa']['blocks_per_request']:.2f} in all", "0", own < 0.1)
        for key, what in (("calls", "new ID every request (rendered)"), ("call", "one ID (cached)")):
            if key not in allocations:
                continue
            own = allocations[key]["own_blocks_per_request"]
            constant = abs(own - round(own)) < 0.05
            add(f"heap allocations per call page, {what}, linkhost's code", f"{own:.2f}", f"{allocations[key]['blocks_per_request']:.2f} in all",
                "small constant (≤ 16, whole number)", constant and own <= 16)
    return rows


def write_results(data, path, nginx_conf):
    machine, version = data["machine"], data["versions"]
    runs = [run for run in data["runs"]]
    loads = [run["load1"] for run in runs]
    others = [run["other_cores"] for run in runs]
    heavy_runs = sum(1 for run in runs if run["heavy"])
    settings = data["settings"]
    out = []
    w = out.append
    w("# linkhost beside nginx: benchmark results")
    w("")
    w(f"Generated by `Benchmarks/run.sh` on {data['started']} ({'QUICK smoke run' if settings['quick'] else 'full run'}: "
      f"{settings['rounds']} round(s) of {settings['duration']} s per cell, {data['elapsed_s'] / 60:.0f} min in all). "
      "Rerun with `make bench` (or `Benchmarks/run.sh`); `QUICK=1` for a smoke run. The raw numbers of every run are in "
      "`Benchmarks/results.json`.")
    w("")
    for note in data["notes"]:
        w(f"> **Note:** {note}")
        w("")
    w("## Machine and versions")
    w("")
    w(f"- CPU: {machine['cpu']}, `nproc` = {machine['nproc']}; memory {machine['memory_gib']} GiB; kernel {machine['kernel']}")
    w(f"- linkhost: {version['linkhost']}, release build (`swift build -c release`); {version['swift']}")
    w(f"- nginx {version['nginx']}; wrk {version['wrk']}; libmicrohttpd {version['libmicrohttpd']}; {version['valgrind']}; Python {version['python']}")
    w(f"- Server shape: linkhost {data['processes']['linkhost']} process with {data['threads']['linkhost']} threads "
      f"in all (libmicrohttpd's pool of one thread per core, the main thread waiting for signals, and Swift concurrency threads for the log flusher); nginx {data['processes']['nginx']} processes (master + `worker_processes auto`).")
    observability = data.get("observability") or {}
    access = data.get("access_log") or {}
    line = f"- linkhost observability as the targets require: access log `{observability.get('accessLog')}` on stdout, metrics " \
           f"{'on' if (observability.get('metrics') or {}).get('enabled') else 'off'}. stdout goes down a pipe (as to journald or a container runtime) to " \
           "`sed -u 20q` then `wc -l`, which keep the first lines and count the rest"
    if access.get("lines") is not None:
        line += f": {access['lines']:,} lines for the {access['wrk_requests']:,} requests wrk counted in the timed runs (warm-up, idle and reload runs add more)"
    w(line + ".")
    if access.get("sample"):
        w(f"  Sample line: `{access['sample'][:300]}`")
    w(f"- Load while measuring (the machine is shared with other engineers' builds): 1-min load average "
      f"{min(loads):.2f} – {max(loads):.2f} (median {statistics.median(loads):.2f}); CPU used by other processes during a run: "
      f"median {statistics.median(others):.2f}, max {max(others):.2f} of {machine['nproc']} cores; compilers or linkers were running during "
      f"{heavy_runs} of {len(runs)} runs. Servers alternate A B / B A each round so this noise hits both.")
    w("")
    w("## Targets")
    w("")
    w("linkhost figures against the issue's targets. Ratios are linkhost ÷ nginx, taken within each round (the two ran back to "
      "back) and the median of the rounds decides; '(rounds disagree)' marks a verdict that some rounds contradict, which on this "
      "shared machine means noise decided it. Latencies and memory are medians or single readings.")
    w("")
    w("| target | linkhost | nginx | required | result |")
    w("| --- | ---: | ---: | --- | --- |")
    for name, value, reference, required, result in targets(data):
        w(f"| {name} | {value} | {reference} | {required} | {result} |")
    w("")
    w(f"## Throughput, p99 latency and server CPU per request ({settings['rounds']} rounds × {settings['duration']} s, `wrk -t{WRK_THREADS} -c{CONNECTIONS}`)")
    w("")
    w("Median of the rounds; `±` is half the range of the rounds as a share of the median. CPU per request is the server's "
      "utime + stime (linkhost's one process; nginx master + workers) from `/proc/PID/stat` before and after the run, divided by "
      "the requests wrk completed.")
    w("")
    out.extend(throughput_table(data, "main", [route.key for route in ROUTES]))
    w("")
    if any(run["phase"] == "pinned" for run in runs):
        w("### Pinned: server on core 0, wrk on core 1 (`taskset`)")
        w("")
        w("The same running servers, every thread moved to core 0 with `sched_setaffinity`; wrk started under `taskset -c 1`.")
        w("")
        out.extend(throughput_table(data, "pinned", settings["pinned_routes"]))
        w("")
    w("## Memory")
    w("")
    w("VmRSS from `/proc/PID/status`, summed over nginx's master and workers (so pages they share count once per process); "
      "PSS from `/proc/PID/smaps_rollup` shares them out and is the fairer sum for nginx.")
    w("")
    w("| when | linkhost RSS | nginx RSS | linkhost PSS | nginx PSS |")
    w("| --- | ---: | ---: | ---: | ---: |")
    mb = lambda kb: f"{kb / 1024:.1f} MB"
    w(f"| idle, after start | {mb(data['rss_idle_kb']['linkhost'])} | {mb(data['rss_idle_kb']['nginx'])} | {mb(data['pss_idle_kb']['linkhost'])} | {mb(data['pss_idle_kb']['nginx'])} |")
    w(f"| after the load rounds | {mb(data['rss_after_load_kb']['linkhost'])} | {mb(data['rss_after_load_kb']['nginx'])} | {mb(data['pss_after_load_kb']['linkhost'])} | {mb(data['pss_after_load_kb']['nginx'])} |")
    if "idle" in data:
        idle = data["idle"]
        w(f"| holding {IDLE_CONNECTIONS:,} idle keep-alive connections | {mb(idle['linkhost']['rss_kb'])} | {mb(idle['nginx']['rss_kb'])} | {mb(idle['linkhost']['pss_kb'])} | {mb(idle['nginx']['pss_kb'])} |")
        w(f"| after closing them | {mb(idle['linkhost']['rss_after_close_kb'])} | {mb(idle['nginx']['rss_after_close_kb'])} | | |")
        w("")
        w(f"Idle connections: a Python client opens {IDLE_CONNECTIONS:,} connections to 127.0.0.1, sends one AASA request on each and "
          f"keeps them open (server sockets seen: linkhost {idle['linkhost']['sockets']:,}, nginx {idle['nginx']['sockets']:,}), then checks the "
          "first and last still answer.")
    w("")
    w("## Start to first served request")
    w("")
    w("From spawning the process to the first `200` on the AASA, polled by a tight connect loop (0.5 ms between tries); "
      f"{settings['starts']} starts of each, alternating.")
    w("")
    w("| server | median | min | max |")
    w("| --- | ---: | ---: | ---: |")
    for kind in SERVERS:
        values = data["startup_ms"][kind]
        w(f"| {kind} | {statistics.median(values):.1f} ms | {min(values):.1f} ms | {max(values):.1f} ms |")
    w("")
    if data.get("reload"):
        w("## Reload under load")
        w("")
        w(f"AASA, keep-alive, `wrk -t{WRK_THREADS} -c{CONNECTIONS} -d{settings['reload_seconds']}s -s Benchmarks/per_second.lua`, which counts "
          "responses per wall-clock second; SIGHUP is sent in the middle of a second halfway through. Dip: how far the slower of the "
          "reload's second and the next falls below the median of the other whole seconds (first and last seconds are partial and "
          "dropped). For scale, 'noise' is the worst of the same measure over the other pairs of adjacent seconds, without a reload.")
        w("")
        w("| round | server | requests per second (reload in **bold**) | dip | noise | reload done |")
        w("| --- | --- | --- | ---: | ---: | --- |")
        for entry in data["reload"]:
            seconds = [f"**{count:,}**" if index == entry["reload_index"] else f"{count:,}" for index, count in enumerate(entry["buckets"])]
            dip = f"{entry['dip'] * 100:.1f}%" if entry["dip"] is not None else "n/a"
            noise = f"{entry['noise_dip'] * 100:.1f}%" if entry["noise_dip"] is not None else "n/a"
            w(f"| {entry['round']} | {entry['server']} | {' '.join(seconds)} | {dip} | {noise} | {'yes' if entry['reloaded'] else 'NO'} |")
        w("")
        if data.get("reload_cpu_ms"):
            cost = data["reload_cpu_ms"]
            w(f"CPU time of one reload on the idle server ({settings.get('reload_cost_count', RELOAD_COST_COUNT)} SIGHUPs, utime + stime before and after, "
              f"nginx's exited workers included): linkhost {cost['linkhost']:.1f} ms, nginx {cost['nginx']:.1f} ms. "
              "A reload that takes c ms of CPU can cost at most about c ms of the serving capacity of the second it falls in.")
            w("")
    if data.get("allocations"):
        w("## Heap allocations per request (steady state)")
        w("")
        n = settings["alloc_requests"]
        w(f"linkhost under `valgrind --tool=dhat`, {n:,} and then {2 * n:,} requests on one keep-alive connection (a fresh process each), "
          f"allocation counts differenced per call stack and divided by {n:,}: start-up and shutdown cancel out. "
          "'linkhost's code' counts the stacks that pass through LinkHost/linkhost functions or the C shim inside libmicrohttpd's "
          "callbacks (the request path); 'background' is linkhost code on other threads (the access log's flush timer), which "
          "follows the clock, not the requests: under valgrind a request takes far longer, so it looks bigger here than it is. "
          "The rest is libmicrohttpd and libc on their own.")
        w("")
        w("| route | allocations / request | in linkhost's code (request path) | background | bytes / request |")
        w("| --- | ---: | ---: | ---: | ---: |")
        for route in ROUTES:
            entry = data["allocations"].get(route.key)
            if entry:
                w(f"| {route.title} | {entry['blocks_per_request']:.2f} | {entry['own_blocks_per_request']:.2f} "
                  f"| {entry.get('background_blocks_per_request', 0):.2f} | {entry['bytes_per_request']:.0f} |")
        w("")
        for route in ROUTES:
            entry = data["allocations"].get(route.key)
            if not entry or not entry["sites"]:
                continue
            w(f"Call sites, {route.title} (allocations per request, first frame in linkhost's code, else the first non-allocator frame):")
            w("")
            for site in [site for site in entry["sites"] if site["per_request"] >= 0.05][:10]:
                via = f" — calling `{'`, `'.join(site['via'])[:200]}`" if site["via"] else ""
                w(f"- {site['per_request']:.2f} × {site['bytes_per_request'] / max(site['per_request'], 1e-9):.0f} B: `{site['site'][:220]}`{via}")
            w("")
    w("## Same content on both servers")
    w("")
    w(f"Every request carries `Host: {HOST_HEADER}` and no User-Agent (linkhost then renders its call page for unknown clients, "
      "which has no QR code). nginx serves a copy of `public/` plus the AASA bytes from `linkhost print aasa`; its call "
      "page is linkhost's rendered page with the call ID and type put back from the URL, so both answer with the same bytes.")
    w("")
    w("| route | path (a sample) | status (linkhost / nginx) | body bytes (linkhost / nginx) | same body | header bytes (linkhost / nginx) |")
    w("| --- | --- | --- | --- | --- | --- |")
    for route in ROUTES:
        row = data["parity"].get(route.key)
        if not row:
            continue
        same = "yes" if row["same_body"] else ("no: the QR code encodes the ID" if route.key == "calls" else "NO")
        w(f"| {route.title} | `{route.path}` | {row['linkhost']['status']} / {row['nginx']['status']} | {row['linkhost']['body_bytes']:,} / {row['nginx']['body_bytes']:,} "
          f"| {same} | {row['linkhost']['header_bytes']} / {row['nginx']['header_bytes']} |")
    w("")
    w("'call page, new IDs' sends a different call ID on every request (`Benchmarks/distinct_calls.lua`), so linkhost renders every page; "
      "nginx answers it with the page of the fixed ID with the new ID put in, so its body differs from linkhost's only inside the QR code.")
    w("")
    w("## Commands")
    w("")
    w("```sh")
    w(f"{'QUICK=1 ' if settings['quick'] else ''}ROUNDS={settings['rounds']} DURATION={settings['duration']} Benchmarks/run.sh   # all of the below")
    w("swift build -c release --scratch-path /tmp/build-bench -Xcc -gdwarf-4   # DWARF 4 for valgrind 3.19; same code")
    w(f"linkhost serve --config WORK/linkhost.json --host 127.0.0.1 --port {PORTS['linkhost']}   # config/linkhost.json, absolute paths, perIPConnectionLimit 0, access log json, metrics on")
    w(f"nginx -p WORK -c WORK/nginx-{PORTS['nginx']}.conf -e WORK/error.log   # from Benchmarks/nginx.conf.template")
    for mode, _ in MODES:
        w(shlex.join(wrk_command("PORT", "PATH", settings["duration"], close=(mode == "close"))).replace("127.0.0.1:PORTPATH", "127.0.0.1:PORT/PATH"))
    w(f"wrk ... -s Benchmarks/distinct_calls.lua http://127.0.0.1:PORT/call/...   # call page, new IDs")
    w(f"taskset -c 1 wrk ...   # pinned run; servers' threads on core 0")
    w(f"valgrind --tool=dhat --num-callers=60 --dhat-out-file=WORK/dhat-ROUTE-N.json linkhost serve ...   # N = {settings['alloc_requests']}, {2 * settings['alloc_requests']}")
    w("```")
    w("")
    w("<details><summary>Every run</summary>")
    w("")
    w("| phase | round | route | connections | server | req/s | p50 | p99 | CPU/req | socket errors | load | other cores |")
    w("| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for run in runs:
        w(f"| {run['phase']} | {run['round']} | {ROUTE[run['route']].title} | {dict(MODES)[run['mode']]} | {run['server']} | {run['rps']:,.0f} "
          f"| {fmt_num(run['p50_ms'], 2)} ms | {fmt_num(run['p99_ms'], 2)} ms | {fmt_num(run['cpu_us_per_request'], 2)} µs | {run['socket_errors']} "
          f"| {run['load1']:.2f} | {run['other_cores']:.2f} |")
    w("")
    w("</details>")
    w("")
    with open(path, "w") as handle:
        handle.write("\n".join(out))


# MARK: profile

class Profiler(Bench):
    """Callgrind instruction counts per request (repeatable, whatever the load) and a perf sample under wrk."""

    def run(self):
        self.prepare()
        report = {"started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine_info(),
                  "versions": versions(self.bin), "callgrind": {}, "perf": None}
        for key in ("aasa", "call", "calls", "404"):
            report["callgrind"][f"linkhost/{key}"] = self.callgrind_linkhost(ROUTE[key])
        for key in ("aasa", "calls"):
            report["callgrind"][f"nginx/{key}"] = self.callgrind_nginx(ROUTE[key])
        report["perf"] = self.perf_sample()
        with open(self.raw_path, "w") as handle:
            json.dump(report, handle, indent=1)
        write_profile(report, self.results_path)
        log(f"wrote {os.path.relpath(self.results_path, REPO)}")

    def callgrind_run(self, server, route, out_file, wait_line=None):
        server.start()
        try:
            if wait_line:
                wait_for_line(server, wait_line, 120)
            else:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
                        break
                    except OSError:
                        if time.monotonic() > deadline or server.process.poll() is not None:
                            raise BenchError(f"{server.name} did not start under callgrind:\n{server.errors()[-2000:]}")
                        time.sleep(0.2)
            client = KeepAliveClient(server.port, timeout=60)
            client.get(route.path_for(10_000_000 - 1))  # first-request costs (lazy binding, first touches) stay out of the count
            subprocess.run(["callgrind_control", "--instr=on", str(server.pid)], capture_output=True, timeout=60, check=True)
            for index in range(PROFILE_REQUESTS):
                client.get(route.path_for(index + 1))
            subprocess.run(["callgrind_control", "--instr=off", str(server.pid)], capture_output=True, timeout=60, check=True)
            client.close()
        finally:
            server.stop(timeout=120)
        return self.annotate(out_file)

    def callgrind_linkhost(self, route):
        log(f"callgrind: linkhost, {PROFILE_REQUESTS} × {route.title}")
        out_file = os.path.join(self.workdir, f"callgrind-linkhost-{route.key}.out")
        server = self.linkhost_server(f"callgrind-{route.key}", PORTS["valgrind"],
                                      wrapper=("valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}"))
        return self.callgrind_run(server, route, out_file, wait_line="listening on")

    def callgrind_nginx(self, route):
        log(f"callgrind: nginx (one process), {PROFILE_REQUESTS} × {route.title}")
        out_file = os.path.join(self.workdir, f"callgrind-nginx-{route.key}.out")
        conf = self.write_nginx_conf(PORTS["valgrind"], self.workdir, self.call_page, master=False, workers=1)
        server = self.nginx_server(f"callgrind-nginx-{route.key}", conf, PORTS["valgrind"],
                                   wrapper=("valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out_file}"))
        return self.callgrind_run(server, route, out_file)

    def annotate(self, out_file):
        files = [name for name in os.listdir(self.workdir) if os.path.join(self.workdir, name).startswith(out_file)]
        path = os.path.join(self.workdir, sorted(files)[0])
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
        shutil.copy(path, os.path.join(self.workdir, "keep-" + os.path.basename(path)))
        return result

    def perf_sample(self):
        if not shutil.which("perf"):
            return None
        check = subprocess.run(["perf", "stat", "-e", "instructions", "true"], capture_output=True, text=True)
        counters = "<not supported>" not in check.stderr and check.returncode == 0
        log(f"perf: hardware counters {'work' if counters else 'are not supported here'}; sampling cpu-clock under wrk")
        samples = {}
        plan = [("linkhost", "aasa", "aasa", False), ("linkhost", "aasa-close", "aasa", True), ("linkhost", "calls", "calls", False),
                ("nginx", "nginx-aasa", "aasa", False), ("nginx", "nginx-calls", "calls", False)]
        for kind in SERVERS:
            server = self.linkhost_server("perf-linkhost", PORTS["linkhost"], log_sink=True) if kind == "linkhost" \
                else self.nginx_server("perf-nginx", self.nginx_conf, PORTS["nginx"])
            server.start()
            try:
                deadline = time.monotonic() + 30
                while True:
                    try:
                        if fetch(server.port, AASA_PATH)[0] == 200:
                            break
                    except OSError:
                        pass
                    if time.monotonic() > deadline:
                        raise BenchError(f"{kind} did not start for perf")
                    time.sleep(0.05)
                for owner, name, key, close in plan:
                    if owner != kind:
                        continue
                    data_file = os.path.join(self.workdir, f"perf-{name}.data")
                    seconds = max(3, DURATION // 2)
                    pids = ",".join(str(pid) for pid in server.pids())
                    recorder = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-o", data_file, "-p", pids, "--", "sleep", str(seconds)],
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    run_wrk(wrk_command(server.port, ROUTE[key].path, seconds, close=close, script=ROUTE[key].script, latency=False), seconds)
                    recorder.wait(timeout=60)
                    report = lambda sort: subprocess.run(["perf", "report", "-i", data_file, "--no-children", "--sort", sort, "--stdio", "-g", "none"],
                                                         capture_output=True, text=True, timeout=120).stdout
                    parse = lambda text: [(float(m.group(1)), demangle(re.sub(r"(\s+-)+$", "", " ".join(m.group(2).split()))))
                                          for m in re.finditer(r"^\s+([\d.]+)%\s+(.+?)\s*$", text, re.M)]
                    samples[name] = {"title": f"{kind}: {ROUTE[key].title}, {'Connection: close' if close else 'keep-alive'}",
                                     "by_dso": parse(report("dso"))[:12], "by_symbol": parse(report("dso,symbol"))[:30]}
            finally:
                server.stop()
        return {"hardware_counters": counters, "samples": samples}


def callgrind_name(text):
    """'file:function [object]' from callgrind_annotate as 'function — object' (unnamed code: object and address)."""
    match = re.match(r"^(.*?):(.*?)(?: \[(.*)\])?$", text)
    if not match:
        return demangle(text)
    source, function, obj = match.groups()
    library = os.path.basename(obj) if obj else os.path.basename(source) if source != "???" else ""
    if function.startswith("0x"):
        return f"{library or 'unknown'} {function} (no symbol)"
    if library == "linkhost" or (not obj and source.endswith(".swift")):
        library = "linkhost"
    return f"{demangle(function)} — {library}" if library else demangle(function)


def write_profile(report, path):
    out = []
    w = out.append
    w("# linkhost profile: where the time goes")
    w("")
    w(f"Generated by `Benchmarks/profile.sh` on {report['started']} from linkhost {report['versions']['linkhost']} "
      f"({report['machine']['cpu']}, kernel {report['machine']['kernel']}). Findings and proposed changes: `Benchmarks/FINDINGS.md`.")
    w("")
    w(f"## Instructions per request (callgrind, {PROFILE_REQUESTS:,} keep-alive requests after one warm-up request)")
    w("")
    w("User-space instructions of the whole server process (every thread), collection switched on with `callgrind_control` after "
      "start-up, so the count is per request in steady state. Kernel time (TCP, epoll) is not in these counts; see perf below. "
      "nginx runs as one process (`master_process off`) for this. Two caveats: libmicrohttpd has no symbols here (Debian ships them "
      "in a -dbgsym package), so its functions show as addresses; and callgrind counts `rep stosb`, which glibc's memset uses for large "
      "sizes, as one instruction per byte, so memset weighs far more here than in cycles (compare its share in the perf samples below).")
    w("")
    w("| server / route | instructions per request |")
    w("| --- | ---: |")
    for name, entry in report["callgrind"].items():
        w(f"| {name} | {entry['instructions_per_request']:,.0f} |")
    w("")
    for name, entry in report["callgrind"].items():
        if not name.startswith("linkhost/"):
            continue
        w(f"### {name}: top inclusive costs")
        w("")
        w("| instructions / request | share | function |")
        w("| ---: | ---: | --- |")
        for row in entry["inclusive"][:25]:
            w(f"| {row['per_request']:,.0f} | {row['share']:.1f}% | `{row['function'][:160]}` |")
        w("")
        w(f"### {name}: top exclusive (self) costs")
        w("")
        w("| instructions / request | share | function |")
        w("| ---: | ---: | --- |")
        for row in entry["exclusive"][:15]:
            w(f"| {row['per_request']:,.0f} | {row['share']:.1f}% | `{row['function'][:160]}` |")
        w("")
    perf = report.get("perf")
    if perf:
        w("## perf: CPU samples of linkhost under wrk (cpu-clock, 999 Hz)")
        w("")
        w(f"Hardware counters: {'available' if perf['hardware_counters'] else '`perf stat -e instructions true` says <not supported>; the software cpu-clock event still samples'}.")
        w("")
        for key, sample in perf["samples"].items():
            w(f"### {sample['title']}: by shared object")
            w("")
            for share, name in sample["by_dso"]:
                w(f"- {share:.1f}% {name}")
            w("")
            w(f"### {sample['title']}: top symbols")
            w("")
            for share, name in sample["by_symbol"][:20]:
                w(f"- {share:.1f}% `{name[:160]}`")
            w("")
    with open(path, "w") as handle:
        handle.write("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["bench", "profile", "report"])
    parser.add_argument("--bin", help="the release linkhost binary")
    parser.add_argument("--workdir", help="an empty temporary folder")
    parser.add_argument("--results", help="markdown output")
    parser.add_argument("--raw", help="JSON output")
    args = parser.parse_args()
    if args.command == "report":
        # Re-renders RESULTS.md from results.json, e.g. after changing the report's layout.
        with open(args.raw or os.path.join(HERE, "results.json")) as handle:
            data = json.load(handle)
        write_results(data, args.results or os.path.join(HERE, "RESULTS.md"), None)
        return 0
    if not args.bin or not args.workdir:
        parser.error("bench and profile need --bin and --workdir")
    if args.command == "bench":
        args.results = args.results or os.path.join(HERE, "RESULTS.md")
        args.raw = args.raw or os.path.join(HERE, "results.json")
        runner = Bench(args)
    else:
        args.results = args.results or os.path.join(HERE, "PROFILE.md")
        args.raw = args.raw or os.path.join(HERE, "profile.json")
        runner = Profiler(args)

    def on_signal(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        runner.run()
    except KeyboardInterrupt:
        log("interrupted; stopping the servers")
        return 130
    except BenchError as error:
        log(f"error: {error}")
        return 1
    finally:
        runner.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
