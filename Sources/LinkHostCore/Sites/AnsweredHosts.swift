/// Every host a config answers by name, with the site that answers it: what the TLS layer in front (cert-manager,
/// an ingress, a CDN's custom hostnames) must hold a certificate for (`linkhost print hosts`).
///
/// The top level lists no hosts; it answers by name its `callLinks.baseURL`'s host and its `openInAppHost` where no
/// site lists them (`ServedHosts.defaultSiteHosts`, as the app's files name them) and `server.tls.acme.hosts` (the
/// names it certifies itself). Then each site's `hosts`, in config order (`sites`, then the site files by name).
/// Each host once. A host no site lists but a wildcard covers is the wildcard's: one certificate for `*.x` serves it.
public struct AnsweredHosts: Sendable {
    /// One host and who answers it.
    public struct Entry: Sendable, Equatable {
        /// The host, lowercased; `*.example.com` for every subdomain.
        public let host: String
        /// The site's name (`SiteConfig.label`: its `id`, else its first host; `default` for the top level).
        public let site: String

        /// True for `*.example.com`: a certificate for it needs a DNS-01 challenge (HTTP-01 cannot prove a wildcard).
        public var isWildcard: Bool { host.hasPrefix("*.") }
    }

    /// The hosts, the top level's first.
    public let entries: [Entry]

    /// Lists the hosts of `config`'s sites.
    public init(config: Config) {
        var seen = Set<String>()
        var entries: [Entry] = []
        let topLevel = ServedHosts.defaultSiteHosts(config) + (config.server.acme?.hosts ?? [])
        for host in topLevel where seen.insert(host).inserted { entries.append(Entry(host: host, site: config.defaultSite.label)) }
        for site in config.sites.dropFirst() {
            for host in site.hosts where seen.insert(host).inserted { entries.append(Entry(host: host, site: site.label)) }
        }
        self.entries = entries
    }
}
