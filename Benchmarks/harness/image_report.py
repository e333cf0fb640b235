"""RESULTS.md's image section: the AASA and call-page rows with linkhost from the Docker image's root file system."""

import statistics

from harness.image import IMAGE_ROWS
from harness.report_numbers import cell, fmt_mb, fmt_num, fmt_ratio, ratio, round_ratios
from harness.routes import MODES, ROUTE


def image_section(data):
    image = data.get("image")
    if not image:
        return
    versions = image.get("versions", {})
    yield "## The same rows against the image's libraries (Debian 13, libmicrohttpd 1.0.1)"
    yield ""
    yield ("linkhost as the Docker image runs it: the runtime stage's root file system, built by `Benchmarks/image-root.sh` with "
           "scripts/check-docker.sh's own stages from the unchanged Dockerfile and this run's binary, entered with `chroot` as the "
           "image's user (10001) in a mount namespace of its own, on the host's loopback; nginx is the host's, as in every other row. "
           f"Debian {versions.get('debian', '?')}, GnuTLS {versions.get('gnutls', '?')}; linkhost said at start: "
           f"`{versions.get('startup_line', '?')}`. Idle RSS in the image: {fmt_mb(image['rss_idle_kb'])}. Same rounds and wrk command as above.")
    yield ""
    yield "| route | connections | round ratios (req/s) | linkhost req/s | nginx req/s | ratio | linkhost p99 | nginx p99 | linkhost CPU/req | nginx CPU/req | ratio |"
    yield "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    titles = dict(MODES)
    for key, mode in IMAGE_ROWS:
        get = lambda kind, field: cell(data, "image", key, mode, kind, field)
        rps, p99, cpu = ({kind: get(kind, field) for kind in ("linkhost", "nginx")} for field in ("rps", "p99_ms", "cpu_us_per_request"))
        ratios = round_ratios(data, "image", key, mode, "rps")
        shown = ", ".join(f"{value:.2f}×" for value in ratios)
        median = fmt_ratio(statistics.median(ratios)) if ratios else "n/a"
        yield (f"| {ROUTE[key].title} | {titles[mode]} | {shown} | {fmt_num(rps['linkhost'])} | {fmt_num(rps['nginx'])} | **{median}** "
               f"| {fmt_num(p99['linkhost'], 2)} ms | {fmt_num(p99['nginx'], 2)} ms | {fmt_num(cpu['linkhost'], 2)} µs | {fmt_num(cpu['nginx'], 2)} µs "
               f"| {fmt_ratio(ratio(cpu['linkhost'], cpu['nginx']))} |")
    yield ""
