#!/usr/bin/env python3
"""Visits one page with Debian's headless Chromium as a given device and reports what it showed.

The device is emulated through the DevTools protocol over a pipe (no network port, no extra package):
User-Agent and Accept-Language, viewport and pixel ratio, mobile layout, touch points (iPadOS Safari
sends a Mac User-Agent; only navigator.maxTouchPoints tells it apart). After the load event and a
quiet network, it writes the DOM as the page's scripts left it, a screenshot, and every URL the page
requested — the proof that a phone never fetches what only a computer shows.

Usage: chromium-visit.py URL --user-agent UA --width W --height H [--scale F] [--mobile] [--touch N]
                         [--accept-language L] [--dom FILE] [--screenshot FILE] [--requests FILE]
                         [--click ID --clipboard FILE --navigations FILE]

--click taps the element with that id (a real pointer event, so the page's handler runs inside a user
gesture) after the load; --clipboard writes what the clipboard then holds, read through the DevTools
protocol; --navigations writes the URLs of the stores the page then tried to open (stopped before they
leave the machine).
Exit status 0 when the page loaded, 1 otherwise; the whole visit ends within --timeout seconds.
"""
import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    """A Chromium process driven over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated JSON)."""

    def __init__(self, binary, deadline):
        self.deadline = deadline
        self.profile = tempfile.mkdtemp(prefix="linkhost-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        command = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                   "--disable-sync", "--disable-background-networking", "--disable-component-update", "--hide-scrollbars",
                   "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"]

        def plumb():
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(command, pass_fds=(3, 4), preexec_fn=plumb,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.requests = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id)

    def wait(self, matches, timeout=None):
        """The first message for which `matches` holds; events seen meanwhile are kept in `events`."""
        limit = min(self.deadline, time.monotonic() + timeout) if timeout else self.deadline
        for index, message in enumerate(self.events):
            if matches(message):
                return self.events.pop(index)
        while time.monotonic() < limit:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if message.get("method") == "Network.requestWillBeSent":
                    self.requests.append(message["params"]["request"]["url"])
                if matches(message):
                    if "error" in message:
                        raise RuntimeError(json.dumps(message["error"]))
                    return message
                self.events.append(message)
            ready, _, _ = select.select([self.from_browser], [], [], max(0.0, min(0.2, limit - time.monotonic())))
            if ready:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk
        return None

    def close(self):
        try:
            os.write(self.to_browser, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--user-agent", required=True)
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("--mobile", action="store_true")
    parser.add_argument("--touch", type=int, default=0, help="touch points (0: none)")
    parser.add_argument("--accept-language", default="en-US,en;q=0.9")
    parser.add_argument("--full-page", action="store_true", help="screenshot the whole page, not only the viewport")
    parser.add_argument("--dom")
    parser.add_argument("--screenshot")
    parser.add_argument("--requests")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--click")
    parser.add_argument("--clipboard")
    parser.add_argument("--navigations")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    options = parser.parse_args()

    browser = Browser(options.chromium, time.monotonic() + options.timeout)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        languages = options.accept_language
        for method, params in [
            ("Network.enable", {}),
            ("Network.setCacheDisabled", {"cacheDisabled": True}),
            ("Page.enable", {}),
            ("Emulation.setUserAgentOverride", {"userAgent": options.user_agent, "acceptLanguage": languages}),
            ("Emulation.setDeviceMetricsOverride", {"width": options.width, "height": options.height,
                                                     "deviceScaleFactor": options.scale, "mobile": options.mobile}),
            ("Emulation.setTouchEmulationEnabled", {"enabled": options.touch > 0, "maxTouchPoints": max(1, options.touch)}),
        ]:
            browser.send(method, params, session)
        if options.click:
            origin = "/".join(options.url.split("/")[:3])
            browser.send("Browser.grantPermissions", {"origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
            # The stores are stopped at the browser: recorded, never fetched.
            browser.send("Fetch.enable", {"patterns": [{"urlPattern": "https://play.google.com/*"}, {"urlPattern": "https://apps.apple.com/*"}]}, session)
        browser.send("Page.navigate", {"url": options.url}, session)
        # A script may replace the page (the language fallback does): wait for the last load.
        loaded = browser.wait(lambda m: m.get("method") == "Page.loadEventFired")
        while loaded and browser.wait(lambda m: m.get("method") == "Page.loadEventFired", timeout=1.0):
            pass
        # Quiet network: no request started for half a second.
        while browser.wait(lambda m: m.get("method") == "Network.requestWillBeSent", timeout=0.5):
            pass
        requests = browser.requests
        if not loaded:
            print("chromium-visit: the page did not load within %ss: %s" % (options.timeout, options.url), file=sys.stderr)
            return 1
        navigations = []
        if options.click:
            box = browser.send("Runtime.evaluate", {"expression": "(function(e){e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();return [r.x+r.width/2,r.y+r.height/2];})(document.getElementById(%s))" % json.dumps(options.click), "returnByValue": True}, session)
            x, y = box["result"]["result"]["value"]
            for kind in ("mousePressed", "mouseReleased"):
                browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, session)
            browser.wait(lambda m: False, timeout=0.4)  # the copy's promise settles; the page shows its line
            if options.clipboard:
                text = browser.send("Runtime.evaluate", {"expression": "navigator.clipboard.readText()", "awaitPromise": True, "returnByValue": True}, session)
                with open(options.clipboard, "w", encoding="utf-8") as out:
                    # A tap that left the page (an intent, another site) leaves no document to read the clipboard from.
                    value = text.get("result", {}).get("result", {}).get("value", "")
                    out.write(value if isinstance(value, str) else "")
        # The page as the guest sees it now (after a click: before the store replaces it).
        if options.dom:
            html = browser.send("Runtime.evaluate", {"expression": "document.documentElement.outerHTML", "returnByValue": True}, session)
            with open(options.dom, "w", encoding="utf-8") as out:
                out.write("<!doctype html>\n" + html["result"]["result"]["value"] + "\n")
        if options.screenshot:
            shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": options.full_page}, session)
            with open(options.screenshot, "wb") as out:
                out.write(base64.b64decode(shot["result"]["data"]))
        if options.click:
            paused = browser.wait(lambda m: m.get("method") == "Fetch.requestPaused", timeout=5.0)
            if paused:
                navigations.append(paused["params"]["request"]["url"])
                browser.send("Fetch.failRequest", {"requestId": paused["params"]["requestId"], "errorReason": "BlockedByClient"}, session)
        if options.navigations:
            with open(options.navigations, "w", encoding="utf-8") as out:
                out.write("".join(url + "\n" for url in navigations))
        if options.requests:
            with open(options.requests, "w", encoding="utf-8") as out:
                out.write("".join(url + "\n" for url in requests))
        return 0
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
