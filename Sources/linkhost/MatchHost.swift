import LinkHostCore

/// Whether the config's sites list the host a `match` URL names: a config with `sites` answers a host none
/// of them lists with its default site (the top level), which is rarely what the user meant to ask about.
enum MatchHost {
    /// The exit code of `match` for a URL whose host no site lists.
    static let unservedExitCode: Int32 = 3

    /// The lines that say `host` is served by no site of `config`, or nil when a site lists it.
    ///
    /// A config without `sites` has one site for every host, so every host is served. The default site
    /// also names the host of its `callLinks.baseURL`, the names it gets certificates for (`server.acme.hosts`)
    /// and loopback names (`make run`).
    static func unservedNote(_ host: String, in config: Config, path: String) -> String? {
        guard config.sites.count > 1, config.site(forHost: host).hosts.isEmpty else { return nil }
        let name = HostName.host(ofAuthority: Array(host.utf8))
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        let baseHost = config.defaultSite.callLinks.baseURL.flatMap { try? SplitURL($0) }?.host.lowercased()
        if PageHost.isLoopback(name) || (config.server.acme?.hosts ?? []).contains(lowered) || baseHost == lowered { return nil }
        let listed = config.sites.dropFirst().flatMap(\.hosts).joined(separator: ", ")
        return "  host \(lowered): not served: no site of \(path) lists it (the sites list \(listed)); the server answers it with the default site\n"
            + "  what the default site would serve:\n"
    }

    /// What linkhost answers, on a host no site lists: a call page names its host, so the server builds none
    /// for a host the config does not vouch for (`PageHost`) unless the site has a `callLinks.baseURL`.
    static func servedLine(_ answer: String, unserved: Bool, site: SiteConfig) -> String {
        guard unserved, site.callLinks.baseURL == nil, answer.hasPrefix("the call page") else { return answer }
        return "404 on this host, which the config does not name (on a host it names: \(answer))"
    }
}
