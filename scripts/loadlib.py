"""Shared pieces of the overload scripts (slowloris.py, flood.py, soak.sh): Python standard library only.

Starts a real `linkhost serve` on 127.0.0.1 with the repository's config plus overrides, reads its
resident memory from /proc, raises the descriptor limit, and connects from a chosen loopback address
(libmicrohttpd's per-IP limit counts source addresses, and all of 127.0.0.0/8 is this machine).
Every server started here listens on 127.0.0.1 only and is stopped by the script that started it.
"""

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE_CONFIG = os.path.join(REPO, "config", "linkhost.json")
AASA_PATH = "/.well-known/apple-app-site-association"
HOST_HEADER = "links.example.com"


def default_binary():
    """LINKHOST_BINARY, else the release build `make release` leaves in .build."""
    return os.environ.get("LINKHOST_BINARY") or os.path.join(REPO, ".build", "release", "linkhost")


def raise_fd_limit(wanted):
    """Raises the soft RLIMIT_NOFILE to `wanted` (root may raise the hard limit too); returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(wanted, hard) if hard != resource.RLIM_INFINITY else hard))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def parse_overrides(pairs):
    """["server.connectionTimeout=5", "observability.accessLog=\"off\""] -> [(["server", "connectionTimeout"], 5), ...].

    Values are JSON when they parse as JSON, else plain strings (so accessLog=off works unquoted).
    """
    result = []
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"--set wants KEY.PATH=VALUE, got {pair!r}")
        key, raw = pair.split("=", 1)
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        result.append((key.split("."), value))
    return result


def rss_kb(pid):
    """VmRSS of a process in KiB, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def connect_from(source, host, port, timeout):
    """A blocking TCP connection from loopback address `source` (bind before connect)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.bind((source, 0))
        sock.connect((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def http_get(source, host, port, path, timeout):
    """One GET on a new connection; returns (status, body bytes). Raises OSError/TimeoutError/ValueError."""
    sock = connect_from(source, host, port, timeout)
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST_HEADER}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no complete response in time")
            sock.settimeout(remaining)
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head_end = data.find(b"\r\n\r\n")
            if head_end >= 0:
                head = data[:head_end].decode("latin-1")
                length = None
                for line in head.split("\r\n")[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                if length is not None and len(data) >= head_end + 4 + length:
                    break
        if not data.startswith(b"HTTP/1."):
            raise ValueError(f"not an HTTP response: {data[:40]!r}")
        status = int(data.split(b" ", 2)[1])
        return status, data[data.find(b"\r\n\r\n") + 4:]
    finally:
        sock.close()


def build_config(overrides=(), base_config=BASE_CONFIG):
    """The base config with overrides applied and the server pinned to 127.0.0.1."""
    with open(base_config) as handle:
        config = json.load(handle)
    config.pop("$schema", None)
    for path, value in overrides:
        node = config
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    config.setdefault("server", {})["host"] = "127.0.0.1"
    # The requests name HOST_HEADER; a deployment names its origin, else its call links answer 404 (docs/cdn.md).
    config.setdefault("callLinks", {}).setdefault("baseURL", "https://" + HOST_HEADER)
    return config


class Server:
    """`linkhost serve` on 127.0.0.1:0 in the repository folder, with the base config plus overrides.

    stdout (the access log) is drained by a thread so the server never blocks on a full pipe.
    """

    def __init__(self, binary=None, overrides=(), base_config=BASE_CONFIG, nofile=None):
        self.binary = binary or default_binary()
        if not os.access(self.binary, os.X_OK):
            raise SystemExit(f"no linkhost binary at {self.binary}: run `swift build -c release` "
                             "(or pass --binary / set LINKHOST_BINARY)")
        config = build_config(overrides, base_config)
        self.config = config
        handle, self.config_path = tempfile.mkstemp(prefix="linkhost-load-", suffix=".json")
        with os.fdopen(handle, "w") as out:
            json.dump(config, out)
        # mkstemp makes it 0600; a server running as another user (the image's, in check-docker) reads it too.
        os.chmod(self.config_path, 0o644)

        def limit_descriptors():
            # A chosen RLIMIT_NOFILE for the server alone (e.g. 1024, the usual default), to see
            # what happens when connectionLimit is above what the process may open.
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, max(nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))

        self.process = subprocess.Popen(
            [self.binary, "serve", "--config", self.config_path, "--host", "127.0.0.1", "--port", "0"],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=limit_descriptors)
        self.pid = self.process.pid
        self.log_lines = 0
        self.stderr_lines = []
        # The start line is on stderr (stdout is the access log alone), after the library line.
        first = ""
        while True:
            line = self.process.stderr.readline().decode(errors="replace").rstrip()
            if not line or line.startswith("linkhost: listening on http://"):
                first = line
                break
            self.stderr_lines.append(line)
        if not first:
            self.stop()
            raise SystemExit(f"linkhost did not start: {' '.join(self.stderr_lines)} {self.process.stderr.read().decode(errors='replace')}")
        self.port = int(first.rsplit(":", 1)[1])
        threading.Thread(target=self._drain_stdout, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stdout(self):
        for _ in self.process.stdout:
            self.log_lines += 1

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode(errors="replace").rstrip())

    def library(self, wait=2.0):
        """The libmicrohttpd version the server says it loaded ("0.9.75", "1.0.1"), or "-"."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            for line in list(self.stderr_lines):
                if "libmicrohttpd " in line:
                    return line.split("libmicrohttpd ", 1)[1].split(":", 1)[0]
            time.sleep(0.02)
        return "-"

    def alive(self):
        return self.process.poll() is None

    def rss_kb(self):
        return rss_kb(self.pid)

    def threads(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/task"))
        except OSError:
            return None

    def open_fds(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return None

    def cpu_seconds(self):
        """User + system CPU time of the server so far (from /proc/PID/stat), or None."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        try:
            os.unlink(self.config_path)
        except OSError:
            pass
        return self.process.returncode


# The server settings that decide overload behaviour, with linkhost's defaults (README, config reference).
SERVER_DEFAULTS = {"connectionTimeout": 15, "connectionLimit": 4096, "perIPConnectionLimit": 256, "headerTimeout": 10, "threads": 0}


def effective_settings(config):
    """`connectionTimeout=15,connectionLimit=4096,...` as this config runs them (defaults filled in)."""
    server = dict(SERVER_DEFAULTS)
    server.update({key: value for key, value in config.get("server", {}).items() if key in SERVER_DEFAULTS})
    access_log = config.get("observability", {}).get("accessLog", "json")
    return ",".join(f"{key}={server[key]}" for key in SERVER_DEFAULTS) + f",accessLog={access_log}"


def summary_line(name, ok, fields):
    """One greppable line: `NAME: PASS key=value ...`."""
    text = " ".join(f"{key}={value}" for key, value in fields)
    return f"{name}: {'PASS' if ok else 'FAIL'} {text}"


def log(message):
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    # `python3 scripts/loadlib.py config [--set KEY=VALUE ...]`: the config a load run uses, for soak.sh.
    import argparse
    parser = argparse.ArgumentParser(description="print the load-test config (config/linkhost.json plus overrides)")
    parser.add_argument("command", choices=["config", "settings"])
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    arguments = parser.parse_args()
    built = build_config(parse_overrides(arguments.set))
    print(json.dumps(built) if arguments.command == "config" else effective_settings(built))
