import LinkHostJSON

/// Finds rules that can never decide (an earlier rule already matches all their URLs) and exclusions that
/// shut every link out of an app.
///
/// Rules are read per app, in the order iOS reads them: every detail that lists the app, in document order,
/// each detail's rules in order. A rule in a detail shared by several apps is unreachable only for the
/// apps whose earlier rules cover it, and the finding says which.
struct RuleShadowing {
    /// Above this many rules for one app the pairwise comparison is skipped, to keep lint fast on huge files.
    static let maximumRulesPerApp = 500

    /// One finding, located at the rule it is about.
    struct Finding {
        let code: LintCode
        let severity: ConfigDiagnostic.Severity
        let rule: AASARuleReference
        let message: String
    }

    private var coverage: RuleCoverage
    /// How a rule is named in messages (`applinks.details[0].components[1]`, or `aasa.rules[1]` for a config).
    private let name: (AASARuleReference) -> String

    init(variables: SubstitutionVariables, name: @escaping (AASARuleReference) -> String) {
        coverage = RuleCoverage(variables: variables)
        self.name = name
    }

    /// Every finding in `details`, in document order.
    mutating func findings(in details: [CompiledDetail]) -> [Finding] {
        var rulesByApp: [String: [CompiledRule]] = [:]
        // Each rule's place in each app's reading order, so the rules before it are a slice.
        var positions: [String: [String: Int]] = [:]
        for detail in details {
            for app in Self.unique(detail.appIDs) {
                for rule in detail.rules {
                    positions[app, default: [:]][rule.reference.label] = rulesByApp[app]?.count ?? 0
                    rulesByApp[app, default: []].append(rule)
                }
            }
        }
        var findings: [Finding] = []
        for detail in details {
            let apps = Self.unique(detail.appIDs)
            for rule in detail.rules where rule.problems.isEmpty {
                let earlierByApp = apps.map { app in
                    let all = rulesByApp[app] ?? []
                    let position = positions[app]?[rule.reference.label] ?? all.count
                    return (app: app, earlier: all[..<position], total: all.count)
                }
                if let finding = blocksEverything(rule, earlierByApp.map { ($0.app, $0.earlier) }) {
                    findings.append(finding)
                }
                guard earlierByApp.allSatisfy({ $0.total <= Self.maximumRulesPerApp }) else { continue }
                if let finding = shadowing(of: rule, earlierByApp.map { ($0.app, $0.earlier) }) {
                    findings.append(finding)
                }
            }
        }
        return findings
    }

    /// LH203: an exclusion that matches every URL with no rule before it that could let a URL through.
    private mutating func blocksEverything(_ rule: CompiledRule, _ earlierByApp: [(app: String, earlier: ArraySlice<CompiledRule>)]) -> Finding? {
        guard rule.exclude, coverage.isUniversal(rule) else { return nil }
        let blocked = earlierByApp.filter { entry in entry.earlier.allSatisfy { $0.exclude || !$0.problems.isEmpty } }.map(\.app)
        guard !blocked.isEmpty else { return nil }
        let apps = blocked.map(Self.quoted).joined(separator: ", ")
        return Finding(
            code: .lh203, severity: .error, rule: rule.reference,
            message: "excludes every URL and no rule before it lets one through, so no link on this domain opens \(apps); iOS opens every URL in the browser"
        )
    }

    /// LH201/LH202: the earliest rule before `rule` that matches all its URLs, per app.
    private mutating func shadowing(of rule: CompiledRule, _ earlierByApp: [(app: String, earlier: ArraySlice<CompiledRule>)]) -> Finding? {
        var certain: [(app: String, by: CompiledRule)] = []
        var possible: [(app: String, by: CompiledRule)] = []
        for (app, earlier) in earlierByApp {
            var firstPossible: CompiledRule?
            var found = false
            let ruleEnds = pathEnds(of: rule)
            for candidate in earlier where mayCover(pathEnds(of: candidate), ruleEnds) {
                switch coverage.covers(candidate, rule) {
                case .certain:
                    certain.append((app, candidate))
                    found = true
                case .possible:
                    if firstPossible == nil { firstPossible = candidate }
                case .no:
                    break
                }
                if found { break }
            }
            if !found, let firstPossible { possible.append((app, firstPossible)) }
        }
        let appCount = earlierByApp.count
        if !certain.isEmpty {
            let scope = certain.count == appCount ? "" : " for " + certain.map { Self.quoted($0.app) }.joined(separator: ", ")
            return Finding(
                code: .lh201, severity: .warning, rule: rule.reference,
                message: "is unreachable\(scope): \(describe(certain.map(\.by))) every URL this rule matches, so this rule never decides"
            )
        }
        if !possible.isEmpty {
            let scope = possible.count == appCount ? "" : " for " + possible.map { Self.quoted($0.app) }.joined(separator: ", ")
            return Finding(
                code: .lh202, severity: .warning, rule: rule.reference,
                message: "may be unreachable\(scope): \(describe(possible.map(\.by))) every URL this rule matches by pattern, but reads the URL with other caseSensitive or percentEncoded settings, which may let some URLs through"
            )
        }
        return nil
    }

    /// A rule's path pattern reduced to its literal ends (case folded), or nil when the rule cannot cover
    /// anything (an unusable pattern) — computed once per rule, since every pair of rules is compared.
    private struct PathEnds {
        let usable: Bool
        let prefix: [Unicode.Scalar]?
        let reversedSuffix: [Unicode.Scalar]?
    }

    private var ends: [String: PathEnds] = [:]

    private mutating func pathEnds(of rule: CompiledRule) -> PathEnds {
        if let known = ends[rule.reference.label] { return known }
        let pattern = rule.path.map { PathNormalization.pattern($0.source) }
        let computed = PathEnds(
            usable: rule.problems.isEmpty,
            prefix: pattern.map { Array(PatternAutomaton.literalPrefix($0, fold: true).unicodeScalars) },
            reversedSuffix: pattern.map { Array(PatternAutomaton.literalSuffix($0, fold: true).unicodeScalars.reversed()) }
        )
        ends[rule.reference.label] = computed
        return computed
    }

    /// A quick, sound "no": two path patterns whose folded literal prefixes or suffixes disagree match no
    /// common path, whatever the rules' case and encoding settings, so the outer rule cannot cover the inner.
    private func mayCover(_ outer: PathEnds, _ inner: PathEnds) -> Bool {
        guard outer.usable else { return false }
        guard let outerPrefix = outer.prefix, let innerPrefix = inner.prefix,
              let outerSuffix = outer.reversedSuffix, let innerSuffix = inner.reversedSuffix else { return true }
        let prefixes = outerPrefix.starts(with: innerPrefix) || innerPrefix.starts(with: outerPrefix)
        let suffixes = outerSuffix.starts(with: innerSuffix) || innerSuffix.starts(with: outerSuffix)
        return prefixes && suffixes
    }

    /// "X {json} comes before it and matches", or for several apps' different rules, "earlier rules (…) match".
    private func describe(_ rules: [CompiledRule]) -> String {
        var seen: [AASARuleReference] = []
        for rule in rules where !seen.contains(rule.reference) { seen.append(rule.reference) }
        let names = seen.map { "\(name($0)) \(ConfigReader.show($0.json))" }
        if names.count == 1 { return "\(names[0]) comes before it and matches" }
        return "earlier rules (\(names.joined(separator: "; "))) match"
    }

    private static func quoted(_ text: String) -> String {
        JSONWriter.string(.string(text), style: .compact)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension AASARuleReference {
    /// Where the rule sits in the AASA document, as steps from the root.
    var documentPath: DocumentPath {
        let details = DocumentPath.root.key("applinks").key("details")
        let detail = detailKey.map { details.key($0) } ?? details.index(detailIndex)
        return detail.key(source.rawValue).index(index)
    }
}
