import CallLinks

/// What one team's config must agree with across its sites, beyond each key being valid: the open-in-app
/// host (LH123, LH124), whose apps a site publishes (LH125), and a link or open host another site answers
/// (LH126).
///
/// Each of these passed loading and broke guests: an open host the app does not claim shows people who have
/// the app "not on this phone yet" (Apple opens an app only for a universal link to a domain its entitlements
/// name, and only when the link's domain differs from the page's: "If the user is browsing your website in
/// Safari and taps a universal link to a URL in the same domain as the current webpage, iOS respects the
/// user's most likely intent and opens the link in Safari. If the user taps a universal link to a URL in a
/// different domain, iOS opens the link in your app" — Apple, Supporting associated domains); a site
/// inheriting another tenant's Android app sends its visitors to that app.
public enum SiteCoherence {
    /// Every finding of the config, errors all. `loadErrors` are the paths of the loader's errors: a site
    /// whose `hosts` had one lost a host, so what its remaining hosts suggest is not judged.
    public static func diagnostics(_ config: Config, loadErrors: [String] = []) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        var hosts = Hosts(config: config)
        for (index, site) in config.sites.enumerated() {
            let hostsRead = !loadErrors.contains { $0.hasPrefix(ConfigReader.join(site.path, "hosts")) }
            if let host = site.callLinks.openInAppHost, !site.apps.isEmpty {
                found += openHostDiagnostics(host, site: site, index: index, config: config, hosts: &hosts, hostsRead: hostsRead)
            }
            if index > 0 { found += ownApps(site, topLevel: config.defaultSite) + foreignHosts(site, config: config, hosts: hosts) }
        }
        var seen = Set<String>()
        // A site that inherits the top level's callLinks shares its findings: keep each once.
        return found.filter { seen.insert("\($0.code.rawValue) \($0.path) \($0.message)").inserted }
    }

    /// Which site answers a host and which sites name an iOS app, made once for every site's open host: a
    /// thousand tenants with an open host among ten thousand asked `Config.site(forHost:)` (a directory of every
    /// site) and `ServedHosts.naming` (every site's apps) each, minutes of `validate` (issue 42).
    private struct Hosts {
        let config: Config
        let directory: SiteDirectory
        let served: ServedHosts
        /// The entries of `served` naming each iOS app, made on the first question.
        private var byApp: [String: [ServedHosts.Entry]]?

        init(config: Config) {
            self.config = config
            directory = SiteDirectory(sites: config.sites)
            served = ServedHosts(config: config)
        }

        /// `config.site(forHost: host)`.
        func site(forHost host: String) -> SiteConfig {
            config.sites[directory.siteIndex(forAuthority: host.utf8)]
        }

        /// `served.naming(app, kind: .iOS)`.
        mutating func naming(_ app: String) -> ServedHosts {
            if byApp == nil {
                var made: [String: [ServedHosts.Entry]] = [:]
                for entry in served.entries {
                    for id in Set(AppKind.iOS.apps(of: entry.site)) where served.owns(entry.site, id) { made[id, default: []].append(entry) }
                }
                byApp = made
            }
            return ServedHosts(entries: byApp?[app] ?? [], namesNoHost: served.namesNoHost, app: app, shared: served.shared)
        }
    }

    /// LH123 and LH124 for the open host `host` of `site`.
    private static func openHostDiagnostics(_ host: String, site: SiteConfig, index: Int, config: Config, hosts: inout Hosts, hostsRead: Bool) -> [LintDiagnostic] {
        let path = ConfigReader.join(site.sections.callLinks, "openInAppHost")
        let where_ = index == 0 ? "the top level" : site.path
        let linkHost = site.callLinks.baseURL.flatMap({ try? SplitURL($0) })?.host
        if index == 0, let linkHost, hosts.site(forHost: linkHost) != site {
            // A site lists the top level's link host: its pages are that site's, checked on their own (once).
            return []
        }
        if let linkHost, linkHost == host {
            return [LintDiagnostic(.lh124, .error, path: path, "\"\(host)\" is the host of the call links themselves (callLinks.baseURL): iOS opens no app for a tap on a link to the page's own domain, so every iPhone would be told the app is missing; give the open button a second host (e.g. \"open.\(host)\") \(index == 0 ? "that this server also answers" : "in the hosts of \(where_)"), or remove openInAppHost")]
        }
        if index > 0, hostsRead, site.hosts.count == 1, CallLinkHost.covers(site.hosts[0], host: host), !site.hosts[0].hasPrefix("*.") {
            return [LintDiagnostic(.lh124, .error, path: path, "\"\(host)\" is the only host of \(site.path), so every call link is on it: iOS opens no app for a tap on a link to the page's own domain; add a second host (e.g. \"open.\(host)\") to its hosts and set openInAppHost to it, or remove openInAppHost")]
        }
        // A site's open host outside its hosts is LH116 already.
        if index > 0, !site.hosts.contains(where: { CallLinkHost.covers($0, host: host) }) { return [] }
        let answering = hosts.site(forHost: host)
        if answering != site {
            let other = answering.path.isEmpty ? "the top level" : "\(answering.label) (\(answering.path))"
            return [LintDiagnostic(.lh123, .error, path: path, "\"\(host)\" is a host of \(other), which answers it with its own page and AASA, not \(where_)'s apps: list the link host and \"\(host)\" together as one site's hosts, or open the app on another host")]
        }
        if index == 0, config.server.strictHosts || config.server.acme != nil, !(config.server.acme?.hosts ?? []).contains(host) {
            let why = config.server.acme != nil ? "automatic HTTPS certifies only server.tls.acme.hosts for the top level" : "with server.strictHosts the top level answers only server.tls.acme.hosts"
            return [LintDiagnostic(.lh123, .error, path: path, "\"\(host)\" is not a name of the top level (\(why)), so the iPhone's open button would reach no page and no AASA there: add it to server.tls.acme.hosts, or list the link host and \"\(host)\" together as one site's hosts")]
        }
        var found: [LintDiagnostic] = []
        for app in site.appIDs {
            let claims = EntitlementsGenerator.entries(for: hosts.naming(app)).app
            guard !claims.contains(where: { claim in claim.hasPrefix("applinks:") && CallLinkHost.covers(String(claim.dropFirst(9)), host: host) }) else { continue }
            let hint = index == 0 && site.callLinks.baseURL == nil
                ? "the top level names no host without callLinks.baseURL; set it to the links' origin (e.g. \"https://meet.example.com\"), and print entitlements writes applinks: for both"
                : "add \"\(host)\" to the hosts of \(where_)"
            found.append(LintDiagnostic(.lh123, .error, path: path, "\"\(host)\" is where the iPhone's open button leads, but \(app) would not claim it: linkhost print entitlements --app \(app) writes no applinks:\(host), so iOS shows that host's page (\"not on this phone yet\") to people who have the app; \(hint)"))
        }
        return found
    }

    /// LH126: a site's link host (`baseURL`'s) or open host that another site answers by name. Its pages'
    /// QR codes, canonical links and intents (or its open button) would lead to that site's page and apps.
    /// A site that leaves `callLinks` out takes the top level's hosts by design (docs/config-guide.md): that
    /// is judged only where another entry of `sites` lists them.
    private static func foreignHosts(_ site: SiteConfig, config: Config, hosts: Hosts) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        let inherited = site.sections.callLinks == config.defaultSite.sections.callLinks
        let named: [(key: String, host: String?, what: String)] = [
            ("baseURL", site.callLinks.baseURL.flatMap { try? SplitURL($0) }?.host, "its QR codes, canonical links and Android intents point there"),
            ("openInAppHost", site.callLinks.openInAppHost, "its open button leads there"),
        ]
        for (key, host, what) in named {
            guard let host, !site.hosts.contains(where: { CallLinkHost.covers($0, host: host) }),
                  let (holder, topLevel) = holder(of: host, besides: site, config: config, hosts: hosts), !(inherited && topLevel) else { continue }
            found.append(LintDiagnostic(.lh126, .error, path: ConfigReader.join(site.sections.callLinks, key), "\"\(host)\" is a host of \(holder), not of \(site.label) (\(site.path)): \(what), to that site's page, association files and apps; set \(key) to \(key == "baseURL" ? "https:// and one of the site's own hosts" : "another of the site's own hosts") (\(site.hosts.joined(separator: ", ")))"))
        }
        return found
    }

    /// The site other than `site` that answers `host` by name, described for a message, and whether it is the
    /// top level; nil when none does.
    /// A site names its `hosts`; the top level, which answers what no site lists, names its own link and open
    /// hosts and `server.tls.acme.hosts`.
    private static func holder(of host: String, besides site: SiteConfig, config: Config, hosts: Hosts) -> (String, topLevel: Bool)? {
        let answering = hosts.site(forHost: host)
        guard answering != site else { return nil }
        guard answering.path.isEmpty else { return ("\(answering.label) (\(answering.path))", false) }
        let top = answering.callLinks
        let named: [(String, String?)] = [("callLinks.baseURL", top.baseURL.flatMap { try? SplitURL($0) }?.host), ("callLinks.openInAppHost", top.openInAppHost)]
            + (config.server.acme?.hosts ?? []).map { ("server.tls.acme.hosts", $0) }
        return named.first { $0.1 == host }.map { ("the top level (its \($0.0))", true) }
    }

    /// LH125: a site that writes one platform's apps and not the other's, while the top level has the other's.
    private static func ownApps(_ site: SiteConfig, topLevel: SiteConfig) -> [LintDiagnostic] {
        let wroteApps = site.sections.apps != topLevel.sections.apps
        let wroteAndroid = site.sections.android != topLevel.sections.android
        if wroteApps, !wroteAndroid, !topLevel.android.isEmpty {
            let packages = topLevel.android.map(\.packageName).joined(separator: ", ")
            return [LintDiagnostic(.lh125, .error, path: ConfigReader.join(site.path, "android"), "is not written while \(site.path) lists its own \"apps\": the site publishes no Android app (the top level's \(packages) is not inherited by a site with apps of its own, so its assetlinks.json, intent and Play links name none); write \"android\": [] to say so, or list the site's Android apps")]
        }
        if wroteAndroid, !wroteApps, !topLevel.apps.isEmpty {
            let apps = topLevel.appIDs.joined(separator: ", ")
            return [LintDiagnostic(.lh125, .error, path: ConfigReader.join(site.path, "apps"), "is not written while \(site.path) lists its own \"android\": the site publishes no iOS app (the top level's \(apps) is not inherited by a site with apps of its own, so its AASA and App Store links name none); write \"apps\": [] to say so, or list the site's iOS apps")]
        }
        return []
    }
}
