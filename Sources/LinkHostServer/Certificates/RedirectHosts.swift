import LinkHostCrypto
import LinkHostCore

/// The hosts besides the sites' own that the HTTP listener sends to HTTPS: the names the top level gives
/// itself (`server.tls.acme.hosts`, the host of `callLinks.baseURL`, `callLinks.openInAppHost`) and the DNS
/// names of the configured certificate file. A single-site config with its own certificate names its host
/// only there, and a `308` to HTTPS is what its visitors typing `http://` need; a Host named nowhere still
/// gets `404`, so no `Location` ever points a cache at someone else's host (issue 30, item 12).
struct RedirectHosts: Sendable {
    /// The top level's names, lowercase.
    private let names: Set<String>
    /// The certificate file's leaf, whose names (wildcards one label deep) HTTPS answers for.
    private let certificate: CertificateFacts?

    /// The names of `config`'s top level and of the certificate `tls` holds (nil: no certificate file).
    init(config: Config, tls: TLSMaterial?) {
        var names = Set((config.server.acme?.hosts ?? []).map { $0.lowercased() })
        let callLinks = config.defaultSite.callLinks
        if let base = callLinks.baseURL, let split = try? SplitURL(base) { names.insert(split.host.lowercased()) }
        if let open = callLinks.openInAppHost { names.insert(open.lowercased()) }
        self.names = names
        certificate = tls.flatMap { CertificateFacts(pem: $0.certificate) }
    }

    /// No names: before the first snapshot is installed.
    init() {
        names = []
        certificate = nil
    }

    /// True when the top level or the certificate names `host` (lowercase, without port).
    func contains(_ host: String) -> Bool {
        names.contains(host) || certificate?.covers(host) == true
    }
}
