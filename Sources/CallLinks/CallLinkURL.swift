/// An absolute `https://host[:port]/path?query#fragment` string taken apart the way the server sees the
/// request it becomes: the host lowercased, the path and query exactly as written (still percent-encoded).
///
/// Written without Foundation so that the app and the server read a link with the same few lines.
struct CallLinkURL: Equatable {
    /// The scheme, lowercased.
    let scheme: String
    /// The host, lowercased, without one trailing dot.
    let host: String
    /// The explicit port, or nil.
    let port: Int?
    /// The path as written; `/` when the URL has none.
    let path: Substring
    /// The query without its `?`, as written; nil without a `?`.
    let query: Substring?

    /// Splits `text`, or nil when it is not an absolute URL with a host: no scheme, no `//`, user
    /// information (`user@host`), a bracketed address, a malformed port, or a space or control character.
    init?(_ text: String) {
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.utf8.first, Self.isLetter(first),
              scheme.utf8.allSatisfy({ Self.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { return nil }
        let authorityStart = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
        let rest = afterScheme[authorityStart...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@"), !authority.hasPrefix("[") else { return nil }
        var host = authority
        var port: Int?
        if let portColon = authority.firstIndex(of: ":") {
            host = authority[..<portColon]
            let digits = authority[authority.index(after: portColon)...]
            guard !digits.isEmpty, digits.utf8.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(digits), number <= 65535 else { return nil }
            port = number
        }
        if host.hasSuffix("."), host.count > 1 { host = host.dropLast() }
        guard !host.isEmpty else { return nil }

        let target = rest[authorityEnd...]
        let beforeFragment = target[..<(target.firstIndex(of: "#") ?? target.endIndex)]
        let question = beforeFragment.firstIndex(of: "?")
        let path = beforeFragment[..<(question ?? beforeFragment.endIndex)]
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = question.map { beforeFragment[beforeFragment.index(after: $0)...] }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
