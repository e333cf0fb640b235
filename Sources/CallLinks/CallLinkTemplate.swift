/// One shape of call link, such as `/call/{callId}?type={callType}` or `/join?call_id={callId}`.
///
/// A template is a path of literal segments and at most one placeholder segment — `{callId}` or
/// `{callType}:{callId}` — optionally followed by a query part that binds items to placeholders.
/// It is parsed once; matching a request against it then compares bytes only.
public struct CallLinkTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One segment of the template's path.
    public enum Segment: Sendable, Hashable {
        /// Text the link's segment must equal, byte for byte.
        case literal(String)
        /// `{callId}`: the whole segment is the call ID.
        case callID
        /// `{callType}:{callId}`: the call type, a colon, the call ID.
        case typedCallID
    }

    /// What a query item of the template carries.
    public enum Binding: String, Sendable, Hashable {
        /// `{callId}`: required; a link without it is not this template's.
        case callID = "{callId}"
        /// `{callType}`: optional; absent or empty means the default type.
        case callType = "{callType}"
    }

    /// One `name={placeholder}` item of the template's query.
    public struct QueryItem: Sendable, Hashable {
        /// The query item's name, e.g. `type`.
        public let name: String
        /// The placeholder it carries.
        public let binding: Binding
    }

    /// The template as written.
    public let text: String
    /// The path's segments, in order.
    public let segments: [Segment]
    /// The query items bound to placeholders, in order.
    public let queryItems: [QueryItem]

    /// Parses and validates a template; the error says what was found and what is expected.
    public init(_ text: String) throws(CallLinkTemplateError) {
        self.text = text
        (segments, queryItems) = try CallLinkTemplateParser.parse(text)
    }

    /// The template text.
    public var description: String { text }

    /// The literal segments before the placeholder (all of them for a query-only template), e.g. `["call"]`:
    /// what `{path}` stands for in the page's URL templates.
    public var literalPrefix: [String] {
        var prefix: [String] = []
        for segment in segments {
            guard case .literal(let text) = segment else { break }
            prefix.append(text)
        }
        return prefix
    }

    /// True when the link carries its call type, in the path or the query; otherwise it is always the default.
    public var bindsCallType: Bool {
        segments.contains(.typedCallID) || queryItems.contains { $0.binding == .callType }
    }

    /// The path and query of the link for one call, e.g. `/call/abc?type=video`.
    ///
    /// Call IDs and types are tokens that never need percent-encoding.
    public func fill(callID: String, callType: String) -> String {
        var result = ""
        for segment in segments {
            result += "/"
            switch segment {
            case .literal(let text): result += text
            case .callID: result += callID
            case .typedCallID: result += callType + ":" + callID
            }
        }
        for (index, item) in queryItems.enumerated() {
            result += index == 0 ? "?" : "&"
            result += item.name + "=" + (item.binding == .callID ? callID : callType)
        }
        return result
    }

    /// The call in a link's raw path and query, when it has exactly this template's shape.
    ///
    /// `path` is the raw (still percent-encoded) path; `query` gives the raw value of the first query item
    /// of a name. Escapes never form valid IDs, so nothing is decoded.
    @inlinable
    public func match<Path: BidirectionalCollection<UInt8>>(path: Path, query: (String) -> String?, defaultType: String) -> CallLink? {
        var callID: Path.SubSequence?
        var callType: Path.SubSequence?
        var rest = path[...]
        guard rest.first == UInt8(ascii: "/") else { return nil }
        rest = rest.dropFirst()
        // One trailing slash is allowed: `/call/abc/` is `/call/abc`.
        if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
        for (position, segment) in segments.enumerated() {
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let part = rest[..<end]
            switch segment {
            case .literal(let text):
                guard part.elementsEqual(text.utf8) else { return nil }
            case .callID:
                guard CallToken.isValid(part) else { return nil }
                callID = part
            case .typedCallID:
                guard let colon = part.firstIndex(of: UInt8(ascii: ":")) else { return nil }
                let typePart = part[..<colon], idPart = part[part.index(after: colon)...]
                guard CallToken.isValid(typePart), CallToken.isValid(idPart) else { return nil }
                callType = typePart
                callID = idPart
            }
            let isLast = position == segments.count - 1
            if isLast {
                guard end == rest.endIndex else { return nil }
            } else {
                guard end != rest.endIndex else { return nil }
                rest = rest[rest.index(after: end)...]
            }
        }

        var id = callID.map { String(decoding: $0, as: UTF8.self) }
        var type = callType.map { String(decoding: $0, as: UTF8.self) }
        for item in queryItems {
            let value = query(item.name)
            switch item.binding {
            case .callID:
                guard let value, CallToken.isValid(value) else { return nil }
                id = value
            case .callType:
                // An empty or missing type is the default, as a link without one.
                guard let value, !value.isEmpty else { continue }
                guard CallToken.isValid(value) else { return nil }
                type = value
            }
        }
        guard let id else { return nil }
        return CallLink(callID: id, callType: type ?? defaultType)
    }
}

/// Why a template cannot be used: what was found and what is expected, to complete "\"/x\" …".
public struct CallLinkTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problem as a clause that follows the quoted template, e.g. `has two placeholder segments`.
    public let problem: String

    /// The clause.
    public var description: String { problem }
}

/// One call: its ID and type, both tokens of 1–64 `A-Z a-z 0-9 _ -`.
public struct CallLink: Sendable, Hashable {
    /// The call ID.
    public let callID: String
    /// The call type.
    public let callType: String

    /// Makes a call link value.
    public init(callID: String, callType: String) {
        self.callID = callID
        self.callType = callType
    }
}
