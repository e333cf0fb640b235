/// Reads the text of a call-link template into segments and query items, refusing what cannot be a
/// link shape that iOS, Android and the page agree on.
enum CallLinkTemplateParser {
    /// The longest template accepted: far beyond any real link shape, short enough to show in errors.
    static let maximumLength = 256

    static func parse(_ text: String) throws(CallLinkTemplateError) -> ([CallLinkTemplate.Segment], [CallLinkTemplate.QueryItem]) {
        guard text.utf8.count <= maximumLength else { throw problem("is longer than \(maximumLength) characters") }
        guard text.hasPrefix("/") else { throw problem("does not start with \"/\"; write the path only, e.g. \"/call/{callId}\" (no scheme or host)") }
        if text.contains("#") { throw problem("has a fragment; links are matched on path and query only") }
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let segments = try parseSegments(parts[0].dropFirst())
        let queryItems = parts.count > 1 ? try parseQuery(parts[1]) : []
        let pathIDs = segments.filter { $0 == .callID || $0 == .typedCallID }.count
        let queryIDs = queryItems.filter { $0.binding == .callID }.count
        let queryTypes = queryItems.filter { $0.binding == .callType }.count
        if pathIDs + queryIDs == 0 { throw problem("has no {callId}; every call link carries its call ID") }
        if pathIDs > 1 { throw problem("has more than one placeholder segment; a link carries one") }
        if pathIDs + queryIDs > 1 { throw problem("carries {callId} more than once") }
        if segments.contains(.typedCallID) && queryTypes > 0 || queryTypes > 1 { throw problem("carries {callType} more than once") }
        if case .literal(let first)? = segments.first, reservedFirstSegments.contains(first) {
            throw problem("starts with \"/\(first)\", which is reserved for the association files")
        }
        return (segments, queryItems)
    }

    /// Paths linkhost answers itself with the association files; a call link may not live there.
    static let reservedFirstSegments: Set<String> = [".well-known", "apple-app-site-association"]

    private static func parseSegments(_ path: Substring) throws(CallLinkTemplateError) -> [CallLinkTemplate.Segment] {
        guard !path.isEmpty else { throw problem("has no path segment; write at least one, e.g. \"/call/{callId}\"") }
        var segments: [CallLinkTemplate.Segment] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "{callId}": segments.append(.callID)
            case "{callType}:{callId}": segments.append(.typedCallID)
            case "":
                throw problem("has an empty path segment (\"//\" or a trailing \"/\"); links with a trailing slash are accepted anyway")
            case ".", "..":
                throw problem("has a \"\(part)\" segment, which browsers remove from links")
            default:
                if part.contains("{") || part.contains("}") {
                    if let meant = PlaceholderSpelling.nearest(String(part), among: ["{callId}", "{callType}:{callId}"]) {
                        throw problem("has the segment \"\(part)\"; did you mean \"\(meant)\"? Placeholders are spelled exactly so")
                    }
                    throw problem("has the segment \"\(part)\"; a placeholder fills a whole segment: \"{callId}\" or \"{callType}:{callId}\"")
                }
                if let byte = part.utf8.first(where: { !isLiteralByte($0) }) {
                    throw problem("has \(describe(byte)) in the segment \"\(part)\"; literal segments use A-Z a-z 0-9 and - . _ ~ ! ' ( ) + , ; = : @ &")
                }
                segments.append(.literal(String(part)))
            }
        }
        return segments
    }

    private static func parseQuery(_ query: Substring) throws(CallLinkTemplateError) -> [CallLinkTemplate.QueryItem] {
        var items: [CallLinkTemplate.QueryItem] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair.count == 2, CallLinkTemplate.Binding(rawValue: String(pair[1])) == nil,
               let meant = PlaceholderSpelling.nearest(String(pair[1]), among: ["{callId}", "{callType}"]) {
                throw problem("has the query item \"\(part)\"; did you mean \"\(pair[0])=\(meant)\"? Placeholders are spelled exactly so")
            }
            guard pair.count == 2, let binding = CallLinkTemplate.Binding(rawValue: String(pair[1])) else {
                throw problem("has the query item \"\(part)\"; write name={callId} or name={callType}, e.g. \"?type={callType}\"")
            }
            let name = pair[0]
            guard !name.isEmpty, name.utf8.allSatisfy(isQueryNameByte) else {
                throw problem("has the query item name \"\(name)\"; names use A-Z a-z 0-9 and - . _ ~")
            }
            if items.contains(where: { $0.name == name }) { throw problem("names the query item \"\(name)\" twice") }
            items.append(CallLinkTemplate.QueryItem(name: String(name), binding: binding))
        }
        return items
    }

    /// RFC 3986 `pchar` without escapes, and without `*` and `$`, which are wildcards and variables in
    /// AASA patterns and Android's path rules: a literal segment must mean itself in both.
    static func isLiteralByte(_ byte: UInt8) -> Bool {
        isQueryNameByte(byte) || "!'()+,;=:@&".utf8.contains(byte)
    }

    /// RFC 3986 unreserved characters.
    static func isQueryNameByte(_ byte: UInt8) -> Bool {
        CallToken.isTokenByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : byte == 0x20 ? "a space" : "a byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private static func problem(_ text: String) -> CallLinkTemplateError {
        CallLinkTemplateError(problem: text)
    }
}
