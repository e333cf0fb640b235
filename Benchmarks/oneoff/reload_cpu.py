import sys, os, time, signal, tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.routes import AASA_PATH
from harness.server import wait_for_line
from harness.testbed import Testbed
from harness.wrk import measured_wrk
binary = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"; workdir = tempfile.mkdtemp(prefix="rl-", dir="/tmp")
b = Testbed(binary, workdir); b.prepare()
s = b.make_server("linkhost"); s.start(); wait_for_line(s, "listening on", 30)
try:
    seq = []
    for step in range(8):
        if step in (2, 5):
            s.signal(signal.SIGHUP); time.sleep(0.5); seq.append("HUP")
        r = measured_wrk(s, AASA_PATH, 4)
        seq.append(f"{r['rps']:.0f}/{r['cpu_us_per_request']:.1f}us/oth{r['other_cores']:.1f}")
    print(" ".join(seq))
finally:
    s.stop()
    import shutil; shutil.rmtree(workdir, ignore_errors=True)
