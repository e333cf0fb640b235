"""The benchmark harness behind Benchmarks/bench.py: linkhost beside nginx on one machine (issue 7).

Every server it starts listens on 127.0.0.1, runs in its own session (so its process group is killed whole), is
listed in WORKDIR/pids for run.sh's trap, and is stopped before the command returns; every load loop is bounded
in time. Standard library only.

    settings, routes                        what a run measures, from the environment
    procfs, machine                         readings of /proc, the machine and the tools' versions
    server, testbed                         server processes; the work folder and the servers of a run
    http_client, wrk                        raw-socket clients and wrk
    startup, parity, throughput, memory,    the phases of `bench.py bench`
    reload, allocations
    report_numbers, targets, results_report RESULTS.md
    callgrind, perf, profile_report         the phases of `bench.py profile` and PROFILE.md
    symbols                                 readable names for Swift symbols and valgrind frames
"""

import sys


class BenchError(Exception):
    """A measurement could not be made: bench.py prints the reason and exits 1."""


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)
