import CallLinks
import LinkHostJSON

/// LH307: hand-written AASA rules that open the app for URLs no link template accepts.
///
/// Such a URL opens the app, whose `CallLinkParser` (the same templates) returns nil: the guest is left
/// in the app with nothing. Rules derived from the templates never do this (`DerivedAASARules`); rules
/// written by hand are compared with the templates here. Each rule that lets a URL through is compared,
/// path by path, with the rules before it that decide on the path alone and with every template's paths
/// (`PatternAutomaton`, as for shadowing); the paths found, and the templates' paths without their required
/// query items, are then decided by the real matchers, so every example shown is one the AASA opens and
/// the templates refuse.
enum TemplateOverreach {
    /// Examples named per rule.
    static let examplesPerRule = 2

    /// The findings of one site's generated AASA; `name` renders a rule's location in the config's terms.
    static func diagnostics(site: SiteConfig, document: JSONValue, name: (AASARuleReference) -> String) -> [LintDiagnostic] {
        guard !site.aasa.rulesDerived, let app = site.appIDs.first, let details = AASARuleCompiler.compile(document) else { return [] }
        let links = site.callLinks.links
        let matcher = AASAMatcher(document: document)
        let origin = ServedConsistency.origin(of: site)
        let variables = SubstitutionVariables(json: document.objectValue?["applinks"]?.objectValue?["substitutionVariables"])
        // Every generated detail carries the same rules; the first app's reading order is every app's.
        let rules = details.filter { $0.appIDs.contains(app) }.flatMap(\.rules)
        // Paths iOS never compares (`//` inside: it drops repeated slashes at the ends only, and no rule can
        // tell them apart) are no examples worth showing.
        let doubled = PatternAutomaton(pattern: "*//*", fold: false, variables: variables).map { [$0] } ?? []
        let templates = links.templates.map(PatternAutomaton.init(templatePath:)) + doubled

        var candidates: [String] = []
        var budget = 400_000
        var deciding: [PatternAutomaton] = []
        for rule in rules {
            let automaton = PatternAutomaton(pattern: PathNormalization.pattern(rule.path?.source ?? "*"), fold: !rule.flags.caseSensitive, variables: variables)
            if !rule.exclude, rule.problems.isEmpty, let automaton, budget > 0 {
                let paths = PatternAutomaton.texts(in: automaton, outside: deciding + templates, limit: 12 * examplesPerRule, budget: &budget) ?? []
                candidates += paths.map { origin + readable($0) + sample(of: rule) }
            }
            // A rule that looks at the path alone decides every URL its path pattern matches.
            if rule.query == nil, rule.fragment == nil, let automaton { deciding.append(automaton) }
        }
        // A link of a template without the query item that carries its ID: the path fits, the link does not.
        for template in links.templates where template.queryItems.contains(where: { $0.binding == .callID }) {
            let filled = template.fill(callID: ServedConsistency.sampleCallID, callType: links.defaultType)
            candidates.append(origin + String(filled[..<(filled.firstIndex(of: "?") ?? filled.endIndex)]))
        }

        var examples: [(rule: AASARuleReference, urls: [String])] = []
        var confirmed: [(rule: AASARuleReference, url: String)] = []
        for url in candidates where !confirmed.contains(where: { $0.url == url }) {
            let result = matcher.match(url: url, appID: app, domain: "")
            guard result.decision == .match, let rule = result.rule, let split = try? SplitURL(url),
                  links.match(pathAndQuery: split.path + (split.query.map { "?" + $0 } ?? "")) == nil else { continue }
            confirmed.append((rule, url))
        }
        // Two examples of different lengths where there are, so they show two ways the rule is too wide.
        for pass in 0..<2 {
            for (rule, url) in confirmed {
                guard let index = examples.firstIndex(where: { $0.rule == rule }) else {
                    examples.append((rule, [url]))
                    continue
                }
                let urls = examples[index].urls
                guard urls.count < examplesPerRule, !urls.contains(url), pass == 1 || !urls.contains(where: { $0.count == url.count }) else { continue }
                examples[index].urls.append(url)
            }
        }
        let shapes = links.templates.map { "\"\($0.text)\"" }.joined(separator: ", ")
        return examples.map { entry in
            let shown = entry.urls.map { "\"\($0)\"" }.joined(separator: " and ")
            return LintDiagnostic(
                .lh307, .warning, path: name(entry.rule),
                "opens \(shown) in the app, which no link template (\(shapes)) accepts: the app's CallLinkParser returns nil for \(entry.urls.count == 1 ? "it" : "them") and the guest is left in the app with nothing"
            )
        }
    }

    /// A path as iOS compares it (`/a/b/`) written as a link usually is (`/a/b`).
    private static func readable(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// A query and fragment the rule's own conditions accept: each `*` empty, each `?` an `x`.
    private static func sample(of rule: CompiledRule) -> String {
        func fill(_ pattern: String) -> String {
            String(pattern.compactMap { $0 == "*" ? nil : $0 == "?" ? "x" : $0 })
        }
        var text = ""
        switch rule.query {
        case .whole(let source, _)?: text += "?" + fill(source)
        case .items(let items)?: text += items.isEmpty ? "" : "?" + items.map { $0.name + "=" + fill($0.source) }.joined(separator: "&")
        case .ignoredDictionary?, nil: break
        }
        if let fragment = rule.fragment { text += "#" + fill(fragment.source) }
        return text
    }
}
