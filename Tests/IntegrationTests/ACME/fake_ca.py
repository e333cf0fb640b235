#!/usr/bin/env python3
"""A small ACME CA for linkhost's tests: the answers Pebble cannot be made to give.

Usage: fake_ca.py PORT_FILE CERT KEY CA_CERT CA_KEY LOG_FILE HTTP_PORT

Serves HTTPS on 127.0.0.1 (an ephemeral port, written to PORT_FILE). The behaviour of an order depends on
its first host name:
  ratelimited.test  newOrder answers 429 rateLimited with Retry-After: 7200
  huge.test         newOrder answers 400 KB of JSON
  html.test         newOrder answers text/html
  redirect.test     newOrder answers 302
  badjson.test      newOrder answers a body that is not JSON
  never.test        the order stays "processing" (Retry-After: 1) forever
  nonce.test        newOrder always answers badNonce
  anything else     a real order: HTTP-01 is validated against 127.0.0.1:HTTP_PORT (the key authorization
                    is checked against the account key's thumbprint) and the CSR is signed with openssl.
renewalInfo answers a window that has already passed, so any certificate with an ARI ID is due now.
Every request is appended to LOG_FILE as one JSON line.
"""
import base64
import hashlib
import http.server
import json
import os
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

# The test runner may hand down a blocked SIGTERM; the harness stops this server with it.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
signal.signal(signal.SIGTERM, signal.SIG_DFL)
PORT_FILE, CERT, KEY, CA_CERT, CA_KEY, LOG_FILE, HTTP_PORT = sys.argv[1:8]
lock = threading.Lock()
state = {"orders": {}, "authz": {}, "thumbprint": None, "serial": 1000, "nonce": 0}


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def log(entry):
    with lock, open(LOG_FILE, "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def rfc3339(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def base(self):
        return "https://127.0.0.1:%d" % self.server.server_address[1]

    def send(self, status, body=b"", content_type="application/json", headers=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        with lock:
            state["nonce"] += 1
            nonce = "nonce%d" % state["nonce"]
        self.send_response(status)
        self.send_header("Replay-Nonce", nonce)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def problem(self, status, kind, detail, headers=()):
        self.send(status, {"type": "urn:ietf:params:acme:error:" + kind, "detail": detail}, "application/problem+json", headers)

    def do_HEAD(self):
        log({"method": "HEAD", "path": self.path})
        self.send(200, b"", None)

    def do_GET(self):
        log({"method": "GET", "path": self.path})
        if self.path == "/dir":
            base = self.base()
            self.send(200, {"newNonce": base + "/nonce", "newAccount": base + "/account", "newOrder": base + "/order",
                            "renewalInfo": base + "/renewal-info", "meta": {"termsOfService": base + "/tos"}})
        elif self.path.startswith("/renewal-info/"):
            now = time.time()
            self.send(200, {"suggestedWindow": {"start": rfc3339(now - 7200), "end": rfc3339(now - 3600)}}, headers=[("Retry-After", "3600")])
        else:
            self.send(404, b"not found", "text/plain")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        protected = json.loads(b64d(body["protected"]))
        payload = json.loads(b64d(body["payload"])) if body["payload"] else None
        entry = {"method": "POST", "path": self.path}
        if self.path == "/order" and payload:
            entry["hosts"] = [item["value"] for item in payload["identifiers"]]
            entry["replaces"] = payload.get("replaces")
        log(entry)
        base = self.base()
        if self.path == "/account":
            jwk = protected["jwk"]
            canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"], "y": jwk["y"]}, separators=(",", ":"), sort_keys=True)
            state["thumbprint"] = b64e(hashlib.sha256(canonical.encode()).digest())
            self.send(201, {"status": "valid"}, headers=[("Location", base + "/acct/1")])
            return
        if self.path == "/order":
            self.new_order(payload, base)
            return
        if self.path.startswith("/authz/"):
            self.send(200, state["authz"][self.path.split("/")[-1]])
            return
        if self.path.startswith("/challenge/"):
            self.validate(self.path.split("/")[-1])
            self.send(200, {"type": "http-01", "status": "processing"})
            return
        if self.path.startswith("/order/"):
            order = state["orders"][self.path.split("/")[-1]]
            self.send(200, order["public"], headers=[("Retry-After", "1")] if order["public"]["status"] == "processing" else [])
            return
        if self.path.startswith("/finalize/"):
            self.finalize(self.path.split("/")[-1], payload)
            return
        if self.path.startswith("/cert/"):
            self.send(200, state["orders"][self.path.split("/")[-1]]["chain"], "application/pem-certificate-chain")
            return
        self.send(404, b"not found", "text/plain")

    def new_order(self, payload, base):
        hosts = [item["value"] for item in payload["identifiers"]]
        first = hosts[0]
        if first == "ratelimited.test":
            return self.problem(429, "rateLimited", "too many certificates for this test", [("Retry-After", "7200")])
        if first == "huge.test":
            return self.send(201, b'{"padding": "' + b"x" * 400_000 + b'"}', headers=[("Location", base + "/order/huge")])
        if first == "html.test":
            return self.send(201, b"<html>maintenance</html>", "text/html", [("Location", base + "/order/html")])
        if first == "redirect.test":
            return self.send(302, b"", "text/plain", [("Location", "https://example.invalid/order")])
        if first == "badjson.test":
            return self.send(201, b'{"status": "pending", ', headers=[("Location", base + "/order/badjson")])
        if first == "nonce.test":
            return self.problem(400, "badNonce", "JWS has an invalid anti-replay nonce")
        with lock:
            number = str(len(state["orders"]) + 1)
        if first == "never.test":
            public = {"status": "processing", "authorizations": [], "finalize": base + "/finalize/" + number}
            state["orders"][number] = {"public": public, "hosts": hosts}
            return self.send(201, public, headers=[("Location", base + "/order/" + number), ("Retry-After", "1")])
        authorizations = []
        for index, host in enumerate(hosts):
            name = "%s-%d" % (number, index)
            token = b64e(os.urandom(24))
            state["authz"][name] = {"status": "pending", "identifier": {"type": "dns", "value": host},
                                    "challenges": [{"type": "http-01", "url": base + "/challenge/" + name, "token": token, "status": "pending"}]}
            authorizations.append(base + "/authz/" + name)
        public = {"status": "pending", "authorizations": authorizations, "finalize": base + "/finalize/" + number}
        state["orders"][number] = {"public": public, "hosts": hosts, "authz": [a.split("/")[-1] for a in authorizations]}
        self.send(201, public, headers=[("Location", base + "/order/" + number)])

    def validate(self, name):
        authorization = state["authz"][name]
        token = authorization["challenges"][0]["token"]
        url = "http://127.0.0.1:%s/.well-known/acme-challenge/%s" % (HTTP_PORT, token)
        request = urllib.request.Request(url, headers={"Host": authorization["identifier"]["value"]})
        try:
            answer = urllib.request.urlopen(request, timeout=5).read().decode()
        except Exception as error:
            answer = "error: %s" % error
        valid = answer == token + "." + state["thumbprint"]
        log({"validated": authorization["identifier"]["value"], "valid": valid})
        authorization["status"] = "valid" if valid else "invalid"
        authorization["challenges"][0]["status"] = authorization["status"]
        number = name.split("-")[0]
        order = state["orders"][number]
        if all(state["authz"][item]["status"] == "valid" for item in order["authz"]):
            order["public"]["status"] = "ready"
        elif not valid:
            order["public"]["status"] = "invalid"

    def finalize(self, number, payload):
        order = state["orders"][number]
        with tempfile.TemporaryDirectory() as folder:
            with open(folder + "/csr.der", "wb") as handle:
                handle.write(b64d(payload["csr"]))
            with open(folder + "/ext", "w") as handle:
                handle.write("subjectAltName=" + ",".join("DNS:" + host for host in order["hosts"]) + "\nauthorityKeyIdentifier=keyid\n")
            with lock:
                state["serial"] += 1
                serial = state["serial"]
            subprocess.run(["openssl", "req", "-inform", "DER", "-in", folder + "/csr.der", "-out", folder + "/csr.pem"], check=True, capture_output=True)
            subprocess.run(["openssl", "x509", "-req", "-in", folder + "/csr.pem", "-CA", CA_CERT, "-CAkey", CA_KEY, "-set_serial", str(serial),
                            "-days", "1", "-extfile", folder + "/ext", "-out", folder + "/leaf.pem"], check=True, capture_output=True)
            with open(folder + "/leaf.pem", "rb") as handle:
                order["chain"] = handle.read()
        order["public"]["status"] = "valid"
        order["public"]["certificate"] = self.base() + "/cert/" + number
        self.send(200, order["public"], headers=[("Location", self.base() + "/order/" + number)])


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(CERT, KEY)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(PORT_FILE + ".tmp", "w") as handle:
    handle.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
# The line the test waits for: the port file is whole and the socket listens.
print("fake CA listening", flush=True)
server.serve_forever()
