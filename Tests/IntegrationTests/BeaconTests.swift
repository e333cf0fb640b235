import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The call page's beacons (README, "What the pages report"): counted per site by platform and action,
/// bounded by a fixed label set and a per-site rate, shown by `linkhost stats`; real browser taps in Chromium.
@Suite("Page beacons", .serialized, .timeLimit(.minutes(5)))
struct BeaconTests {
    /// Two tenants with names, on strict hosts, so a beacon from a host no site lists is refused.
    static func tenants() throws -> SiteFixture {
        var config = TestConfig()
        config.baseURL = nil
        config.serverExtra["strictHosts"] = true
        config.extra["sites"] = [["id": "customer1", "hosts": ["one.example"]], ["id": "customer2", "hosts": ["two.example"]]]
        return try SiteFixture(config)
    }

    /// The sample lines of the beacon families, by series.
    static func beaconSeries(_ server: LinkHostProcess) async throws -> [String: Int] {
        let text = try await server.request("GET", "/metrics", headers: [("Host", "localhost")]).text
        var series: [String: Int] = [:]
        for line in text.split(separator: "\n") where ["linkhost_page_views_total{", "linkhost_page_actions_total{", "linkhost_beacons_dropped_total{"].contains(where: { line.hasPrefix($0) }) {
            let parts = line.split(separator: " ")
            series[String(parts[0])] = Int(parts[1])
        }
        return series
    }

    static func beacon(_ server: LinkHostProcess, host: String, _ query: String) async throws -> HTTPResponse {
        try await server.request("POST", BeaconWire.path + "?" + query, headers: [("Host", host)])
    }

    @Test("each site counts its own views by platform and taps by action; unknown words are 400 and counted as dropped; GET is 405; nothing is cached or names a call")
    func countsPerSite() async throws {
        let server = try await LinkHostProcess.start(try Self.tenants())
        for _ in 0..<3 { #expect(try await Self.beacon(server, host: "one.example", "e=view&p=ios").status == 204) }
        let accepted = try await Self.beacon(server, host: "one.example", "e=store&p=ios")
        #expect(accepted.status == 204 && accepted.header("Cache-Control") == "no-store" && accepted.body.isEmpty, "\(accepted)")
        #expect(try await Self.beacon(server, host: "two.example:443", "e=view&p=in_app").status == 204)
        let unknown = try await Self.beacon(server, host: "two.example", "e=view&p=abc123&call=abc123")
        #expect(unknown.status == 400 && unknown.header("Cache-Control") == "no-store", "\(unknown)")
        #expect(try await server.request("GET", BeaconWire.path + "?e=view&p=ios", headers: [("Host", "one.example")]).header("Allow") == "POST")
        #expect(try await Self.beacon(server, host: "nobody.example", "e=view&p=ios").status == 404, "strict hosts: a host no site lists counts nothing")

        let series = try await Self.beaconSeries(server)
        #expect(series["linkhost_page_views_total{site=\"customer1\",platform=\"ios\"}"] == 3, "\(series)")
        #expect(series["linkhost_page_actions_total{site=\"customer1\",action=\"store\",platform=\"ios\"}"] == 1)
        #expect(series["linkhost_page_views_total{site=\"customer2\",platform=\"in_app\"}"] == 1)
        #expect(series["linkhost_beacons_dropped_total{site=\"customer2\",reason=\"malformed\"}"] == 1)
        #expect(series["linkhost_page_views_total{site=\"default\",platform=\"ios\"}"] == 0, "the unknown host counted nothing on the default site")
        #expect(!series.keys.contains { $0.contains("abc123") })
        // The access log has the path only: never the query a beacon came with.
        try await server.child.waitForOutput(containing: "\"path\":\"/.linkhost/beacon\"")
        #expect(server.stdout.contains("\"path\":\"/.linkhost/beacon\"") && !server.stdout.contains("e=view"), "\(server.stdout.suffix(600))")
    }

    @Test("a bounded flood of beacons, real and fake, from many hosts: the label set does not grow, counts stay within the allowance, and RSS stays flat")
    func flood() async throws {
        let server = try await LinkHostProcess.start(try Self.tenants())
        let labelsBefore = Set(try await Self.beaconSeries(server).keys)
        var resident: [Int] = []
        var counted: [Int] = []
        let started = ContinuousClock.now
        for round in 0..<3 {
            // 6,000 beacons a round on two keep-alive connections, on threads of their own.
            let failures = await onThreads([0, 1], width: 2) { worker -> Int in
                guard let client = try? RawHTTPClient(port: server.port, timeout: .seconds(10)) else { return -1 }
                var failures = 0
                for index in 0..<3000 {
                    let host = index % 3 == 0 ? "one.example" : index % 3 == 1 ? "two.example" : "h\(index)-\(worker).evil.example"
                    let query: String
                    switch index % 4 {
                    case 0: query = "e=view&p=ios"
                    case 1: query = "e=store&p=android"
                    case 2: query = "e=e\(index)&p=p\(round)"
                    default: query = "e=" + String(repeating: "x", count: 900) + "&p=bot"
                    }
                    guard let response = try? client.request("POST", BeaconWire.path + "?" + query, headers: [("Host", host)]),
                          [204, 400, 404, 429].contains(response.status) else { failures += 1; continue }
                }
                return failures
            }
            #expect(failures == [0, 0], "round \(round): \(failures)")
            let series = try await Self.beaconSeries(server)
            #expect(Set(series.keys).isSubset(of: labelsBefore.union(Self.possibleSeries)), "new series: \(Set(series.keys).subtracting(labelsBefore.union(Self.possibleSeries)))")
            counted.append(series.filter { !$0.key.hasPrefix("linkhost_beacons_") }.values.reduce(0, +))
            resident.append(try HardeningRoundThreeTests.residentKB(server))
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        let allowance = 2 * (BeaconWire.burst + BeaconWire.perSecond * seconds)
        #expect(counted[2] <= allowance, "counted \(counted) in \(seconds) s; the two sites' allowance is \(allowance)")
        #expect(counted[2] > 0)
        // The first round warms the allocator's arenas; after it, beacons hold nothing.
        #expect(resident[2] - resident[1] < 4_096, "RSS by round (kB): \(resident)")
        #expect(try await server.request("GET", "/healthz", headers: [("Host", "localhost")]).status == 200)
    }

    @Test("in Chromium, a view and each tap on the page's actions move their counters: open, store (with its copy), web join, leaving an in-app browser")
    func tapsInChromium() async throws {
        let site = try SiteFixture()
        var config = TestConfig(urlScheme: "examplevideo")
        // The web join points at a closed loopback port: the tap's navigation goes nowhere off the machine.
        config.extra = ["callLinks": ["paths": ["call"], "webJoinURL": "http://127.0.0.1:9/j/{callId}"]]
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site)
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let instagram = GuestJourneyTests.device(.iPhone, agent: GuestJourneyTests.instagramIOS, name: "Instagram iOS")
        let taps: [(device: HeadlessChromium.Device, id: String, platform: String, actions: [String])] = [
            (.android, "open-app", "android", ["open"]),
            (.iPhone, "app-store", "ios", ["store", "copy"]),
            (.desktop, "web-join", "desktop", ["web"]),
            (instagram, "leave-webview", "in_app", ["leave"]),
        ]
        for tap in taps {
            _ = try await HeadlessChromium.visit(url, as: tap.device, click: tap.id)
            var wanted = ["linkhost_page_views_total{site=\"default\",platform=\"\(tap.platform)\"}"]
            wanted += tap.actions.map { "linkhost_page_actions_total{site=\"default\",action=\"\($0)\",platform=\"\(tap.platform)\"}" }
            // sendBeacon queues the report and returns: it may land a moment after the visit ends.
            var series: [String: Int] = [:]
            _ = try await eventually {
                series = try await Self.beaconSeries(server)
                return wanted.allSatisfy { series[$0] == 1 }
            }
            for name in wanted { #expect(series[name] == 1, "\(tap.device) tapping #\(tap.id): \(name) is \(series[name] ?? 0)") }
        }
        // Four views, one per platform, and the five taps: nothing counted twice, nothing else counted.
        let final = try await Self.beaconSeries(server)
        let total = final.filter { !$0.key.hasPrefix("linkhost_beacons_") }.values.reduce(0, +)
        #expect(total == 9, "\(final.filter { $0.value > 0 })")
    }

    /// Every series the two tenants and the default site can ever have.
    static let possibleSeries: Set<String> = {
        var all: Set<String> = []
        for site in ["default", "customer1", "customer2"] {
            for platform in ["ios", "android", "desktop", "in_app", "bot", "other"] {
                all.insert("linkhost_page_views_total{site=\"\(site)\",platform=\"\(platform)\"}")
                for action in ["open", "store", "web", "copy", "leave"] {
                    all.insert("linkhost_page_actions_total{site=\"\(site)\",action=\"\(action)\",platform=\"\(platform)\"}")
                }
            }
            for reason in ["rate", "malformed"] { all.insert("linkhost_beacons_dropped_total{site=\"\(site)\",reason=\"\(reason)\"}") }
        }
        return all
    }()

    @Test("linkhost stats prints a table per site from a running server, one site with --site, JSON, and exits 1 when it cannot read one")
    func statsCommand() async throws {
        let site = try Self.tenants()
        let server = try await LinkHostProcess.start(site)
        for query in ["e=view&p=ios", "e=view&p=ios", "e=view&p=android", "e=store&p=ios", "e=copy&p=ios"] {
            #expect(try await Self.beacon(server, host: "one.example", query).status == 204)
        }
        let metrics = "http://127.0.0.1:\(server.port)/metrics"
        // With the server's config, a site that has counted nothing is listed too (the metrics leave it out).
        let table = try await LinkHostCLI.run(["stats", "--url", metrics, "--config", site.configPath], directory: site.directory)
        #expect(table.exitCode == 0, "\(table)")
        #expect(table.stdout.contains("site customer1: 3 page views, 2 taps;"), "\(table.stdout)")
        #expect(table.stdout.contains(#/\n  iOS +2 +0 +1 +0 +1 +0  █+\n/#), "\(table.stdout)")
        #expect(table.stdout.contains("site customer2:") && table.stdout.contains("no page has reported a view yet"))
        let one = try await LinkHostCLI.run(["stats", "--url", metrics, "--site", "customer1", "--format", "json"], directory: site.directory)
        #expect(one.exitCode == 0 && one.stdout.contains("\"site\": \"customer1\"") && !one.stdout.contains("customer2"), "\(one)")
        let typo = try await LinkHostCLI.run(["stats", "--url", metrics, "--site", "customer9", "--config", site.configPath], directory: site.directory)
        #expect(typo.exitCode == 2 && typo.stderr.contains("customer1, customer2"), "\(typo)")
        let nothing = try await LinkHostCLI.run(["stats", "--url", "http://127.0.0.1:1/metrics", "--timeout", "2"], directory: site.directory)
        #expect(nothing.exitCode == 1 && nothing.stdout.isEmpty, "\(nothing)")
        let notMetrics = try await LinkHostCLI.run(["stats", "--url", "http://127.0.0.1:\(server.port)/healthz"], directory: site.directory)
        #expect(notMetrics.exitCode == 1 && notMetrics.stderr.contains("no linkhost page metrics"), "\(notMetrics)")
    }
}

/// The beacon path and allowance as the README documents them, spelled out here so that a change to either
/// is a visible change to this test.
enum BeaconWire {
    static let path = "/.linkhost/beacon"
    static let perSecond = 100
    static let burst = 500
    /// One client's share (an IPv4 address, an IPv6 /64): bursts of this many.
    static let perClientBurst = 30
    /// And this many a second after it.
    static let perClientPerSecond = 5
}
