import LinkHostJSON

/// Decides, with Apple's universal-link semantics, what iOS does with a URL for an app, given the
/// `apple-app-site-association` document a domain serves.
///
/// The document is compiled once; `match` is then pure and cheap, so one matcher can answer many URLs.
public struct AASAMatcher: Sendable {
    /// The document as given.
    public let document: JSONValue
    private let details: [CompiledDetail]?

    /// Compiles a parsed document; parts Apple would ignore (wrong types, unknown keys) are ignored here too.
    public init(document: JSONValue) {
        self.document = document
        self.details = AASARuleCompiler.compile(document)
    }

    /// Parses and compiles a document's text.
    public init(json: String) throws(JSONParser.SyntaxError) {
        self.init(document: try JSONParser.parse(json))
    }

    /// One-shot form of `AASAMatcher(document:).match(url:appID:domain:)`.
    public static func match(document: JSONValue, appID: String, domain: String, url: String) -> MatchResult {
        AASAMatcher(document: document).match(url: url, appID: appID, domain: domain)
    }

    /// What iOS does with `url` for `appID`, the file having been served for `domain` (empty: do not check the host).
    ///
    /// Details are read in order, and within each detail that lists the app its rules in order; the first rule
    /// whose specified components all match decides, and an exclude rule that matches ends the scan.
    public func match(url: String, appID: String, domain: String) -> MatchResult {
        let split: SplitURL
        do {
            split = try SplitURL(url)
        } catch {
            return .noMatch(.invalidURL(error.message), appID: appID, url: url)
        }
        guard split.scheme == "https" || split.scheme == "http" else {
            return .noMatch(.unsupportedScheme(split.scheme), appID: appID, url: url)
        }
        switch DomainCheck.check(split, against: DomainCheck.Domain(domain)) {
        case .hostMismatch: return .noMatch(.hostMismatch(host: split.host, domain: domain), appID: appID, url: url)
        case .portMismatch: return .noMatch(.portMismatch(port: split.port, domain: domain), appID: appID, url: url)
        case .matches, .skipped: break
        }
        guard let details else { return .noMatch(.noAppLinks, appID: appID, url: url) }

        var considered: [String] = []
        var tried = 0
        var problems: [String] = []
        for detail in details where detail.appIDs.contains(appID) {
            considered.append(detail.label)
            for rule in detail.rules {
                tried += 1
                problems.append(contentsOf: rule.problems.map { "\(rule.reference.label): \($0)" })
                guard let checks = Self.evaluate(rule, on: split) else { continue }
                return MatchResult(
                    decision: rule.exclude ? .exclude : .match, rule: rule.reference, checks: checks, reason: nil,
                    appID: appID, url: url
                )
            }
        }
        guard !considered.isEmpty else { return .noMatch(.appNotListed(appID: appID), appID: appID, url: url) }
        let reason = NoMatchReason.noRuleMatched(
            details: considered, rulesTried: tried, path: split.path, query: split.query, fragment: split.fragment,
            problems: problems
        )
        return .noMatch(reason, appID: appID, url: url)
    }

    /// The checks a rule made when all its specified components match the URL, or nil when one does not.
    static func evaluate(_ rule: CompiledRule, on url: SplitURL) -> [ComponentCheck]? {
        let flags = rule.flags
        var checks: [ComponentCheck] = []
        func record(_ component: URLComponentKind, _ item: String?, _ pattern: String?, _ values: [String]) {
            checks.append(ComponentCheck(
                component: component, queryItem: item, pattern: pattern, values: values,
                caseSensitive: flags.caseSensitive, percentEncoded: flags.percentEncoded
            ))
        }

        if let path = rule.path {
            guard let text = read(url.path, flags), path.pattern.matches(PathNormalization.path(text)) else { return nil }
            record(.path, nil, path.source, [text])
        }

        switch rule.query {
        case nil:
            break
        case .ignoredDictionary:
            record(.query, nil, nil, [url.query ?? ""])
        case .whole(let source, let pattern):
            // An absent query reads as the empty string.
            guard let text = read(url.query ?? "", flags), pattern.matches(text) else { return nil }
            record(.query, nil, source, [text])
        case .items(let items):
            let urlItems = url.queryItems.map { item in
                flags.percentEncoded ? (name: Optional(item.name), value: Optional(item.value))
                    : (name: SplitURL.percentDecoded(item.name), value: SplitURL.percentDecoded(item.value))
            }
            for item in items {
                // Every occurrence of the name must match; a missing item counts as one empty value.
                var values = urlItems.filter { $0.name == item.name }.map(\.value)
                if values.isEmpty { values = [""] }
                var texts: [String] = []
                for value in values {
                    guard let value, item.pattern.matches(value) else { return nil }
                    texts.append(value)
                }
                record(.query, item.name, item.source, texts)
            }
        }

        if let fragment = rule.fragment {
            guard let text = read(url.fragment ?? "", flags), fragment.pattern.matches(text) else { return nil }
            record(.fragment, nil, fragment.source, [text])
        }
        return checks
    }

    /// A component as the rule compares it: as written, or decoded when `percentEncoded` is false.
    private static func read(_ text: String, _ flags: MatchFlags) -> String? {
        flags.percentEncoded ? text : SplitURL.percentDecoded(text)
    }
}
