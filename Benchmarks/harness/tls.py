"""HTTPS beside nginx: the same ECDSA P-256 certificate, the same TLS versions and ciphers (linkhost's policy,
written out for nginx in nginx.conf.template), and three figures — full handshakes per second (a new
connection and no resumption each time), resumed handshakes per second, and keep-alive AASA requests — plus
the time from start to the first HTTPS answer with a stored certificate.

Handshakes come from `openssl s_time`, which says whether it resumes: `-new` makes every connection a full
handshake, `-reuse` offers the first connection's session on every later one and marks each connection `r`
when the server took it up, `*` when it made a full handshake instead. wrk cannot choose either."""

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time

from harness import BenchError, log
from harness.procfs import CLK_TCK, heavy_processes, loadavg, machine_busy_ticks
from harness.routes import AASA_PATH, HOST_HEADER
from harness.server import Server, wait_for_line
from harness.settings import DURATION, PORTS, ROUNDS, STARTS, WRK_THREADS
from harness.startup import alternating_starts
from harness.wrk import measured_wrk

# What each TLS figure is, as run records name it (route) and reports title it.
TLS_FIGURES = [("full", "full handshakes (`s_time -new`, a request each)"), ("resumed", "resumed handshakes (`s_time -reuse`)"),
               ("aasa", "AASA keep-alive over TLS (wrk)")]
TLS_SERVERS = {"linkhost": "linkhost_tls", "nginx": "nginx_tls"}


def make_certificate(workdir):
    """A self-signed ECDSA P-256 certificate for the benchmark's host, used by both servers."""
    certificate, key = os.path.join(workdir, "tls.crt"), os.path.join(workdir, "tls.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", certificate, "-days", "30", "-subj", f"/CN={HOST_HEADER}",
                    "-addext", f"subjectAltName=DNS:{HOST_HEADER}"], check=True, capture_output=True)
    os.chmod(key, 0o644)
    return certificate, key


def linkhost_tls_config(testbed, path, port):
    """The benchmark's linkhost config serving HTTPS with the certificate files (`server.tls`)."""
    config = json.loads(json.dumps(testbed.config))
    config["server"].update({"port": port, "tls": {"certificateFile": testbed.certificate, "privateKeyFile": testbed.private_key}})
    with open(path, "w") as handle:
        json.dump(config, handle, indent=2)
    return path


def linkhost_tls_server(testbed, name="linkhost-tls", port=None):
    port = port or PORTS["linkhost_tls"]
    path = linkhost_tls_config(testbed, os.path.join(testbed.workdir, f"linkhost-tls-{port}.json"), port)
    return Server(name, [testbed.bin, "serve", "--config", path], testbed.workdir, cwd=testbed.workdir, port=port, log_sink=True)


def s_time(server, port, mode, seconds, processes=WRK_THREADS):
    """`processes` s_time clients at once for `seconds`: handshakes per second, how many resumed, the
    server's CPU per handshake, and the machine's other load meanwhile."""
    command = ["openssl", "s_time", "-connect", f"127.0.0.1:{port}", f"-{mode}", "-time", str(seconds), "-www", AASA_PATH]
    load, heavy = loadavg()[0], heavy_processes()
    busy_before, ticks_before, started = machine_busy_ticks(), server.cpu_ticks(), time.monotonic()
    clients = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(processes)]
    outputs = [client.communicate(timeout=seconds + 60)[0] for client in clients]
    wall = time.monotonic() - started
    ticks, busy = server.cpu_ticks() - ticks_before, machine_busy_ticks() - busy_before
    handshakes = reused = 0
    for client, output in zip(clients, outputs):
        match = re.search(r"(\d+) connections in [\d.]+s", output)
        if client.returncode != 0 or not match:
            raise BenchError(f"openssl s_time {mode} against port {port} failed ({client.returncode}): {output[-500:]}")
        handshakes += int(match.group(1))
        # One mark per connection: `r` when the server resumed the session, `*` for a full handshake.
        timed = output.split("Now timing with session id reuse.", 1)[-1]
        reused += sum(line.count("r") for line in timed.splitlines() if line and set(line) <= {"r", "*"})
    server_cpu = ticks / CLK_TCK
    return {"requests": handshakes, "rps": handshakes / wall, "reused": reused, "elapsed": wall, "command": command,
            "server_cpu_s": server_cpu, "cpu_us_per_request": server_cpu / handshakes * 1e6 if handshakes else None,
            "other_cores": max(0.0, busy / CLK_TCK - server_cpu) / wall, "load1": load, "heavy": heavy,
            "p50_ms": None, "p90_ms": None, "p99_ms": None, "socket_errors": 0, "non_2xx": 0}


def measure_tls(testbed):
    """ROUNDS rounds of the three figures on both servers, the order swapped every round."""
    if not shutil.which("openssl"):
        raise BenchError("openssl is missing (the HTTPS figures need `openssl s_time`)")
    linkhost = linkhost_tls_server(testbed)
    linkhost.start()
    runs = []
    try:
        wait_for_line(linkhost, "listening on", 30)
        servers = {"linkhost": (linkhost, PORTS["linkhost_tls"]), "nginx": (testbed.servers["nginx"], PORTS["nginx_tls"])}
        for kind, (server, port) in servers.items():
            s_time(server, port, "new", 1, processes=1)  # warm-up
        for round_index in range(ROUNDS):
            order = ["linkhost", "nginx"] if round_index % 2 == 0 else ["nginx", "linkhost"]
            for key, _ in TLS_FIGURES:
                for kind in order:
                    server, port = servers[kind]
                    if key == "aasa":
                        result = measured_wrk(server, AASA_PATH, DURATION, port=port, scheme="https")
                    else:
                        result = s_time(server, port, "new" if key == "full" else "reuse", DURATION)
                    result.update({"phase": "tls", "round": round_index + 1, "route": key, "mode": "close" if key != "aasa" else "keepalive", "server": kind})
                    runs.append(result)
                    log(f"tls round {round_index + 1}/{ROUNDS} {key:8} {kind:8} {result['rps']:>9,.0f}/s  {(result['cpu_us_per_request'] or 0):7.1f} µs CPU each"
                        + (f"  resumed {result['reused']:,} of {result['requests']:,}" if key == "resumed" else "") + f"  load {result['load1']:.2f}")
                    time.sleep(1.0)
    finally:
        linkhost.stop()
    return runs


def first_https_ok(server, port, timeout=10.0):
    """Spawns `server` and returns seconds to the first 200 on the AASA over HTTPS (tight connect loop,
    TCP_NODELAY, no certificate check: the certificate is self-signed)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    request = f"GET {AASA_PATH} HTTP/1.1\r\nHost: {HOST_HEADER}\r\nConnection: close\r\n\r\n".encode()
    server.start_sink()
    started = time.perf_counter()
    server.start()
    while time.perf_counter() < started + timeout:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
                # As browsers and curl do: without it the request waits behind the client's Finished for the
                # server's delayed ACK (40 ms) whenever the server sends nothing after the handshake, as a
                # server without session tickets does.
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with context.wrap_socket(raw, server_hostname=HOST_HEADER) as sock:
                    sock.sendall(request)
                    if sock.recv(64).startswith(b"HTTP/1.1 200"):
                        return time.perf_counter() - started
        except (OSError, ssl.SSLError):
            pass
        if server.process.poll() is not None:
            raise BenchError(f"{server.name} exited during start:\n{server.errors()[-2000:]}")
        time.sleep(0.0005)
    raise BenchError(f"{server.name} served no 200 over HTTPS within {timeout} s")


# The shipped example's identity (LinkHostCore's ExampleConfig) and what the ACME start's config says instead.
EXAMPLE_IDENTITY = {
    "com.example.video": "com.bench.video",
    "E5:44:CF:3F:B2:96:04:8A:A8:BE:1D:E6:42:83:A0:16:64:FC:34:2F:95:B9:EE:D8:50:06:73:C5:83:E9:6D:14":
        "BE:0C:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:01",
    "app.example.com": "app.bench.test",
}


def acme_state_config(testbed, port, http_port):
    """A config with automatic HTTPS whose certificate is already in the state folder, written as
    CertificateStore writes it: `<state>/<directory as a name>/<first host>.pem`, key and chain in one file,
    mode 0600 in folders 0700. The directory is a closed port on loopback: a start with a stored certificate
    serves it at once and only asks the CA later (its renewal information), which fails quietly here."""
    state = os.path.join(testbed.workdir, "acme-state")
    directory = f"https://127.0.0.1:{PORTS['closed']}/dir"
    folder = os.path.join(state, re.sub(r"[^A-Za-z0-9._-]", "-", directory.removeprefix("https://"))[:120])
    os.makedirs(folder, mode=0o700, exist_ok=True)
    with open(testbed.private_key) as key, open(testbed.certificate) as chain:
        pem = key.read() + chain.read()
    path = os.path.join(folder, f"{HOST_HEADER}.pem")
    with open(path, "w") as handle:
        handle.write(pem)
    os.chmod(path, 0o600)
    # The bench's own CA and host, on loopback: not the shipped example going live, which serve refuses ACME for
    # (judged by content: its marker, and its app, package, fingerprint and URLs, each given a bench value here).
    text = json.dumps(testbed.config)
    for example, bench in EXAMPLE_IDENTITY.items():
        text = text.replace(example, bench)
    config = json.loads(text)
    config.pop("example", None)
    config["server"].update({"port": port, "httpPort": http_port, "tls": {"acme": {
        "hosts": [HOST_HEADER], "directory": directory, "stateDirectory": state, "email": "bench@example.com"}}})
    config_path = os.path.join(testbed.workdir, "linkhost-acme.json")
    with open(config_path, "w") as handle:
        json.dump(config, handle, indent=2)
    return config_path


def measure_tls_startup(testbed):
    """Milliseconds from spawn to the first HTTPS 200: linkhost with its ACME state folder holding the
    certificate, linkhost with `server.tls.certificateFile`, and nginx with the same files; STARTS each."""
    log(f"start to first HTTPS request: {STARTS} starts of each, alternating")
    acme = acme_state_config(testbed, PORTS["linkhost_tls"], PORTS["linkhost"])
    makers = {
        "linkhost (ACME state folder)": lambda: (Server("linkhost-acme", [testbed.bin, "serve", "--config", acme], testbed.workdir,
                                                        cwd=testbed.workdir, port=PORTS["linkhost_tls"], log_sink=True), PORTS["linkhost_tls"]),
        "linkhost (certificateFile)": lambda: (linkhost_tls_server(testbed, "linkhost-tls-start"), PORTS["linkhost_tls"]),
        "nginx": lambda: (testbed.make_server("nginx"), PORTS["nginx_tls"]),
    }
    return alternating_starts(makers, first_https_ok)
