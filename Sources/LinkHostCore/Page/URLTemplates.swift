/// URL templates of call links: `{callId}`, `{callType}` and `{path}` filled per request.
///
/// Call IDs and types are validated to `[A-Za-z0-9_-]`, so filling them needs no percent-encoding;
/// the checks here make sure a configured template cannot turn into a script or a foreign scheme.
public enum URLTemplates {
    /// The placeholders a URL template may use.
    public static let placeholders = ["{callId}", "{callType}", "{path}"]

    /// Fills a template for one call (templates are checked at load; unknown braces stay as written).
    public static func fill(_ template: String, callID: String, callType: String, path: String) -> String {
        ParsedURLTemplate(template).fill(callID: callID, callType: callType, path: path)
    }

    /// Lowercased scheme of a URL, if it has one.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        return scheme.lowercased()
    }

    private static func unknownPlaceholder(_ template: String) -> String? {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return "has an unclosed \"{\"" }
            let name = String(rest[open...close])
            if !placeholders.contains(name) { return "uses \(name); the placeholders are \(placeholders.joined(separator: ", "))" }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }

    private static func hasUnsafeCharacters(_ url: String) -> Bool {
        url.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || "\"'<>\\`".unicodeScalars.contains($0) }
    }

    /// `baseURL`: an http(s) origin without path, query or trailing slash.
    static func originRule(_ url: String) -> String? {
        guard let scheme = scheme(of: url), scheme == "https" || scheme == "http" else { return "is not an http(s) origin such as \"https://links.example.com\"" }
        let rest = url.drop { $0 != ":" }.dropFirst()
        guard rest.hasPrefix("//"), rest.count > 2, !rest.dropFirst(2).contains(where: { "/?#@".contains($0) }), !hasUnsafeCharacters(url) else {
            return "is not an origin: write scheme and host only, e.g. \"https://links.example.com\" (no path or trailing slash)"
        }
        return nil
    }

    /// `webJoinURL`: an https URL template.
    static func webJoinRule(_ template: String) -> String? {
        guard let scheme = scheme(of: template), scheme == "https" || scheme == "http" else { return "is not an http(s) URL" }
        if hasUnsafeCharacters(template) { return "contains spaces, quotes or angle brackets" }
        return unknownPlaceholder(template)
    }

    /// `openInAppURL`: a custom-scheme URL template (a web scheme would just reload the page).
    static func openInAppRule(_ template: String) -> String? {
        guard let scheme = scheme(of: template) else { return "has no URL scheme, e.g. \"examplevideo://call/{callId}\"" }
        if Identifiers.urlScheme(scheme) != nil { return "does not use the app's custom scheme (\"\(scheme):\" cannot open an app)" }
        if hasUnsafeCharacters(template) { return "contains spaces, quotes or angle brackets" }
        return unknownPlaceholder(template)
    }
}

/// A URL template split once at load into literal text and call values, so filling it per request is
/// a few appends instead of a scan for braces.
struct ParsedURLTemplate: Sendable {
    private enum Part: Sendable {
        case literal(String)
        case callID, callType, path
    }

    private let parts: [Part]
    private let literalLength: Int

    /// Splits a template (already checked by `URLTemplates`); unknown braces stay literal.
    init(_ template: String) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            switch rest[open...close] {
            case "{callId}": parts.append(.callID)
            case "{callType}": parts.append(.callType)
            case "{path}": parts.append(.path)
            default: parts.append(.literal(String(rest[open...close])))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
        literalLength = parts.reduce(0) { total, part in
            if case .literal(let text) = part { return total + text.utf8.count }
            return total
        }
    }

    /// The template filled for one call.
    func fill(callID: String, callType: String, path: String) -> String {
        var result = ""
        result.reserveCapacity(literalLength + callID.utf8.count + callType.utf8.count + path.utf8.count)
        for part in parts {
            switch part {
            case .literal(let text): result += text
            case .callID: result += callID
            case .callType: result += callType
            case .path: result += path
            }
        }
        return result
    }
}
