import LinkHostJSON

/// How a rule tests the query.
enum QueryRule: Sendable {
    /// `"?": "pattern"`: the whole query string must match.
    case whole(source: String, WildcardPattern)
    /// `"?": {"name": "pattern", …}`: every listed item, in each of its occurrences, must match.
    case items([(name: String, source: String, pattern: WildcardPattern)])
    /// `"?": {…}` with a non-string value: Apple ignores the whole dictionary, so the query is unconstrained.
    case ignoredDictionary
}

/// One rule, compiled: a class, so matching a URL against hundreds of them (or indexing them) passes a
/// reference to each rule, not a copy of its patterns' every part.
final class CompiledRule: Sendable {
    let reference: AASARuleReference
    let exclude: Bool
    let flags: MatchFlags
    let path: (source: String, pattern: WildcardPattern)?
    let query: QueryRule?
    let fragment: (source: String, pattern: WildcardPattern)?
    /// Why parts of this rule can never match (undefined variables, oversized expansions), for explanations:
    /// kept from compiling, since every match that tries the rule reports them.
    let problems: [String]

    init(
        reference: AASARuleReference, exclude: Bool, flags: MatchFlags, path: (source: String, pattern: WildcardPattern)?,
        query: QueryRule?, fragment: (source: String, pattern: WildcardPattern)?
    ) {
        self.reference = reference
        self.exclude = exclude
        self.flags = flags
        self.path = path
        self.query = query
        self.fragment = fragment
        // In the order path, fragment, query; no list of patterns made for the rules (all but a few) without problems.
        var problems: [String] = []
        if let problem = path?.pattern.problem { problems.append(problem) }
        if let problem = fragment?.pattern.problem { problems.append(problem) }
        switch query {
        case .whole(_, let pattern): if let problem = pattern.problem { problems.append(problem) }
        case .items(let items): problems += items.compactMap(\.pattern.problem)
        case .ignoredDictionary, nil: break
        }
        self.problems = problems
    }
}

/// One `details` entry, compiled.
struct CompiledDetail: Sendable {
    let label: String
    let appIDs: [String]
    let rules: [CompiledRule]
    /// The rules that may match a given path, so a URL is not tried against every rule.
    let index: RuleIndex
    /// Whether a rule reads URLs decoded (`percentEncoded: false`): if none does, a URL is not decoded.
    let readsDecoded: Bool

    init(label: String, appIDs: [String], rules: [CompiledRule]) {
        (self.label, self.appIDs, self.rules) = (label, appIDs, rules)
        index = RuleIndex(rules)
        readsDecoded = rules.contains { !$0.flags.percentEncoded }
    }
}

/// Turns an AASA document into compiled details.
enum AASARuleCompiler {
    /// The compiled details of `document`'s `applinks`, or nil when it has none.
    static func compile(_ document: JSONValue) -> [CompiledDetail]? {
        guard let applinks = document.objectValue?["applinks"]?.objectValue else { return nil }
        let variables = SubstitutionVariables(json: applinks["substitutionVariables"])
        let domainFlags = MatchFlags.builtIn.overridden(by: applinks["defaults"]?.objectValue)
        switch applinks["details"] {
        case .array(let details):
            return details.enumerated().compactMap { index, detail in
                guard let object = detail.objectValue else { return nil }
                return compileDetail(object, index: index, key: nil, appIDs: appIDs(of: object), flags: domainFlags, variables: variables)
            }
        case .object(let details):
            // The oldest form keys each detail by its app ID; the key is the app, whatever the value says.
            return details.members.enumerated().compactMap { index, member in
                guard let object = member.value.objectValue else { return nil }
                return compileDetail(object, index: index, key: member.key, appIDs: [member.key], flags: domainFlags, variables: variables)
            }
        default:
            return []
        }
    }

    /// The apps a detail names through `appIDs` (array) and `appID` (string); a detail may use either or both.
    static func appIDs(of detail: JSONObject) -> [String] {
        var ids = detail["appIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let single = detail["appID"]?.stringValue { ids.append(single) }
        return ids
    }

    private static func compileDetail(
        _ detail: JSONObject, index: Int, key: String?, appIDs: [String], flags: MatchFlags, variables: SubstitutionVariables
    ) -> CompiledDetail {
        let detailFlags = flags.overridden(by: detail["defaults"]?.objectValue)
        var rules: [CompiledRule] = []
        func reference(_ source: AASARuleReference.Source, _ position: Int, _ json: JSONValue) -> AASARuleReference {
            AASARuleReference(detailIndex: index, detailKey: key, source: source, index: position, json: json)
        }
        // Systems that know `components` ignore `paths` when both are present.
        if let components = detail["components"]?.arrayValue {
            for (position, component) in components.enumerated() {
                guard let object = component.objectValue else { continue }
                rules.append(compileComponent(object, reference: reference(.components, position, component), flags: detailFlags, variables: variables))
            }
        } else if let paths = detail["paths"]?.arrayValue {
            for (position, path) in paths.enumerated() {
                guard let text = path.stringValue else { continue }
                rules.append(compileLegacyPath(text, reference: reference(.paths, position, path), flags: detailFlags, variables: variables))
            }
        }
        return CompiledDetail(label: AASARuleReference.detailLabel(index: index, key: key), appIDs: appIDs, rules: rules)
    }

    private static func compileComponent(
        _ component: JSONObject, reference: AASARuleReference, flags detailFlags: MatchFlags, variables: SubstitutionVariables
    ) -> CompiledRule {
        let flags = detailFlags.overridden(by: component)
        func pattern(_ source: String) -> WildcardPattern {
            WildcardPattern(source, caseSensitive: flags.caseSensitive, variables: variables)
        }
        // A component key whose value is not a string is skipped like any key Apple cannot use, leaving that
        // component unconstrained.
        let path = component["/"]?.stringValue.map { (source: $0, pattern: pattern(PathNormalization.pattern($0))) }
        let fragment = component["#"]?.stringValue.map { (source: $0, pattern: pattern($0)) }
        var query: QueryRule?
        switch component["?"] {
        case .string(let source):
            query = .whole(source: source, pattern(source))
        case .object(let dictionary):
            var items: [(name: String, source: String, pattern: WildcardPattern)] = []
            for name in dictionary.keys {
                guard let source = dictionary[name]?.stringValue else {
                    items = []
                    query = .ignoredDictionary
                    break
                }
                items.append((name: name, source: source, pattern: pattern(source)))
            }
            if query == nil { query = .items(items) }
        default:
            query = nil
        }
        return CompiledRule(
            reference: reference, exclude: MatchFlags.truth(component["exclude"]) ?? false, flags: flags,
            path: path, query: query, fragment: fragment
        )
    }

    /// A legacy `paths` string is a path-only rule; a `NOT ` prefix makes it an exclusion.
    private static func compileLegacyPath(
        _ text: String, reference: AASARuleReference, flags: MatchFlags, variables: SubstitutionVariables
    ) -> CompiledRule {
        let exclude = text.hasPrefix("NOT ")
        let source = exclude ? String(text.dropFirst(4)) : text
        let pattern = WildcardPattern(PathNormalization.pattern(source), caseSensitive: flags.caseSensitive, variables: variables)
        return CompiledRule(
            reference: reference, exclude: exclude, flags: flags,
            path: (source: source, pattern: pattern), query: nil, fragment: nil
        )
    }
}
