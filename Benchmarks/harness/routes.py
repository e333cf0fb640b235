"""What a run measures: the routes, the connection modes and the two servers, and the request every client sends."""

import os

from harness.settings import BENCHMARKS_DIR

HOST_HEADER = "links.example.com"
CALL_ID = "Bq7-xK2f9Zt"
CALL_TYPE = "grp4"
AASA_PATH = "/.well-known/apple-app-site-association"


class Route:
    """A benchmarked URL; `script` (a wrk Lua file) and `path_for` vary it per request when set."""

    def __init__(self, key, title, path, script=None, path_for=None):
        self.key, self.title, self.path, self.script = key, title, path, script
        self.path_for = path_for or (lambda index: path)


def distinct_call_path(index):
    """The call page for the index-th distinct call ID, in the shape distinct_calls.lua sends (same length as CALL_ID)."""
    return f"/call/Bq8-{index % 10_000_000:07d}?type={CALL_TYPE}"


ROUTES = [
    Route("aasa", "AASA", AASA_PATH),
    # One URL over and over: what a cache of rendered pages answers.
    Route("call", "call page, one ID", f"/call/{CALL_ID}?type={CALL_TYPE}"),
    # A new call ID on every request: the render path itself.
    Route("calls", "call page, new IDs", distinct_call_path(0), script=os.path.join(BENCHMARKS_DIR, "distinct_calls.lua"), path_for=distinct_call_path),
    Route("404", "404", "/no/such/page"),
    Route("css", "static CSS", "/site.css"),
]
ROUTE = {route.key: route for route in ROUTES}
MODES = [("keepalive", "keep-alive"), ("close", "Connection: close")]
SERVERS = ["linkhost", "nginx"]
