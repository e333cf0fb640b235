import sys, os, time, tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench
def ctx(server):
    tot = 0
    for pid in server.pids():
        for tid in bench.proc_threads(pid):
            try:
                for line in open(f"/proc/{pid}/task/{tid}/status"):
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        tot += int(line.split()[1])
            except OSError: pass
    return tot
class A: pass
a = A(); a.bin = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"; a.workdir = tempfile.mkdtemp(prefix="ctx-", dir="/tmp"); a.results = a.workdir + "/r.md"; a.raw = a.workdir + "/r.json"
b = bench.Bench(a); b.prepare()
try:
    b.start_main_servers()
    for mode in (False, True):
        for rnd in range(2):
            for kind in bench.SERVERS:
                s = b.servers[kind]
                c0 = ctx(s); r = bench.measured_wrk(s, bench.AASA_PATH, 4, close=mode); c1 = ctx(s)
                print(f"{'close' if mode else 'keepalive'} {kind:8} {r['rps']:8.0f} req/s {r['cpu_us_per_request']:6.1f} us/req  {(c1-c0)/r['requests']:.2f} context switches/req")
finally:
    b.cleanup()
    import shutil; shutil.rmtree(a.workdir, ignore_errors=True)
