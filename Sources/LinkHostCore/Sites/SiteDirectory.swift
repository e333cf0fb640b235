/// Which site answers a request's host: a site naming it exactly, else the site with the longest
/// wildcard covering it, else the default site.
///
/// The cost of a lookup depends on the host's length, never on the number of sites.
@usableFromInline
package struct SiteDirectory: Sendable {
    @usableFromInline var exact = ByteKeyedTable<Int>(foldsCase: true)
    /// Wildcard sites by the name after their `*.`.
    @usableFromInline var wildcards = ByteKeyedTable<Int>(foldsCase: true)

    /// The directory of a config's sites, by their index in `sites` (0, the default site, has no hosts).
    package init(sites: [SiteConfig]) {
        for (index, site) in sites.enumerated() {
            for host in site.hosts {
                if host.hasPrefix("*.") {
                    wildcards.insert(Array(host.utf8.dropFirst(2)), index)
                } else {
                    exact.insert(Array(host.utf8), index)
                }
            }
        }
    }

    /// The index of the site for a `Host` value (port and trailing dot allowed); 0 for none or an unknown host.
    @inlinable
    package func siteIndex<Bytes: BidirectionalCollection<UInt8>>(forAuthority authority: Bytes?) -> Int {
        guard let authority else { return 0 }
        let host = HostName.host(ofAuthority: authority)
        if let index = exact.value(for: host) { return index }
        // `a.b.example.com` tries `b.example.com`, then `example.com`, then `com`: the longest wildcard wins.
        var rest = host[...]
        while let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.index(after: dot)...]
            if let index = wildcards.value(for: rest) { return index }
        }
        return 0
    }
}
