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

        // Read decoded only when a rule reads URLs so: derived rules never do (a second form of every URL for nothing).
        let reading = URLReading(split, decoding: details.contains(where: \.readsDecoded))
        var considered: [String] = []
        var tried = 0
        var problems: [String] = []
        for detail in details where detail.appIDs.contains(appID) {
            considered.append(detail.label)
            // The rules left out could not match this path; they have no problems to report.
            for index in detail.index.candidates(reading) {
                let rule = detail.rules[index]
                problems.append(contentsOf: rule.problems.map { "\(rule.reference.label): \($0)" })
                guard let checks = Self.evaluate(rule, on: reading) else { continue }
                return MatchResult(
                    decision: rule.exclude ? .exclude : .match, rule: rule.reference, checks: checks, reason: nil,
                    appID: appID, url: url
                )
            }
            tried += detail.rules.count
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
        evaluate(rule, on: URLReading(url))
    }

    /// The same, on a URL already read both ways, as `match` does once for all the rules it tries.
    static func evaluate(_ rule: CompiledRule, on url: URLReading) -> [ComponentCheck]? {
        let flags = rule.flags
        let form = url.form(flags)
        var checks: [ComponentCheck] = []
        func record(_ component: URLComponentKind, _ item: String?, _ pattern: String?, _ values: [String]) {
            checks.append(ComponentCheck(
                component: component, queryItem: item, pattern: pattern, values: values,
                caseSensitive: flags.caseSensitive, percentEncoded: flags.percentEncoded
            ))
        }

        if let path = rule.path {
            guard let text = form.path, let normalized = form.normalizedPath, path.pattern.matches(normalized) else { return nil }
            record(.path, nil, path.source, [text])
        }

        switch rule.query {
        case nil:
            break
        case .ignoredDictionary:
            record(.query, nil, nil, [url.split.query ?? ""])
        case .whole(let source, let pattern):
            // An absent query reads as the empty string.
            guard let text = form.query, pattern.matches(text) else { return nil }
            record(.query, nil, source, [text])
        case .items(let items):
            for item in items {
                // Every occurrence of the name must match; a missing item counts as one empty value.
                var values = form.items.filter { $0.name == item.name }.map(\.value)
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
            guard let text = form.fragment, fragment.pattern.matches(text) else { return nil }
            record(.fragment, nil, fragment.source, [text])
        }
        return checks
    }
}

/// A URL's components as rules compare them, read once per URL for each `percentEncoded` setting instead
/// of once per rule tried: as written, and decoded (nil where the escapes are not UTF-8).
struct URLReading {
    /// The components under one setting; the path also as matching normalizes it.
    struct Form {
        let path: String?
        let normalizedPath: String?
        let query: String?
        let fragment: String?
        let items: [(name: String?, value: String?)]
    }

    /// The URL as split.
    let split: SplitURL
    private let encoded: Form
    private let decoded: Form

    /// Reads `split` as written and, when `decoding`, decoded; without it no rule may read it decoded.
    init(_ split: SplitURL, decoding: Bool = true) {
        self.split = split
        let items = split.queryItems
        func form(_ read: (String) -> String?) -> Form {
            let path = read(split.path)
            return Form(
                path: path, normalizedPath: path.map(PathNormalization.path), query: read(split.query ?? ""),
                fragment: read(split.fragment ?? ""), items: items.map { (name: read($0.name), value: read($0.value)) }
            )
        }
        encoded = form { $0 }
        decoded = decoding ? form(SplitURL.percentDecoded) : encoded
    }

    /// The components as a rule with `flags` reads them.
    func form(_ flags: MatchFlags) -> Form { flags.percentEncoded ? encoded : decoded }
}
