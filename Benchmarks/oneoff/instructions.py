"""Instructions (callgrind) and heap allocations (dhat) per request of one linkhost binary, per route: the
deterministic before/after check of an optimisation, which wall-clock numbers on a shared machine cannot give.

    python3 Benchmarks/oneoff/instructions.py BINARY [ROUTE ...] [--no-dhat] [--top N]

ROUTE is any of aasa call calls 404 css (default: all); PROFILE_REQUESTS (default 2000) requests under
callgrind, ALLOC_REQUESTS (default 1000) and twice as many under dhat, as `make bench` counts them."""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.allocations import dhat_run, difference  # noqa: E402
from harness.callgrind import callgrind_linkhost  # noqa: E402
from harness.routes import ROUTE  # noqa: E402
from harness.settings import ALLOC_REQUESTS  # noqa: E402
from harness.testbed import Testbed  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("routes", nargs="*", default=list(ROUTE))
    parser.add_argument("--no-dhat", action="store_true", help="instructions only")
    parser.add_argument("--no-callgrind", action="store_true", help="allocations only")
    parser.add_argument("--top", type=int, default=12, help="exclusive functions to list per route")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="instructions-", dir="/tmp")
    testbed = Testbed(args.binary, workdir)
    try:
        testbed.prepare()
        for key in args.routes:
            route = ROUTE[key]
            if not args.no_callgrind:
                profile = callgrind_linkhost(testbed, route)
                print(f"== {route.title}: {profile['instructions_per_request']:,.0f} instructions per request")
                for row in profile["exclusive"][:args.top]:
                    print(f"   {row['per_request']:8,.0f}  {row['function']}")
            if not args.no_dhat:
                runs = {count: dhat_run(testbed, route, count) for count in (ALLOC_REQUESTS, 2 * ALLOC_REQUESTS)}
                summary = difference(runs[ALLOC_REQUESTS], runs[2 * ALLOC_REQUESTS], ALLOC_REQUESTS)
                print(f"== {route.title}: {summary['blocks_per_request']:.2f} allocations per request, "
                      f"{summary['own_blocks_per_request']:.2f} in linkhost's code (of which libmicrohttpd's copies "
                      f"{summary['library_blocks_per_request']:.2f}), {summary['bytes_per_request']:.0f} bytes")
                for site in summary["sites"]:
                    if abs(site["per_request"]) >= 0.05:
                        print(f"   {site['per_request']:6.2f} × {site['bytes_per_request'] / max(site['per_request'], 1e-9):6.0f} B  {site['site']}"
                              + (f"  via {', '.join(site['via'])}" if site["via"] else ""))
    finally:
        testbed.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
