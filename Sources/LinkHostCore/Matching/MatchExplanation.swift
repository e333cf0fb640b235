import LinkHostJSON

extension MatchResult {
    /// The decision in plain words: which rule decided and why, or why no rule did.
    public func explain() -> String {
        switch decision {
        case .match, .exclude:
            guard let rule else { return decision.rawValue }
            var text = "\(decision.rawValue): \(rule.label) \(JSONWriter.string(rule.json, style: .compact)) "
            if checks.isEmpty {
                text += "specifies no component, so it matches every URL"
            } else {
                text += "matches: " + checks.map(Self.describe).joined(separator: "; ")
                let unspecified = URLComponentKind.allCases.filter { kind in !checks.contains { $0.component == kind } }
                if rule.source == .paths {
                    text += " (a legacy paths entry reads only the path)"
                } else if !unspecified.isEmpty {
                    let names = unspecified.map(\.name).joined(separator: " and ")
                    text += unspecified.count == 1 ? "; the \(names) is unspecified" : "; the \(names) are unspecified"
                }
            }
            if decision == .exclude {
                text += ". It is an exclusion, so the scan stops and iOS opens the URL in the browser"
            } else {
                text += ". iOS opens the URL in \(appID)"
            }
            return text
        case .noMatch:
            return "no_match: " + Self.describe(reason)
        }
    }

    private static func quoted(_ text: String) -> String {
        JSONWriter.string(.string(text), style: .compact)
    }

    private static func describe(_ check: ComponentCheck) -> String {
        var modifiers: [String] = []
        if !check.caseSensitive { modifiers.append("ignoring case") }
        if !check.percentEncoded { modifiers.append("percent-decoded") }
        let how = modifiers.isEmpty ? "" : " (\(modifiers.joined(separator: ", ")))"
        guard let pattern = check.pattern else {
            return "the query is unconstrained, since a query dictionary holding a non-string value is ignored"
        }
        if let item = check.queryItem {
            let values = check.values.map(quoted).joined(separator: ", ")
            let subject = check.values.count > 1
                ? "every query item \(quoted(item)) (\(values))"
                : "the query item \(quoted(item)) (\(values))"
            return "\(subject) matches \(quoted(pattern))\(how)"
        }
        return "the \(check.component.name) \(quoted(check.values.first ?? "")) matches \(quoted(pattern))\(how)"
    }

    private static func describe(_ reason: NoMatchReason?) -> String {
        switch reason {
        case nil:
            return "no rule decided"
        case .invalidURL(let message):
            return message
        case .unsupportedScheme(let scheme):
            return "\(quoted(scheme)) URLs are never universal links; only http and https URLs are"
        case .hostMismatch(let host, let domain):
            return "the URL's host \(quoted(host)) is not \(quoted(domain)), the domain the file was served for"
        case .portMismatch(let port, let domain):
            let named = port.map { "port \($0)" } ?? "the default port"
            return "the URL is on \(named), not the port of \(quoted(domain))"
        case .noAppLinks:
            return "the document has no applinks object, so it defines no universal links"
        case .appNotListed(let appID):
            return "no applinks detail lists the app ID \(quoted(appID))"
        case .noRuleMatched(let details, let tried, let path, let query, let fragment, let problems):
            let scope = details.joined(separator: ", ")
            let subject: String
            switch tried {
            case 0: subject = "\(scope) \(details.count == 1 ? "lists" : "list") the app but no rules"
            case 1: subject = "the only rule of \(scope) does not match"
            default: subject = "none of the \(tried) rules of \(scope) matches"
            }
            let parts = [
                "the path \(quoted(path.isEmpty ? "/" : path))",
                query.map { "the query \(quoted($0))" } ?? "no query",
                fragment.map { "the fragment \(quoted($0))" } ?? "no fragment",
            ]
            var text = "\(subject): the URL has \(parts[0]), \(parts[1]) and \(parts[2]); iOS opens it in the browser"
            for problem in problems { text += ". Note: \(problem)" }
            return text
        }
    }
}
