import LinkHostJSON

/// One entry of an Android app's `dynamic_app_link_components`, with only the keys Google documents:
/// `/` (path), `?` (query items, name → pattern), `#` (fragment) and `exclude`.
public struct DynamicAppLinkRule: Sendable, Equatable {
    /// One `name: pattern` member of the `?` dictionary: an item of that name must be present and match.
    public struct QueryItem: Sendable, Equatable {
        /// The query item's name.
        public var name: String
        /// The pattern its value must match.
        public var pattern: String

        /// Makes an item condition.
        public init(name: String, pattern: String) {
            self.name = name
            self.pattern = pattern
        }
    }

    /// Path pattern; nil leaves the path unconstrained.
    public var path: String?
    /// Query item conditions; empty leaves the query unconstrained.
    public var query: [QueryItem]
    /// Fragment pattern; nil leaves the fragment unconstrained.
    public var fragment: String?
    /// True when a match keeps the URL out of the app.
    public var exclude: Bool

    /// Makes a rule.
    public init(path: String?, query: [QueryItem] = [], fragment: String? = nil, exclude: Bool = false) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
    }

    /// The rule as written into assetlinks.json: keys in the order `/`, `?`, `#`, `exclude`; `exclude` only
    /// when true. A rule that constrains nothing is written `{"/": "*"}`, never as an empty object, which
    /// Google counts as malformed.
    public var json: JSONValue {
        var object = JSONObject()
        if let path { object.append("/", .string(path)) }
        if !query.isEmpty { object.append("?", .object(JSONObject(query.map { JSONMember($0.name, .string($0.pattern)) }))) }
        if let fragment { object.append("#", .string(fragment)) }
        if object.members.isEmpty { object.append("/", .string("*")) }
        if exclude { object.append("exclude", .bool(true)) }
        return .object(object)
    }
}

/// What an AASA rule became on Android that iOS and Android do not read alike, and what Android does
/// instead; `validate` reports it as LH407 at the rule's config path.
public struct DynamicRuleNote: Sendable, Equatable {
    /// The AASA rule's index in the site's `aasa.rules` (configured or derived).
    public let rule: Int
    /// What Android will do differently, as a sentence.
    public let message: String
}

/// A site's dynamic rules for Android, translated from its AASA rules, with the notes of the translation.
public struct DynamicRuleSet: Sendable, Equatable {
    /// The rules in order.
    public let rules: [DynamicAppLinkRule]
    /// For each rule, the index of the AASA rule it came from; nil for the closing exclusion of a site
    /// whose rules all fell away.
    public let sources: [Int?]
    /// Where Android will decide differently from iOS.
    public let notes: [DynamicRuleNote]

    /// The `dynamic_app_link_components` array.
    public var json: JSONValue { .array(rules.map(\.json)) }
}
