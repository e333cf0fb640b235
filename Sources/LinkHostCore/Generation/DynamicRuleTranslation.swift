/// Translates a site's AASA rules (configured, or derived from its link templates) into Android's
/// `dynamic_app_link_components`, keeping their meaning wherever Google's documented rule language can
/// say it, and noting every place it cannot.
///
/// Both platforms read rules in order, the first match decides, and a URL no rule matches stays in the
/// browser, so the order and `exclude` carry over as they are. Google documents no `caseSensitive`,
/// `percentEncoded`, `defaults`, substitution variables, whole-query patterns or comments, so none is
/// written: variables are expanded, flags are applied to the patterns or noted, comments are dropped.
/// Where a condition cannot be kept, linkhost errs toward the app: an inclusion loses the condition (and
/// opens more), an exclusion is left out (and excludes less), so every URL iOS opens, Android opens too,
/// except where Android's lazy `*` or its case-sensitivity decide otherwise (noted).
enum DynamicRuleTranslation {
    /// Whether `translate` gives the same rules for both settings, from what it reads: their rules, how they
    /// were derived, the defaults and the variables (not the app lists).
    static func sameInput(_ lhs: AASASettings, _ rhs: AASASettings) -> Bool {
        lhs.rulesDerived == rhs.rulesDerived && lhs.rules == rhs.rules && DerivedAndroidRules.same(lhs.derivedAndroid, rhs.derivedAndroid)
            && lhs.defaultCaseSensitive == rhs.defaultCaseSensitive && lhs.defaultPercentEncoded == rhs.defaultPercentEncoded
            && lhs.substitutionVariables.map(\.name) == rhs.substitutionVariables.map(\.name)
            && lhs.substitutionVariables.map(\.values) == rhs.substitutionVariables.map(\.values)
    }

    /// The dynamic rules for `settings`' rules.
    static func translate(_ settings: AASASettings) -> DynamicRuleSet {
        if settings.rulesDerived, !settings.derivedAndroidRules.isEmpty {
            // Rules derived from the templates are derived for Android too, exactly, with nothing to note.
            return DynamicRuleSet(rules: settings.derivedAndroidRules.map { $0.rule }, sources: settings.derivedAndroidRules.map { $0.source }, notes: [])
        }
        let variables = SubstitutionVariables(custom: Dictionary(settings.substitutionVariables.map { ($0.name, $0.values) }) { first, _ in first })
        var rules: [DynamicAppLinkRule] = []
        var sources: [Int?] = []
        var notes: [DynamicRuleNote] = []
        for (index, rule) in settings.rules.enumerated() {
            var translator = RuleTranslator(
                rule: rule, caseSensitive: rule.caseSensitive ?? settings.defaultCaseSensitive ?? true,
                percentEncoded: rule.percentEncoded ?? settings.defaultPercentEncoded ?? true)
            for translated in translator.translate(variables: variables) where !rules.contains(translated) {
                rules.append(translated)
                sources.append(index)
            }
            notes += translator.notes.map { DynamicRuleNote(rule: index, message: $0) }
        }
        if rules.isEmpty {
            // An empty list is malformed to Android, which would then let the manifest alone decide.
            rules = [DynamicAppLinkRule(path: "*", exclude: true)]
            sources = [nil]
        }
        return DynamicRuleSet(rules: rules, sources: sources, notes: notes)
    }
}

/// The translation of one AASA rule, collecting its notes.
private struct RuleTranslator {
    let rule: AASARule
    let caseSensitive: Bool
    let percentEncoded: Bool
    private(set) var notes: [String] = []
    /// True when the variables became wildcards: then a URL a wildcard matches says nothing about iOS.
    private var widenedVariables = false

    init(rule: AASARule, caseSensitive: Bool, percentEncoded: Bool) {
        self.rule = rule
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// How a URL that iOS and Android read differently ends up, in the rule's direction.
    private var difference: String {
        rule.exclude ? "which iOS keeps in the browser, opens the app on Android" : "which iOS opens in the app, stays in the browser on Android"
    }

    private mutating func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }

    /// The rule's patterns in a fixed order: path, fragment, whole query, then each query item's pattern.
    private var patterns: [String] {
        var list = [rule.path ?? "", rule.fragment ?? ""]
        switch rule.query {
        case .whole(let pattern)?: list.append(pattern)
        case .items(let items)?: list += items.map(\.pattern)
        case nil: break
        }
        return list
    }

    mutating func translate(variables: SubstitutionVariables) -> [DynamicAppLinkRule] {
        var variants: [[String]]
        switch VariableExpansion.expand(patterns, variables: variables) {
        case .undefined:
            // iOS never matches a rule with an undefined variable (LH204); Android gets nothing for it either.
            return []
        case .variants(let list):
            variants = list
        case .widened(let widened, let combinations, let names):
            let shown = names.map { "$(\($0))" }.joined(separator: ", ")
            guard !rule.exclude else {
                note("\(shown) would make \(combinations) Android rules, more than \(VariableExpansion.maximumVariants); an exclusion cannot be widened, so it is left out and Android opens the URLs it excludes on iOS")
                return []
            }
            note("\(shown) would make \(combinations) Android rules, more than \(VariableExpansion.maximumVariants); Android gets a wildcard in their place and also opens URLs with other values there")
            variants = [widened]
            widenedVariables = true
        }
        return variants.flatMap { translate(variant: $0) }
    }

    /// One rule without variables; empty when the rule is left out.
    private mutating func translate(variant: [String]) -> [DynamicAppLinkRule] {
        var kept: [(apple: String, android: String)] = []
        var paths: [String?] = [nil]
        if rule.path != nil {
            let apple = variant[0]
            let android = readable(apple)
            paths = DynamicPatternTranslation.paths(android)
            kept.append((apple, android))
            let androidPattern = AndroidPattern(paths[0] ?? "*")
            if androidPattern.hasInnerStar {
                let appleMatcher = WildcardPattern(PathNormalization.pattern(apple))
                let witness = widenedVariables ? nil : DynamicPatternTranslation.lazyStarWitness(androidPattern) { appleMatcher.matches(PathNormalization.path($0)) }
                let example = witness.map { "the path \($0)" } ?? "some paths"
                note("Android's * stops at the first \(DynamicPatternTranslation.stopCharacter(androidPattern)) after it, unlike iOS's: \(example), \(difference)")
            }
        }
        var fragment: String?
        if rule.fragment != nil {
            guard let pattern = optionalCondition(variant[1], what: "the fragment") else { return [] }
            fragment = pattern.map { readable($0) }
            if let pattern { kept.append((pattern, fragment ?? pattern)) }
        }
        var query: [DynamicAppLinkRule.QueryItem] = []
        switch rule.query {
        case .whole?:
            guard let items = wholeQuery(variant[2]) else { return [] }
            query = items
        case .items(let items)?:
            for (offset, item) in items.enumerated() {
                let name = percentEncoded ? (SplitURL.percentDecoded(item.name) ?? item.name) : item.name
                if name.contains("*") || name.contains("?") {
                    note("the query item name \"\(name)\" has a wildcard character; Android's code matches the item as the one pattern \"\(name)=…\", so its * or ? is a wildcard there, not a literal")
                }
                guard let pattern = optionalCondition(variant[2 + offset], what: "the query item \"\(item.name)\"") else { return [] }
                if let pattern {
                    let android = readable(pattern)
                    if !DynamicPatternTranslation.hasAnyCharacterDot(android), DynamicPatternTranslation.hasAnyCharacterDot(name + "=" + android) {
                        note("Android's code matches the query item as the one pattern \"\(name)=\(android)\", where a \".\" of the name is any character: items with another character there open the app on Android")
                    }
                    query.append(.init(name: name, pattern: android))
                    kept.append((pattern, android))
                }
            }
        case nil:
            break
        }
        for (apple, android) in kept.dropFirst(rule.path != nil ? 1 : 0) where AndroidPattern(android).hasInnerStar {
            note("Android's * stops at the first \(DynamicPatternTranslation.stopCharacter(AndroidPattern(android))) after it in \"\(apple)\", unlike iOS's: some URLs, \(difference)")
        }
        if !caseSensitive, let (apple, _) = kept.first(where: { DynamicPatternTranslation.caseVariant($0.android) != nil }) {
            let variant = DynamicPatternTranslation.caseVariant(apple) ?? apple
            note("is case-insensitive on iOS, but Android matches case as written: \"\(variant)\" for \"\(apple)\", \(difference)")
        }
        return paths.map { DynamicAppLinkRule(path: $0, query: query, fragment: fragment, exclude: rule.exclude) }
    }

    /// The pattern as Android compares it (decoded) in the documented form (no `**`, `*?` or longer runs,
    /// whose meaning Android's code and Google's prose disagree on); noted and kept as written when that
    /// cannot be said.
    private mutating func readable(_ pattern: String) -> String {
        let written: String
        if let decoded = DynamicPatternTranslation.decoded(pattern, percentEncoded: percentEncoded) {
            written = AndroidPattern(decoded).normalizedSource
        } else {
            note("\"\(pattern)\" has escapes that Android, which compares decoded URLs, cannot read the same way; it gets the pattern as written, which decoded URLs rarely match: URLs \(difference)")
            written = AndroidPattern(pattern).normalizedSource
        }
        if DynamicPatternTranslation.hasAnyCharacterDot(written) {
            let outcome = rule.exclude ? "which iOS opens in the app, stay in the browser on Android" : "which iOS keeps in the browser, open the app on Android"
            note("Android's code matches a \".\" of \"\(written)\" as any character (PatternMatcher.matchGlobPattern ignores the escape DalComponentParser puts before it): URLs with another character there, \(outcome)")
        }
        return written
    }

    /// A fragment or query item pattern: `.some(nil)` when it constrains nothing (all `*`: iOS matches an
    /// absent component too, Android would require one), `.some(pattern)` to keep, nil to leave the rule out.
    private mutating func optionalCondition(_ pattern: String, what: String) -> String?? {
        if !pattern.isEmpty, AndroidPattern(pattern).matchesEmpty { return .some(nil) }
        guard pattern.isEmpty else { return .some(pattern) }
        if rule.exclude {
            note("excludes URLs whose \(what) is absent or empty, which Android cannot say; the exclusion is left out, so URLs \(difference)")
            return nil
        }
        note("requires \(what) to be absent or empty, which Android cannot say; the condition is left out, so Android also opens URLs where it is set")
        return .some(nil)
    }

    /// A whole-query pattern as Android query items, or nil to leave the rule out.
    private mutating func wholeQuery(_ pattern: String) -> [DynamicAppLinkRule.QueryItem]? {
        if !pattern.isEmpty, AndroidPattern(pattern).matchesEmpty { return [] }
        let equals = pattern.firstIndex(of: "=")
        let single = equals.map { pattern[..<$0] }.map { !$0.isEmpty && !$0.contains("*") && !$0.contains("?") } ?? false
        guard !rule.exclude else {
            note("matches the whole query \"\(pattern)\"; Android matches query items only and cannot say it, so the exclusion is left out and URLs \(difference)")
            return nil
        }
        if let equals, single, !pattern.contains("&") {
            let name = String(pattern[..<equals])
            let value = String(pattern[pattern.index(after: equals)...])
            note("matches the whole query \"\(pattern)\"; Android matches query items only, so it gets {\"\(name)\": \"\(value)\"} and also opens links that carry other items beside it")
            let decodedName = percentEncoded ? (SplitURL.percentDecoded(name) ?? name) : name
            return value.isEmpty || AndroidPattern(value).matchesEmpty ? [] : [.init(name: decodedName, pattern: readable(value))]
        }
        note("matches the whole query \"\(pattern)\", which Android's query items cannot say; the condition is left out, so Android opens every URL the rest of the rule matches")
        return []
    }
}
