/// How universal-link matching reads a URL's path: a pattern's leading slash is optional and trailing slashes
/// on either side do not count.
///
/// Both sides are brought to one form: one leading slash, trailing slashes dropped and a single one put back,
/// so `/buy`, `/buy/` and `/buy//` all read `/buy/`. A pattern that ends in `*` keeps no slash after the star,
/// which is why `/buy/*` also matches `/buy` (read `/buy/`) while `/a/*/c` still needs a middle segment.
public enum PathNormalization {
    /// The path as matching compares it.
    public static func path(_ path: String) -> String {
        // One leading slash and no trailing one, all ASCII (most paths): the form is the path and its slash.
        if isPlain(path) { return path + "/" }
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        return trimmed.isEmpty ? "/" : "/" + trimmed + "/"
    }

    /// The path pattern as matching compares it.
    public static func pattern(_ pattern: String) -> String {
        // The same for a pattern: kept as it is when it ends in `*` (a derived AASA's hundreds of patterns).
        if isPlain(pattern) { return pattern.utf8.last == UInt8(ascii: "*") ? pattern : pattern + "/" }
        var trimmed = Substring(pattern)
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed.isEmpty { return "/" }
        return trimmed.hasSuffix("*") ? "/" + trimmed : "/" + trimmed + "/"
    }

    /// Whether `text` is ASCII (where a character is a byte), begins with exactly one `/` and does not end in
    /// `/`: trimming it would give it back as it is.
    private static func isPlain(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count > 1, bytes.first == UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/"),
              bytes.dropFirst().first != UInt8(ascii: "/") else { return false }
        return bytes.allSatisfy { $0 < 0x80 }
    }
}
