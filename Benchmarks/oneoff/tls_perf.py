"""Where a full TLS handshake's CPU goes: perf samples of linkhost (HTTPS with the benchmark's P-256
certificate) and of nginx (the same certificate and policy) while `openssl s_time -new` makes full handshakes,
by shared object and by symbol. Usage: tls_perf.py [linkhost binary] [seconds]."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.perf import perf_report
from harness.server import wait_for_line
from harness.settings import PORTS
from harness.testbed import Testbed
from harness.tls import linkhost_tls_server, s_time

binary = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
workdir = tempfile.mkdtemp(prefix="tls-perf-", dir="/tmp")
testbed = Testbed(binary, workdir)
testbed.prepare()
try:
    testbed.start_main_servers()
    linkhost = linkhost_tls_server(testbed)
    linkhost.start()
    wait_for_line(linkhost, "listening on", 30)
    for name, server, port in (("linkhost", linkhost, PORTS["linkhost_tls"]), ("nginx", testbed.servers["nginx"], PORTS["nginx_tls"])):
        s_time(server, port, "new", 1, processes=1)
        data = os.path.join(workdir, f"perf-{name}.data")
        pids = ",".join(str(pid) for pid in server.pids())
        recorder = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-o", data, "-p", pids, "--", "sleep", str(seconds)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        result = s_time(server, port, "new", seconds)
        recorder.wait(timeout=60)
        print(f"## {name}: {result['rps']:.0f} full handshakes/s, {result['cpu_us_per_request']:.0f} µs of server CPU each")
        for share, dso in perf_report(data, "dso")[:8]:
            print(f"  {share:5.1f}%  {dso}")
        print("  top symbols:")
        for share, symbol in perf_report(data, "dso,symbol")[:16]:
            print(f"  {share:5.1f}%  {symbol}")
    linkhost.stop()
finally:
    testbed.cleanup()
    shutil.rmtree(workdir, ignore_errors=True)
