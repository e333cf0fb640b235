"""The AASA and call-page rows once more with linkhost as the Docker image runs it: the image's root file system
(Debian 13 slim with libmicrohttpd 1.0.1 and trixie's GnuTLS, built by Benchmarks/image-root.sh from the
Dockerfile's runtime stage), entered with chroot as the image's user, on the host's loopback; nginx on the
host as in every other row. The config, public/ and the work folder are bound in at the same paths."""

import os
import subprocess
import time

from harness import log
from harness.procfs import proc_status_kb
from harness.routes import ROUTE
from harness.server import Server, wait_until_serving
from harness.settings import DURATION, PORTS, REPO, ROUNDS
from harness.wrk import measured_wrk

# The rows the image run repeats: (route, connection mode).
IMAGE_ROWS = [("aasa", "keepalive"), ("aasa", "close"), ("call", "keepalive"), ("calls", "keepalive"), ("calls", "close")]
IMAGE_USER = "10001:10001"


def write_wrapper(testbed, root):
    """An executable that runs the image's linkhost with the caller's arguments, in a mount namespace of its
    own where the image's root has /tmp, /dev, /proc and the repository bound in; every step execs, so the
    wrapper's process is linkhost itself (signals and /proc readings reach it)."""
    path = os.path.join(testbed.workdir, "image-linkhost")
    script = f"""#!/bin/sh
# Written by Benchmarks/harness/image.py: linkhost as the image runs it.
exec unshare --mount --propagation private -- /bin/sh -c '
    root=$1; shift
    mount --bind /tmp "$root/tmp" &&
        mount --bind /dev "$root/dev" &&
        mount -t proc proc "$root/proc" &&
        mkdir -p "$root{REPO}" && mount --bind "{REPO}" "$root{REPO}" || exit 125
    exec chroot --userspec={IMAGE_USER} "$root" /usr/bin/env --chdir="$PWD" /usr/local/bin/linkhost "$@"
' image-linkhost "{root}" "$@"
"""
    with open(path, "w") as handle:
        handle.write(script)
    os.chmod(path, 0o755)
    return path


def library_versions(root, server):
    """What the image's linkhost loaded: its libmicrohttpd (from its start-up line) and the image's GnuTLS package."""
    line = next((line for line in server.errors().splitlines() if "libmicrohttpd" in line), "")
    gnutls = subprocess.run(["chroot", root, "dpkg-query", "-W", "-f", "${Version}", "libgnutls30t64"], capture_output=True, text=True)
    distribution = ""
    try:
        with open(os.path.join(root, "etc/debian_version")) as handle:
            distribution = handle.read().strip()
    except OSError:
        pass
    return {"startup_line": line.strip(), "gnutls": gnutls.stdout.strip(), "debian": distribution}


def measure_image(testbed, root):
    """ROUNDS rounds of IMAGE_ROWS, the image's linkhost against the host's running nginx, order swapped each round."""
    wrapper = write_wrapper(testbed, root)
    port = PORTS["linkhost_tls"]
    command = [wrapper, "serve", "--config", testbed.config_path, "--host", "127.0.0.1", "--port", str(port)]
    linkhost = Server("linkhost-image", command, testbed.workdir, cwd=testbed.workdir, port=port, log_sink=True)
    linkhost.start()
    result = {"runs": []}
    try:
        wait_until_serving(linkhost)
        time.sleep(1.0)
        result["versions"] = library_versions(root, linkhost)
        result["rss_idle_kb"] = proc_status_kb(linkhost.pid, "VmRSS")
        log(f"image: {result['versions']}, idle RSS {result['rss_idle_kb'] / 1024:.1f} MB")
        servers = {"linkhost": linkhost, "nginx": testbed.servers["nginx"]}
        for key, _ in IMAGE_ROWS:
            for server in servers.values():
                measured_wrk(server, ROUTE[key].path, 1, script=ROUTE[key].script)  # warm-up
        for round_index in range(ROUNDS):
            order = ["linkhost", "nginx"] if round_index % 2 == 0 else ["nginx", "linkhost"]
            for key, mode in IMAGE_ROWS:
                for kind in order:
                    run = measured_wrk(servers[kind], ROUTE[key].path, DURATION, close=(mode == "close"), script=ROUTE[key].script)
                    run.update({"phase": "image", "round": round_index + 1, "route": key, "mode": mode, "server": kind})
                    result["runs"].append(run)
                    log(f"image round {round_index + 1}/{ROUNDS} {ROUTE[key].title:18} {mode:9} {kind:8} {run['rps']:>9,.0f} req/s  "
                        f"p99 {run['p99_ms'] or 0:7.2f} ms  {(run['cpu_us_per_request'] or 0):6.2f} µs CPU/req  load {run['load1']:.2f}")
                    time.sleep(1.0)
    finally:
        linkhost.stop()
    return result
