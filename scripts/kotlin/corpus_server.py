#!/usr/bin/env python3
"""The server's side of scripts/check-kotlin-parser.sh, over the call-link corpus.

config CORPUS DIR PORT   writes DIR/linkhost.json (and its page) serving the corpus's templates, hosts and scheme
swift-line CORPUS        prints the `linkhost print swift-parser` line the corpus's parser settings give
answers CORPUS PORT      asks the real server for every http(s) row the parser reaches matching for (its scheme,
                         host and port are the parser's; the server's answer is about path and query) and
                         prints each row where a call page's call differs from the table; exit 1 on any
match CORPUS LINKHOST CONFIG
                         runs `linkhost match --platform both` on every url row and holds it to the table: the
                         CallLinkParser line to the expected column, the Kotlin line to the android column (the
                         compiled parser is held to the same column), and a URL iOS opens in the app must be
                         read as a call by CallLinkParser; exit 1 on any row that differs
page-links CORPUS PORT MANIFEST OUT
                         fetches the call page of every call the table names, writes the links it offers
                         (canonical, open-in-app scheme, intent, Play referrer) as corpus rows to OUT, and
                         checks the printed manifest claims each; exit 1 on any it does not
"""
import concurrent.futures, html, json, re, socket, subprocess, sys, urllib.parse

def corpus(path):
    settings, rows = {}, []
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if line.startswith("@"):
            settings[fields[0][1:]] = fields[1:]
        else:
            rows.append((number, fields[0], decode(fields[1]), fields[2], fields[1], fields[3] if len(fields) > 3 else fields[2]))
    return settings, rows

def decode(field):
    return re.sub(r"\\(\\|u\{([0-9A-Fa-f]+)\})", lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(2), 16)), field)

def encode(text):
    return "".join("\\\\" if c == "\\" else c if 0x20 < ord(c) < 0x7F else "\\u{%X}" % ord(c) for c in text)

def write_config(path, directory, port):
    settings, _ = corpus(path)
    config = {
        "server": {"host": "127.0.0.1", "port": int(port)},
        "apps": [{"name": "Corpus", "teamID": "ABCDE12345", "bundleID": "com.acme.video", "appStoreID": "1234567890",
                  "urlScheme": settings["schemes"][0]}],
        "android": [{"packageName": "com.acme.video", "sha256CertFingerprints": [
            "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
            "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E6"]}],
        "callLinks": {"links": settings["templates"], "defaultType": settings["defaultType"][0],
                      "template": directory + "/page.html", "pageCacheSize": 0},
        "static": {"root": directory + "/public"},
        "sites": [{"hosts": settings["hosts"]}],
    }
    with open(directory + "/linkhost.json", "w") as out:
        json.dump(config, out, indent=2)
    with open(directory + "/page.html", "w") as out:
        out.write('<!doctype html><title>t</title><p id="call">{{callId}}|{{callType}}</p>\n'
                  '<a id="canonical" href="{{canonicalURL}}">c</a><a id="app" href="{{openInAppURL}}">a</a>'
                  '<a id="intent" href="{{intentURL}}">i</a><a id="play" href="{{playStoreURL}}">p</a>\n')

def swift_line(path):
    settings, _ = corpus(path)
    quoted = lambda items: ", ".join('"%s"' % item for item in items)
    return 'let parser = try CallLinkParser(templates: [%s], defaultType: "%s", hosts: [%s], schemes: [%s])' % (
        quoted(settings["templates"]), settings["defaultType"][0], quoted(settings["hosts"]), quoted(settings["schemes"]))

def covers(listed, host):
    return listed == host or (listed.startswith("*.") and len(host.encode()) > len(listed) - 1 and host.endswith(listed[1:]))

def request(port, target):
    """The call of the page the server answers `target` with, or "-"; and the page."""
    with socket.create_connection(("127.0.0.1", int(port)), timeout=5) as connection:
        connection.sendall(b"GET " + target.encode("utf-8") + b" HTTP/1.1\r\nHost: links.example.com\r\nConnection: close\r\n\r\n")
        data = b""
        while len(data) < 1_000_000:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
    text = data.decode("utf-8", "replace")
    found = re.search(r'<p id="call">([^|<]*)\|([^<]*)</p>', text)
    return (f"{found.group(1)} {found.group(2)}" if text.startswith("HTTP/1.1 200") and found else "-"), text

def server_target(settings, url):
    """The request target of a URL the parser reaches its templates with; None for one it refuses before."""
    if len(url.encode("utf-8")) > 2048 or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
        return None
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)$", url, re.S)
    # CallLinkParser reads http (port 80) as it reads https (port 443): iOS opens both in the app.
    default_port = {"https": 443, "http": 80}.get(match.group(1).lower()) if match else None
    if not match or default_port is None or "@" in match.group(2) or match.group(2).startswith("["):
        return None
    host, _, port = match.group(2).partition(":")
    if ":" in match.group(2) and not (port.isascii() and port.isdigit() and len(port) <= 5 and int(port) == default_port):
        return None
    host = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in host)
    if host.endswith(".") and len(host.encode()) > 1:
        host = host[:-1]
    if not host or not any(covers(listed, host) for listed in settings["hosts"]):
        return None
    target = match.group(3).split("#", 1)[0]
    return "/" + target if not target.startswith("/") else target

def answers(path, port):
    settings, rows = corpus(path)
    asked = disagreements = 0
    for number, kind, url, expected, written, _ in rows:
        target = server_target(settings, url) if kind == "url" else None
        if target is None:
            continue
        asked += 1
        served, _ = request(port, target)
        if served != expected:
            disagreements += 1
            print(f"DISAGREE line {number} {written}: server {served}, table (CallLinkParser) {expected}")
    print(f"server: {asked} http(s) rows asked, {disagreements} disagreements")
    return 1 if disagreements or asked < 200 else 0

PARSER_LINE = re.compile(r'^  app parser: (CallLinkParser|Kotlin CallLinks) of \S+ \([^)]*\): (?:call "([^"]*)", type "([^"]*)"|none.*)$')

def match_rows(path, binary, config):
    """Every url row through `linkhost match`: the parsers it names answer as the table says."""
    settings, rows = corpus(path)
    rows = [row for row in rows if row[1] == "url" and not any(ord(c) <= 0x20 or ord(c) == 0x7F for c in row[2]) and not row[2].startswith("-")]
    run_match = lambda url: subprocess.run([binary, "match", "--platform", "both", "--config", config, url], capture_output=True, text=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(run_match, [row[2] for row in rows]))
    checked = disagreements = 0
    for (number, kind, url, expected, written, android), run in zip(rows, runs):
        answers = {}
        for line in run.stdout.split("\n"):
            found = PARSER_LINE.match(line)
            if found:
                answers[found.group(1)] = f"{found.group(2)} {found.group(3)}" if found.group(2) is not None else "-"
        if run.returncode == 2 or not answers:
            # A URL match cannot read (no scheme, no host): no parser line to compare.
            continue
        checked += 1
        # A URL iOS opens in the app and the server answers with a call page must be that call to the app too.
        # Only on a host the corpus lists, named without a port or user (match assumes the AASA is served at
        # the URL's own authority), and within CallLinkParser.maxLength, which refuses a longer text unread;
        # the AASA's breadth beyond the templates (/call/ab*c) is the server's 404 and no call either way.
        page = re.search(r'^  linkhost: the call page of call "([^"]*)", type "([^"]*)"', run.stdout, re.M)
        authority = re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)", url)
        host = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in authority.group(1)).rstrip(".") if authority else ""
        listed = authority and "@" not in host and ":" not in host and any(covers(h, host) for h in settings["hosts"])
        opens_on_ios = (listed and page is not None and run.returncode != 3 and len(url.encode("utf-8")) <= 2048
                        and re.search(r"^ABCDE12345\.com\.acme\.video: match,", run.stdout, re.M) is not None)
        problems = []
        if answers.get("CallLinkParser", expected) != expected:
            problems.append(f"match's CallLinkParser {answers['CallLinkParser']}, table {expected}")
        if answers.get("Kotlin CallLinks", android) != android:
            problems.append(f"match's Kotlin {answers['Kotlin CallLinks']}, table (android) {android}")
        if opens_on_ios and answers.get("CallLinkParser", "-") != f"{page.group(1)} {page.group(2)}":
            problems.append(f"iOS opens it in the app and the server serves call {page.group(1)} {page.group(2)}, but CallLinkParser reads {answers.get('CallLinkParser', '-')}")
        if problems:
            disagreements += 1
            print(f"DISAGREE line {number} {written}: " + "; ".join(problems))
    print(f"match: {checked} url rows, {disagreements} disagreements")
    return 1 if disagreements or checked < 300 else 0

def page_links(path, port, manifest_path, out_path):
    settings, rows = corpus(path)
    manifest = open(manifest_path, encoding="utf-8").read()
    hosts = re.findall(r'android:host="([^"]*)"', manifest)
    claims = re.findall(r'android:(pathPrefix|path)="([^"]*)"', manifest)
    schemes = re.findall(r'android:scheme="([^"]*)"', manifest)
    calls = sorted({expected for _, kind, url, expected, _, _ in rows if kind == "url" and expected != "-" and url.startswith("https://links.example.com/")})
    out, problems = [], 0
    for call in calls:
        call_id, call_type = call.split(" ")
        canonical_target = next(url for _, kind, url, expected, _, _ in rows if kind == "url" and expected == call and url.startswith("https://links.example.com/"))
        served, page = request(port, server_target(settings, canonical_target))
        links = {name: html.unescape(value) for name, value in re.findall(r'<a id="(\w+)" href="([^"]*)"', page)}
        offered = [("url", links["canonical"]), ("url", links["app"])]
        intent = re.match(r"^intent://([^#]*)#Intent;(.*)end$", links["intent"])
        if intent:
            offered.append(("url", "https://" + intent.group(1)))
        referrer = urllib.parse.parse_qs(urllib.parse.urlsplit(links["play"]).query).get("referrer", [""])[0]
        offered.append(("referrer", referrer))
        for kind, link in offered:
            out.append(f"{kind}\t{encode(link)}\t{call_id} {call_type}")
            if kind != "url":
                continue
            parts = urllib.parse.urlsplit(link)
            path_only = "/" + link.split("://", 1)[1].split("?")[0].split("#")[0].partition("/")[2] if parts.scheme != "https" else parts.path
            claimed = (parts.scheme in schemes and (parts.scheme != "https" or (parts.hostname in hosts and any(
                path_only == value if attribute == "path" else path_only.startswith(value) for attribute, value in claims))))
            if not claimed:
                problems += 1
                print(f"NOT CLAIMED by the printed manifest: {link} (page of {call})")
    with open(out_path, "w", encoding="utf-8") as file:
        file.write("\n".join(out) + "\n")
    print(f"page links: {len(out)} links of {len(calls)} call pages, {problems} the manifest does not claim")
    return 1 if problems or len(calls) < 10 else 0

if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "config":
        write_config(*arguments)
    elif command == "swift-line":
        print(swift_line(*arguments))
    elif command == "answers":
        sys.exit(answers(*arguments))
    elif command == "match":
        sys.exit(match_rows(*arguments))
    elif command == "page-links":
        sys.exit(page_links(*arguments))
    else:
        sys.exit(f"unknown command {command}")
