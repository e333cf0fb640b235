#!/usr/bin/env bash
# Where linkhost's time goes: callgrind instruction counts per request (linkhost and, for scale, nginx) and a
# perf cpu-clock sample under wrk. Installs valgrind and linux-perf when missing, builds in release mode,
# writes Benchmarks/PROFILE.md and profile.json. PROFILE_REQUESTS (default 2000) requests per profile.
set -euo pipefail
BENCH_COMMAND=profile exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/run.sh" "$@"
