"""Thousands of tenants (issues 33 and 42): 10,000 tenants in site files sharing the top level's link templates,
in two shapes: the operator's (each with its own `callLinks.baseURL`, App Store ID, two signing keys, and by its
index an App Clip, one platform only or a second host: `operator_tenant`) and the minimal one of issue 33 (a host,
an iOS and an Android app, no `callLinks`); and 1,000 sites × ten templates in one file. TENANT_ROWS chooses
rows (a comma-separated subset of ROWS), TENANT_SHAPES the shapes (default both), TENANTS the count (10,000).

Targets (release build, this machine): ready ≤ 2 s, resident ≤ 300 MB for the operator's shape (250 MB for the
minimal one), the peak during a reload ≤ 2.2 × the steady size, resident after 20 more reloads ≤ 1.15 × after
the second, `validate` ≤ 3 s; 1,000 sites × ten templates: `validate` ≤ 1 s."""

import hashlib
import json
import os
import signal
import subprocess
import time

from harness import BenchError, log
from harness.procfs import loadavg, proc_status_kb
from harness.scale import TEMPLATES_PER_SITE, reload_time, site_host, site_links
from harness.server import Server
from harness.settings import PORTS, REPO
from harness.startup import time_to_first_ok

ROWS = ["ready", "resident", "reload", "reloads", "validate", "validate-templates"]
TENANTS = int(os.environ.get("TENANTS", "10000"))
TEMPLATE_SITES = 1000
# Reloads after the second in the `reloads` row: resident then against resident after the second.
MORE_RELOADS = 20
TARGETS = {"ready_s": 2.0, "resident_mb": 300.0, "reload_peak_ratio": 2.2, "reloads_ratio": 1.15, "validate_s": 3.0,
           "validate_templates_s": 1.0}
# The minimal shape kept issue 33's resident target.
SHAPE_TARGETS = {"operator": TARGETS, "minimal": dict(TARGETS, resident_mb=250.0)}


def chosen(variable, known):
    """The comma-separated names of `variable` (all of `known` when unset), each checked."""
    names = [name.strip() for name in os.environ.get(variable, ",".join(known)).split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise BenchError(f"{variable}: unknown {unknown}; they are {list(known)}")
    return names


def base_config(port, links=None):
    """The top level every tenant inherits from: link templates (two, or `links`), the shipped page and locales."""
    public = os.path.join(REPO, "public")
    return {
        "server": {"host": "127.0.0.1", "port": port, "perIPConnectionLimit": 0, "strictHosts": True},
        "observability": {"accessLog": "off"},
        "apps": [{"name": "Platform", "teamID": "PLATFORM00", "bundleID": "com.platform.video"}],
        "callLinks": {"links": links or ["/call/{callId}?type={callType}", "/join/{callType}:{callId}"],
                      "template": os.path.join(public, "call.html"), "locales": os.path.join(public, "locales")},
        "static": {"root": public},
    }


# The operator's top level (deploy/multi-tenant, docs/kubernetes.md): three link shapes every tenant inherits.
OPERATOR_LINKS = ["/call/{callId}?type={callType}", "/call/{callType}:{callId}", "/j/{callId}"]


def tenant_host(index):
    return f"t{index}.tenants.example"


def fingerprint(seed):
    """A SHA-256 certificate fingerprint as Android writes it (AA:BB:…), the same for the same seed."""
    digest = hashlib.sha256(seed.encode()).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, 64, 2))


def minimal_tenant(index):
    """The minimal tenant (issue 33's rows): its own host, iOS app and Android app (one signing key), no `callLinks`."""
    return {"id": f"t{index}", "hosts": [tenant_host(index)],
            "apps": [{"name": f"Tenant {index}", "teamID": f"T{index:09d}", "bundleID": f"com.tenant{index}.video", "appStoreID": str(1000000 + index)}],
            "android": [{"name": f"Tenant {index}", "packageName": f"com.tenant{index}.video", "sha256CertFingerprints": [fingerprint(str(index))]}]}


def operator_tenant(index, host=None, open_host=None):
    """The tenant an operator writes (deploy/multi-tenant, docs/kubernetes.md; issue 42): its own host and
    `callLinks.baseURL`, an App Store ID, two signing keys (upload key and Play signing); by its last digit an
    App Clip (3 in 10), iOS only (1 in 10), Android only (1 in 10), a second host the iPhone's open button uses
    (1 in 10). Deterministic: the same index, the same file. `host` and `open_host` name others (a fleet under
    one wildcard certificate needs each one label below it)."""
    host = host or tenant_host(index)
    open_host = open_host or f"open.{host}"
    kind = index % 10
    # A site that lists one platform's apps says it has none of the other's ("apps": [], "android": []), or it
    # would be read as a mistake (LH125): the top level's apps are not inherited by a site with apps of its own.
    site = {"id": f"t{index}", "hosts": [host], "callLinks": {"baseURL": f"https://{host}"}, "apps": [], "android": []}
    if kind != 1:
        app = {"name": f"Tenant {index}", "teamID": f"T{index:09d}", "bundleID": f"com.tenant{index}.video", "appStoreID": str(1000000 + index)}
        if kind in (0, 4, 7):
            app["appClipBundleID"] = f"com.tenant{index}.video.Clip"
        site["apps"] = [app]
    if kind != 2:
        site["android"] = [{"name": f"Tenant {index}", "packageName": f"com.tenant{index}.video",
                            "sha256CertFingerprints": [fingerprint(f"upload {index}"), fingerprint(f"play {index}")]}]
    if kind == 3:
        site["hosts"].append(open_host)
        site["callLinks"]["openInAppHost"] = open_host
    return site


# The tenant shapes the rows measure: the operator's (issue 42) and the minimal one (issue 33's rows).
SHAPES = {"operator": (operator_tenant, OPERATOR_LINKS), "minimal": (minimal_tenant, None)}


def write_tenants(workdir, count, shape="operator", port=None):
    """The main file and `count` site files of `shape` in sites.d/; returns the main file's path."""
    make, links = SHAPES[shape]
    folder = os.path.join(workdir, f"tenants-{shape}-{count}")
    os.makedirs(os.path.join(folder, "sites.d"), exist_ok=True)
    for index in range(count):
        with open(os.path.join(folder, "sites.d", f"t{index:05d}.json"), "w") as handle:
            json.dump(make(index), handle)
    config = base_config(PORTS["linkhost"] if port is None else port, links)
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


def settled_rss(server):
    """VmRSS a second after the start's first answer, when the start-up's threads have let go of what they made."""
    time.sleep(1)
    return server.rss_kb()


def reloads(server, count, timeout=600):
    """`count` SIGHUP reloads one after the other, each awaited ("reloaded" line)."""
    for _ in range(count):
        reload_time(server, timeout)


def measure_shape(binary, workdir, shape, rows):
    """The serving and `validate` rows of `rows` on TENANTS tenants of `shape`; times are medians of RUNS."""
    result = {"tenants": TENANTS, "shape": shape}
    serving = [row for row in rows if row in ("ready", "resident", "reload", "reloads")]
    if not serving and "validate" not in rows:
        return result
    log(f"tenants: writing {TENANTS} site files ({shape})")
    path = write_tenants(workdir, TENANTS, shape)
    if serving:
        # Started RUNS times for the median ready; sizes and the reloads are read from the last start.
        result["ready_runs"] = []
        for run in range(RUNS):
            server = Server(f"linkhost-tenants-{shape}-{TENANTS}", [binary, "serve", "--config", path], workdir, cwd=os.path.dirname(path), port=PORTS["linkhost"])
            try:
                result["ready_runs"].append(time_to_first_ok(server, "/.well-known/apple-app-site-association", timeout=600, host=tenant_host(TENANTS - 1)))
            except BaseException:
                server.stop()
                raise
            if run < RUNS - 1:
                server.stop()
        result["ready_s"] = median(result["ready_runs"])
        try:
            result["resident_mb"] = settled_rss(server) / 1024
            if "reload" in rows or "reloads" in rows:
                peak, milliseconds = reload_peak(server)
                result["reload_peak_mb"] = peak / 1024
                result["reload_ms"] = milliseconds
                result["reload_peak_ratio"] = peak / 1024 / result["resident_mb"]
                # The "reloaded" line comes after the old snapshot is freed and its pages returned: read at once.
                result["resident_after_reload_mb"] = server.rss_kb() / 1024
            if "reloads" in rows:
                # Resident after the second reload, then after MORE_RELOADS more: memory must not grow per reload.
                reloads(server, 1)
                result["resident_after_second_reload_mb"] = server.rss_kb() / 1024
                reloads(server, MORE_RELOADS)
                result["resident_after_more_reloads_mb"] = server.rss_kb() / 1024
                result["reloads_ratio"] = result["resident_after_more_reloads_mb"] / result["resident_after_second_reload_mb"]
        finally:
            server.stop()
    if "validate" in rows:
        result["validate"] = timed_validate(binary, path)
        result["validate_s"] = result["validate"]["seconds"]
    return result


def measure_tenants(binary, workdir):
    """The rows TENANT_ROWS chose for the shapes TENANT_SHAPES chose (a release build, on whatever else runs on the machine)."""
    rows = chosen("TENANT_ROWS", ROWS)
    shapes = chosen("TENANT_SHAPES", list(SHAPES))
    result = {"tenants": TENANTS, "rows": rows, "targets": SHAPE_TARGETS, "load_start": loadavg(), "shapes": {}}
    for shape in shapes:
        result["shapes"][shape] = measure_shape(binary, workdir, shape, rows)
    if "validate-templates" in rows:
        result["validate_templates"] = timed_validate(binary, write_templates(workdir))
        result["validate_templates_s"] = result["validate_templates"]["seconds"]
    result["load_end"] = loadavg()
    return result


SHAPE_NAMES = {
    "operator": "the operator's tenant: its own host and `callLinks.baseURL`, App Store ID, two signing keys; an App Clip 3 in 10, "
                "iOS only 1 in 10, Android only 1 in 10, a second (open) host 1 in 10; three link shapes at the top",
    "minimal": "the minimal tenant of issue 33: its own host, iOS app and Android app (one signing key), no `callLinks`; two link shapes at the top",
}


def tenants_report(result):
    """TENANTS.md: one table per tenant shape, each row measured against its target."""
    names = {"ready_s": ("ready (first 200 on the last tenant's host)", "s", "≤"), "resident_mb": ("resident after start", "MB", "≤"),
             "reload_peak_ratio": ("peak during a reload ÷ steady", "×", "≤"),
             "reloads_ratio": (f"resident after {MORE_RELOADS} more reloads ÷ after the second", "×", "≤"),
             "validate_s": ("`validate`", "s", "≤"),
             "validate_templates_s": (f"`validate`, {TEMPLATE_SITES} sites × {TEMPLATES_PER_SITE} templates", "s", "≤")}
    lines = ["# Thousands of tenants (`make bench-tenants`)", "",
             f"{result['tenants']:,} tenants in site files (`Benchmarks/harness/tenants.py` writes them); release build, on a shared "
             f"2-core machine; each time the median of {RUNS} runs.", "",
             f"1-minute load average {result.get('load_start', '?')} at the start, {result.get('load_end', '?')} at the end: times on a loaded "
             "machine are upper bounds; sizes do not depend on the load."]

    def table(values, targets):
        rows = ["| row | measured | target | |", "|---|---:|---:|---|"]
        runs = {"ready_s": values.get("ready_runs"), "validate_s": values.get("validate", {}).get("runs"),
                "validate_templates_s": values.get("validate_templates", {}).get("runs")}
        for key, (name, unit, relation) in names.items():
            if key not in values:
                continue
            value, target = values[key], targets[key]
            shown = f"{value:.2f} {unit}" + (f" (median of {', '.join(f'{run:.2f}' for run in runs[key])})" if runs.get(key) else "")
            rows.append(f"| {name} | {shown} | {relation} {target} {unit} | {'PASS' if value <= target else 'FAIL'} |")
        for key in ("reload_peak_mb", "reload_ms", "resident_after_reload_mb", "resident_after_second_reload_mb", "resident_after_more_reloads_mb"):
            if key in values:
                rows.append(f"| {key} | {values[key]:.1f} | | |")
        for key in ("validate", "validate_templates"):
            if key in values:
                rows.append(f"| {key}: exit status, heading, lines | {values[key]['status']} | {values[key]['heading'][:80]} | {values[key]['lines']} |")
        return rows

    # A result from before issue 42 measured the minimal tenant alone, at the top level.
    shapes = result.get("shapes") or {"minimal": dict(result, shape="minimal")}
    targets = result["targets"] if "shapes" in result else SHAPE_TARGETS
    for shape, values in shapes.items():
        if len(values) <= 2:
            continue
        lines += ["", f"### {shape.capitalize()} tenants", "", f"{SHAPE_NAMES[shape]}.", ""]
        lines += table({key: value for key, value in values.items() if not key.startswith("validate_templates")}, targets[shape])
    if "validate_templates_s" in result:
        lines += ["", "### One file of sites with ten templates each", ""]
        lines += table({key: result[key] for key in ("validate_templates_s", "validate_templates")}, TARGETS)
    return "\n".join(lines) + "\n"
