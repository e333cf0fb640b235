"""Readings of /proc: a process's CPU time, memory, threads, children and sockets, and the machine's load."""

import os

CLK_TCK = os.sysconf("SC_CLK_TCK")

# Tools whose presence during a run explains noise: other engineers' builds.
HEAVY_TOOLS = ("swift-frontend", "swift-build", "swiftc", "clang", "ld", "ld.gold", "lld", "cc1", "swift-driver", "swift-test")


def _stat_fields(pid):
    """The fields of /proc/PID/stat after the command name, which may itself hold spaces and parentheses."""
    with open(f"/proc/{pid}/stat") as handle:
        text = handle.read()
    return text[text.rindex(")") + 2:].split()


def proc_cpu_ticks(pid):
    """utime and stime ticks of a process (all its threads)."""
    fields = _stat_fields(pid)
    return int(fields[11]), int(fields[12])


def proc_child_ticks(pid):
    """cutime and cstime: CPU of children the process has waited for (nginx's exited workers)."""
    fields = _stat_fields(pid)
    return int(fields[13]) + int(fields[14])


def _kb_line(path, key):
    """The kB figure of the `key:` line of a /proc file such as status or smaps_rollup; 0 when it has none."""
    with open(path) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def proc_status_kb(pid, key):
    return _kb_line(f"/proc/{pid}/status", key)


def proc_pss_kb(pid):
    try:
        return _kb_line(f"/proc/{pid}/smaps_rollup", "Pss")
    except OSError:
        return 0


def proc_children(pid):
    children = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as handle:
                children += [int(word) for word in handle.read().split()]
    except OSError:
        pass
    return children


def proc_threads(pid):
    try:
        return [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def proc_socket_count(pid):
    count = 0
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    count += 1
            except OSError:
                pass
    except OSError:
        pass
    return count


def machine_busy_ticks():
    with open("/proc/stat") as handle:
        values = [int(word) for word in handle.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    return user + nice + system + irq + softirq + steal


def loadavg():
    with open("/proc/loadavg") as handle:
        return [float(word) for word in handle.read().split()[:3]]


def heavy_processes():
    """Names of other CPU-heavy tools running now (compilers, linkers), to explain noise."""
    names = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as handle:
                name = handle.read().strip()
        except OSError:
            continue
        if name in HEAVY_TOOLS:
            names[name] = names.get(name, 0) + 1
    return names
