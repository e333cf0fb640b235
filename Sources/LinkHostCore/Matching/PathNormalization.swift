/// How universal-link matching reads a URL's path: a pattern's leading slash is optional and trailing slashes
/// on either side do not count.
///
/// Both sides are brought to one form: one leading slash, trailing slashes dropped and a single one put back,
/// so `/buy`, `/buy/` and `/buy//` all read `/buy/`. A pattern that ends in `*` keeps no slash after the star,
/// which is why `/buy/*` also matches `/buy` (read `/buy/`) while `/a/*/c` still needs a middle segment.
public enum PathNormalization {
    /// The path as matching compares it.
    public static func path(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        return trimmed.isEmpty ? "/" : "/" + trimmed + "/"
    }

    /// The path pattern as matching compares it.
    public static func pattern(_ pattern: String) -> String {
        var trimmed = Substring(pattern)
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed.isEmpty { return "/" }
        return trimmed.hasSuffix("*") ? "/" + trimmed : "/" + trimmed + "/"
    }
}
