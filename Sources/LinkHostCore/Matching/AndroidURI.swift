/// A URL's path, query and fragment as `android.net.Uri.parse(url)` gives them to
/// `UriRelativeFilter.matchData`: cut out of the text by `Uri.StringUri` (`parsePath`, `parseQuery`,
/// `parseFragment` in `core/java/android/net/Uri.java`) and decoded by `Uri.decode`
/// (`core/java/android/net/UriCodec.java`, `decode(s, convertPlus: false, UTF-8, throwOnFailure: false)`).
///
/// So a URL without a path has the path `""`, not `/`; `+` stays `+`; a `%` without two hex digits
/// becomes U+FFFD; and the whole query is decoded before `matchQuery` splits it, so `%26` splits.
struct AndroidURI: Sendable, Equatable {
    /// `Uri.getPath()`; nil for an opaque URI (nothing or no `/` after the scheme's `:`).
    let path: String?
    /// `Uri.getQuery()`; nil without a `?`, or when a `#` comes before it.
    let query: String?
    /// `Uri.getFragment()`; nil without a `#`, `""` for a bare `#`.
    let fragment: String?
    /// The path, the query's parameters and the fragment in UTF-16 code units, as `PatternMatcher` compares
    /// them: made once per URL, not once per rule a URL is tried against.
    let units: (path: [UInt16]?, parameters: [[UInt16]]?, fragment: [UInt16]?)

    static func == (lhs: AndroidURI, rhs: AndroidURI) -> Bool {
        lhs.path == rhs.path && lhs.query == rhs.query && lhs.fragment == rhs.fragment
    }

    private static let colon = UInt16(UInt8(ascii: ":"))
    private static let slash = UInt16(UInt8(ascii: "/"))
    private static let backslash = UInt16(UInt8(ascii: "\\"))
    private static let question = UInt16(UInt8(ascii: "?"))
    private static let hash = UInt16(UInt8(ascii: "#"))

    /// Cuts and decodes `url` as `Uri.parse(url)` does.
    init(_ url: String) {
        let units = Array(url.utf16)
        let schemeEnd = units.firstIndex(of: Self.colon) ?? -1
        let from = max(schemeEnd, 0)
        let fragmentStart = units[from...].firstIndex(of: Self.hash)
        func text(_ range: Range<Int>) -> String { Self.decode(String(decoding: units[range], as: UTF16.self)) }
        path = Self.pathRange(units, schemeEnd: schemeEnd).map(text)
        if let queryStart = units[from...].firstIndex(of: Self.question), fragmentStart.map({ $0 >= queryStart }) ?? true {
            query = text(queryStart + 1 ..< (fragmentStart ?? units.count))
        } else {
            query = nil
        }
        fragment = fragmentStart.map { text($0 + 1 ..< units.count) }
        self.units = (path.map { Array($0.utf16) }, query.map { Self.parameters(of: $0).map { Array($0.utf16) } }, fragment.map { Array($0.utf16) })
    }

    /// `StringUri.parsePath`: after `//` the authority runs to `/` or `\` (a path) or `?`/`#` (an empty
    /// path); the path runs to `?` or `#`.
    private static func pathRange(_ units: [UInt16], schemeEnd: Int) -> Range<Int>? {
        if schemeEnd > -1 {
            guard schemeEnd + 1 < units.count, units[schemeEnd + 1] == slash else { return nil }
        }
        var start = schemeEnd + 1
        if units.count > schemeEnd + 2, units[schemeEnd + 1] == slash, units[schemeEnd + 2] == slash {
            start = schemeEnd + 3
            while start < units.count {
                let unit = units[start]
                if unit == question || unit == hash { return start ..< start }
                if unit == slash || unit == backslash { break }
                start += 1
            }
        }
        var end = start
        while end < units.count, units[end] != question, units[end] != hash { end += 1 }
        return start ..< end
    }

    /// The query's parameters as `UriRelativeFilter.matchQuery` splits them: on `&`, or on `;` when that
    /// gives a single piece, with Java's `String.split`, which drops trailing empty pieces.
    var queryParameters: [String]? { query.map(Self.parameters(of:)) }

    /// A query's parameters, as `queryParameters` gives them.
    private static func parameters(of query: String) -> [String] {
        var pieces = Self.javaSplit(query, on: UInt16(UInt8(ascii: "&")))
        if pieces.count == 1 { pieces = Self.javaSplit(query, on: UInt16(UInt8(ascii: ";"))) }
        return pieces
    }

    /// `String.split(String.valueOf(separator))`: the pieces between separators, trailing empty pieces
    /// removed; a text without the separator is one piece, even when empty.
    static func javaSplit(_ text: String, on separator: UInt16) -> [String] {
        let units = Array(text.utf16)
        guard units.contains(separator) else { return [text] }
        var pieces = units.split(separator: separator, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF16.self) }
        while pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces
    }

    /// `Uri.decode`: `%XY` escapes are gathered as bytes and decoded as UTF-8 with U+FFFD for malformed
    /// bytes; `+` is kept. A `%` cut short by the end of the text gives U+FFFD and ends the decoding; a `%`
    /// with a non-hex character gives U+FFFD and then, as `UriCodec.appendDecoded` continues past its
    /// `break`, the byte read so far (0 when none was), the bad character itself having been consumed.
    static func decode(_ text: String) -> String {
        let units = Array(text.utf16)
        guard units.contains(UInt16(UInt8(ascii: "%"))) else { return text }
        var output: [UInt16] = []
        var bytes: [UInt8] = []
        func flush() {
            guard !bytes.isEmpty else { return }
            output += String(decoding: bytes, as: UTF8.self).utf16
            bytes.removeAll()
        }
        let replacement = UInt16(0xFFFD)
        var index = 0
        while index < units.count {
            let unit = units[index]
            index += 1
            guard unit == UInt16(UInt8(ascii: "%")) else {
                flush()
                output.append(unit)
                continue
            }
            var value: UInt8 = 0
            for _ in 0..<2 {
                guard index < units.count else {
                    flush()
                    output.append(replacement)
                    return String(decoding: output, as: UTF16.self)
                }
                let digit = hexValue(units[index])
                index += 1
                guard let digit else {
                    flush()
                    output.append(replacement)
                    break
                }
                value = value &* 16 &+ digit
            }
            bytes.append(value)
        }
        flush()
        return String(decoding: output, as: UTF16.self)
    }

    private static func hexValue(_ unit: UInt16) -> UInt8? {
        switch unit {
        case 0x30...0x39: return UInt8(unit - 0x30)
        case 0x41...0x46: return UInt8(unit - 0x41 + 10)
        case 0x61...0x66: return UInt8(unit - 0x61 + 10)
        default: return nil
        }
    }
}
