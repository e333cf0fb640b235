import LinkHostCore

/// One certificate linkhost obtains: a site's exact hosts, all in one certificate.
package struct CertificateTarget: Sendable, Equatable {
    /// The file name in the state folder: the first host.
    package let name: String
    /// Every host of the site, the names the certificate must carry.
    package let hosts: [String]
    /// True for the certificate that answers handshakes without SNI or with an unknown name.
    package let isDefault: Bool

    /// The certificates a config needs: the default site's (`server.tls.acme.hosts`), then each site's, in
    /// config order. Without default-site hosts, the first site's certificate is the default one.
    package static func targets(for config: Config) -> [CertificateTarget] {
        guard let acme = config.server.acme else { return [] }
        var lists: [[String]] = []
        if !acme.hosts.isEmpty { lists.append(acme.hosts) }
        for site in config.sites.dropFirst() {
            let exact = site.hosts.filter { !$0.hasPrefix("*.") }
            if !exact.isEmpty { lists.append(exact) }
        }
        return lists.enumerated().map { CertificateTarget(name: $0.element[0], hosts: $0.element, isDefault: $0.offset == 0) }
    }
}
