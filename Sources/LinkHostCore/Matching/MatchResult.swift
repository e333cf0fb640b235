import LinkHostJSON

/// What iOS does with a URL for one app, by the domain's association file.
public enum MatchDecision: String, Sendable, Equatable, CaseIterable {
    /// The URL opens in the app.
    case match
    /// A matching `exclude` rule (or legacy `NOT ` path) keeps the URL in the browser.
    case exclude
    /// No rule decided; the URL opens in the browser.
    case noMatch = "no_match"
}

/// The URL component a pattern is matched against; the raw value is its AASA key.
public enum URLComponentKind: String, Sendable, Equatable, CaseIterable {
    /// The path, key `/`.
    case path = "/"
    /// The query, key `?`.
    case query = "?"
    /// The fragment, key `#`.
    case fragment = "#"

    /// The component's name in prose.
    public var name: String {
        switch self {
        case .path: return "path"
        case .query: return "query"
        case .fragment: return "fragment"
        }
    }
}

/// Where a rule sits in the document, and its JSON, so a decision can name what made it.
public struct AASARuleReference: Sendable, Equatable {
    /// Whether the rule is a `components` entry or a legacy `paths` string.
    public enum Source: String, Sendable, Equatable {
        /// An entry of a detail's `components` array.
        case components
        /// A string of a detail's legacy `paths` array.
        case paths
    }

    /// The detail's position in `details` (in member order for the legacy dictionary form).
    public let detailIndex: Int
    /// The app ID the detail is keyed by in the legacy dictionary form of `details`; nil for the array form.
    public let detailKey: String?
    /// Which array of the detail holds the rule.
    public let source: Source
    /// The rule's position in that array.
    public let index: Int
    /// The rule as written.
    public let json: JSONValue

    /// Makes a reference.
    public init(detailIndex: Int, detailKey: String?, source: Source, index: Int, json: JSONValue) {
        self.detailIndex = detailIndex
        self.detailKey = detailKey
        self.source = source
        self.index = index
        self.json = json
    }

    /// The detail as a path into the document: `details[0]` or `details["TEAM.app"]`.
    public var detailLabel: String { Self.detailLabel(index: detailIndex, key: detailKey) }

    /// The label of the detail at `index`, or keyed by `key` in the dictionary form.
    static func detailLabel(index: Int, key: String?) -> String {
        if let key { return "details[\(JSONWriter.string(.string(key), style: .compact))]" }
        return "details[\(index)]"
    }

    /// The rule as a path into the document: `details[0].components[2]`.
    public var label: String { "\(detailLabel).\(source.rawValue)[\(index)]" }
}

/// One comparison a deciding rule made, for the explanation.
public struct ComponentCheck: Sendable, Equatable {
    /// The component compared.
    public let component: URLComponentKind
    /// The query item's name when the rule's `?` is a dictionary.
    public let queryItem: String?
    /// The pattern as written, or nil when the rule's query dictionary was ignored (it held a non-string).
    public let pattern: String?
    /// What the URL held: one value, or every occurrence of a repeated query item.
    public let values: [String]
    /// Whether case mattered.
    public let caseSensitive: Bool
    /// Whether the URL was compared as encoded (true) or percent-decoded first (false).
    public let percentEncoded: Bool

    /// Makes a check record.
    public init(component: URLComponentKind, queryItem: String?, pattern: String?, values: [String], caseSensitive: Bool, percentEncoded: Bool) {
        self.component = component
        self.queryItem = queryItem
        self.pattern = pattern
        self.values = values
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }
}

/// Why no rule decided a URL.
public enum NoMatchReason: Sendable, Equatable {
    /// The string is not an absolute URL with a host.
    case invalidURL(String)
    /// Universal links are `http` and `https` URLs only.
    case unsupportedScheme(String)
    /// The URL's host is not the domain the file was served for.
    case hostMismatch(host: String, domain: String)
    /// The URL is on the domain's host but another port.
    case portMismatch(port: Int?, domain: String)
    /// The document has no `applinks` object, so it defines no universal links.
    case noAppLinks
    /// No detail lists the app ID.
    case appNotListed(appID: String)
    /// Details list the app but none of their rules matches the URL; `problems` names rules that can never match.
    case noRuleMatched(details: [String], rulesTried: Int, path: String, query: String?, fragment: String?, problems: [String])
}

/// A decision with the rule that made it, or the reason none did.
public struct MatchResult: Sendable, Equatable {
    /// What iOS does with the URL.
    public let decision: MatchDecision
    /// The rule that decided; nil for `no_match`.
    public let rule: AASARuleReference?
    /// The comparisons the deciding rule made, in `/`, `?`, `#` order; components it leaves unspecified are absent.
    public let checks: [ComponentCheck]
    /// Why nothing decided; nil unless the decision is `no_match`.
    public let reason: NoMatchReason?
    /// The app ID asked about.
    public let appID: String
    /// The URL asked about.
    public let url: String

    /// Makes a result.
    public init(decision: MatchDecision, rule: AASARuleReference?, checks: [ComponentCheck], reason: NoMatchReason?, appID: String, url: String) {
        self.decision = decision
        self.rule = rule
        self.checks = checks
        self.reason = reason
        self.appID = appID
        self.url = url
    }

    /// A `no_match` result for `reason`.
    static func noMatch(_ reason: NoMatchReason, appID: String, url: String) -> MatchResult {
        MatchResult(decision: .noMatch, rule: nil, checks: [], reason: reason, appID: appID, url: url)
    }
}
