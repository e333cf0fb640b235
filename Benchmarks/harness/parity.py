"""Same content on both servers: every route fetched from each, status, body digest and header size compared."""

import hashlib

from harness import log
from harness.http_client import fetch
from harness.routes import ROUTES, SERVERS


def check_parity(testbed):
    parity = {}
    for route in ROUTES:
        row = {}
        for kind in SERVERS:
            status, head, body = fetch(testbed.servers[kind].port, route.path)
            row[kind] = {"status": status, "header_bytes": len(head), "body_bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()[:16]}
        row["same_body"] = row["linkhost"]["sha256"] == row["nginx"]["sha256"] and row["linkhost"]["status"] == row["nginx"]["status"]
        # The new-ID page differs inside its QR code by design; any other difference means the comparison is unfair.
        if not row["same_body"] and route.key != "calls":
            log(f"warning: {route.title}: linkhost and nginx bodies differ ({row})")
        parity[route.key] = row
    return parity
