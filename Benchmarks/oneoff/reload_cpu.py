import sys, os, time, signal, json, tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench
class A: pass
a = A(); a.bin = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"; a.workdir = tempfile.mkdtemp(prefix="rl-", dir="/tmp"); a.results = a.workdir + "/r.md"; a.raw = a.workdir + "/r.json"
b = bench.Bench(a); b.prepare()
s = b.make_server("linkhost"); s.start(); bench.wait_for_line(s, "listening on", 30)
try:
    seq = []
    for step in range(8):
        if step in (2, 5):
            s.signal(signal.SIGHUP); time.sleep(0.5); seq.append("HUP")
        r = bench.measured_wrk(s, bench.AASA_PATH, 4)
        seq.append(f"{r['rps']:.0f}/{r['cpu_us_per_request']:.1f}us/oth{r['other_cores']:.1f}")
    print(" ".join(seq))
finally:
    s.stop()
    import shutil; shutil.rmtree(a.workdir, ignore_errors=True)
