"""The work folder of a run and the servers in it: linkhost's config, nginx's copy of the same content and its
config, and the linkhost and nginx processes that the phases measure."""

import json
import os
import shutil
import subprocess
import time

from harness import BenchError, log
from harness.http_client import fetch
from harness.routes import AASA_PATH, CALL_ID, CALL_TYPE, HOST_HEADER, ROUTE, SERVERS
from harness.server import Server, wait_for_line, wait_until_serving
from harness.settings import ACCESS_LOG, BENCHMARKS_DIR, PORTS, REPO
from harness.tls import make_certificate


class Testbed:
    """`prepare` fills the work folder; `servers` holds the long-running linkhost and nginx between
    `start_main_servers` and `stop_main_servers`."""

    def __init__(self, binary, workdir):
        self.bin = os.path.abspath(binary)
        self.workdir = os.path.abspath(workdir)
        self.servers = {}

    def prepare(self):
        os.chmod(self.workdir, 0o755)
        self.config_path = os.path.join(self.workdir, "linkhost.json")
        with open(os.path.join(REPO, "config", "linkhost.json")) as handle:
            config = json.load(handle)
        config.pop("$schema", None)
        server = config.setdefault("server", {})
        server.update({"host": "127.0.0.1", "port": PORTS["linkhost"]})
        # Every benchmark connection comes from 127.0.0.1, as behind a proxy: the per-IP limit would refuse them.
        server["perIPConnectionLimit"] = 0
        call_links = config.setdefault("callLinks", {})
        call_links["template"] = os.path.join(REPO, call_links.get("template", "public/call.html"))
        call_links["locales"] = os.path.join(REPO, call_links.get("locales", "public/locales"))
        # A deployment names its origin; a Host the config does not name gets no page (docs/cdn.md).
        call_links.setdefault("baseURL", "https://" + HOST_HEADER)
        static = config.setdefault("static", {})
        static["root"] = os.path.join(REPO, static.get("root", "public"))
        self.config = self.enable_observability(config)
        with open(self.config_path, "w") as handle:
            json.dump(self.config, handle, indent=2)

        aasa = subprocess.run([self.bin, "print", "aasa", "--config", self.config_path], capture_output=True, check=True, cwd=self.workdir).stdout
        self.www = os.path.join(self.workdir, "www")
        shutil.copytree(static["root"], self.www)
        os.remove(os.path.join(self.www, os.path.basename(config["callLinks"]["template"])))
        os.makedirs(os.path.join(self.www, ".well-known"), exist_ok=True)
        with open(os.path.join(self.www, AASA_PATH.lstrip("/")), "wb") as handle:
            handle.write(aasa)
        for folder, _, files in os.walk(self.www):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o644)

        # linkhost's rendered call page, once, to give nginx the same bytes with the ID and type put back from the URL.
        linkhost = self.linkhost_server("linkhost-probe", PORTS["linkhost"])
        linkhost.start()
        wait_for_line(linkhost, "listening on", 30)
        status, _, page = fetch(linkhost.port, ROUTE["call"].path)
        # public/404.html is a template linkhost bakes per language: nginx serves linkhost's English bytes.
        not_found_status, _, not_found = fetch(linkhost.port, "/no-such-page")
        linkhost.stop()
        if status != 200:
            raise BenchError(f"linkhost answered {status} for the call page")
        if not_found_status != 404:
            raise BenchError(f"linkhost answered {not_found_status} for an unknown path")
        with open(os.path.join(self.www, "404.html"), "wb") as handle:
            handle.write(not_found)
        self.call_page = page
        # One ECDSA P-256 certificate for both servers' HTTPS.
        self.certificate, self.private_key = make_certificate(self.workdir)
        self.nginx_conf = self.write_nginx_conf(PORTS["nginx"], self.workdir, page, tls_port=PORTS["nginx_tls"])

    @staticmethod
    def enable_observability(config):
        """The issue's targets are for linkhost with its access log and metrics on: say so explicitly."""
        observability = config.setdefault("observability", {})
        observability["accessLog"] = ACCESS_LOG
        observability.setdefault("metrics", {})["enabled"] = True
        return config

    def write_nginx_conf(self, port, prefix, page, master=True, workers="auto", tls_port=None):
        text = page.decode("utf-8")
        if "$" in text:
            raise BenchError("the call page contains '$', which nginx's return text cannot hold literally")
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        escaped = escaped.replace(CALL_ID, "${callid}").replace(CALL_TYPE, "${arg_type}")
        with open(os.path.join(BENCHMARKS_DIR, "nginx.conf.template")) as handle:
            template = handle.read()
        # nginx reads no configuration token longer than 4,096 bytes, and the page is longer: it is set in
        # pieces cut where no escape or variable is split, then returned whole.
        pieces, rest = [], escaped
        while rest:
            cut = min(len(rest), 3000)
            while cut < len(rest) and (rest[cut - 1] == "\\" or rest.rfind("${", 0, cut) > rest.rfind("}", 0, cut)):
                cut -= 1
            pieces.append(rest[:cut])
            rest = rest[cut:]
        sets = "".join(f'set $page{index} "{piece}";\n            ' for index, piece in enumerate(pieces))
        template = template.replace('return 200 "@CALL_BODY@";', sets + 'return 200 "' + "".join(f"${{page{index}}}" for index in range(len(pieces))) + '";')
        conf = (template.replace("@PREFIX@", prefix).replace("@PORT@", str(port)).replace("@ROOT@", self.www)
                .replace("@WORKER_PROCESSES@", str(workers)).replace("@MASTER_PROCESS@", "on" if master else "off")
                .replace("@CALL_BODY@", escaped).replace("@CERTIFICATE@", self.certificate).replace("@PRIVATE_KEY@", self.private_key)
                .replace("@TLS_LISTEN@", f"listen 127.0.0.1:{tls_port} ssl backlog=1024;" if tls_port else ""))
        path = os.path.join(prefix, f"nginx-{port}.conf")
        with open(path, "w") as handle:
            handle.write(conf)
        return path

    def linkhost_server(self, name, port, wrapper=(), log_sink=False):
        command = list(wrapper) + [self.bin, "serve", "--config", self.config_path, "--host", "127.0.0.1", "--port", str(port)]
        return Server(name, command, self.workdir, cwd=self.workdir, port=port, log_sink=log_sink)

    def nginx_server(self, name, conf, port, wrapper=()):
        command = list(wrapper) + ["nginx", "-p", self.workdir, "-c", conf, "-e", os.path.join(self.workdir, "error.log")]
        return Server(name, command, self.workdir, cwd=self.workdir, port=port)

    def make_server(self, kind):
        """The server of a kind as the main phases run it: linkhost with its access log down the sink."""
        if kind == "linkhost":
            return self.linkhost_server("linkhost", PORTS["linkhost"], log_sink=True)
        return self.nginx_server("nginx", self.nginx_conf, PORTS["nginx"])

    def start_main_servers(self):
        for kind in SERVERS:
            server = self.make_server(kind)
            server.start()
            wait_until_serving(server)
            self.servers[kind] = server
        # Readings right after start would catch start-up work still under way.
        time.sleep(1.0)

    def stop_main_servers(self):
        for server in self.servers.values():
            server.stop()
        self.servers = {}

    def cleanup(self):
        for server in list(self.servers.values()):
            try:
                server.stop(timeout=5)
            except Exception as error:  # keep stopping the others
                log(f"could not stop {server.name}: {error}")
