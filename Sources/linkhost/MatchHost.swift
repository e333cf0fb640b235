import CallLinks
import LinkHostCore
import LinkHostServer

/// What linkhost itself answers for a `match` URL, decided as the server decides it: by the snapshot the
/// server would build from the config and the server's own `Router.decide`, not by a copy of its rules; and
/// whether the config's sites list the URL's host at all.
///
/// A config with `sites` answers a host none of them lists with its default site (the top level), which is
/// rarely what the user meant to ask about; with `server.strictHosts` it answers such a host 404.
struct MatchHost {
    /// The exit code of `match` for a URL whose host no site lists.
    static let unservedExitCode: Int32 = 3

    let config: Config
    /// The config's path, as the user gave it.
    let path: String
    /// What the server would serve; nil when the config builds no snapshot (the server would not start).
    let snapshot: Snapshot?
    /// Why the snapshot could not be built.
    let failure: String?

    /// Builds the snapshot the server would serve from `config`.
    init(config: Config, path: String) {
        self.config = config
        self.path = path
        do {
            snapshot = try Snapshot(config: config, cores: Server.processorCount())
            failure = nil
        } catch {
            snapshot = nil
            failure = "\(error)".split(separator: "\n").first.map(String.init) ?? "the config builds no snapshot"
        }
    }

    /// The 404 the server answers on `authority` for `urlPath` because of `server.strictHosts`, or nil.
    func strictRefusal(_ authority: String, urlPath: String) -> Response? {
        guard let snapshot else { return nil }
        guard case .unknownHost(let refusal) = Router(snapshot: snapshot).decide(Request(path: urlPath.isEmpty ? "/" : urlPath, host: authority)).answer else { return nil }
        return refusal
    }

    /// The whole answer for a host the server refuses under `server.strictHosts`, association files included
    /// (so no platform opens an app there); nil when it serves the URL or one of those files.
    func strictHostAnswer(_ url: String, authority: String, urlPath: String) -> String? {
        let paths = [urlPath, "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"]
        guard let refusal = strictRefusal(authority, urlPath: urlPath), paths.allSatisfy({ strictRefusal(authority, urlPath: $0) != nil }) else { return nil }
        let host = lowercasedHost(authority)
        return "\(url)\n  host \(host): not served: no site of \(path) lists it (\(listedHosts())), and with server.strictHosts the server answers \(refusal.status) on it, its AASA and assetlinks.json included, so neither iOS nor Android opens an app there\n"
            + "  linkhost: \(refusal.status) \(bodyLine(refusal)) (server.strictHosts)\n"
    }

    /// The lines that say `authority` is served by no site of the config, or nil when a site lists it.
    ///
    /// A config without `sites` has one site for every host, so every host is served. The default site
    /// also names the host of its `callLinks.baseURL`, the names it gets certificates for (`server.acme.hosts`)
    /// and loopback names (`make run`).
    func unservedNote(_ authority: String) -> String? {
        guard config.sites.count > 1, config.site(forHost: authority).hosts.isEmpty else { return nil }
        let name = HostName.host(ofAuthority: Array(authority.utf8))
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        let baseHost = config.defaultSite.callLinks.baseURL.flatMap { try? SplitURL($0) }?.host.lowercased()
        if PageHost.isLoopback(name) || (config.server.acme?.hosts ?? []).contains(lowered) || baseHost == lowered { return nil }
        return "  host \(lowered): not served: no site of \(path) lists it (\(listedHosts())); the server answers it with the default site\n"
            + "  what the default site would serve:\n"
    }

    /// What linkhost answers for `url` on `authority`, as `Router.decide` decides it: a call page (the link
    /// template that reads it), or the 404 of a host the config does not vouch for, or not a call link.
    func servedLine(_ url: SplitURL, authority: String, site: SiteConfig) -> String {
        let described = MatchCommand.servedAs(url, on: site)
        guard let snapshot else { return "no answer: the server would not start with \(path): \(failure ?? "")" }
        let request = Request(path: url.path.isEmpty ? "/" : url.path, query: QueryItems.firstValues(url.query ?? ""), host: authority)
        switch Router(snapshot: snapshot).decide(request).answer {
        case .unknownHost(let response): return "\(response.status) \(bodyLine(response)) (server.strictHosts)"
        case .hostRefused(let response): return "\(response.status) on this host, which the config does not name (on a host it names: \(described))"
        case .prepared, .live, .beacon, .crossSiteBeacon, .malformedBeacon, .page: return described
        }
    }

    /// The sites' hosts, for a note on a host none of them lists.
    private func listedHosts() -> String {
        let listed = config.sites.dropFirst().flatMap(\.hosts)
        return listed.isEmpty ? "the config has no sites; its top level answers only server.tls.acme.hosts" : "the sites list " + listed.joined(separator: ", ")
    }

    /// The host of `authority`, lowercased, without its port.
    private func lowercasedHost(_ authority: String) -> String {
        String(decoding: HostName.host(ofAuthority: Array(authority.utf8)), as: UTF8.self).lowercased()
    }

    /// A prepared response's text body's first line: "Not Found: no site of this server serves this host".
    private func bodyLine(_ response: Response) -> String {
        String(decoding: response.body.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
