"""Thousands of tenants (issue 33): 10,000 tenants in site files, each with its own iOS app, Android app and host,
sharing two link templates; and 1,000 sites × ten templates in one file. Each row runs alone with
TENANT_ROWS (a comma-separated subset of ROWS); TENANTS sets the tenant count (default 10,000).

Targets (release build, this machine): ready ≤ 2 s, resident ≤ 250 MB, the peak during a reload ≤ 2.2 × the
steady size, `validate` ≤ 3 s; 1,000 sites × ten templates: `validate` ≤ 1 s."""

import hashlib
import json
import os
import signal
import subprocess
import time

from harness import BenchError, log
from harness.procfs import loadavg, proc_status_kb
from harness.scale import TEMPLATES_PER_SITE, site_host, site_links
from harness.server import Server
from harness.settings import PORTS, REPO
from harness.startup import time_to_first_ok

ROWS = ["ready", "resident", "reload", "validate", "validate-templates"]
TENANTS = int(os.environ.get("TENANTS", "10000"))
TEMPLATE_SITES = 1000
TARGETS = {"ready_s": 2.0, "resident_mb": 250.0, "reload_peak_ratio": 2.2, "validate_s": 3.0, "validate_templates_s": 1.0}


def chosen_rows():
    rows = [row.strip() for row in os.environ.get("TENANT_ROWS", ",".join(ROWS)).split(",") if row.strip()]
    unknown = [row for row in rows if row not in ROWS]
    if unknown:
        raise BenchError(f"TENANT_ROWS: unknown {unknown}; the rows are {ROWS}")
    return rows


def base_config(port):
    """The top level every tenant inherits from: two link templates, the shipped page and locales."""
    public = os.path.join(REPO, "public")
    return {
        "server": {"host": "127.0.0.1", "port": port, "perIPConnectionLimit": 0, "strictHosts": True},
        "observability": {"accessLog": "off"},
        "apps": [{"name": "Platform", "teamID": "PLATFORM00", "bundleID": "com.platform.video"}],
        "callLinks": {"links": ["/call/{callId}?type={callType}", "/join/{callType}:{callId}"],
                      "template": os.path.join(public, "call.html"), "locales": os.path.join(public, "locales")},
        "static": {"root": public},
    }


def tenant_host(index):
    return f"t{index}.tenants.example"


def tenant(index):
    """One tenant's site file: its own host, iOS app and Android app (with its own signing key)."""
    digest = hashlib.sha256(str(index).encode()).hexdigest().upper()
    fingerprint = ":".join(digest[i:i + 2] for i in range(0, 64, 2))
    return {"id": f"t{index}", "hosts": [tenant_host(index)],
            "apps": [{"name": f"Tenant {index}", "teamID": f"T{index:09d}", "bundleID": f"com.tenant{index}.video", "appStoreID": str(1000000 + index)}],
            "android": [{"name": f"Tenant {index}", "packageName": f"com.tenant{index}.video", "sha256CertFingerprints": [fingerprint]}]}


def write_tenants(workdir, count):
    """The main file and `count` site files in sites.d/; returns the main file's path."""
    folder = os.path.join(workdir, f"tenants-{count}")
    os.makedirs(os.path.join(folder, "sites.d"), exist_ok=True)
    for index in range(count):
        with open(os.path.join(folder, "sites.d", f"t{index:05d}.json"), "w") as handle:
            json.dump(tenant(index), handle)
    config = base_config(PORTS["linkhost"])
    config["siteFiles"] = "sites.d/*.json"
    path = os.path.join(folder, "linkhost.json")
    with open(path, "w") as handle:
        json.dump(config, handle)
    return path


def write_templates(workdir):
    """1,000 sites of ten link templates each, in one file (the shape `make bench`'s scale rows use)."""
    config = base_config(PORTS["linkhost"])
    config["callLinks"].pop("links")
    config["sites"] = [{"hosts": [site_host(index)], "callLinks": {"links": site_links(index)}} for index in range(TEMPLATE_SITES)]
    path = os.path.join(workdir, f"linkhost-{TEMPLATE_SITES}-sites-{TEMPLATES_PER_SITE}-templates.json")
    with open(path, "w") as handle:
        json.dump(config, handle)
    return path


# Each time row is the median of this many runs, every run kept: this shared machine's speed moves by half
# from one minute to the next, and one run measures the minute as much as linkhost.
RUNS = 3


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def timed_validate(binary, path):
    """Seconds `linkhost validate` takes (the median of RUNS runs, each kept), with its exit status and heading line."""
    runs = []
    for _ in range(RUNS):
        started = time.perf_counter()
        done = subprocess.run([binary, "validate", "--config", path], capture_output=True, text=True, cwd=os.path.dirname(path))
        runs.append(time.perf_counter() - started)
    heading = (done.stdout or done.stderr).splitlines()[:1]
    return {"seconds": median(runs), "runs": runs, "status": done.returncode, "heading": heading[0] if heading else "",
            "lines": len((done.stdout + done.stderr).splitlines())}


def reload_peak(server, timeout=600):
    """SIGHUP, then the resident size sampled every 2 ms until the "reloaded" line: the peak, in kB, and the time."""
    before = server.errors().count("reloaded")
    pid = server.process.pid
    # Linux resets the high-water mark (VmHWM) on "5" (proc(5), clear_refs): the start's peak is not the reload's.
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass
    peak = rss(pid)
    sent = time.perf_counter()
    server.signal(signal.SIGHUP)
    while server.errors().count("reloaded") == before:
        peak = max(peak, rss(pid))
        if time.perf_counter() - sent > timeout or server.process.poll() is not None:
            raise BenchError(f"{server.name} did not reload within {timeout} s:\n{server.errors()[-2000:]}")
        time.sleep(0.002)
    milliseconds = (time.perf_counter() - sent) * 1000
    return max(peak, rss(pid, "VmHWM")), milliseconds


def rss(pid, key="VmRSS"):
    try:
        return proc_status_kb(pid, key) or 0
    except OSError:
        return 0


def measure_tenants(binary, workdir):
    """The rows TENANT_ROWS chose (a release build, on whatever else runs on the machine); times are medians of RUNS."""
    rows = chosen_rows()
    result = {"tenants": TENANTS, "rows": rows, "targets": TARGETS, "load_start": loadavg()}
    serving = [row for row in rows if row in ("ready", "resident", "reload")]
    if serving or "validate" in rows:
        log(f"tenants: writing {TENANTS} site files")
        path = write_tenants(workdir, TENANTS)
    if serving:
        # Started RUNS times for the median ready; sizes and the reload are read from the last start.
        result["ready_runs"] = []
        for run in range(RUNS):
            server = Server(f"linkhost-tenants-{TENANTS}", [binary, "serve", "--config", path], workdir, cwd=os.path.dirname(path), port=PORTS["linkhost"])
            try:
                result["ready_runs"].append(time_to_first_ok(server, "/.well-known/apple-app-site-association", timeout=600, host=tenant_host(TENANTS - 1)))
            except BaseException:
                server.stop()
                raise
            if run < RUNS - 1:
                server.stop()
        result["ready_s"] = median(result["ready_runs"])
        try:
            time.sleep(1)
            result["resident_mb"] = server.rss_kb() / 1024
            if "reload" in rows:
                peak, milliseconds = reload_peak(server)
                result["reload_peak_mb"] = peak / 1024
                result["reload_ms"] = milliseconds
                result["reload_peak_ratio"] = peak / 1024 / result["resident_mb"]
                time.sleep(1)
                result["resident_after_reload_mb"] = server.rss_kb() / 1024
        finally:
            server.stop()
    if "validate" in rows:
        result["validate"] = timed_validate(binary, path)
        result["validate_s"] = result["validate"]["seconds"]
    if "validate-templates" in rows:
        result["validate_templates"] = timed_validate(binary, write_templates(workdir))
        result["validate_templates_s"] = result["validate_templates"]["seconds"]
    result["load_end"] = loadavg()
    return result


def tenants_report(result):
    """TENANTS.md: one line per row, measured against its target."""
    names = {"ready_s": ("ready (first 200 on the last tenant's host)", "s", "≤"), "resident_mb": ("resident after start", "MB", "≤"),
             "reload_peak_ratio": ("peak during a reload ÷ steady", "×", "≤"), "validate_s": ("`validate`", "s", "≤"),
             "validate_templates_s": (f"`validate`, {TEMPLATE_SITES} sites × {TEMPLATES_PER_SITE} templates", "s", "≤")}
    lines = ["# Thousands of tenants (`make bench-tenants`)", "",
             f"{result['tenants']:,} tenants in site files, each with its own host, iOS app and Android app, sharing two link templates "
             f"(`Benchmarks/harness/tenants.py` writes them); release build, on a shared 2-core machine; each time the median of {RUNS} runs.", "",
             f"1-minute load average {result.get('load_start', '?')} at the start, {result.get('load_end', '?')} at the end: times on a loaded "
             "machine are upper bounds; sizes do not depend on the load.", "",
             "| row | measured | target | |", "|---|---:|---:|---|"]
    runs = {"ready_s": result.get("ready_runs"), "validate_s": result.get("validate", {}).get("runs"),
            "validate_templates_s": result.get("validate_templates", {}).get("runs")}
    for key, (name, unit, relation) in names.items():
        if key not in result:
            continue
        value, target = result[key], TARGETS[key]
        shown = f"{value:.2f} {unit}" + (f" (median of {', '.join(f'{run:.2f}' for run in runs[key])})" if runs.get(key) else "")
        lines.append(f"| {name} | {shown} | {relation} {target} {unit} | {'PASS' if value <= target else 'FAIL'} |")
    for key in ("reload_peak_mb", "reload_ms", "resident_after_reload_mb"):
        if key in result:
            lines.append(f"| {key} | {result[key]:.1f} | | |")
    for key in ("validate", "validate_templates"):
        if key in result:
            lines.append(f"| {key}: exit status, heading, lines | {result[key]['status']} | {result[key]['heading'][:80]} | {result[key]['lines']} |")
    return "\n".join(lines) + "\n"
