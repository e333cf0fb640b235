"""`linkhost check --config` of a fleet (issue 42): writes N tenants of the operator's shape in site files
(own host and baseURL, appStoreID, an App Clip for 3 in 10, two fingerprints, 1 in 10 iOS-only, 1 in 10
Android-only, 1 in 10 with an open host; three link templates, one with the call ID in the query), a
wildcard certificate for *.fleet.test, serves them with the given binary on 127.0.0.1 and times
`check --config` of every host through --connect-to. Prints the summary line, wall and CPU seconds.

    python3 Benchmarks/oneoff/check_fleet.py [BINARY] [TENANTS]   (defaults: .build/release/linkhost, 1000)
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "Benchmarks"))
from harness.tenants import operator_tenant  # noqa: E402  (after the path that finds it)


def write_fleet(folder, count):
    os.makedirs(os.path.join(folder, "sites.d"), exist_ok=True)
    for index in range(count):
        # The bench's operator tenant, each host one label below the certificate's *.fleet.test.
        site = operator_tenant(index, host=f"t{index:05d}.fleet.test", open_host=f"open{index:05d}.fleet.test")
        with open(os.path.join(folder, "sites.d", f"t{index:05d}.json"), "w") as handle:
            json.dump(site, handle)
    public = os.path.join(REPO, "public")
    config = {
        "server": {"host": "127.0.0.1", "port": 0, "perIPConnectionLimit": 0, "strictHosts": True,
                   "tls": {"certificateFile": os.path.join(folder, "cert.pem"), "privateKeyFile": os.path.join(folder, "key.pem")}},
        "observability": {"accessLog": "off"},
        "apps": [{"name": "Platform", "teamID": "PLATFORM00", "bundleID": "com.platform.video", "appStoreID": "999"}],
        "callLinks": {"links": ["/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/j?id={callId}&type={callType}"],
                      "defaultType": "default", "template": os.path.join(public, "call.html"), "locales": os.path.join(public, "locales")},
        "static": {"root": public},
        "siteFiles": "sites.d/*.json",
    }
    with open(os.path.join(folder, "linkhost.json"), "w") as handle:
        json.dump(config, handle)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", os.path.join(folder, "key.pem"), "-out", os.path.join(folder, "cert.pem"), "-days", "30",
                    "-subj", "/CN=fleet.test", "-addext", "subjectAltName=DNS:*.fleet.test"], check=True, capture_output=True)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, ".build/release/linkhost"))
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    with tempfile.TemporaryDirectory(prefix="linkhost-fleet-") as folder:
        write_fleet(folder, count)
        server = subprocess.Popen([binary, "serve", "--config", "linkhost.json"], cwd=folder, stderr=subprocess.PIPE, text=True)
        try:
            port = None
            for line in server.stderr:
                if "listening on" in line:
                    port = line.rsplit(":", 1)[1].strip()
                    break
            if port is None:
                sys.exit("the server did not start")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.monotonic()
            run = subprocess.run([binary, "check", "--config", "linkhost.json", "--cacert", "cert.pem", "--connect-to", f"::127.0.0.1:{port}"],
                                 cwd=folder, capture_output=True, text=True)
            wall = time.monotonic() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
            print(summary[:200])
            print(f"exit {run.returncode}; {wall:.1f} s wall, check's CPU {after.ru_utime - before.ru_utime:.1f} s user; "
                  f"LH406: {run.stdout.count('LH406')}; load {os.getloadavg()[0]:.1f}")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
