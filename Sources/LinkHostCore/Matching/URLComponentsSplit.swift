/// A URL taken apart into what universal-link matching reads: host, port, and the percent-encoded path, query
/// and fragment exactly as the URL carries them.
public struct SplitURL: Sendable, Equatable {
    /// The scheme, lower-cased.
    public let scheme: String
    /// The host, lower-cased, without a trailing dot; an IPv6 literal keeps its brackets.
    public let host: String
    /// The explicit port, or nil when the URL names none.
    public let port: Int?
    /// The path, percent-encoded; empty when the URL has none (`https://example.com`).
    public let path: String
    /// The query without its `?`, percent-encoded; nil when the URL has no `?`.
    public let query: String?
    /// The fragment without its `#`, percent-encoded; nil when the URL has no `#`.
    public let fragment: String?

    /// Why a string could not be read as a URL.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with it.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    /// Splits an absolute `scheme://authority/path?query#fragment` URL.
    ///
    /// Characters a URL may not carry raw (spaces, non-ASCII, a `%` that starts no escape, …) are percent-encoded
    /// with upper-case hex first, as Apple's URL parsing does before matching ever sees them.
    public init(_ string: String) throws(Failure) {
        if let plain = Self.plain(string) {
            self = plain
        } else {
            try self.init(scalarsOf: string)
        }
    }

    /// `init` scalar by scalar, for any URL: what `plain` must agree with (`MatchURLSplitTests`).
    init(scalarsOf string: String) throws(Failure) {
        let scalars = Array(string.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, Self.isScheme(scalars[0..<colon]) else {
            throw Failure(message: "\"\(string)\" is not an absolute URL: it has no scheme")
        }
        scheme = String(String.UnicodeScalarView(scalars[0..<colon])).lowercased()
        var index = colon + 1
        guard index + 1 < scalars.count, scalars[index] == "/", scalars[index + 1] == "/" else {
            throw Failure(message: "\"\(string)\" has no //host after its scheme")
        }
        index += 2
        let authorityEnd = scalars[index...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? scalars.count
        (host, port) = try Self.splitAuthority(String(String.UnicodeScalarView(scalars[index..<authorityEnd])))
        index = authorityEnd

        let pathEnd = scalars[index...].firstIndex(where: { $0 == "?" || $0 == "#" }) ?? scalars.count
        path = Self.encodeInvalid(scalars[index..<pathEnd], allowing: "/:@")
        index = pathEnd

        if index < scalars.count, scalars[index] == "?" {
            let queryEnd = scalars[(index + 1)...].firstIndex(of: "#") ?? scalars.count
            query = Self.encodeInvalid(scalars[(index + 1)..<queryEnd], allowing: "/:@?")
            index = queryEnd
        } else {
            query = nil
        }
        if index < scalars.count, scalars[index] == "#" {
            fragment = Self.encodeInvalid(scalars[(index + 1)...], allowing: "/:@?")
        } else {
            fragment = nil
        }
    }

    private init(scheme: String, host: String, port: Int?, path: String, query: String?, fragment: String?) {
        (self.scheme, self.host, self.port, self.path, self.query, self.fragment) = (scheme, host, port, path, query, fragment)
    }

    /// `string` split as `init` splits it when it is ASCII and no part needs encoding (every URL the consistency
    /// checks ask): parts sliced from its bytes, not rebuilt scalar by scalar. Nil otherwise, and for anything
    /// `init` refuses, so that its message is the one given.
    private static func plain(_ string: String) -> SplitURL? {
        let bytes = Array(string.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }), let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              isScheme(bytes[..<colon].map { Unicode.Scalar($0) }[...]),
              colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func end(from start: Int, at stops: String) -> Int {
            bytes[start...].firstIndex { stops.utf8.contains($0) } ?? bytes.count
        }
        let authorityEnd = end(from: colon + 3, at: "/?#")
        guard let (host, port) = try? splitAuthority(text((colon + 3)..<authorityEnd)) else { return nil }
        let pathEnd = end(from: authorityEnd, at: "?#")
        let queryEnd = pathEnd < bytes.count && bytes[pathEnd] == UInt8(ascii: "?") ? end(from: pathEnd + 1, at: "#") : pathEnd
        let (pathSet, restSet) = (RawSet("/:@"), RawSet("/:@?"))
        func isPlain(_ range: Range<Int>, _ allowed: RawSet) -> Bool {
            !range.contains { bytes[$0] == UInt8(ascii: "%") ? !isEscape(bytes, at: $0) : !allowed.contains(Unicode.Scalar(bytes[$0])) }
        }
        let queryRange = queryEnd > pathEnd ? (pathEnd + 1)..<queryEnd : nil
        let fragmentRange = queryEnd < bytes.count ? (queryEnd + 1)..<bytes.count : nil
        guard isPlain(authorityEnd..<pathEnd, pathSet), isPlain(queryRange ?? 0..<0, restSet), isPlain(fragmentRange ?? 0..<0, restSet) else { return nil }
        return SplitURL(scheme: text(0..<colon).lowercased(), host: host, port: port, path: text(authorityEnd..<pathEnd),
                        query: queryRange.map(text), fragment: fragmentRange.map(text))
    }

    /// The query's `name=value` items in order, split before any decoding so an encoded `&` or `=` stays data.
    ///
    /// An item without `=` has the empty value, as Apple documents for items with no value.
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: "=") {
                return (String(item[..<equals]), String(item[item.index(after: equals)...]))
            }
            return (String(item), "")
        }
    }

    private static func isScheme(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    private static func splitAuthority(_ authority: String) throws(Failure) -> (host: String, port: Int?) {
        // Credentials say nothing about which site this is; drop them.
        var hostPort = Substring(authority)
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        var host = hostPort
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw Failure(message: "unterminated IPv6 host in \"\(authority)\"") }
            host = hostPort[...close]
            let rest = hostPort[hostPort.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty {
                throw Failure(message: "unexpected \"\(rest)\" after the host in \"\(authority)\"")
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        }
        let normalizedHost = DomainCheck.normalize(String(host))
        guard !normalizedHost.isEmpty else { throw Failure(message: "the URL has an empty host") }
        guard let portText, !portText.isEmpty else { return (normalizedHost, nil) }
        guard portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), let port = Int(portText), port <= 65535 else {
            throw Failure(message: "\"\(portText)\" is not a port number")
        }
        return (normalizedHost, port)
    }

    /// Percent-encodes what RFC 3986 does not allow raw in a path, query or fragment: unreserved characters,
    /// sub-delimiters, `extra` and well-formed `%XX` escapes stay as written.
    static func encodeInvalid(_ scalars: some Collection<Unicode.Scalar>, allowing extra: String) -> String {
        let items = Array(scalars)
        let allowed = RawSet(extra)
        // Most components are already valid (every URL the consistency checks ask is): kept as written, without
        // building them again scalar by scalar.
        if !items.indices.contains(where: { !allowed.contains(items[$0]) && !(items[$0] == "%" && isEscape(items, at: $0)) }) {
            return String(String.UnicodeScalarView(items))
        }
        var output = String.UnicodeScalarView()
        var index = 0
        while index < items.count {
            let scalar = items[index]
            if scalar == "%" {
                if isEscape(items, at: index) {
                    output.append(contentsOf: items[index...(index + 2)])
                    index += 3
                } else {
                    output.append(contentsOf: "%25".unicodeScalars)
                    index += 1
                }
                continue
            }
            if allowed.contains(scalar) {
                output.append(scalar)
            } else {
                for byte in String(scalar).utf8 { output.append(contentsOf: percentEscape(byte).unicodeScalars) }
            }
            index += 1
        }
        return String(output)
    }

    /// Whether `items[index]` (a `%`) starts a well-formed `%XX` escape.
    private static func isEscape(_ items: [Unicode.Scalar], at index: Int) -> Bool {
        index + 2 < items.count && items[index + 1].properties.isASCIIHexDigit && items[index + 2].properties.isASCIIHexDigit
    }

    /// `isEscape` over ASCII bytes.
    private static func isEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 2 < bytes.count && hexValue(bytes[index + 1]) != nil && hexValue(bytes[index + 2]) != nil
    }

    /// The ASCII characters a component may carry raw: unreserved characters, sub-delimiters and a component's
    /// own extras, as bits, since every scalar of every URL asked is looked up.
    private struct RawSet {
        private var bits: (low: UInt64, high: UInt64) = (0, 0)

        init(_ extra: String) {
            for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=".utf8 { insert(byte) }
            for byte in extra.utf8 { insert(byte) }
        }

        private mutating func insert(_ byte: UInt8) {
            if byte < 64 { bits.low |= 1 << UInt64(byte) } else if byte < 128 { bits.high |= 1 << UInt64(byte - 64) }
        }

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 64 { return bits.low & (1 << UInt64(value)) != 0 }
            return value < 128 && bits.high & (1 << UInt64(value - 64)) != 0
        }
    }

    /// Decodes `%XX` escapes; nil when the bytes they spell are not UTF-8, since such a component has no text form.
    public static func percentDecoded(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func percentEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
