import LinkHostCore
import Synchronization

/// Which config a replica serves and whether the last reload failed: for the metrics
/// (`linkhost_config_info`, `linkhost_config_reload_failed`, each site's `linkhost_site_config_info`), `/healthz`'s
/// body and nothing else.
///
/// Written by the start and the reload thread, read by requests; the request path reads only `hasFailure`,
/// one relaxed atomic load.
package final class ConfigStatusBoard: Sendable {
    /// A reload that did not replace the config being served.
    package struct Failure: Sendable, Equatable {
        /// Unix seconds when it ended.
        package var time: Int
        /// SHA-256 of the file it read, nil when the file could not be read.
        package var fileSHA256: String?
        /// `reload failed` or `reload refused`, then why, one line each: every diagnostic with its code.
        package var lines: [String]
    }

    /// Lines of a failure `/healthz` shows at most; the log has them all.
    static let healthLineLimit = 20

    /// A site file that failed in the config serving: the site, its file, and the line saying what became of it.
    package struct SiteFailure: Sendable, Equatable {
        /// The site's name, the metrics' `site` label.
        package var site: String
        /// The file, `sites.d/acme.json`.
        package var file: String
        /// The LH133 line, as on stderr.
        package var line: String
    }

    private let serving = Mutex<String>("")
    private let siteFailures = Mutex<[SiteFailure]>([])
    /// Each serving site's label and the SHA-256 of the file it is written in, as the exposition writes them.
    private let siteVersions = Mutex<[(site: String, sha256: String)]>([])
    private let sitesHaveFailed = Atomic<Bool>(false)
    private let failure = Mutex<Failure?>(nil)
    private let failed = Atomic<Bool>(false)

    /// Makes an empty board.
    package init() {}

    /// True while the last reload failed or was refused: `/healthz` then shows why.
    package var hasFailure: Bool { failed.load(ordering: .relaxed) }

    /// The SHA-256 of the config being served.
    package var servingSHA256: String { serving.withLock { $0 } }

    /// Records the config that serves now (start, or a reload that applied): clears any failure.
    package func served(sha256: String) {
        serving.withLock { $0 = sha256 }
        failure.withLock { $0 = nil }
        failed.store(false, ordering: .relaxed)
    }

    /// True while `/healthz` has lines to add: a failed reload, or site files that failed in the config serving.
    package var hasHealthLines: Bool { hasFailure || sitesHaveFailed.load(ordering: .relaxed) }

    /// Records the site files that failed in the config now serving (none clears them).
    package func sitesFailed(_ failures: [SiteFileFailure]) {
        siteFailures.withLock { $0 = failures.map { SiteFailure(site: $0.site, file: $0.file, line: $0.line) } }
        sitesHaveFailed.store(!failures.isEmpty, ordering: .relaxed)
    }

    /// The site files that failed in the config serving.
    package var failedSites: [SiteFailure] { siteFailures.withLock { $0 } }

    /// Records the sites that serve now and the version of each (`SiteConfig.fileSHA256`; a failed file's site
    /// serves its last good version, whose hash that is).
    package func sitesServed(_ sites: [SiteConfig]) {
        let versions = sites.map { (site: MetricLabel.escape($0.label), sha256: $0.fileSHA256 ?? "") }
        siteVersions.withLock { $0 = versions }
    }

    /// Records a reload that left the old config serving.
    package func reloadFailed(_ recorded: Failure) {
        failure.withLock { $0 = recorded }
        failed.store(true, ordering: .relaxed)
    }

    /// The last failure, nil once a reload applied.
    package var lastFailure: Failure? { failure.withLock { $0 } }

    /// `linkhost_config_info{sha256}` (always 1: the label is the value) and `linkhost_config_reload_failed`.
    package func metricsText() -> String {
        var text = MetricName.configInfo.header("The config file being served, by the SHA-256 of its bytes; always 1.")
        MetricName.configInfo.sample([.sha256: servingSHA256], 1, into: &text)
        text += MetricName.configReloadFailed.header("1 while the last reload failed or was refused (the previous config serves), 0 once one applies.")
        MetricName.configReloadFailed.sample(hasFailure ? 1 : 0, into: &text)
        text += MetricName.siteConfigFailed.header("1 for each site whose site file failed: it serves its last good version or is left out.")
        for failed in failedSites { MetricName.siteConfigFailed.sample([.site: MetricLabel.escape(failed.site)], 1, into: &text) }
        text += MetricName.siteConfigInfo.header("Each site served, by the SHA-256 of the bytes of the file it is written in (its site file; the config file for the top level and sites); always 1.")
        for version in siteVersions.withLock({ $0 }) { MetricName.siteConfigInfo.sample([.site: version.site, .sha256: version.sha256], 1, into: &text) }
        return text
    }

    /// The lines `/healthz` adds while a failure stands; empty otherwise. On the public port (`detail` false)
    /// only that it failed, when and on which file, and how many site files failed: diagnostics and site names
    /// name paths, tenants and values, so they go to the log and to the private metrics port's `/healthz`
    /// (`detail`), never to every Host (issue 30).
    package func healthLines(detail: Bool) -> String {
        let sites = failedSites
        var text = detail ? sites.map { "site FAILED: \($0.line)\n" }.joined()
            : sites.isEmpty ? "" : "site files FAILED: \(sites.count) (which: in the log and on the metrics port's health path)\n"
        guard let failure = lastFailure else { return text }
        text += "last reload FAILED at \(TimeText.format(failure.time))"
        text += failure.fileSHA256.map { " (file sha256:\($0))" } ?? ""
        text += "; still serving the config above\n"
        guard detail else { return text + "  why: in the log (and on the metrics port's health path)\n" }
        for line in failure.lines.prefix(Self.healthLineLimit) { text += "  \(line)\n" }
        if failure.lines.count > Self.healthLineLimit { text += "  … \(failure.lines.count - Self.healthLineLimit) more in the log\n" }
        return text
    }

    /// `LH104 apps[0].teamID: …`: one line per diagnostic, each with its code, for the log and `/healthz`.
    package static func lines(_ error: ConfigError) -> [String] {
        error.diagnostics.map { diagnostic in
            let place = diagnostic.path.isEmpty ? error.source : ConfigDiagnostic.location(diagnostic.path, siteNames: error.siteNames)
            return "\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) \(place): \(diagnostic.message)"
        }
    }
}
