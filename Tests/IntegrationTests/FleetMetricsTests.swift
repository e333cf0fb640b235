import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Metrics of many tenants over real sockets against the real binary (issue 42): per-site series bounded by
/// default, per-site latency only when asked for, a removed tenant's series gone at the next reload, and each
/// site's version (`linkhost_site_config_info`).
@Suite("Fleet metrics", .timeLimit(.minutes(4)))
struct FleetMetricsTests {
    /// Tenant `index`'s site file: an id, a host, an iOS and an Android app of its own (so both association files answer 200).
    static func tenant(_ index: Int, bundle: String = "app") -> String {
        let id = name(index)
        let team = "T" + String(format: "%09d", index)
        return #"{"id": "\#(id)", "hosts": ["\#(id).example"], "apps": [{"name": "\#(id)", "teamID": "\#(team)", "bundleID": "com.\#(id).\#(bundle)"}], "#
            + #""android": [{"name": "\#(id)", "packageName": "com.\#(id).\#(bundle)", "sha256CertFingerprints": ["\#(TestConfig().fingerprint)"]}]}"#
    }

    /// `t0042`: tenant `index`'s id, its file's name (with `.json`) and its host's first label.
    static func name(_ index: Int) -> String { "t" + String(format: "%04d", index) }

    /// A config reading `sites.d/*.json`, with `count` tenants there.
    static func fixture(tenants count: Int, observability: [String: Any]? = nil) async throws -> SiteFixture {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"]
        if let observability { config.extra["observability"] = observability }
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        try await FleetCommandTests.writeFiles(in: site.directory + "/sites.d", (0..<count).map { ("\(name($0)).json", tenant($0)) })
        return site
    }

    /// One call page, AASA and assetlinks request on each of `tenants`, over one kept-alive connection.
    static func visit(_ server: LinkHostProcess, tenants: Range<Int>) async throws {
        let client = try await server.connect()
        try await onThread("visiting \(tenants.count) tenants") {
            for index in tenants {
                let host = [("Host", "\(name(index)).example")]
                for path in ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/call/abc?type=video"] {
                    let answer = try client.request("GET", path, headers: host)
                    guard answer.status == 200 else { throw HarnessError("\(path) on \(name(index)).example answered \(answer.status)") }
                }
            }
        }
    }

    /// The metrics page's sample lines (no comments).
    static func samples(_ server: LinkHostProcess) async throws -> [Substring] {
        let page = try await server.request("GET", "/metrics")
        try #require(page.status == 200, "\(page)")
        return page.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    @Test("1,000 tenants after a call page, AASA and assetlinks each: at most 20 series with a site label a tenant, latency per route only")
    func boundedSeriesAtAThousandTenants() async throws {
        let count = 1_000
        // A thousand tenants load in about a second on an idle machine; a busy one (the full suite) takes longer.
        let server = try await LinkHostProcess.start(try await Self.fixture(tenants: count), timeout: happensWithin)
        try await Self.visit(server, tenants: 0..<count)
        let lines = try await Self.samples(server)
        let perSite = lines.filter { $0.contains("site=\"") }
        #expect(perSite.count <= 20 * count, "\(perSite.count) series with a site label for \(count) tenants: \(perSite.count / count) a tenant")
        #expect(!lines.contains { $0.hasPrefix("linkhost_request_duration_seconds") && $0.contains("site=\"") }, "no per-site latency by default")
        // Every tenant is still counted by site and route.
        for index in [0, 499, 999] {
            #expect(lines.contains("linkhost_requests_total{site=\"\(Self.name(index))\",route=\"call_page\",status=\"2xx\"} 1"), "\(Self.name(index))")
        }
        // Latency is per route: every tenant's AASA request is in one histogram.
        #expect(lines.contains("linkhost_request_duration_seconds_count{route=\"aasa\"} \(count)"),
                "\(lines.filter { $0.hasPrefix("linkhost_request_duration_seconds_count") })")
        #expect(lines.contains("linkhost_request_duration_seconds_bucket{route=\"assetlinks\",le=\"+Inf\"} \(count)"))
    }

    @Test("observability.metrics.perSiteLatency adds the site label to the latency histograms, and a reload turns it on and off")
    func perSiteLatencyWhenAskedFor() async throws {
        let site = try await Self.fixture(tenants: 3)
        let server = try await LinkHostProcess.start(site)
        try await Self.visit(server, tenants: 0..<3)
        #expect(try await !Self.samples(server).contains { $0.hasPrefix("linkhost_request_duration_seconds_count{site=") })

        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json", "observability": ["metrics": ["perSiteLatency": true]]]
        try site.writeConfig(config)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        try await Self.visit(server, tenants: 0..<3)
        let on = try await Self.samples(server)
        #expect(on.contains("linkhost_request_duration_seconds_count{site=\"t0001\",route=\"aasa\"} 1"),
                "\(on.filter { $0.hasPrefix("linkhost_request_duration_seconds_count") })")
        #expect(!on.contains { $0.hasPrefix("linkhost_request_duration_seconds_count{route=") }, "one label set at a time: sums by route stay right")

        config.extra = ["siteFiles": "sites.d/*.json"]
        try site.writeConfig(config)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 3)")
        let off = try await Self.samples(server)
        #expect(!off.contains { $0.hasPrefix("linkhost_request_duration_seconds") && $0.contains("site=\"") })
        // The per-route histogram counted all along, the per-site one or not.
        #expect(off.contains("linkhost_request_duration_seconds_count{route=\"aasa\"} 6"), "\(off.filter { $0.hasPrefix("linkhost_request_duration_seconds_count") })")
    }

    @Test("a removed tenant's series are gone after the next reload; the others keep counting")
    func removedTenantSeriesGo() async throws {
        let site = try await Self.fixture(tenants: 3, observability: ["metrics": ["perSiteLatency": true]])
        let server = try await LinkHostProcess.start(site)
        try await Self.visit(server, tenants: 0..<3)
        #expect(try await Self.samples(server).contains { $0.contains("site=\"t0002\"") })

        try FileManager.default.removeItem(atPath: site.directory + "/sites.d/t0002.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        let after = try await Self.samples(server)
        #expect(!after.contains { $0.contains("site=\"t0002\"") }, "\(after.filter { $0.contains("t0002") })")
        #expect(after.contains("linkhost_requests_total{site=\"t0001\",route=\"aasa\",status=\"2xx\"} 1"), "the others keep their counts")
        #expect(after.contains("linkhost_request_duration_seconds_count{site=\"t0001\",route=\"aasa\"} 1"))
    }

    /// `linkhost_site_config_info`'s hash by site.
    static func versions(_ server: LinkHostProcess) async throws -> [String: String] {
        var found: [String: String] = [:]
        for line in try await samples(server) {
            guard let match = line.wholeMatch(of: /linkhost_site_config_info\{site="([^"]+)",sha256="([0-9a-f]{64})"\} 1/) else { continue }
            #expect(found[String(match.1)] == nil, "one series a site: \(line)")
            found[String(match.1)] = String(match.2)
        }
        return found
    }

    @Test("linkhost_site_config_info names each site's SHA-256 (its file's, the main file's for the top level) and changes with one tenant's file")
    func siteConfigInfo() async throws {
        let site = try await Self.fixture(tenants: 3)
        let server = try await LinkHostProcess.start(site)
        var expected = ["default": try await ConfigIdentityTests.sha256(ofFile: site.configPath)]
        for index in 0..<3 {
            expected[Self.name(index)] = try await ConfigIdentityTests.sha256(ofFile: site.directory + "/sites.d/\(Self.name(index)).json")
        }
        #expect(try await Self.versions(server) == expected)

        try site.write(Self.tenant(1, bundle: "second"), to: "sites.d/t0001.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        let changed = try await ConfigIdentityTests.sha256(ofFile: site.directory + "/sites.d/t0001.json")
        #expect(changed != expected["t0001"])
        expected["t0001"] = changed
        #expect(try await Self.versions(server) == expected, "only t0001's hash moved")

        // A broken file: its last good version serves, and the hash says which (the old one).
        try site.write("{\"id\": \"t0001\", \"hosts\": [", to: "sites.d/t0001.json")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 3)")
        #expect(try await Self.versions(server) == expected, "the last good version's hash, not the broken file's")
    }
}
