/// An absolute `https://host[:port]/path?query#fragment` string taken apart the way the server sees the
/// request it becomes: the host lowercased, the path and query exactly as written (still percent-encoded).
///
/// Written without Foundation so that the app and the server read a link with the same few lines. It reads
/// bytes, not characters: a combining mark after `/`, `?` or `&` makes one Swift `Character` of the two,
/// but the server (and the printed Kotlin parser) still see the separator, so the parser must too.
struct CallLinkURL: Equatable {
    /// The scheme, lowercased.
    let scheme: String
    /// The host, lowercased (ASCII letters only, as DNS compares names), without one trailing dot.
    let host: String
    /// The explicit port, or nil.
    let port: Int?
    /// The path as written; `/` when the URL has none.
    let path: String
    /// The query without its `?`, as written; nil without a `?`.
    let query: String?

    /// Splits `text`, or nil when it is not an absolute URL with a host: no scheme, no `//`, user
    /// information (`user@host`), a bracketed address, a malformed port, or a space or control character.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = bytes[..<colon]
        guard let first = scheme.first, Self.isLetter(first),
              scheme.allSatisfy({ Self.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        let afterScheme = bytes[(colon + 1)...]
        guard afterScheme.starts(with: "//".utf8) else { return nil }
        let rest = afterScheme.dropFirst(2)
        let authorityEnd = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")), authority.first != UInt8(ascii: "[") else { return nil }
        var host = authority
        var port: Int?
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            let digits = authority[(portColon + 1)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard number <= 65535 else { return nil }
            port = number
        }
        if host.last == UInt8(ascii: "."), host.count > 1 { host = host.dropLast() }
        guard !host.isEmpty else { return nil }

        let target = rest[authorityEnd...]
        let beforeFragment = target[..<(target.firstIndex(of: UInt8(ascii: "#")) ?? target.endIndex)]
        let question = beforeFragment.firstIndex(of: UInt8(ascii: "?"))
        let path = beforeFragment[..<(question ?? beforeFragment.endIndex)]
        self.scheme = Self.asciiLowercased(scheme)
        self.host = Self.asciiLowercased(host)
        self.port = port
        self.path = path.isEmpty ? "/" : String(decoding: path, as: UTF8.self)
        self.query = question.map { String(decoding: beforeFragment[($0 + 1)...], as: UTF8.self) }
    }

    /// The bytes with A-Z lowercased and nothing else changed: Unicode lowercasing would turn the Kelvin
    /// sign into `k`, making a host the server never matches one the parser accepts.
    static func asciiLowercased<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
