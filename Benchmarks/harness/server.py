"""A server process under measurement: started in its own session, listed for run.sh's trap, measured through
/proc (CPU, memory, sockets, affinity) and stopped with its whole process group."""

import os
import signal
import subprocess
import time

from harness import BenchError, log
from harness.http_client import fetch
from harness.procfs import proc_child_ticks, proc_children, proc_cpu_ticks, proc_pss_kb, proc_socket_count, proc_status_kb, proc_threads
from harness.routes import AASA_PATH


class Server:
    """A server process in its own session; `pids` covers nginx's master and workers."""

    def __init__(self, name, command, workdir, cwd=None, port=None, log_sink=False):
        self.name, self.command, self.workdir, self.cwd, self.port = name, command, workdir, cwd, port
        self.log_sink = log_sink
        self.process = None
        self.sink = None
        self.out_path = os.path.join(workdir, f"{name}.out")
        self.err_path = os.path.join(workdir, f"{name}.err")

    def start_sink(self):
        """stdout (the access log) goes down a pipe, as to journald or a container runtime: the first lines are kept
        (sed -u reads no further than it prints), the rest are counted by wc and dropped."""
        if self.log_sink and self.sink is None:
            with open(self.err_path, "ab") as err:
                self.sink = subprocess.Popen(["sh", "-c", 'sed -u 20q >"$0"; exec wc -l >"$0.count"', self.out_path],
                                             stdin=subprocess.PIPE, stderr=err, start_new_session=True)
            self.register(self.sink.pid)

    def start(self):
        err = open(self.err_path, "ab")
        if self.log_sink:
            self.start_sink()
            out = self.sink.stdin
        else:
            out = open(self.out_path, "ab")
        self.process = subprocess.Popen(self.command, cwd=self.cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        err.close()
        self.register(self.process.pid)
        return self.process

    def register(self, pid):
        with open(os.path.join(self.workdir, "pids"), "a") as handle:
            handle.write(f"{pid}\n")

    def log_lines(self):
        """Lines the server wrote to stdout, when it wrote them to the sink (read after stop)."""
        try:
            with open(self.out_path, "rb") as handle:
                kept = handle.read().count(b"\n")
            with open(self.out_path + ".count") as handle:
                return kept + int(handle.read().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    @property
    def pid(self):
        return self.process.pid

    def pids(self):
        if self.process is None or self.process.poll() is not None:
            return []
        return [self.process.pid] + proc_children(self.process.pid)

    def cpu_ticks(self):
        total = 0
        for pid in self.pids():
            try:
                total += sum(proc_cpu_ticks(pid))
            except OSError:
                pass
        return total

    def cpu_ticks_with_exited_children(self):
        total = self.cpu_ticks()
        try:
            total += proc_child_ticks(self.process.pid)
        except OSError:
            pass
        return total

    def rss_kb(self):
        return sum(self._safe(proc_status_kb, pid, "VmRSS") for pid in self.pids())

    def pss_kb(self):
        return sum(self._safe(proc_pss_kb, pid) for pid in self.pids())

    def sockets(self):
        return sum(proc_socket_count(pid) for pid in self.pids())

    def thread_count(self):
        return sum(len(proc_threads(pid)) for pid in self.pids())

    @staticmethod
    def _safe(function, *args):
        try:
            return function(*args)
        except OSError:
            return 0

    def set_affinity(self, cpus):
        for pid in self.pids():
            for tid in proc_threads(pid):
                try:
                    os.sched_setaffinity(tid, cpus)
                except OSError:
                    pass

    def signal(self, number):
        os.kill(self.process.pid, number)

    def stop(self, timeout=15):
        if self.process is None:
            return None
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                log(f"{self.name} did not stop within {timeout} s of SIGTERM; killing its process group")
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        # nginx workers may outlive a killed master; the group goes with them.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        code = self.process.returncode
        self.process = None
        if self.sink is not None:
            try:
                self.sink.wait(10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(self.sink.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.sink.wait(5)
            self.sink = None
        return code

    def output(self):
        try:
            with open(self.out_path, "rb") as handle:
                return handle.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def errors(self):
        with open(self.err_path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")


def wait_for_line(server, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # The start line is on stderr (stdout is the access log alone).
        if text in server.errors() or text in server.output():
            return True
        if server.process.poll() is not None:
            raise BenchError(f"{server.name} exited with {server.process.returncode} before printing {text!r}:\n{server.errors()[-2000:]}")
        time.sleep(0.02)
    raise BenchError(f"{server.name} did not print {text!r} within {timeout} s")


def wait_until_serving(server, timeout=30):
    """Polls the AASA until the server answers 200; fails as soon as the process exits."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if fetch(server.port, AASA_PATH)[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline or server.process.poll() is not None:
            raise BenchError(f"{server.name} did not start:\n{server.errors()[-2000:]}")
        time.sleep(0.05)
