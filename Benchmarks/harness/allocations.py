"""Heap allocations per request: linkhost under valgrind's dhat, ALLOC_REQUESTS and twice as many requests in
fresh processes, differenced per call stack so that start-up and shutdown cancel out."""

import json
import os
import re
import shutil
import time

from harness import BenchError, log
from harness.http_client import KeepAliveClient
from harness.routes import ROUTES
from harness.server import wait_for_line
from harness.settings import ALLOC_REQUESTS, PORTS, VALGRIND
from harness.symbols import demangle, frame_name

ALLOCATOR = re.compile(r"malloc|calloc|realloc|swift_slowAlloc|swift_allocObject|memalign|strdup")
# linkhost's Swift modules as they appear in mangled symbols (`$s` + length + name), specializations of
# generic code for their types included; the executable's own module is `linkhost`.
OWN_MODULE = re.compile(r"\$s.*?(?:14LinkHostServer|12LinkHostCore|13LinkHostCheck|12LinkHostJSON|10LinkHostQR|9CallLinks|8linkhost)")


def measure_allocations(testbed):
    """Allocation figures per route, or None when VALGRIND=0 or valgrind is missing."""
    if not VALGRIND or not shutil.which("valgrind"):
        return None
    counts = (ALLOC_REQUESTS, 2 * ALLOC_REQUESTS)
    log(f"heap allocations: linkhost under valgrind --tool=dhat, {counts[0]} and {counts[1]} keep-alive requests per route")
    results = {}
    for route in ROUTES:
        runs = {}
        for count in counts:
            runs[count] = dhat_run(testbed, route, count)
        results[route.key] = difference(runs[counts[0]], runs[counts[1]], counts[1] - counts[0])
        summary = results[route.key]
        log(f"{route.title:10}: {summary['blocks_per_request']:.2f} allocations/request ({summary['own_blocks_per_request']:.2f} in linkhost's code), "
            f"{summary['bytes_per_request']:.0f} bytes/request")
    return results


def dhat_run(testbed, route, count):
    """dhat's JSON after `count` requests of `route` on one keep-alive connection to a fresh linkhost."""
    out_file = os.path.join(testbed.workdir, f"dhat-{route.key}-{count}.json")
    server = testbed.linkhost_server(f"dhat-{route.key}-{count}", PORTS["valgrind"], wrapper=("valgrind", "--tool=dhat", "--num-callers=60", f"--dhat-out-file={out_file}"))
    server.start()
    try:
        wait_for_line(server, "listening on", 120)
        client = KeepAliveClient(server.port, timeout=60)
        try:
            for index in range(count):
                status, _, _ = client.get(route.path_for(index + 1))
                if status not in (200, 404):
                    raise BenchError(f"linkhost under dhat answered {status} for {route.path}")
        finally:
            client.close()
        time.sleep(0.5)
    finally:
        server.stop(timeout=120)
    with open(out_file) as handle:
        return json.load(handle)


def own_frame(frame):
    return bool(OWN_MODULE.search(frame)) or "cmhd_" in frame


def library_frame(frame):
    """A frame of libmicrohttpd itself (its functions, or its unnamed code)."""
    return "libmicrohttpd" in frame and not own_frame(frame)


def by_stack(document):
    """Blocks and bytes of a dhat document per call stack (frames without their addresses)."""
    table = document["ftbl"]
    stacks = {}
    for point in document["pps"]:
        frames = tuple(table[index] for index in point["fs"])
        key = tuple(re.sub(r"^0x[0-9A-F]+: ", "", frame) for frame in frames)
        entry = stacks.setdefault(key, [0, 0])
        entry[0] += point["tbk"]
        entry[1] += point["tb"]
    return stacks


def difference(small, large, requests):
    """Per request: what the larger run allocated beyond the smaller, in all, in linkhost's code, and by call site."""
    a, b = by_stack(small), by_stack(large)
    sites = {}
    total_blocks = total_bytes = own_blocks = background_blocks = library_blocks = 0
    for key in set(a) | set(b):
        blocks = b.get(key, [0, 0])[0] - a.get(key, [0, 0])[0]
        size = b.get(key, [0, 0])[1] - a.get(key, [0, 0])[1]
        if blocks == 0:
            continue
        total_blocks += blocks
        total_bytes += size
        own_index = next((index for index, frame in enumerate(key) if own_frame(frame)), None)
        own = key[own_index] if own_index is not None else None
        # On the request path a stack runs inside libmicrohttpd's callbacks; the access log's flusher task does not,
        # and its allocations follow the clock (flushes per second), not the request count.
        on_request_path = any("libmicrohttpd" in frame for frame in key)
        if own and on_request_path:
            own_blocks += blocks
            # libmicrohttpd's own copies made inside a call from linkhost (a header's name and value, the response).
            if library_frame(next((frame for frame in key if not ALLOCATOR.search(frame)), "")):
                library_blocks += blocks
        elif own:
            background_blocks += blocks
        site = own or next((frame for frame in key if not ALLOCATOR.search(frame)), key[-1])
        # What the site called on the way to the allocator: the frame just below it.
        below = key[own_index - 1] if own_index else next((frame for frame in key if not ALLOCATOR.search(frame)), "")
        allocator = "" if ALLOCATOR.search(below) else below
        entry = sites.setdefault(site, {"blocks": 0, "bytes": 0, "own": bool(own), "via": set()})
        entry["blocks"] += blocks
        entry["bytes"] += size
        entry["via"].add(frame_name(allocator))
    ranked = sorted(sites.items(), key=lambda item: -item[1]["blocks"])
    return {
        "blocks_per_request": total_blocks / requests,
        "bytes_per_request": total_bytes / requests,
        "own_blocks_per_request": own_blocks / requests,
        "background_blocks_per_request": background_blocks / requests,
        "library_blocks_per_request": library_blocks / requests,
        "sites": [{"site": demangle(site), "per_request": entry["blocks"] / requests, "bytes_per_request": entry["bytes"] / requests,
                   "own": entry["own"], "via": sorted(demangle(v) for v in entry["via"] if v)[:2]} for site, entry in ranked[:12]],
    }
