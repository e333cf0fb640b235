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

        /// The metrics label.
        var label: String {
            switch self {
            case .apple: return "apple"
            case .google: return "google"
            case .browser: return "browser"
            case .other: return "other"
            }
        }
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
            requests = CounterBlock(count: Route.allCases.count * StatusClass.allCases.count)
            fetches = CounterBlock(count: AssociationFile.allCases.count * Fetcher.allCases.count)
        }
    }

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
        site.requests.increment(Self.slot(route, StatusClass(status: status)))
        routeDurations.record(route, microseconds: microseconds)
        if perSiteLatency.load(ordering: .relaxed) { site.durations.record(route, microseconds: microseconds) }
        if let file = AssociationFile(route) {
            site.fetches.increment(Self.slot(file, Fetcher(userAgent: userAgent)))
        }
    }

    /// The association files whose fetchers are counted: the `file` label.
    enum AssociationFile: Int, CaseIterable {
        case aasa, assetLinks

        /// The file a route serves; nil for every other route.
        init?(_ route: Route) {
            switch route {
            case .aasa: self = .aasa
            case .assetLinks: self = .assetLinks
            case .callPage, .callQRCode, .staticFile, .health, .metrics, .notFound, .methodNotAllowed, .badRequest, .acmeChallenge, .httpsRedirect, .beacon:
                return nil
            }
        }

        /// The metrics label.
        var label: String {
            switch self {
            case .aasa: return "aasa"
            case .assetLinks: return "assetlinks"
            }
        }
    }

    /// A request count's place in a site's block: routes in order, the status classes of each in order (an
    /// enum's implicit raw value is its place among its cases: `CounterLayoutTests`).
    private static func slot(_ route: Route, _ status: StatusClass) -> Int {
        route.rawValue * StatusClass.allCases.count + status.rawValue
    }

    /// A fetch count's place in a site's block: files in order, the fetchers of each in order.
    private static func slot(_ file: AssociationFile, _ fetcher: Fetcher) -> Int {
        file.rawValue * Fetcher.allCases.count + fetcher.rawValue
    }

    /// How a reload ended: the label of `linkhost_reloads_total{result}`.
    package enum ReloadResult: Int, Sendable, CaseIterable {
        /// The new snapshot serves.
        case ok
        /// The new config, template, files or certificate had an error; the old snapshot serves.
        case failed
        /// The new config changes a setting a reload cannot apply (ReloadPolicy); the old snapshot serves.
        case refused

        /// The metrics label.
        var label: String {
            switch self {
            case .ok: return "ok"
            case .failed: return "failed"
            case .refused: return "refused"
            }
        }
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

    /// The Prometheus text exposition (format 0.0.4).
    ///
    /// Series that are zero are left out but for the default site's, so a dashboard finds every route
    /// before traffic arrives without a thousand sites writing nine thousand zeros.
    package func render(currentConnections: Int) -> [UInt8] {
        let all = sites.withLock { all in all.values.sorted { ($0.label == "default" ? "" : $0.label) < ($1.label == "default" ? "" : $1.label) } }
        var text = ""
        text += MetricName.requests.header("Requests answered, by site, route and status class.")
        for site in all {
            let label = MetricLabel.escape(site.label)
            for route in Route.allCases {
                for status in StatusClass.allCases {
                    let value = site.requests.load(Self.slot(route, status))
                    if value > 0 || (status == .success && site.label == "default") {
                        MetricName.requests.sample([.site: label, .route: route.label, .status: status.label], value, into: &text)
                    }
                }
            }
        }
        text += MetricName.associationFetches.header("AASA and assetlinks fetches, by site and fetcher.")
        for site in all {
            let label = MetricLabel.escape(site.label)
            for file in AssociationFile.allCases {
                for fetcher in Fetcher.allCases {
                    let value = site.fetches.load(Self.slot(file, fetcher))
                    if value > 0 || site.label == "default" {
                        MetricName.associationFetches.sample([.site: label, .file: file.label, .fetcher: fetcher.label], value, into: &text)
                    }
                }
            }
        }
        BeaconCounters.render(all.map { (MetricLabel.escape($0.label), $0.beacons, $0.label == "default") }, into: &text)
        text += MetricName.requestDuration.header("Time from a request's whole head to its answer queued, by route (by site too with observability.metrics.perSiteLatency).")
        // One label set at a time, so `sum by (route)` means the same whichever is on.
        if perSiteLatency.load(ordering: .relaxed) {
            for site in all { site.durations.render(site: MetricLabel.escape(site.label), into: &text) }
        } else {
            routeDurations.render(site: nil, into: &text)
        }
        text += MetricName.connections.header("Connections open now.")
        MetricName.connections.sample(currentConnections, into: &text)
        text += MetricName.pageCacheBytes.header("Bytes held by rendered call pages and QR images, all sites together (at most server.pageCacheBytes).")
        MetricName.pageCacheBytes.sample(pageCacheBytes.load(ordering: .relaxed), into: &text)
        text += MetricName.reloads.header("Config reloads, by result.")
        for result in ReloadResult.allCases {
            MetricName.reloads.sample([.result: result.label], reloads[result.rawValue].value.load(ordering: .relaxed), into: &text)
        }
        text += MetricName.stuckReloads.header("Reloads still running when the reload watchdog's limit passed (30 s by default).")
        MetricName.stuckReloads.sample(stuckReloads.value.load(ordering: .relaxed), into: &text)
        text += MetricName.configGeneration.header("Generation of the config being served; 1 at start, +1 per reload.")
        MetricName.configGeneration.sample(generationValue.load(ordering: .relaxed), into: &text)
        text += configStatus.metricsText()
        text += MetricName.processStartTime.header("Start time of the process since the Unix epoch, in seconds.")
        MetricName.processStartTime.sample(Int(startTime), into: &text)
        text += certificates.metricsText(now: LogTime.now().seconds)
        return Array(text.utf8)
    }
}
