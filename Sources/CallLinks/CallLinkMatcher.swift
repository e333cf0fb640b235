/// The call-link shapes of one site (or one app) in order, with the type a link without one gets.
///
/// The server's routing, `linkhost match` and `validate` all decide with this one type, so what the
/// server answers as a call page and what the tools say about a link cannot drift apart.
public struct CallLinkMatcher: Sendable, Hashable {
    /// The templates in order; the first is canonical.
    public let templates: [CallLinkTemplate]
    /// The call type of links whose template carries none, or whose `{callType}` item is absent.
    public let defaultType: String
    /// The query item names any template reads, each once: all a request's query is ever read for.
    public let queryItemNames: [String]

    /// Makes a matcher over parsed templates (at least one).
    public init(templates: [CallLinkTemplate], defaultType: String) {
        self.templates = templates
        self.defaultType = defaultType
        var names: [String] = []
        for item in templates.flatMap(\.queryItems) where !names.contains(item.name) { names.append(item.name) }
        queryItemNames = names
    }

    /// The first template that `path` and `query` fit, with the call they carry.
    ///
    /// `path` is the raw request path; `query` gives the raw value of the first query item of a name.
    @inlinable
    public func match<Path: BidirectionalCollection<UInt8>>(path: Path, query: (String) -> String?) -> (link: CallLink, template: Int)? {
        for (index, template) in templates.enumerated() {
            if let link = template.match(path: path, query: query, defaultType: defaultType) { return (link, index) }
        }
        return nil
    }

    /// The template a call's one canonical URL is built from: the first, unless the call has a type other
    /// than the default that the first cannot carry; then the first template that carries types.
    public func canonicalTemplate(for link: CallLink) -> CallLinkTemplate {
        templates[canonicalIndex(for: link)]
    }

    /// The position in `templates` of `canonicalTemplate(for:)`.
    public func canonicalIndex(for link: CallLink) -> Int {
        guard link.callType != defaultType, let first = templates.first, !first.bindsCallType else { return 0 }
        return templates.firstIndex(where: \.bindsCallType) ?? 0
    }

    /// The canonical path and query of a call, e.g. `/call/abc?type=video`.
    public func canonicalPath(for link: CallLink) -> String {
        canonicalTemplate(for: link).fill(callID: link.callID, callType: link.callType)
    }
}

extension CallLinkMatcher {
    /// The first template a link's path and query (`/join?call_id=abc`, still percent-encoded) fit, with its call.
    public func match(pathAndQuery: String) -> (link: CallLink, template: Int)? {
        let bytes = Array(pathAndQuery.utf8)
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let query = question.map { QueryItems.firstValues(String(decoding: bytes[($0 + 1)...], as: UTF8.self)) } ?? [:]
        return match(path: bytes[..<(question ?? bytes.endIndex)], query: { query[$0] })
    }
}

/// Reads a query string the way the server's HTTP library does: items split at the byte `&`, name and
/// value at the first `=`, nothing decoded, and the first item of a name wins.
public enum QueryItems {
    /// The raw value of the first item of each name: `a=1&b&a=2` gives `a` → `1`, `b` → ``.
    ///
    /// Bytes, not characters: `&` followed by a combining mark is one Swift `Character` but still two items
    /// for the server.
    public static func firstValues<Text: StringProtocol>(_ query: Text) -> [String: String] {
        var values: [String: String] = [:]
        for item in Array(query.utf8).split(separator: UInt8(ascii: "&")) {
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let name = String(decoding: item[..<(equals ?? item.endIndex)], as: UTF8.self)
            if values[name] == nil { values[name] = equals.map { String(decoding: item[($0 + 1)...], as: UTF8.self) } ?? "" }
        }
        return values
    }
}
