import LinkHostCore
import Synchronization

/// Request counters kept as atomics, and their Prometheus text exposition.
///
/// Counting is one relaxed atomic add on the request path; nothing here takes a lock.
public final class Metrics: Sendable {
    /// Who fetched an association file: tells whether Apple's CDN and Google actually come by.
    public enum Fetcher: Int, Sendable, CaseIterable {
        case apple, google, browser, other

        /// Classifies a User-Agent from its bytes (no String is made on the request path).
        public init(userAgent agent: Span<UInt8>) {
            if Self.starts(agent, with: "AASA-Bot") || Self.contains(agent, "swcd") || Self.contains(agent, "com.apple.") {
                self = .apple
            } else if Self.contains(agent, "Google") {
                self = .google
            } else if Self.starts(agent, with: "Mozilla/") {
                self = .browser
            } else {
                self = .other
            }
        }

        private static func starts(_ text: Span<UInt8>, with prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { needle in
                guard text.count >= needle.count else { return false }
                for offset in 0..<needle.count where text[offset] != needle[offset] { return false }
                return true
            }
        }

        private static func contains(_ text: Span<UInt8>, _ word: StaticString) -> Bool {
            word.withUTF8Buffer { needle in
                guard text.count >= needle.count else { return false }
                var start = 0
                while start + needle.count <= text.count {
                    var offset = 0
                    while offset < needle.count && text[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                    start += 1
                }
                return false
            }
        }

        var label: String { ["apple", "google", "browser", "other"][rawValue] }
    }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]
    private let requests: [Counter]
    private let fetches: [Counter]
    private let reloads = [Counter(), Counter()]
    private let generationValue = Atomic<Int>(1)
    /// Unix time the process started, in seconds.
    public let startTime: Double

    /// Makes zeroed counters; `startTime` is the process start.
    public init(startTime: Double) {
        self.startTime = startTime
        requests = (0..<(Route.allCases.count * Self.statusClasses.count)).map { _ in Counter() }
        fetches = (0..<(2 * Fetcher.allCases.count)).map { _ in Counter() }
    }

    /// Counts one answered request; the user agent is read only for association-file fetches.
    public func record(route: Route, status: Int, userAgent: Span<UInt8>) {
        let statusClass = min(max(status / 100 - 1, 0), Self.statusClasses.count - 1)
        requests[route.rawValue * Self.statusClasses.count + statusClass].value.add(1, ordering: .relaxed)
        if route == .aasa || route == .assetLinks {
            let fetcher = Fetcher(userAgent: userAgent)
            fetches[(route == .aasa ? 0 : 1) * Fetcher.allCases.count + fetcher.rawValue].value.add(1, ordering: .relaxed)
        }
    }

    /// Counts a reload attempt and, when it worked, the new config generation.
    public func recordReload(succeeded: Bool, generation: Int) {
        reloads[succeeded ? 0 : 1].value.add(1, ordering: .relaxed)
        if succeeded { generationValue.store(generation, ordering: .relaxed) }
    }

    /// Requests counted so far for a route and status class ("2xx" …).
    public func count(route: Route, statusClass: String) -> Int {
        guard let index = Self.statusClasses.firstIndex(of: statusClass) else { return 0 }
        return requests[route.rawValue * Self.statusClasses.count + index].value.load(ordering: .relaxed)
    }

    /// The Prometheus text exposition (format 0.0.4).
    public func render(currentConnections: Int) -> [UInt8] {
        var text = ""
        text += "# HELP linkhost_requests_total Requests answered, by route and status class.\n"
        text += "# TYPE linkhost_requests_total counter\n"
        for route in Route.allCases {
            for (index, statusClass) in Self.statusClasses.enumerated() {
                let value = requests[route.rawValue * Self.statusClasses.count + index].value.load(ordering: .relaxed)
                if value > 0 || statusClass == "2xx" {
                    text += "linkhost_requests_total{route=\"\(route.label)\",status=\"\(statusClass)\"} \(value)\n"
                }
            }
        }
        text += "# HELP linkhost_association_fetches_total AASA and assetlinks fetches, by fetcher.\n"
        text += "# TYPE linkhost_association_fetches_total counter\n"
        for (fileIndex, file) in ["aasa", "assetlinks"].enumerated() {
            for fetcher in Fetcher.allCases {
                let value = fetches[fileIndex * Fetcher.allCases.count + fetcher.rawValue].value.load(ordering: .relaxed)
                text += "linkhost_association_fetches_total{file=\"\(file)\",fetcher=\"\(fetcher.label)\"} \(value)\n"
            }
        }
        text += "# HELP linkhost_connections Connections open now.\n# TYPE linkhost_connections gauge\n"
        text += "linkhost_connections \(currentConnections)\n"
        text += "# HELP linkhost_reloads_total Config reloads, by result.\n# TYPE linkhost_reloads_total counter\n"
        text += "linkhost_reloads_total{result=\"ok\"} \(reloads[0].value.load(ordering: .relaxed))\n"
        text += "linkhost_reloads_total{result=\"failed\"} \(reloads[1].value.load(ordering: .relaxed))\n"
        text += "# HELP linkhost_config_generation Generation of the config being served; 1 at start, +1 per reload.\n# TYPE linkhost_config_generation gauge\n"
        text += "linkhost_config_generation \(generationValue.load(ordering: .relaxed))\n"
        text += "# HELP process_start_time_seconds Start time of the process since the Unix epoch, in seconds.\n# TYPE process_start_time_seconds gauge\n"
        text += "process_start_time_seconds \(Int(startTime))\n"
        return Array(text.utf8)
    }
}
