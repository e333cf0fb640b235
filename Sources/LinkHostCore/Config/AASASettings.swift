/// One ordered rule of the AASA, in the vocabulary of iOS 13+ components.
public struct AASARule: Sendable, Equatable {
    /// The query pattern: one string for the whole query, or name → pattern items.
    public enum Query: Sendable, Equatable {
        /// Matches the whole query string.
        case whole(String)
        /// Matches the listed query items only, in the listed order.
        case items([(name: String, pattern: String)])

        /// Compares item lists member by member (tuples are not Equatable).
        public static func == (lhs: Query, rhs: Query) -> Bool {
            switch (lhs, rhs) {
            case (.whole(let a), .whole(let b)): return a == b
            case (.items(let a), .items(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.pattern == $1.pattern }
            default: return false
            }
        }
    }

    /// Path pattern (`/` component); nil means any path.
    public var path: String?
    /// Query pattern (`?` component).
    public var query: Query?
    /// Fragment pattern (`#` component).
    public var fragment: String?
    /// True when a match keeps the link in the browser.
    public var exclude: Bool = false
    /// Overrides the default case sensitivity for this rule.
    public var caseSensitive: Bool?
    /// Overrides whether the URL is matched percent-encoded for this rule.
    public var percentEncoded: Bool?
    /// A note for people; written into the AASA as `comment`.
    public var comment: String?
}

/// Which AASA dialect to write.
public enum AASAFormat: String, Sendable, Equatable, CaseIterable {
    /// iOS 13+: `appIDs` and `components`.
    case modern
    /// iOS 9–12: `apps: []`, `appID` and `paths` with `NOT ` exclusions.
    case legacy
    /// Both in one document, for fleets that still have iOS 12 devices.
    case both
}

/// Settings of the generated apple-app-site-association file of one site.
public struct AASASettings: Sendable, Equatable {
    /// The dialect to generate.
    public var format: AASAFormat = .modern
    /// Ordered rules: the configured ones, or when there are none, the ones derived from the link templates.
    public var rules: [AASARule] = []
    /// Where each rule comes from in the config: `aasa.rules[2]`, or the link template it was derived from
    /// (`callLinks.links[0]`, `sites[1].callLinks.paths[0]`), for diagnostics.
    public var ruleSources: [String] = []
    /// True when `rules` were derived from the link templates rather than configured.
    public var rulesDerived: Bool = true
    /// When `rules` are derived: the same templates' Android dynamic rules, derived for Android's matcher
    /// rather than translated from the AASA rules, each with the index of an AASA rule of its template.
    public var derivedAndroidRules: [(rule: DynamicAppLinkRule, source: Int)] {
        get { derivedAndroid?.rules ?? [] }
        set { derivedAndroid = DerivedAndroidRules(newValue) }
    }
    /// Where `derivedAndroidRules` are kept: derived when first read, since a site without Android apps
    /// never reads them (a thousand sites of ten templates each spent 7 % of `validate` on them).
    var derivedAndroid: DerivedAndroidRules?
    /// `applinks.defaults`: caseSensitive and percentEncoded for every rule.
    public var defaultCaseSensitive: Bool?
    /// `applinks.defaults.percentEncoded`.
    public var defaultPercentEncoded: Bool?
    /// `applinks.substitutionVariables`, name → values, in config order.
    public var substitutionVariables: [(name: String, values: [String])] = []
    /// App IDs listed under `webcredentials` (shared web credentials); empty leaves the section out.
    public var webcredentials: [String] = []
    /// App Clip IDs listed under `appclips`; empty leaves the section out.
    public var appclips: [String] = []
    /// App IDs listed under `activitycontinuation` (Handoff); empty leaves the section out.
    public var activitycontinuation: [String] = []
    /// `Cache-Control: max-age` of the AASA and assetlinks responses, in seconds.
    public var cacheMaxAge: Int = 3600

    /// What a site's own `aasa` takes from the top level's when it leaves the keys out: only the cache
    /// lifetime, since the rules and app lists name the top level's links and apps.
    static let inheritedByKey: [InheritedKeys<AASASettings>] = [
        InheritedKeys(keys: ["cacheMaxAge"]) { $0.cacheMaxAge = $1.cacheMaxAge },
    ]

    /// Compares settings, spelling out the tuple list.
    public static func == (lhs: AASASettings, rhs: AASASettings) -> Bool {
        lhs.format == rhs.format && lhs.rules == rhs.rules && lhs.ruleSources == rhs.ruleSources && lhs.rulesDerived == rhs.rulesDerived
            && DerivedAndroidRules.same(lhs.derivedAndroid, rhs.derivedAndroid)
            && lhs.defaultCaseSensitive == rhs.defaultCaseSensitive
            && lhs.defaultPercentEncoded == rhs.defaultPercentEncoded
            && lhs.substitutionVariables.count == rhs.substitutionVariables.count
            && zip(lhs.substitutionVariables, rhs.substitutionVariables).allSatisfy { $0.name == $1.name && $0.values == $1.values }
            && lhs.webcredentials == rhs.webcredentials && lhs.appclips == rhs.appclips
            && lhs.activitycontinuation == rhs.activitycontinuation && lhs.cacheMaxAge == rhs.cacheMaxAge
    }
}
