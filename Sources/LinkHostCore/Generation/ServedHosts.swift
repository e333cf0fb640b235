import CallLinks

/// The hosts a config serves links on, site by site: what the app's entitlements, manifest and
/// `CallLinkParser` must name.
///
/// A site serves its `hosts`. The default site serves the host of its `callLinks.baseURL`; in a config with
/// no other site and no base URL it answers every host and names none (`namesNoHost`).
public struct ServedHosts: Sendable {
    /// One site and the hosts it serves.
    public struct Entry: Sendable {
        /// The site.
        public let site: SiteConfig
        /// Its hosts, lowercased; `*.example.com` for every subdomain.
        public let hosts: [String]
    }

    /// The sites that name hosts, in config order.
    public let entries: [Entry]
    /// True when the config is one site answering every host without naming one.
    public let namesNoHost: Bool
    /// The one app (iOS app ID or Android package) the entries were chosen for; nil for every app.
    public let app: String?
    /// The config's `sharedApps`: which sites may give their hosts to an app they do not list themselves.
    let shared: [String: Set<String>]

    init(entries: [Entry], namesNoHost: Bool, app: String?, shared: [String: Set<String>]) {
        self.entries = entries
        self.namesNoHost = namesNoHost
        self.app = app
        self.shared = shared
    }

    /// Every site's hosts.
    public init(config: Config) {
        var entries: [Entry] = []
        for (index, site) in config.sites.enumerated() {
            let hosts = index == 0 ? Self.defaultSiteHosts(config) : site.hosts
            if !hosts.isEmpty { entries.append(Entry(site: site, hosts: hosts)) }
        }
        self.entries = entries
        namesNoHost = config.sites.count == 1 && entries.isEmpty
        app = nil
        shared = config.sharedApps
    }

    /// The hosts the default site serves by name: its `callLinks.baseURL`'s host and then its `openInAppHost`
    /// (the iPhone's open button leads there, so the apps must claim it too), each only where no site lists
    /// it: a host a site lists is that site's, and its files already name it (two entries for one host
    /// would print two verified filters for it in one manifest).
    static func defaultSiteHosts(_ config: Config) -> [String] {
        let callLinks = config.defaultSite.callLinks
        guard let base = callLinks.baseURL, let split = try? SplitURL(base) else { return [] }
        let listed = { (host: String) in config.sites.dropFirst().contains { site in site.hosts.contains { CallLinkHost.covers($0, host: host) } } }
        var hosts: [String] = []
        for host in [split.host] + (callLinks.openInAppHost.map { [$0] } ?? []) where !listed(host) && !hosts.contains(host) { hosts.append(host) }
        return hosts
    }

    /// The site that serves `host` (as the server chooses it) with its hosts, or `host` itself for a default
    /// site that names none.
    public init(config: Config, host: String) {
        let site = config.site(forHost: host)
        let all = ServedHosts(config: config)
        let hosts = all.entries.first { $0.site == site }?.hosts ?? [host.lowercased()]
        entries = [Entry(site: site, hosts: hosts)]
        namesNoHost = false
        app = nil
        shared = config.sharedApps
    }

    /// Whether `site` may give its hosts to `app`'s files: the operator's own sites always, a site file only for
    /// an app it lists itself or one `sharedApps` names it for (a tenant that inherits the top level's app, or
    /// lists another's, never puts its hosts into that app's entitlements or manifest).
    func owns(_ site: SiteConfig, _ app: String) -> Bool {
        site.file == nil || shared[app]?.contains(site.label) == true || SiteClaim.of(site).contains { $0.claim.app == app }
    }

    /// "acme (sites.d/acme.json), the top level": which sites' hosts the entries hold, for `print … --app`.
    public var sitesDescription: String {
        entries.map { entry in
            entry.site.path.isEmpty ? "the top level" : entry.site.file.map { "\(entry.site.label) (site file \($0))" } ?? "\(entry.site.label) (\(entry.site.path))"
        }.joined(separator: ", ")
    }

    /// Every host of every entry, each once.
    public var hosts: [String] {
        var seen: [String] = []
        for host in entries.flatMap(\.hosts) where !seen.contains(host) { seen.append(host) }
        return seen
    }
}
