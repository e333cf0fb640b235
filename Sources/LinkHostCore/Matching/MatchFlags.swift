import LinkHostJSON

/// The two switches a rule matches under, resolved through the defaults hierarchy.
public struct MatchFlags: Sendable, Equatable {
    /// Whether letters must match in case.
    public var caseSensitive: Bool
    /// Whether the URL is compared percent-encoded as it came (true) or decoded first (false).
    public var percentEncoded: Bool

    /// Apple's built-in defaults: both true.
    public static let builtIn = MatchFlags(caseSensitive: true, percentEncoded: true)

    /// Makes flags.
    public init(caseSensitive: Bool, percentEncoded: Bool) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// These flags with whatever `object` sets: the more specific level wins, a level that is silent keeps the outer value.
    public func overridden(by object: JSONObject?) -> MatchFlags {
        guard let object else { return self }
        var flags = self
        if let value = Self.truth(object["caseSensitive"]) { flags.caseSensitive = value }
        if let value = Self.truth(object["percentEncoded"]) { flags.percentEncoded = value }
        return flags
    }

    /// A JSON boolean, or a number read the way Apple's property-list bridge reads it (non-zero is true);
    /// anything else says nothing.
    static func truth(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return (number.doubleValue ?? 0) != 0
        default: return nil
        }
    }
}
