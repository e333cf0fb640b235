import CallLinks

/// Host names as sites list them and as requests send them.
public enum HostName {
    /// Why `host` cannot name a site, as a clause completing "\"x\" …"; nil when it can.
    ///
    /// A site host is an ASCII DNS name (internationalized names in their `xn--` form), optionally
    /// `*.` and a name for every subdomain of it, without scheme, port or trailing dot.
    public static func problem(siteHost host: String) -> String? {
        // The app's `CallLinkParser` accepts exactly the hosts a site may list.
        CallLinkHost.problem(host)
    }

    /// The host a `Host` field (or an absolute target's authority) names, as bytes of `value`: without its
    /// port and one trailing dot, brackets kept for an IPv6 literal; empty when there is nothing before the port.
    ///
    /// Case is left as sent: site lookups fold it, and the canonical URL check refuses anything unusual.
    @inlinable
    public static func host<Bytes: BidirectionalCollection<UInt8>>(ofAuthority value: Bytes) -> Bytes.SubSequence {
        var host = value[...]
        if host.first == UInt8(ascii: "["), let close = host.firstIndex(of: UInt8(ascii: "]")) {
            host = host[...close]
        } else if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
            host = host[..<colon]
        }
        if host.last == UInt8(ascii: "."), host.count > 1 { host = host.dropLast() }
        return host
    }

    /// An ASCII letter or digit, the bytes of a host label besides "-".
    @inline(__always)
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
