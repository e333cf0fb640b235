import CallLinks

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

    /// `installURL`: an https page, written straight into the page's links (no placeholders).
    static func installPageRule(_ url: String) -> String? {
        guard scheme(of: url) == "https", url.utf8.count > "https://".utf8.count else { return "is not an https URL" }
        if hasUnsafeCharacters(url) { return "contains spaces, quotes or angle brackets" }
        return nil
    }

    /// `openInAppURL`: a custom-scheme URL template (a web scheme would just reload the page).
    static func openInAppRule(_ template: String) -> String? {
        guard let scheme = scheme(of: template) else { return "has no URL scheme, e.g. \"examplevideo://call/{callId}\"" }
        if Identifiers.urlScheme(scheme) != nil { return "does not use the app's custom scheme (\"\(scheme):\" cannot open an app)" }
        if hasUnsafeCharacters(template) { return "contains spaces, quotes or angle brackets" }
        return unknownPlaceholder(template)
    }
}

/// A piece of URL text in each form a page writes it: as it is, escaped for HTML, percent-encoded (a URL
/// inside another URL's query) and encoded twice (inside a URL that is itself inside another), all made
/// at load. Call IDs and types are the same in every form, so a page's URLs need no escaping per request.
struct URLText: Sendable {
    let raw: [UInt8]
    let escaped: [UInt8]
    let encoded: [UInt8]
    let encodedTwice: [UInt8]

    init(_ text: String) {
        raw = Array(text.utf8)
        escaped = Array(HTMLEscaping.escape(text).utf8)
        let once = HTMLEscaping.percentEncode(text)
        encoded = Array(once.utf8)
        encodedTwice = Array(HTMLEscaping.percentEncode(once).utf8)
    }

    /// The bytes of one form.
    func bytes(_ form: URLForm) -> [UInt8] {
        switch form {
        case .raw: return raw
        case .escaped: return escaped
        case .encoded: return encoded
        case .encodedTwice: return encodedTwice
        }
    }
}

/// How a URL is written: see `URLText`. A percent-encoded form needs no HTML escaping: it is all
/// unreserved characters and `%`.
enum URLForm: Sendable {
    case raw, escaped, encoded, encodedTwice
}

/// A URL template split once at load into literal text and call values, so filling it per request is
/// a few appends instead of a scan for braces.
struct ParsedURLTemplate: Sendable {
    enum Part: Sendable {
        /// `literals[index]`.
        case literal(Int)
        case callID, callType, path
    }

    let parts: [Part]
    let literals: [URLText]

    /// Splits a template (already checked by `URLTemplates`); unknown braces stay literal.
    init(_ template: String) {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pieces.append(.text(String(rest[..<open])))
            switch rest[open...close] {
            case "{callId}": pieces.append(.part(.callID))
            case "{callType}": pieces.append(.part(.callType))
            case "{path}": pieces.append(.part(.path))
            default: pieces.append(.text(String(rest[open...close])))
            }
            rest = rest[rest.index(after: close)...]
        }
        pieces.append(.text(String(rest)))
        self.init(pieces)
    }

    /// Text or a call value, for building a template; adjacent texts are joined.
    enum Piece {
        case text(String)
        case part(Part)
    }

    /// A template from pieces (a call link template's canonical path).
    init(_ pieces: [Piece]) {
        var parts: [Part] = []
        var literals: [URLText] = []
        var pending = ""
        func flush() {
            guard !pending.isEmpty else { return }
            parts.append(.literal(literals.count))
            literals.append(URLText(pending))
            pending = ""
        }
        for piece in pieces {
            switch piece {
            case .text(let text): pending += text
            case .part(let part):
                flush()
                parts.append(part)
            }
        }
        flush()
        self.parts = parts
        self.literals = literals
    }

    /// Appends the template filled for one call in `form`; `path` is what `{path}` stands for.
    func append(_ form: URLForm, callID: String, callType: String, path: URLText?, to output: inout [UInt8]) {
        for part in parts {
            switch part {
            case .literal(let index): output.append(contentsOf: literals[index].bytes(form))
            case .callID: output.append(contentsOf: callID.utf8)
            case .callType: output.append(contentsOf: callType.utf8)
            case .path: if let path { output.append(contentsOf: path.bytes(form)) }
            }
        }
    }

    /// The template filled for one call.
    func fill(callID: String, callType: String, path: String) -> String {
        var bytes: [UInt8] = []
        append(.raw, callID: callID, callType: callType, path: URLText(path), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A call link template's canonical URL parts, made once at load: the path and query of a call
/// (`/call/{callId}?type={callType}`), the same with `/qr.svg` before the query for its QR code, and the
/// literal segments before the call (what `{path}` stands for in the page's URL templates).
struct CanonicalLink: Sendable {
    let path: ParsedURLTemplate
    let qrCode: ParsedURLTemplate
    let prefix: URLText

    init(_ template: CallLinkTemplate) {
        // As `CallLinkTemplate.fill` writes it.
        var pathPieces: [ParsedURLTemplate.Piece] = []
        for segment in template.segments {
            pathPieces.append(.text("/"))
            switch segment {
            case .literal(let text): pathPieces.append(.text(text))
            case .callID: pathPieces.append(.part(.callID))
            case .typedCallID: pathPieces += [.part(.callType), .text(":"), .part(.callID)]
            }
        }
        var queryPieces: [ParsedURLTemplate.Piece] = []
        for (index, item) in template.queryItems.enumerated() {
            queryPieces += [.text((index == 0 ? "?" : "&") + item.name + "="), .part(item.binding == .callID ? .callID : .callType)]
        }
        path = ParsedURLTemplate(pathPieces + queryPieces)
        qrCode = ParsedURLTemplate(pathPieces + [.text(CallLinkMatcher.qrCodeSuffix)] + queryPieces)
        prefix = URLText(template.literalPrefix.joined(separator: "/"))
    }
}
