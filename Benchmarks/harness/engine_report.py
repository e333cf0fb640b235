"""RESULTS.md's engine section: linkhost and nginx beside the bare libmicrohttpd program, each ratio with its limit."""

import statistics

from harness.report_numbers import cell, fmt_num, fmt_ratio, ratio, runs_of, spread

TITLES = {"aasa": "AASA", "calls": "call page, new IDs (bare: one page of the same size)"}
MODE_TITLES = {"keepalive": "keep-alive", "close": "Connection: close"}


def paired(data, route, mode, kind, key="rps"):
    """`kind` ÷ bare within each round (the runs of a round are back to back, so they share the machine's noise)."""
    ratios = []
    for number in sorted({run["round"] for run in data["runs"] if run["phase"] == "engine"}):
        pick = lambda name: [run[key] for run in runs_of(data, "engine", route, mode, name) if run["round"] == number and run[key]]
        mine, bare = pick(kind), pick("bare")
        if mine and bare:
            ratios.append(mine[0] / bare[0])
    return statistics.median(ratios) if ratios else None


def engine_section(data):
    if not any(run["phase"] == "engine" for run in data["runs"]):
        return
    settings = data["settings"]
    sizes = data.get("engine", {}).get("body_bytes", {})
    yield f"## The engine's ceiling: bare libmicrohttpd ({settings['rounds']} rounds × {settings['duration']} s)"
    yield ""
    yield ("`Benchmarks/engine/bare_mhd.c`: libmicrohttpd with linkhost's daemon options (internal polling thread, epoll, ITC, a thread "
           "pool of one thread per core, the same timeout and limits) answering every request with one response prepared at start — "
           "linkhost's own bytes and header fields for the route. Nothing is faster on this machine with this engine, so linkhost ÷ bare "
           "is the share of the engine's limit linkhost reaches, and nginx ÷ bare shows where the engine stands. The three run back to "
           "back in a rotating order with the same wrk command (and request script); ratios are medians of the per-round ratios.")
    yield ""
    yield "| route | body | mode | linkhost req/s | bare req/s | nginx req/s | linkhost ÷ bare | nginx ÷ bare | linkhost CPU/req | bare CPU/req |"
    yield "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for route in ("aasa", "calls"):
        for mode in ("keepalive", "close"):
            value = lambda kind, key="rps": cell(data, "engine", route, mode, kind, key)
            if value("bare") is None:
                continue
            yield (f"| {TITLES[route]} | {fmt_num(sizes.get(route))} B | {MODE_TITLES[mode]} "
                   f"| {fmt_num(value('linkhost'))}{spread(data, 'engine', route, mode, 'linkhost', 'rps')} "
                   f"| {fmt_num(value('bare'))}{spread(data, 'engine', route, mode, 'bare', 'rps')} "
                   f"| {fmt_num(value('nginx'))}{spread(data, 'engine', route, mode, 'nginx', 'rps')} "
                   f"| {fmt_ratio(paired(data, route, mode, 'linkhost'))} | {fmt_ratio(paired(data, route, mode, 'nginx'))} "
                   f"| {fmt_num(value('linkhost', 'cpu_us_per_request'), 2)} µs | {fmt_num(value('bare', 'cpu_us_per_request'), 2)} µs |")
    yield ""
