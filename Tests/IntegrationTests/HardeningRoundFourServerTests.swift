import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 30 (hardening, round four), items 1, 3, 7, 8 and 9, each against the real binary over real sockets:
/// secrets and config values stay out of the log and the public `/healthz`; a Host the config does not name
/// gets no page a cache may keep; a site's `/.well-known/` is its own; beacons count only from the site's
/// own pages and one address cannot spend a site's allowance; `/metrics` costs a bounded amount.
@Suite("Hardening, round four: the server", .serialized, .timeLimit(.minutes(5)))
struct HardeningRoundFourServerTests {
    /// A valid base64url MAC key that must never appear in any output.
    static let plantedKey = "plantedHmacKey0SecretValue1234567890abcdef"
    /// A malformed MAC key (`+` and `/` are not base64url): its text must not be echoed either.
    static let malformedKey = "plantedMalformed+Secret/Value"

    /// ACME with an external account binding (no CA answers: none is needed), a private metrics port.
    static func acmeConfig(_ site: SiteFixture, email: String, hmacKey: String, bundleID: String, metricsPort: Int) -> TestConfig {
        var config = TestConfig()
        config.bundleID = bundleID
        config.serverExtra["httpPort"] = 0
        config.serverExtra["tls"] = ["acme": [
            "directory": StateFolderTrustTests.directory, "stateDirectory": site.directory + "/state", "hosts": ["links.example.com"],
            "email": email, "externalAccountBinding": ["keyID": "kid-round-four", "hmacKey": hmacKey],
        ] as [String: Any]]
        config.extra["observability"] = ["metrics": ["port": metricsPort, "host": "127.0.0.1"]]
        return config
    }

    /// The port of the plain-HTTP listener beside HTTPS, from its start line.
    static func httpListenerPort(_ stderr: String) throws -> Int {
        let match = try #require(stderr.firstMatch(of: /HTTP listener on http:\/\/127\.0\.0\.1:(\d+):/), "\(stderr)")
        return try #require(Int(match.1))
    }

    @Test("item 1: after a refused, a failed and an applied reload, no output holds the MAC key; refusals name keys; the public /healthz says only that a reload failed")
    func secretsStayOut() async throws {
        let site = try SiteFixture()
        let (server, metricsPort) = try await TestPorts.binding(1, "linkhost's metrics listener") { ports in
            try site.writeConfig(Self.acmeConfig(site, email: "ops@example.com", hmacKey: Self.plantedKey, bundleID: "com.example.first", metricsPort: ports[0]))
            return (try await LinkHostProcess.start(site), ports[0])
        }
        let httpPort = try Self.httpListenerPort(server.stderr)

        /// Every output a visitor or an operator sees, after each kind of reload.
        func everyOutput() async throws -> [(name: String, text: String)] {
            // New connections each time: an idle one may be closed by the server's timeout between reloads.
            let plain = try await RawHTTPClient.open(port: httpPort)
            let metrics = try await RawHTTPClient.open(port: metricsPort)
            return [("stderr", server.stderr), ("stdout", server.stdout),
                    ("public /healthz, listed host", try await plain.request("GET", "/healthz", headers: [("Host", "links.example.com")]).text),
                    ("public /healthz, any host", try await plain.request("GET", "/healthz", headers: [("Host", "evil.example")]).text),
                    ("public /metrics", try await plain.request("GET", "/metrics", headers: [("Host", "links.example.com")]).text),
                    ("metrics port /metrics", try await metrics.request("GET", "/metrics").text),
                    ("metrics port /healthz", try await metrics.request("GET", "/healthz").text)]
        }
        func expectNoSecret(after reload: String) async throws {
            for (name, text) in try await everyOutput() {
                #expect(!text.contains(Self.plantedKey) && !text.contains("Secret"), "after the \(reload) reload, \(name) holds the key: \(text.suffix(800))")
            }
        }

        // Refused: a new e-mail needs a restart. The line names the key, never a value.
        try site.writeConfig(Self.acmeConfig(site, email: "other@example.com", hmacKey: Self.plantedKey, bundleID: "com.example.first", metricsPort: metricsPort))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload refused")
        let refusal = try #require(server.stderr.split(separator: "\n").first { $0.contains("reload refused") })
        #expect(refusal.contains("server.tls.acme.email changed") && !refusal.contains("example.com") && !refusal.contains("kid-round-four"), "\(refusal)")
        try await expectNoSecret(after: "refused")
        let publicHealth = try await RawHTTPClient.open(port: httpPort).request("GET", "/healthz", headers: [("Host", "evil.example")]).text
        #expect(publicHealth.contains("last reload FAILED") && !publicHealth.contains("server.tls.acme"), "the public probe says that, not what: \(publicHealth)")
        #expect(try await RawHTTPClient.open(port: metricsPort).request("GET", "/healthz").text.contains("refused server.tls.acme.email changed"), "the metrics port's probe says what")

        // Failed: a malformed key. The diagnostic names its path, not its text.
        try site.writeConfig(Self.acmeConfig(site, email: "ops@example.com", hmacKey: Self.malformedKey, bundleID: "com.example.first", metricsPort: metricsPort))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        #expect(server.stderr.contains("server.tls.acme.externalAccountBinding.hmacKey"), "\(server.stderr)")
        #expect(!server.stderr.contains(Self.malformedKey) && !server.stderr.contains("plantedMalformed"), "\(server.stderr)")
        try await expectNoSecret(after: "failed")
        let healthAfterFailure = try await RawHTTPClient.open(port: httpPort).request("GET", "/healthz", headers: [("Host", "links.example.com")]).text
        #expect(!healthAfterFailure.contains("hmacKey") && !healthAfterFailure.contains(site.directory), "\(healthAfterFailure)")

        // Applied: the same ACME settings, another app.
        try site.writeConfig(Self.acmeConfig(site, email: "ops@example.com", hmacKey: Self.plantedKey, bundleID: "com.example.second", metricsPort: metricsPort))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        try await expectNoSecret(after: "applied")
        let healthy = try await RawHTTPClient.open(port: httpPort).request("GET", "/healthz", headers: [("Host", "links.example.com")])
        #expect(healthy.status == 200 && healthy.text.hasPrefix("ok\nconfig sha256:") && healthy.text.contains("generation 2\n") && !healthy.text.contains("FAILED"), "\(healthy.text)")
    }

    @Test("item 3: a page and QR image for a loopback Host the config does not name are no-store; a listed host's stay public")
    func loopbackPagesAreNotStored() async throws {
        var config = TestConfig()
        config.baseURL = nil
        config.extra["sites"] = [["id": "named", "hosts": ["links.example.com"]]]
        let server = try await InProcessServer.start(try SiteFixture(config))
        for (host, path) in [("localhost:19399", "/call/abc123?type=video"), ("127.0.0.1:1", "/call/abc123/qr.svg?type=video"),
                             ("evil.localhost:8443", "/call/abc123?type=video"), ("[::1]:9", "/call/abc123/qr.svg?type=video")] {
            let response = try await server.request("GET", path, headers: [("Host", host)])
            #expect(response.status == 200, "\(host) \(path): \(response.status)")
            #expect(response.header("Cache-Control") == "no-store", "\(host) \(path): \(response.headers)")
        }
        let page = try await server.request("GET", "/call/abc123?type=video", headers: [("Host", "localhost:19399")])
        #expect(page.text.contains("https://localhost:19399/call/abc123"), "a local try-out still works: \(page.text.prefix(400))")
        for path in ["/call/abc123?type=video", "/call/abc123/qr.svg?type=video"] {
            let listed = try await server.request("GET", path, headers: [("Host", "links.example.com")])
            #expect(listed.status == 200 && listed.header("Cache-Control")?.hasPrefix("public, max-age=") == true, "\(path): \(listed.headers)")
        }
    }

    @Test("item 7: the top level's /.well-known/ files answer on its hosts only; a site's come from its own folder; validate says LH310")
    func wellKnownStaysWithItsSite() async throws {
        let site = try SiteFixture()
        for folder in ["public/.well-known", "brand/.well-known"] {
            try FileManager.default.createDirectory(atPath: site.directory + "/" + folder, withIntermediateDirectories: true)
        }
        try site.write("top-level webauthn\n", to: "public/.well-known/webauthn")
        try site.write("top-level merchant\n", to: "public/.well-known/apple-developer-merchantid-domain-association")
        try site.write("brand webauthn\n", to: "brand/.well-known/webauthn")
        var config = TestConfig()
        config.extra["sites"] = [["id": "shared", "hosts": ["one.example"]],
                                 ["id": "branded", "hosts": ["two.example"], "static": ["root": site.directory + "/brand"]]]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let top = try await server.request("GET", "/.well-known/webauthn", headers: [("Host", "localhost")])
        #expect(top.status == 200 && top.text == "top-level webauthn\n", "\(top.status) \(top.text)")
        for host in ["one.example", "two.example"] {
            let merchant = try await server.request("GET", "/.well-known/apple-developer-merchantid-domain-association", headers: [("Host", host)])
            #expect(merchant.status == 404, "\(host) claims the top level's merchant file: \(merchant.status) \(merchant.text)")
            #expect(try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)]).status == 200, "the AASA aside")
        }
        #expect(try await server.request("GET", "/.well-known/webauthn", headers: [("Host", "one.example")]).status == 404)
        let branded = try await server.request("GET", "/.well-known/webauthn", headers: [("Host", "two.example")])
        #expect(branded.status == 200 && branded.text == "brand webauthn\n", "\(branded.status) \(branded.text)")

        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(validate.stdout.contains("LH310") && validate.stdout.contains("/.well-known/webauthn"), "\(validate)")
    }

    /// The dropped series of one site and reason.
    static func dropped(_ server: LinkHostProcess, site: String, reason: String) async throws -> Int {
        try await BeaconTests.beaconSeries(server)["linkhost_beacons_dropped_total{site=\"\(site)\",reason=\"\(reason)\"}"] ?? 0
    }

    @Test("item 8: a beacon from another site's page is 403 and counted cross_site; the page's own are counted; one address flooding leaves the allowance to others")
    func beaconsFromOwnPagesOnly() async throws {
        var config = TestConfig()
        config.baseURL = nil
        config.serverExtra["strictHosts"] = true
        config.serverExtra["trustedProxies"] = ["127.0.0.1/32"]
        config.extra["sites"] = [["id": "customer1", "hosts": ["one.example"]], ["id": "customer2", "hosts": ["two.example"]]]
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        let path = BeaconWire.path + "?e=store&p=ios"
        let foreign: [[(String, String)]] = [
            [("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")],
            [("Sec-Fetch-Site", "same-site"), ("Origin", "https://two.example")],
            [("Origin", "https://evil.example")],
            [("Origin", "https://two.example")],
        ]
        for fields in foreign {
            let response = try await server.request("POST", path, headers: [("Host", "one.example")] + fields)
            #expect(response.status == 403 && response.header("Cache-Control") == "no-store", "\(fields): \(response.status)")
        }
        let own: [[(String, String)]] = [
            [("Sec-Fetch-Site", "same-origin"), ("Origin", "null")],
            [("Origin", "https://one.example")],
            [("Origin", "http://one.example:8080")],
        ]
        for fields in own {
            #expect(try await server.request("POST", path, headers: [("Host", "one.example")] + fields).status == 204, "\(fields)")
        }
        let series = try await BeaconTests.beaconSeries(server)
        #expect(series["linkhost_page_actions_total{site=\"customer1\",action=\"store\",platform=\"ios\"}"] == 3, "\(series)")
        #expect(try await Self.dropped(server, site: "customer1", reason: "cross_site") == 4)

        // One client behind the trusted proxy sends more than the site's whole burst on one connection.
        let client = try await server.connect(timeout: .seconds(10))
        var statuses: [Int: Int] = [:]
        let started = ContinuousClock.now
        for _ in 0..<(BeaconWire.burst + 100) {
            let response = try await client.request("POST", BeaconWire.path + "?e=view&p=android",
                                              headers: [("Host", "two.example"), ("X-Forwarded-For", "203.0.113.5"), ("Sec-Fetch-Site", "same-origin")])
            statuses[response.status, default: 0] += 1
        }
        // The share refills while the flood lasts (longer on a busy machine): its burst plus what the seconds the
        // flood took earned, whole seconds rounded up; everything past that is refused.
        let most = BeaconWire.perClientBurst + BeaconWire.perClientPerSecond * (Int((ContinuousClock.now - started).components.seconds) + 1)
        #expect((statuses[204] ?? 0) <= most && (statuses[204] ?? 0) + (statuses[429] ?? 0) == BeaconWire.burst + 100, "one address took \(statuses), at most \(most)")
        // Shares are placed by a hash seeded anew in each process: a guest may share the flooder's (1 in 128);
        // of four other guests, at least three are counted.
        var counted = 0
        for guest in ["198.51.100.7", "198.51.100.8", "192.0.2.44", "2001:db8:5::1"] {
            let other = try await server.request("POST", BeaconWire.path + "?e=view&p=ios",
                                                 headers: [("Host", "two.example"), ("X-Forwarded-For", guest), ("Sec-Fetch-Site", "same-origin")])
            if other.status == 204 { counted += 1 }
        }
        #expect(counted >= 3, "other guests' beacons after the flood: \(counted) of 4 counted")
    }

    @Test("item 8 in Chromium: a page on another site sending beacons to this one moves no counter; each is dropped as cross_site")
    func crossSiteBeaconInChromium() async throws {
        let server = try await LinkHostProcess.start(try SiteFixture())
        // The other site: a plain web server (Python's) whose page sends store taps to this one on load, as a
        // page anywhere could. linkhost's own static pages could not: their CSP allows no script.
        let elsewhere = try SiteFixture()
        try elsewhere.write(#"<!doctype html><html><head><script src="/send.js"></script></head><body>elsewhere</body></html>"#, to: "public/elsewhere.html")
        let target = "http://127.0.0.1:\(server.port)\(BeaconWire.path)?e=store&p=ios"
        try elsewhere.write("for (let i = 0; i < 5; i++) navigator.sendBeacon(\"\(target)\");\n", to: "public/send.js")
        let other = try ChildProcess(executable: try requireTool("python3"), arguments: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
                                     directory: elsewhere.publicPath)
        try await other.waitForOutput(containing: "Serving HTTP on")
        let otherPort = try #require(other.stdout.text.firstMatch(of: /port (\d+)/).flatMap { Int($0.1) }, "\(other.stdout.text)")
        // localhost and 127.0.0.1 are different sites: the browser says cross-site.
        _ = try await HeadlessChromium.visit("http://localhost:\(otherPort)/elsewhere.html", as: .desktop)
        let dropped = try await eventually { try await Self.dropped(server, site: "default", reason: "cross_site") == 5 }
        #expect(dropped, "beacons here: \(server.stdout.split(separator: "\n").filter { $0.contains("beacon") }); elsewhere: \(other.stderr.text)")
        #expect(try await BeaconTests.beaconSeries(server)["linkhost_page_actions_total{site=\"default\",action=\"store\",platform=\"ios\"}"] == 0)
    }

    @Test("item 9: a hundred scrapes back to back render the metrics page a bounded number of times")
    func metricsRenderingIsBounded() async throws {
        var config = TestConfig()
        config.extra["sites"] = (1...60).map { ["id": "tenant\($0)", "hosts": ["t\($0).example"]] }
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        let client = try await server.connect(timeout: .seconds(30))
        var last = ""
        // Each rendering counts the scrapes before it: the number of different counts is the number of renderings.
        var counts: Set<Int> = []
        let started = ContinuousClock.now
        for _ in 0..<100 {
            let response = try await client.request("GET", "/metrics", headers: [("Host", "localhost")])
            #expect(response.status == 200)
            last = response.text
            let line = try #require(last.split(separator: "\n").first { $0.hasPrefix("linkhost_requests_total{site=\"default\",route=\"metrics\",status=\"2xx\"}") })
            counts.insert(try #require(Int(line.split(separator: " ").last ?? "")))
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        // At most the burst (20) back to back, then about one rendering a second; before the fix, 100.
        #expect(counts.count < 100 && counts.count <= 20 + seconds + 1, "\(counts.count) renderings for 100 scrapes in \(seconds) s")
        #expect(last.hasSuffix("\n") && last.contains("linkhost_config_reload_failed 0\n"), "the answer is a whole page")
    }
}
