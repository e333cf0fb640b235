import sys, os, tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.procfs import proc_threads
from harness.routes import AASA_PATH, SERVERS
from harness.testbed import Testbed
from harness.wrk import measured_wrk
def ctx(server):
    tot = 0
    for pid in server.pids():
        for tid in proc_threads(pid):
            try:
                for line in open(f"/proc/{pid}/task/{tid}/status"):
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        tot += int(line.split()[1])
            except OSError: pass
    return tot
binary = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"; workdir = tempfile.mkdtemp(prefix="ctx-", dir="/tmp")
b = Testbed(binary, workdir); b.prepare()
try:
    b.start_main_servers()
    for mode in (False, True):
        for rnd in range(2):
            for kind in SERVERS:
                s = b.servers[kind]
                c0 = ctx(s); r = measured_wrk(s, AASA_PATH, 4, close=mode); c1 = ctx(s)
                print(f"{'close' if mode else 'keepalive'} {kind:8} {r['rps']:8.0f} req/s {r['cpu_us_per_request']:6.1f} us/req  {(c1-c0)/r['requests']:.2f} context switches/req")
finally:
    b.cleanup()
    import shutil; shutil.rmtree(workdir, ignore_errors=True)
