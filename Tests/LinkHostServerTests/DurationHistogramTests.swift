import LinkHostCore
@testable import LinkHostServer
import Testing

/// `linkhost_request_duration_seconds{site,route}`: buckets, sums and a label set bounded by sites × routes.
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

    @Test("each request lands in its bucket per site and route; buckets are cumulative; sum and count agree")
    func buckets() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "links.customer1.example"])
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

    @Test("a flood of requests on every route grows no series beyond sites × routes")
    func boundedLabels() {
        let metrics = Metrics(startTime: 0)
        let sites = metrics.counters(forSites: ["default", "a.example", "b.example"])
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
