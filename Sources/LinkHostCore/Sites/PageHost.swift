/// Which host a call page's or QR image's absolute URLs name, for one request.
///
/// A page's canonical link, `og:url`, QR code and Play `referrer` are absolute URLs. A cache in front of
/// linkhost whose key leaves out the Host (nginx's default `proxy_cache_key`, many CDN rules) would store
/// a page built from any Host it was sent for every visitor of the real one, so a Host is written into a
/// page only when the config names it: a host the site lists (or, for the default site, a name it gets
/// certificates for), written as listed (lowercase, without port or trailing dot), or a loopback name
/// (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`, port kept) so `make run` and a local `docker run`
/// keep working; the config does not name those, so their pages are sent `no-store` (the server's
/// `Snapshot.namesHost`, issue 30). Any other Host names nothing the config vouches for: its call links answer 404. A site
/// with `callLinks.baseURL` never reads the Host at all.
@usableFromInline
package enum PageHost: Equatable, Sendable {
    /// No request host in the page: the site's `baseURL` when it has one, else no origin at all (a request
    /// without a Host, which is the same page for every such request).
    case noRequestHost
    /// These bytes of the Host field are the origin's host (lowercase already).
    case request(Range<Int>)
    /// The Host field's host, lowercased (it was sent with capitals).
    case lowercased([UInt8])
    /// The Host is neither listed nor a loopback name: no page or image is built for it.
    case refused

    /// The policy for `authority` (a `Host` field, or an absolute target's authority) on `site`;
    /// `listedByDefaultSite` tells whether the default site names a host.
    @inlinable
    package static func choose<Bytes: RandomAccessCollection<UInt8>>(authority: Bytes?, site: Site, listedByDefaultSite: (Bytes.SubSequence) -> Bool) -> PageHost
    where Bytes.Index == Int {
        guard site.usesRequestHost, let authority else { return .noRequestHost }
        let host = HostName.host(ofAuthority: authority)
        guard !host.isEmpty else { return .refused }
        // A site other than the default one is reached only through a host it lists (SiteDirectory).
        let range: Range<Int>
        if site.index != 0 || listedByDefaultSite(host) {
            range = host.startIndex..<host.endIndex
        } else if isLoopback(host) {
            range = authority.startIndex..<authority.endIndex
        } else {
            return .refused
        }
        let bytes = authority[range]
        guard bytes.contains(where: isCapital) else { return .request(range) }
        return .lowercased(bytes.map { isCapital($0) ? $0 | 0x20 : $0 })
    }

    @inlinable
    static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }

    /// `localhost`, a name under `.localhost` (RFC 6761 §6.3), an IPv4 address in 127.0.0.0/8, or `[::1]`:
    /// names only this machine resolves to itself, so a page naming them cannot send anyone elsewhere.
    @usableFromInline
    package static func isLoopback<Host: Collection<UInt8>>(_ host: Host) -> Bool {
        var lowered: [UInt8] = []
        lowered.reserveCapacity(host.count)
        for byte in host { lowered.append(isCapital(byte) ? byte | 0x20 : byte) }
        if lowered == Array("[::1]".utf8) || lowered == Array("localhost".utf8) { return true }
        if lowered.count > 10, lowered.suffix(10).elementsEqual(".localhost".utf8) {
            return lowered.dropLast(10).allSatisfy { HostName.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        }
        let parts = lowered.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual("127".utf8) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                && part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }
}
