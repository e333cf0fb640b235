/// Host names as a site (or a `CallLinkParser`) lists them: an ASCII DNS name, or `*.` and a name for
/// every subdomain of it; matched in any case and without the port.
public enum CallLinkHost {
    /// Why `host` cannot name the host of call links, as a clause completing "\"x\" …"; nil when it can.
    ///
    /// Internationalized names are written in their `xn--` form; no scheme, port or trailing dot.
    public static func problem(_ host: String) -> String? {
        if containsSchemeSeparator(host) {
            return "is a URL; write the host name only, e.g. \"links.example.com\""
        }
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

    /// Whether `listed` (a valid, lowercased host or `*.name`) covers `host` (lowercased): the same name, or
    /// for `*.name` any subdomain of it at any depth, but not `name` itself.
    public static func covers(_ listed: String, host: String) -> Bool {
        guard listed.hasPrefix("*.") else { return listed == host }
        let suffix = listed.dropFirst(1)
        return host.utf8.count > suffix.utf8.count && host.hasSuffix(suffix)
    }

    /// `://` anywhere in the text; written out because `String.contains(String)` needs iOS 16.
    private static func containsSchemeSeparator(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return false }
        for index in 0...(bytes.count - 3) where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
            return true
        }
        return false
    }

    @inline(__always)
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
