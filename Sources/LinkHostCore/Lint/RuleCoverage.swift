/// Decides whether one rule matches every URL another matches, soundly: "certain" is only said when it
/// holds for every URL; "possible" when the patterns contain one another but the rules read the URL under
/// other case or percent-encoding settings, which this analysis does not model.
struct RuleCoverage {
    /// How sure the containment is.
    enum Certainty: Int, Comparable {
        case no, possible, certain

        static func < (lhs: Certainty, rhs: Certainty) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let variables: SubstitutionVariables
    /// Work the comparisons may still do (see `PatternAutomaton.contains`); a hostile file cannot make lint
    /// run long, it only gets fewer findings.
    private(set) var budget = 500_000
    private var automata: [String: PatternAutomaton?] = [:]
    private var patternFacts: [String: Facts] = [:]
    private var normalizedPaths: [String: String] = [:]
    /// Answers already computed (nil: gave up), so a pattern compared with many others is walked once per pair.
    private var inclusions: [String: Bool?] = [:]

    init(variables: SubstitutionVariables) {
        self.variables = variables
    }

    /// Whether `outer` matches every URL that `inner` matches.
    mutating func covers(_ outer: CompiledRule, _ inner: CompiledRule) -> Certainty {
        // A rule with an unusable pattern matches nothing, so it covers nothing.
        guard outer.problems.isEmpty else { return .no }
        let path = component(normalized(outer.path?.source), normalized(inner.path?.source), universal: "/*", outer.flags, inner.flags)
        guard path != .no else { return .no }
        let fragment = component(outer.fragment?.source, inner.fragment?.source, universal: "*", outer.flags, inner.flags)
        guard fragment != .no else { return .no }
        return min(path, fragment, query(outer, inner))
    }

    /// Whether `rule` matches every URL (its three components accept anything).
    mutating func isUniversal(_ rule: CompiledRule) -> Bool {
        let everything = CompiledRule(reference: rule.reference, exclude: false, flags: rule.flags, path: nil, query: nil, fragment: nil)
        return covers(rule, everything) != .no
    }

    private mutating func query(_ outer: CompiledRule, _ inner: CompiledRule) -> Certainty {
        let innerQuery: QueryRule? = if case .ignoredDictionary? = inner.query { nil } else { inner.query }
        switch outer.query {
        case nil, .ignoredDictionary?:
            return .certain
        case .whole(let source, _)?:
            if case .whole(let innerSource, _)? = innerQuery {
                return component(source, innerSource, universal: "*", outer.flags, inner.flags)
            }
            return component(source, nil, universal: "*", outer.flags, inner.flags)
        case .items(let items)?:
            var result = Certainty.certain
            for item in items {
                var certainty: Certainty
                if case .items(let innerItems)? = innerQuery, let match = innerItems.first(where: { $0.name == item.name }) {
                    // Every occurrence of the item (or "" when absent) matches the inner pattern, so containment
                    // of the value patterns suffices; names read in another encoding may not be the same item.
                    certainty = component(item.source, match.source, universal: "*", outer.flags, inner.flags)
                    if outer.flags.percentEncoded != inner.flags.percentEncoded { certainty = min(certainty, .possible) }
                } else {
                    certainty = component(item.source, nil, universal: "*", outer.flags, inner.flags)
                }
                result = min(result, certainty)
                if result == .no { return .no }
            }
            return result
        }
    }

    /// Whether the outer pattern accepts every text the inner one does, for one component.
    ///
    /// An absent outer pattern accepts anything; an absent inner one stands for `universal`.
    private mutating func component(
        _ outerPattern: String?, _ innerPattern: String?, universal: String, _ outerFlags: MatchFlags, _ innerFlags: MatchFlags
    ) -> Certainty {
        guard let outerPattern else { return .certain }
        let innerReads = innerPattern != nil
        var ceiling = Certainty.certain
        // A rule that decodes fails on text that is not UTF-8 once decoded, which the inner rule may accept.
        if !outerFlags.percentEncoded && !(innerReads && !innerFlags.percentEncoded) { ceiling = .possible }
        let outerFold = !outerFlags.caseSensitive
        if includes(outerPattern, outerFold, universal, outerFold) == true { return ceiling }
        guard let innerPattern else { return .no }
        if outerFlags.percentEncoded != innerFlags.percentEncoded { ceiling = .possible }
        // Case-insensitive inner text may differ in case from what a case-sensitive outer pattern accepts.
        if outerFlags.caseSensitive && !innerFlags.caseSensitive { ceiling = .possible }
        let fold = outerFold || !innerFlags.caseSensitive
        return includes(outerPattern, fold, innerPattern, fold) == true ? ceiling : .no
    }

    /// Whether `outer` (folded when `outerFold`) accepts everything `inner` does; nil when unknown.
    private mutating func includes(_ outer: String, _ outerFold: Bool, _ inner: String, _ innerFold: Bool) -> Bool? {
        if outer == inner && outerFold == innerFold { return true }
        let outerFacts = facts(outer, outerFold)
        let innerFacts = facts(inner, innerFold)
        // Literal prefixes (or suffixes) that disagree mean some inner text lacks the outer one's.
        if !outerFacts.prefix.starts(with: innerFacts.prefix) && !innerFacts.prefix.starts(with: outerFacts.prefix) { return false }
        if !outerFacts.reversedSuffix.starts(with: innerFacts.reversedSuffix) && !innerFacts.reversedSuffix.starts(with: outerFacts.reversedSuffix) {
            return false
        }
        let key = "\(outerFold ? "i" : "s")\u{0}\(outer)\u{0}\(innerFold ? "i" : "s")\u{0}\(inner)"
        if let known = inclusions[key] { return known }
        guard budget > 0 else { return nil }
        guard let outerAutomaton = automaton(outer, outerFold) else { return false }
        guard let innerAutomaton = automaton(inner, innerFold) else { return nil }
        let answer = outerAutomaton.contains(innerAutomaton, budget: &budget)
        inclusions[key] = .some(answer)
        return answer
    }

    /// A path pattern as matching reads it, computed once per pattern (rules are compared pairwise).
    private mutating func normalized(_ source: String?) -> String? {
        guard let source else { return nil }
        if let known = normalizedPaths[source] { return known }
        let pattern = PathNormalization.pattern(source)
        normalizedPaths[source] = pattern
        return pattern
    }

    /// A pattern's literal ends, computed once per pattern: most comparisons end there.
    private struct Facts {
        let prefix: [Unicode.Scalar]
        let reversedSuffix: [Unicode.Scalar]
    }

    private mutating func facts(_ pattern: String, _ fold: Bool) -> Facts {
        let key = (fold ? "i:" : "s:") + pattern
        if let known = patternFacts[key] { return known }
        let computed = Facts(
            prefix: Array(PatternAutomaton.literalPrefix(pattern, fold: fold).unicodeScalars),
            reversedSuffix: Array(PatternAutomaton.literalSuffix(pattern, fold: fold).unicodeScalars.reversed())
        )
        patternFacts[key] = computed
        return computed
    }

    private mutating func automaton(_ pattern: String, _ fold: Bool) -> PatternAutomaton? {
        let key = (fold ? "i:" : "s:") + pattern
        if let cached = automata[key] { return cached }
        let built = PatternAutomaton(pattern: pattern, fold: fold, variables: variables)
        automata[key] = .some(built)
        return built
    }
}
