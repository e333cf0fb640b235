import LinkHostCore
import Synchronization

/// Request counters kept as atomics, and their Prometheus text exposition.
///
/// Counting is one relaxed atomic add on the request path; the lock is taken only when a snapshot is
/// installed (to find its sites' counters) and when the page is rendered.
package final class Metrics: Sendable {
    /// Who fetched an association file: tells whether Apple's CDN and Google actually come by.
    package enum Fetcher: Int, Sendable, CaseIterable {
        case apple, google, browser, other

        /// Classifies a User-Agent from its bytes (no String is made on the request path).
        package init(userAgent agent: Span<UInt8>) {
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

    fileprivate final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The counters of one site, found once per snapshot so that counting takes no lock.
    package final class SiteCounters: Sendable {
        /// The site's label: its first host, or `default`.
        package let label: String
        fileprivate let requests: CounterBlock
        fileprivate let fetches: CounterBlock
        /// Request durations per route, kept only with `observability.metrics.perSiteLatency`.
        package let durations = DurationHistograms()
        /// What the site's call pages report (views, taps), and their allowance.
        package let beacons = BeaconCounters()

        fileprivate init(label: String) {
            self.label = label
            requests = CounterBlock(count: Route.allCases.count * Metrics.statusClasses.count)
            fetches = CounterBlock(count: 2 * Fetcher.allCases.count)
        }
    }

    fileprivate static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]
    /// The sites of the config serving, by label: a reload keeps counting where the last snapshot stopped, and
    /// drops the sites it no longer serves (`serving`).
    private let sites = Mutex<[String: SiteCounters]>([:])
    /// Request durations per route, every site together: the histograms the page shows unless per-site latency
    /// is asked for, counted either way so that turning it off loses nothing.
    private let routeDurations = DurationHistograms()
    /// `observability.metrics.perSiteLatency` of the config serving.
    private let perSiteLatency = Atomic<Bool>(false)
    private let reloads = ReloadResult.allCases.map { _ in Counter() }
    private let stuckReloads = Counter()
    private let generationValue = Atomic<Int>(1)
    /// Bytes the page caches of every live snapshot hold (`PageCacheBudget` keeps it).
    let pageCacheBytes = Atomic<Int>(0)
    /// Unix time the process started, in seconds.
    package let startTime: Double
    /// Each certified host's certificate (automatic HTTPS), rendered with the other metrics.
    package let certificates = CertificateStatusBoard()
    /// Which config serves and whether the last reload failed, rendered with the other metrics.
    package let configStatus = ConfigStatusBoard()
    /// How often the page is rendered afresh (`MetricsRenderBudget`).
    let renderBudget = MetricsRenderBudget()

    /// Makes zeroed counters; `startTime` is the process start.
    package init(startTime: Double) {
        self.startTime = startTime
    }

    /// The counters of each site label, in order, made the first time a label is seen.
    package func counters(forSites labels: [String]) -> [SiteCounters] {
        sites.withLock { all in
            labels.map { label in
                if let existing = all[label] { return existing }
                let made = SiteCounters(label: label)
                all[label] = made
                return made
            }
        }
    }

    /// Takes in the snapshot that now serves (at start, and after each reload that applied): its identity and
    /// failed site files for the status board, each site's version, whether latency is kept per site, and only its
    /// sites' counters, so a removed or renamed tenant's series are gone from the next page.
    package func serving(_ snapshot: Snapshot) {
        configStatus.served(sha256: snapshot.configSHA256)
        configStatus.sitesFailed(snapshot.config.siteFileFailures)
        configStatus.sitesServed(snapshot.config.sites)
        serving(sites: snapshot.config.sites.map(\.label), perSiteLatency: snapshot.config.observability.metricsPerSiteLatency)
    }

    /// Keeps the counters of `labels` only, and latency per site or not.
    package func serving(sites labels: [String], perSiteLatency: Bool) {
        let kept = Set(labels)
        sites.withLock { all in all = all.filter { kept.contains($0.key) } }
        self.perSiteLatency.store(perSiteLatency, ordering: .relaxed)
    }

    /// Counts one answered request on a site and its duration; the user agent is read only for association-file fetches.
    package func record(_ site: SiteCounters, route: Route, status: Int, microseconds: Int, userAgent: Span<UInt8>) {
        let statusClass = min(max(status / 100 - 1, 0), Self.statusClasses.count - 1)
        site.requests.increment(route.rawValue * Self.statusClasses.count + statusClass)
        routeDurations.record(route, microseconds: microseconds)
        if perSiteLatency.load(ordering: .relaxed) { site.durations.record(route, microseconds: microseconds) }
        if route == .aasa || route == .assetLinks {
            let fetcher = Fetcher(userAgent: userAgent)
            site.fetches.increment((route == .aasa ? 0 : 1) * Fetcher.allCases.count + fetcher.rawValue)
        }
    }

    /// How a reload ended: the label of `linkhost_reloads_total{result}`.
    package enum ReloadResult: Int, Sendable, CaseIterable {
        /// The new snapshot serves.
        case ok
        /// The new config, template, files or certificate had an error; the old snapshot serves.
        case failed
        /// The new config changes a setting a reload cannot apply (ReloadPolicy); the old snapshot serves.
        case refused

        var label: String { ["ok", "failed", "refused"][rawValue] }
    }

    /// Counts a reload attempt and, when it worked, the new config generation.
    package func recordReload(_ result: ReloadResult, generation: Int) {
        reloads[result.rawValue].value.add(1, ordering: .relaxed)
        if result == .ok { generationValue.store(generation, ordering: .relaxed) }
    }

    /// Counts a reload still running when the reload watchdog's limit passed.
    package func recordStuckReload() {
        stuckReloads.value.add(1, ordering: .relaxed)
    }

    /// Requests counted so far on every site for a route and status class ("2xx" …).
    package func count(route: Route, statusClass: String) -> Int {
        guard let index = Self.statusClasses.firstIndex(of: statusClass) else { return 0 }
        return sites.withLock { all in
            all.values.reduce(0) { $0 + $1.requests.load(route.rawValue * Self.statusClasses.count + index) }
        }
    }

    /// The Prometheus text exposition (format 0.0.4).
    ///
    /// Series that are zero are left out but for the default site's, so a dashboard finds every route
    /// before traffic arrives without a thousand sites writing nine thousand zeros.
    package func render(currentConnections: Int) -> [UInt8] {
        let all = sites.withLock { all in all.values.sorted { ($0.label == "default" ? "" : $0.label) < ($1.label == "default" ? "" : $1.label) } }
        var text = ""
        text += "# HELP linkhost_requests_total Requests answered, by site, route and status class.\n"
        text += "# TYPE linkhost_requests_total counter\n"
        for site in all {
            let label = Self.escapeLabel(site.label)
            for route in Route.allCases {
                for (index, statusClass) in Self.statusClasses.enumerated() {
                    let value = site.requests.load(route.rawValue * Self.statusClasses.count + index)
                    if value > 0 || (statusClass == "2xx" && site.label == "default") {
                        text += "linkhost_requests_total{site=\"\(label)\",route=\"\(route.label)\",status=\"\(statusClass)\"} \(value)\n"
                    }
                }
            }
        }
        text += "# HELP linkhost_association_fetches_total AASA and assetlinks fetches, by site and fetcher.\n"
        text += "# TYPE linkhost_association_fetches_total counter\n"
        for site in all {
            let label = Self.escapeLabel(site.label)
            for (fileIndex, file) in ["aasa", "assetlinks"].enumerated() {
                for fetcher in Fetcher.allCases {
                    let value = site.fetches.load(fileIndex * Fetcher.allCases.count + fetcher.rawValue)
                    if value > 0 || site.label == "default" {
                        text += "linkhost_association_fetches_total{site=\"\(label)\",file=\"\(file)\",fetcher=\"\(fetcher.label)\"} \(value)\n"
                    }
                }
            }
        }
        BeaconCounters.render(all.map { (Self.escapeLabel($0.label), $0.beacons, $0.label == "default") }, into: &text)
        text += "# HELP linkhost_request_duration_seconds Time from a request's whole head to its answer queued, by route (by site too with observability.metrics.perSiteLatency).\n"
        text += "# TYPE linkhost_request_duration_seconds histogram\n"
        // One label set at a time, so `sum by (route)` means the same whichever is on.
        if perSiteLatency.load(ordering: .relaxed) {
            for site in all { site.durations.render(labels: "site=\"\(Self.escapeLabel(site.label))\",", into: &text) }
        } else {
            routeDurations.render(labels: "", into: &text)
        }
        text += "# HELP linkhost_connections Connections open now.\n# TYPE linkhost_connections gauge\n"
        text += "linkhost_connections \(currentConnections)\n"
        text += "# HELP linkhost_page_cache_bytes Bytes held by rendered call pages and QR images, all sites together (at most server.pageCacheBytes).\n# TYPE linkhost_page_cache_bytes gauge\n"
        text += "linkhost_page_cache_bytes \(pageCacheBytes.load(ordering: .relaxed))\n"
        text += "# HELP linkhost_reloads_total Config reloads, by result.\n# TYPE linkhost_reloads_total counter\n"
        for result in ReloadResult.allCases {
            text += "linkhost_reloads_total{result=\"\(result.label)\"} \(reloads[result.rawValue].value.load(ordering: .relaxed))\n"
        }
        text += "# HELP linkhost_reloads_stuck_total Reloads still running when the reload watchdog's limit passed (30 s by default).\n# TYPE linkhost_reloads_stuck_total counter\n"
        text += "linkhost_reloads_stuck_total \(stuckReloads.value.load(ordering: .relaxed))\n"
        text += "# HELP linkhost_config_generation Generation of the config being served; 1 at start, +1 per reload.\n# TYPE linkhost_config_generation gauge\n"
        text += "linkhost_config_generation \(generationValue.load(ordering: .relaxed))\n"
        text += configStatus.metricsText()
        text += "# HELP process_start_time_seconds Start time of the process since the Unix epoch, in seconds.\n# TYPE process_start_time_seconds gauge\n"
        text += "process_start_time_seconds \(Int(startTime))\n"
        text += certificates.metricsText(now: LogTime.now().seconds)
        return Array(text.utf8)
    }

    /// Host names need no escaping, but a label value must never break the exposition format.
    private static func escapeLabel(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }
}
