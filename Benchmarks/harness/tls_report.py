"""RESULTS.md's HTTPS sections: the handshake and keep-alive figures of every round, and the start to the first
HTTPS answer."""

import statistics

from harness.report_numbers import fmt_num, fmt_ratio, ratio, round_ratios, runs_of
from harness.settings import WRK_THREADS
from harness.tls import TLS_FIGURES


def tls_section(data):
    if not any(run["phase"] == "tls" for run in data["runs"]):
        return
    settings = data["settings"]
    yield f"## HTTPS beside nginx ({settings['rounds']} rounds × {settings['duration']} s)"
    yield ""
    yield ("Both servers hold the same self-signed ECDSA P-256 certificate and offer the same TLS versions and ciphers: linkhost's "
           "policy (`Sources/CMicroHTTPD/shim.c`: TLS 1.3 and 1.2, AES-GCM and ChaCha20-Poly1305, ECDHE over X25519, P-256 or P-384), "
           "written out for nginx in `nginx.conf.template`; each takes the client's order, so both negotiate TLS 1.3 with "
           "TLS_AES_256_GCM_SHA384 and X25519 with OpenSSL's client. linkhost runs as a second process with `server.tls` pointing at the "
           "files (access log and metrics on, as in the other rows); nginx serves HTTPS from its running instance beside HTTP. "
           f"Handshakes: {WRK_THREADS} `openssl s_time` clients at once, each connection a handshake and one AASA request; `-new` never "
           "offers a session, `-reuse` offers the first one's on every later connection, and s_time marks each connection resumed or "
           "not. Keep-alive: wrk over HTTPS. CPU is the server's per handshake or request.")
    yield ""
    yield "| figure | round | linkhost /s | nginx /s | ratio | resumed (linkhost / nginx) | linkhost CPU each | nginx CPU each | ratio |"
    yield "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"
    for key, title in TLS_FIGURES:
        mode = "keepalive" if key == "aasa" else "close"
        mine, theirs = runs_of(data, "tls", key, mode, "linkhost"), runs_of(data, "tls", key, mode, "nginx")
        for first, second in zip(mine, theirs):
            resumed = f"{first['reused']:,} of {first['requests']:,} / {second['reused']:,} of {second['requests']:,}" if key == "resumed" else ""
            yield (f"| {title} | {first['round']} | {fmt_num(first['rps'])} | {fmt_num(second['rps'])} | {fmt_ratio(ratio(first['rps'], second['rps']))} "
                   f"| {resumed} | {fmt_num(first['cpu_us_per_request'], 1)} µs | {fmt_num(second['cpu_us_per_request'], 1)} µs "
                   f"| {fmt_ratio(ratio(first['cpu_us_per_request'], second['cpu_us_per_request']))} |")
        ratios = round_ratios(data, "tls", key, mode, "rps")
        if ratios:
            yield f"| {title} | **median** | | | **{fmt_ratio(statistics.median(ratios))}** | | | | |"
    yield ""
    starts = data.get("tls_startup_ms")
    if starts:
        yield "### Start to first HTTPS request"
        yield ""
        yield ("From spawning the process to the first `200` on the AASA over HTTPS (a tight connect-and-handshake loop, 0.5 ms between "
               "tries). 'ACME state folder': `server.tls.acme` with the certificate already stored where linkhost's `CertificateStore` keeps "
               "it (`<stateDirectory>/<directory URL as a name>/<host>.pem`, key and chain in one file, 0600) — what a container restarted on "
               "its volume does, and the case the issue names; the ACME directory is a closed port on loopback, which a start with a valid "
               "stored certificate does not wait for. 'certificateFile': `server.tls` with the same files, nginx's setup.")
        yield ""
        yield "| server | median | every start |"
        yield "| --- | ---: | --- |"
        for name, values in starts.items():
            yield f"| {name} | {statistics.median(values):.1f} ms | {', '.join(f'{value:.1f}' for value in values)} ms |"
        yield ""
