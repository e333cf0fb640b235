import LinkHostCore
@testable import LinkHostServer
import Testing

/// `linkhost_request_duration_seconds{route}`, and `{site,route}` when asked for: buckets, sums and a label set
/// bounded by routes (times sites).
@Suite("Request-duration histograms")
struct DurationHistogramTests {
    /// The exposition lines of the duration histogram, by series name with labels.
    static func series(_ metrics: Metrics) -> [String: String] {
        let text = String(decoding: metrics.render(currentConnections: 0), as: UTF8.self)
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("linkhost_request_duration_seconds") {
            let parts = line.split(separator: " ")
            found[String(parts[0])] = String(parts[1])
        }
        return found
    }

    @Test("the le labels are the bounds in seconds, as dashboards query them")
    func boundLabels() {
        #expect(DurationHistograms.boundLabels == ["0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "1"])
    }

    @Test("each request lands in its bucket per site and route; buckets are cumulative; sum and count agree")
    func buckets() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "links.customer1.example"])
        metrics.serving(sites: ["default", "links.customer1.example"], perSiteLatency: true)
        let empty = [UInt8]()
        empty.withUnsafeBufferPointer { agent in
            for microseconds in [40, 100, 101, 3_000, 2_000_000] {
                metrics.record(sites[1], route: .callPage, status: 200, microseconds: microseconds, userAgent: Span(_unsafeElements: agent))
            }
            metrics.record(sites[0], route: .aasa, status: 200, microseconds: 20, userAgent: Span(_unsafeElements: agent))
        }
        let found = Self.series(metrics)
        let page = "site=\"links.customer1.example\",route=\"call_page\""
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"0.0001\"}"] == "2", "100 µs is in the 0.0001 bucket (le is inclusive)")
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"0.00025\"}"] == "3")
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"0.0025\"}"] == "3")
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"0.005\"}"] == "4")
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"1\"}"] == "4")
        #expect(found["linkhost_request_duration_seconds_bucket{\(page),le=\"+Inf\"}"] == "5")
        #expect(found["linkhost_request_duration_seconds_count{\(page)}"] == "5")
        #expect(found["linkhost_request_duration_seconds_sum{\(page)}"] == "2.003241")
        #expect(found["linkhost_request_duration_seconds_count{site=\"default\",route=\"aasa\"}"] == "1")
        #expect(found["linkhost_request_duration_seconds_count{site=\"default\",route=\"call_page\"}"] == nil, "routes never answered are left out")
    }

    @Test("by default one histogram per route for every site together, whatever the sites")
    func perRouteByDefault() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "a.example", "b.example"])
        let empty = [UInt8]()
        empty.withUnsafeBufferPointer { agent in
            for (index, site) in sites.enumerated() {
                metrics.record(site, route: .aasa, status: 200, microseconds: 100 * (index + 1), userAgent: Span(_unsafeElements: agent))
            }
        }
        let found = Self.series(metrics)
        #expect(found.count == DurationHistograms.boundLabels.count + 3, "one route's buckets, +Inf, sum and count: \(found.keys.sorted())")
        #expect(found["linkhost_request_duration_seconds_count{route=\"aasa\"}"] == "3")
        #expect(found["linkhost_request_duration_seconds_bucket{route=\"aasa\",le=\"0.0001\"}"] == "1")
        #expect(found["linkhost_request_duration_seconds_sum{route=\"aasa\"}"] == "0.000600")
        #expect(sites.allSatisfy { $0.durations.count(.aasa) == 0 }, "nothing kept per site unless asked for")
    }

    @Test("serving a config drops the counters of sites it no longer has; the others keep counting")
    func servingDropsRemovedSites() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "a.example", "b.example"])
        let empty = [UInt8]()
        empty.withUnsafeBufferPointer { agent in
            for site in sites { metrics.record(site, route: .callPage, status: 200, microseconds: 10, userAgent: Span(_unsafeElements: agent)) }
        }
        metrics.serving(sites: ["default", "a.example"], perSiteLatency: false)
        let text = String(decoding: metrics.render(currentConnections: 0), as: UTF8.self)
        #expect(!text.contains("b.example"), "\(text)")
        #expect(text.contains("linkhost_requests_total{site=\"a.example\",route=\"call_page\",status=\"2xx\"} 1\n"))
        #expect(metrics.counters(forSites: ["a.example"])[0] === sites[1], "a site still served keeps its counters")
        #expect(metrics.counters(forSites: ["b.example"])[0] !== sites[2], "one that comes back starts from zero")
    }

    @Test("a flood of requests on every route grows no series beyond sites × routes")
    func boundedLabels() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "a.example", "b.example"])
        metrics.serving(sites: ["default", "a.example", "b.example"], perSiteLatency: true)
        let empty = [UInt8]()
        empty.withUnsafeBufferPointer { agent in
            for round in 0..<2_000 {
                for route in Route.allCases {
                    metrics.record(sites[round % 3], route: route, status: 200, microseconds: round * 37, userAgent: Span(_unsafeElements: agent))
                }
            }
        }
        let found = Self.series(metrics)
        let perHistogram = DurationHistograms.boundLabels.count + 1 + 2
        #expect(found.count == 3 * Route.allCases.count * perHistogram, "\(found.count) series")
        #expect(sites[0].durations.count(.aasa) == 667 && sites[1].durations.count(.aasa) == 667 && sites[2].durations.count(.aasa) == 666)
    }
}
