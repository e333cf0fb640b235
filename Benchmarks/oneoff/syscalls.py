import sys, os, time, tempfile, subprocess, signal, socket
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.http_client import request_bytes
from harness.routes import AASA_PATH, SERVERS
from harness.testbed import Testbed
binary = sys.argv[1] if len(sys.argv) > 1 else "/tmp/build-bench/release/linkhost"; workdir = tempfile.mkdtemp(prefix="sys-", dir="/tmp")
b = Testbed(binary, workdir); b.prepare()
N = 2000
try:
    b.start_main_servers()
    for kind in SERVERS:
        s = b.servers[kind]
        out = os.path.join(workdir, f"strace-{kind}.txt")
        args = ["strace", "-c", "-f", "-o", out] + sum([["-p", str(p)] for p in s.pids()], [])
        tr = subprocess.Popen(args, stderr=subprocess.DEVNULL); time.sleep(1.0)
        req = request_bytes(AASA_PATH, close=True)
        for i in range(N):
            with socket.create_connection(("127.0.0.1", s.port)) as c:
                c.sendall(req)
                while c.recv(65536): pass
        time.sleep(0.5); tr.send_signal(signal.SIGINT); tr.wait(30)
        print(f"== {kind}: syscalls per Connection: close request (N={N})")
        for line in open(out):
            parts = line.split()
            if len(parts) >= 5 and parts[3].isdigit():
                calls = int(parts[3]); name = parts[-1]
                if calls >= N * 0.2: print(f"   {name:16} {calls / N:5.2f}")
            elif line.strip().startswith("100.00"):
                print("   total", int(line.split()[2]) / N)
finally:
    b.cleanup()
    import shutil; shutil.rmtree(workdir, ignore_errors=True)
