/// Host names as sites list them and as requests send them.
public enum HostName {
    /// Why `host` cannot name a site, as a clause completing "\"x\" …"; nil when it can.
    ///
    /// A site host is an ASCII DNS name (internationalized names in their `xn--` form), optionally
    /// `*.` and a name for every subdomain of it, without scheme, port or trailing dot.
    public static func problem(siteHost host: String) -> String? {
        if host.contains("://") { return "is a URL; write the host name only, e.g. \"links.example.com\"" }
        if host.unicodeScalars.contains(where: { !$0.isASCII }) {
            return "is not ASCII; write an internationalized name in its xn-- form (e.g. \"xn--bcher-kva.example\")"
        }
        if host.contains(":") { return "has a port or is an IPv6 address; sites match host names, whatever the port" }
        if host.hasSuffix(".") { return "ends with a dot; write it without (links.example.com. and links.example.com are the same host)" }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*" { labels.removeFirst() }
        guard !labels.isEmpty, host.utf8.count <= 253 else { return "is not a host name" }
        for label in labels {
            let bytes = label.utf8
            let valid = (1...63).contains(bytes.count) && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
            if !valid {
                return label.contains("*") ? "has a \"*\" other than a leading \"*.\"" : "is not a host name of dot-separated labels of A-Z, a-z, 0-9 and \"-\""
            }
        }
        return nil
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

    @inline(__always)
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
