/// A pattern of Android's Dynamic App Links rules (`dynamic_app_link_components`) as Google's prose
/// reads it ("Configure website associations and dynamic rules"): `?` is any one character, `?*` one or
/// more, and `*` "zero or more characters up until the character after the wildcard in the pattern is
/// found in the matching string".
///
/// linkhost's generator writes patterns in this reading's documented form (`normalizedSource`: runs of
/// wildcards as `?…?*`, never `**` or `*?`), where Google's prose and Android's code agree. What a device
/// does is decided by `AndroidPatternMatcher`, which follows Android's code (`matches` uses it); the two
/// differ on `**`, `*?` and other runs (`hasUndocumentedRun`).
///
/// Text is compared in UTF-16 code units and case-sensitively, as Android's `PatternMatcher` does.
public struct AndroidPattern: Sendable, Equatable {
    /// One step of the pattern.
    enum Token: Sendable, Equatable {
        /// This code unit.
        case literal(UInt16)
        /// Any one code unit (`?`).
        case any
        /// Zero or more code units, lazily (`*`).
        case star
    }

    /// The pattern as written.
    public let source: String
    let tokens: [Token]

    /// Reads a pattern; runs of `*` and `?` are brought to the documented `?…?*` form first.
    public init(_ source: String) {
        self.source = source
        tokens = Self.normalized(Self.tokens(of: source))
    }

    /// Whether the whole of `text` matches, as Android's code decides (`AndroidPatternMatcher`); the empty
    /// pattern, on which Android throws, matches nothing.
    public func matches(_ text: String) -> Bool {
        AndroidPatternMatcher(expression: source)?.matches(text) ?? false
    }

    /// True when some `*` is followed by more pattern, where Android's lazy `*` can fail on text Apple's matches.
    public var hasInnerStar: Bool {
        tokens.dropLast().contains(.star)
    }

    /// True when the pattern matches the empty string: it is all `*`.
    public var matchesEmpty: Bool {
        tokens.allSatisfy { $0 == .star }
    }

    /// The pattern with every run of wildcards written `?…?*` (or `?…?`), the form Android documents.
    public var normalizedSource: String {
        var units: [UInt16] = []
        for token in tokens {
            switch token {
            case .literal(let unit): units.append(unit)
            case .any: units.append(UInt16(UInt8(ascii: "?")))
            case .star: units.append(UInt16(UInt8(ascii: "*")))
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// True when the source has a run of wildcards that is not in the documented form (`**`, `*?`).
    public var hasUndocumentedRun: Bool {
        Self.tokens(of: source) != tokens
    }

    private static func tokens(of source: String) -> [Token] {
        source.utf16.map { unit in
            switch unit {
            case UInt16(UInt8(ascii: "*")): return .star
            case UInt16(UInt8(ascii: "?")): return .any
            default: return .literal(unit)
            }
        }
    }

    /// A run of `?` and `*` means "at least as many characters as it has `?`", and at most that many when
    /// it has no `*`: written `?`×n then one `*`.
    private static func normalized(_ tokens: [Token]) -> [Token] {
        var result: [Token] = []
        var index = 0
        while index < tokens.count {
            if case .literal = tokens[index] {
                result.append(tokens[index])
                index += 1
                continue
            }
            var anyCount = 0
            var hasStar = false
            while index < tokens.count, tokens[index] == .star || tokens[index] == .any {
                if tokens[index] == .star { hasStar = true } else { anyCount += 1 }
                index += 1
            }
            result += Array(repeating: .any, count: anyCount)
            if hasStar { result.append(.star) }
        }
        return result
    }
}
