import CallLinks
import LinkHostJSON

/// Checks the generated AASA against what the server actually answers, with the real matcher.
///
/// A call link that does not match sends the person to the web page when the app was wanted; a page or
/// file that matches sends them into the app when the page was wanted. Both are silent on a device.
enum ServedConsistency {
    /// The call ID used in sample call links: the shape real IDs take (letters and digits).
    static let sampleCallID = "a1b2c3d4"
    /// How many matching static files one finding names before "and N more".
    static let namedFiles = 5

    /// The problems of one site for every app: call links that do not open it, non-call URLs that do.
    ///
    /// `name` renders a rule's location in the config's terms.
    /// `matcher` holds the site's generated AASA; `androidMatchers` its assetlinks.json, asked whether Android 15+
    /// keeps the same call links in the browser (LH301 then names both platforms).
    static func diagnostics(site: Site, in snapshot: Snapshot, matcher: SharedAASAMatchers.Entry, androidMatchers: SharedAndroidMatchers = SharedAndroidMatchers(),
                            name: (AASARuleReference) -> String) -> [LintDiagnostic] {
        let config = site.config
        guard !config.apps.isEmpty else { return [] }
        let origin = origin(of: config)
        var found: [LintDiagnostic] = []

        for (index, samples) in config.servedCallLinkSamples.enumerated() {
            // One finding per cause (the deciding exclusion, or none) and set of URLs, naming every app it hits.
            var failures: [(rule: AASARuleReference?, urls: [String], apps: [String])] = []
            for app in config.appIDs {
                var byRule: [(rule: AASARuleReference?, urls: [String])] = []
                for sample in samples {
                    let result = matcher.match(url: origin + sample, appID: app)
                    guard result.decision != .match else { continue }
                    if let existing = byRule.firstIndex(where: { $0.rule == result.rule }) {
                        byRule[existing].urls.append(origin + sample)
                    } else {
                        byRule.append((result.rule, [origin + sample]))
                    }
                }
                for entry in byRule {
                    if let existing = failures.firstIndex(where: { $0.rule == entry.rule && $0.urls == entry.urls }) {
                        failures[existing].apps.append(app)
                    } else {
                        failures.append((entry.rule, entry.urls, [app]))
                    }
                }
            }
            let templatePath = config.linkSource(index)
            for failure in failures {
                let cause = failure.rule.map { "the exclusion \(name($0)) \(ConfigReader.show($0.json)) matches" } ?? "no rule matches"
                found.append(LintDiagnostic(
                    .lh301, .error, path: failure.rule.map(name) ?? templatePath,
                    "\(quotedList(failure.urls)) \(failure.urls.count == 1 ? "is a call link" : "are call links") the server answers, but \(cause) for \(quotedList(failure.apps)), so \(platforms(keeping: failure.urls, config: config, androidMatchers: androidMatchers, origin: origin)) the web page instead of opening the app"
                ))
            }
        }

        let association = Site.aasaPaths + [Site.assetLinksPath]
        for path in association + ["/"] {
            for (rule, apps) in opening(matcher, origin + path, config.appIDs) {
                if path == "/" {
                    found.append(LintDiagnostic(.lh303, .error, path: name(rule), "matches the home page \(origin)/ for \(quotedList(apps)), so a link to it opens the app instead of the page"))
                } else {
                    found.append(LintDiagnostic(.lh302, .error, path: name(rule), "matches \(origin + path) for \(quotedList(apps)): a link to the association file would open the app"))
                }
            }
        }
        var byRule: [(rule: AASARuleReference, apps: [String], files: [String])] = []
        let served = (site.staticPaths + snapshot.shared.entries.map { String(decoding: $0.key, as: UTF8.self) }).sorted()
        for file in served where !association.contains(file) && file != "/" {
            for (rule, apps) in opening(matcher, origin + file, config.appIDs) {
                if let existing = byRule.firstIndex(where: { $0.rule == rule && $0.apps == apps }) {
                    byRule[existing].files.append(file)
                } else {
                    byRule.append((rule, apps, [file]))
                }
            }
        }
        for entry in byRule {
            var shown = entry.files.prefix(namedFiles).joined(separator: ", ")
            if entry.files.count > namedFiles { shown += " and \(entry.files.count - namedFiles) more" }
            let noun = entry.files.count == 1 ? "the static file" : "\(entry.files.count) static files"
            found.append(LintDiagnostic(.lh304, .error, path: name(entry.rule), "matches \(noun) \(shown) for \(quotedList(entry.apps)), so links to \(entry.files.count == 1 ? "it open" : "them open") the app instead of the file"))
        }
        return found
    }

    /// Who shows the web page for `urls`, which iOS keeps in the browser: "iOS", or "iOS and Android 15+ (…)"
    /// when the site's dynamic rules keep every one of them in the browser too (the rules derive from the same
    /// AASA, so one exclusion usually stops both; LH408 reports where they part).
    private static func platforms(keeping urls: [String], config: SiteConfig, androidMatchers: SharedAndroidMatchers, origin: String) -> String {
        guard let package = config.android.first(where: \.dynamicRules)?.packageName else { return "iOS shows" }
        let android = androidMatchers.entry(for: config, origin: origin)
        guard !urls.contains(where: { android.match(url: $0, packageName: package).opensApp }) else { return "iOS shows" }
        return "iOS and Android 15+ (\"\(package)\", by the dynamic rules of assetlinks.json) show"
    }

    /// The rules that open `url`, each with the apps it opens it in.
    private static func opening(_ matcher: SharedAASAMatchers.Entry, _ url: String, _ apps: [String]) -> [(rule: AASARuleReference, apps: [String])] {
        var result: [(rule: AASARuleReference, apps: [String])] = []
        for app in apps {
            guard let rule = opens(matcher, url, app) else { continue }
            if let existing = result.firstIndex(where: { $0.rule == rule }) {
                result[existing].apps.append(app)
            } else {
                result.append((rule, [app]))
            }
        }
        return result
    }

    /// The rule that opens `url` in `app`, or nil when the URL stays in the browser.
    private static func opens(_ matcher: SharedAASAMatchers.Entry, _ url: String, _ app: String) -> AASARuleReference? {
        let result = matcher.match(url: url, appID: app)
        return result.decision == .match ? result.rule : nil
    }

    /// The links a template stands for, with a sample call ID: filled with the default type, and without
    /// the optional `{callType}` query items, since a link may leave them out.
    static func samples(of template: CallLinkTemplate, defaultType: String) -> [String] {
        let filled = template.fill(callID: sampleCallID, callType: defaultType)
        let optional = template.queryItems.filter { $0.binding == .callType }.map { "\($0.name)=\(defaultType)" }
        guard !optional.isEmpty, let question = filled.firstIndex(of: "?") else { return [filled] }
        let kept = filled[filled.index(after: question)...].split(separator: "&").filter { !optional.contains(String($0)) }
        let bare = String(filled[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        return [bare, filled]
    }


    /// The site's public origin, or a stand-in: the host is not what decides here, the path is.
    static func origin(of site: SiteConfig) -> String {
        let base = site.callLinks.baseURL ?? site.hosts.first { !$0.hasPrefix("*.") }.map { "https://\($0)" }
        // `https://` and a lower-case name is its own origin: not parsed again for each of ten thousand tenants.
        if let base, isPlainOrigin(base) { return base }
        guard let base, let split = try? SplitURL(base) else { return "https://example.com" }
        return "\(split.scheme)://\(split.host)" + (split.port.map { ":\($0)" } ?? "")
    }

    /// True for `https://` followed by a host name of lower-case letters, digits, dots and hyphens that neither
    /// starts nor ends with a dot: a URL that `SplitURL` reads as that very origin, with the path `/` after it.
    static func isPlainOrigin(_ text: String) -> Bool {
        let bytes = text.utf8
        let scheme = "https://".utf8
        guard bytes.count > scheme.count, bytes.starts(with: scheme) else { return false }
        let host = bytes.dropFirst(scheme.count)
        guard host.first != UInt8(ascii: "."), host.last != UInt8(ascii: "."), host.first != UInt8(ascii: "-") else { return false }
        return host.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    private static func quotedList(_ texts: [String]) -> String {
        texts.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension SiteConfig {
    /// Per link template, the samples of its call links (`ServedConsistency.samples`, path and query) that the
    /// server answers with a call page, so it is fair to expect every app to open them: what `validate` checks
    /// the generated AASA with, and `check --config` the live files.
    package var servedCallLinkSamples: [[String]] {
        let links = callLinks.links
        return links.templates.map { template in
            ServedConsistency.samples(of: template, defaultType: links.defaultType).filter { links.match(pathAndQuery: $0) != nil }
        }
    }
}
