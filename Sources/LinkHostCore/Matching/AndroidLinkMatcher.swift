import LinkHostJSON

/// Decides, with Google's Dynamic App Links rules, what an Android 15+ device does with a URL for one
/// app, given the `assetlinks.json` a domain serves.
///
/// Google's semantics ("Configure website associations and dynamic rules"): the rules of the app's
/// `dynamic_app_link_components` are read in order and the first whose every given component matches
/// decides; an `exclude` rule keeps the URL in the browser; a URL no rule matches is excluded. A `?`
/// dictionary needs, for each member, a query item of that name whose value matches (other items may be
/// present). Where Google is silent linkhost decides, as Android's intent filters do: the path, query
/// items and fragment are compared percent-decoded and case-sensitively, an absent fragment matches no
/// `#` pattern, and one matching occurrence of a repeated query item is enough.
///
/// Dynamic rules only narrow the app's manifest: a URL the manifest does not claim never opens the app,
/// whatever the rules say (`validate --android-manifest` checks the manifest).
public struct AndroidLinkMatcher: Sendable {
    /// The document as given.
    public let document: JSONValue
    private let apps: [CompiledAndroidApp]

    /// Compiles a parsed `assetlinks.json`.
    public init(document: JSONValue) {
        self.document = document
        apps = AndroidRuleCompiler.compile(document)
    }

    /// The package names the document grants App Links to, in order.
    public var packageNames: [String] { apps.map(\.packageName) }

    /// What Android does with `url` for `packageName`, the file having been served for `domain` (empty:
    /// do not check the host).
    public func match(url: String, packageName: String, domain: String) -> AndroidMatchResult {
        func result(_ decision: AndroidMatchDecision, _ reason: String, rule: Int? = nil, json: JSONValue? = nil) -> AndroidMatchResult {
            AndroidMatchResult(decision: decision, packageName: packageName, url: url, rule: rule, ruleJSON: json, reason: reason)
        }
        let split: SplitURL
        do {
            split = try SplitURL(url)
        } catch {
            return result(.noMatch, error.message)
        }
        guard split.scheme == "https" || split.scheme == "http" else {
            return result(.noMatch, "App Links are http and https URLs; \(split.scheme) is not")
        }
        switch DomainCheck.check(split, against: DomainCheck.Domain(domain)) {
        case .hostMismatch: return result(.noMatch, "the URL's host \(split.host) is not \(domain), whose assetlinks.json this is")
        case .portMismatch: return result(.noMatch, "the URL is on another port than \(domain)")
        case .matches, .skipped: break
        }
        guard let app = apps.first(where: { $0.packageName == packageName }) else {
            return result(.notListed, "no statement grants \(AssetLinksGenerator.relation) to \(packageName)")
        }
        guard case .rules(let rules) = app.dynamic else {
            if case .malformed(let why) = app.dynamic {
                return result(.manifestOnly, "the dynamic rules are malformed (\(why)), so Android drops them and the app's manifest alone decides")
            }
            return result(.manifestOnly, "the statement has no dynamic rules, so the app's manifest alone decides")
        }
        let url = AndroidURL(split)
        for (index, rule) in rules.enumerated() {
            guard let checks = rule.checks(url) else { continue }
            let what = checks.isEmpty ? "specifies no component, so it matches every URL" : "matches: " + checks.joined(separator: "; ")
            return result(rule.exclude ? .exclude : .match, "dynamic_app_link_components[\(index)] \(what)", rule: index, json: rule.json)
        }
        return result(.noMatch, "none of the \(rules.count) dynamic rules matches path \"\(url.path)\"\(url.queryDescription)\(url.fragment.map { ", fragment \"\($0)\"" } ?? ""), and Android treats a URL no rule matches as excluded")
    }
}

/// What Android does with a URL for one app.
public enum AndroidMatchDecision: String, Sendable, Equatable {
    /// A dynamic rule lets the URL open the app (if the manifest claims it).
    case match
    /// An `exclude` rule keeps the URL in the browser.
    case exclude
    /// No rule matches (excluded), or the URL cannot be an App Link of this domain.
    case noMatch = "no_match"
    /// The app has no usable dynamic rules: its manifest alone decides.
    case manifestOnly = "manifest_only"
    /// The document grants no App Links to the app.
    case notListed = "not_listed"
}

/// A decision with the rule that made it and why.
public struct AndroidMatchResult: Sendable, Equatable {
    /// What Android does.
    public let decision: AndroidMatchDecision
    /// The package asked about.
    public let packageName: String
    /// The URL asked about.
    public let url: String
    /// The deciding rule's index in `dynamic_app_link_components`.
    public let rule: Int?
    /// The deciding rule as written.
    public let ruleJSON: JSONValue?
    /// Why, in plain words.
    public let reason: String

    /// True when the URL opens the app on a device whose manifest claims it.
    public var opensApp: Bool { decision == .match }
}

/// A URL as Android's intent filters read it: decoded path, query items and fragment.
struct AndroidURL {
    let path: String
    let items: [(name: String, value: String)]
    let fragment: String?

    init(_ split: SplitURL) {
        let raw = split.path.isEmpty ? "/" : split.path
        path = SplitURL.percentDecoded(raw) ?? raw
        items = split.queryItems.map { (SplitURL.percentDecoded($0.name) ?? $0.name, SplitURL.percentDecoded($0.value) ?? $0.value) }
        fragment = split.fragment.map { SplitURL.percentDecoded($0) ?? $0 }
    }

    var queryDescription: String {
        items.isEmpty ? "" : ", query items " + items.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}
