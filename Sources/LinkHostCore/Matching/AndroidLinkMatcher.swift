import LinkHostJSON

/// Decides what an Android 15+ device does with a URL for one app, given the `assetlinks.json` a domain
/// serves, as Android's own code decides it.
///
/// - Reading: `AndroidStatementReader` (the StatementService's `StatementParser`): a file Android cannot
///   read verifies no app; the first statement granting App Links to the app decides, rules or not
///   (`DomainVerifier.verifyHost`, `firstOrNull`).
/// - Rules: each becomes a `UriRelativeFilterGroup` (`CompiledDynamicRule`); an empty pattern throws while
///   they are built, and the manifest alone decides.
/// - Matching: `UriRelativeFilterGroup.matchGroupsToUri`: the first rule whose every condition matches
///   decides, allow or block; a rule without conditions never matches; no match keeps the URL in the
///   browser. Conditions compare `Uri.getPath()`, each `&`- (or `;`-) separated parameter of
///   `Uri.getQuery()` and `Uri.getFragment()` (`AndroidURI`), decoded, with `PatternMatcher`
///   (`AndroidPatternMatcher`).
///
/// Dynamic rules only narrow the app's manifest: a URL the manifest does not claim never opens the app,
/// whatever the rules say (`validate --android-manifest` checks the manifest).
public struct AndroidLinkMatcher: Sendable {
    /// The document as given.
    public let document: JSONValue
    private let compiled: Result<[CompiledAndroidApp], AndroidRuleCompiler.Unreadable>

    /// Compiles a parsed `assetlinks.json`.
    public init(document: JSONValue) {
        self.document = document
        compiled = AndroidRuleCompiler.compile(document)
    }

    /// The package names the document grants App Links to, in order; none when Android cannot read it.
    public var packageNames: [String] { (try? compiled.get())?.map(\.packageName) ?? [] }

    /// The package names the document's statements grant App Links to as written, even when Android
    /// cannot read the file (then each is `not_listed`, with the reason).
    public var writtenPackageNames: [String] {
        var names: [String] = []
        for (_, statement) in AndroidRuleCompiler.statements(document) {
            if let name = AndroidRuleCompiler.packageName(of: statement), !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Why Android reads no statement from the document, or nil when it reads it.
    public var unreadableReason: String? {
        guard case .failure(let unreadable) = compiled else { return nil }
        return "\(unreadable.path): \(unreadable.reason)"
    }

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
        let apps: [CompiledAndroidApp]
        switch compiled {
        case .failure(let unreadable):
            return result(.notListed, "Android's StatementService cannot read this assetlinks.json (\(unreadable.path): \(unreadable.reason)), so the host is verified for no app")
        case .success(let read): apps = read
        }
        guard let app = apps.first(where: { $0.packageName == packageName }) else {
            return result(.notListed, "no statement grants \(AssetLinksGenerator.relation) to \(packageName)")
        }
        let rules: [CompiledDynamicRule], ruleIndex: AndroidRuleIndex
        switch app.dynamic {
        case .none: return result(.manifestOnly, "the first statement for \(packageName) has no dynamic rules Android reads, so the app's manifest alone decides")
        case .unusable(let why): return result(.manifestOnly, "\(why); Android stores no dynamic rule for the host, so the app's manifest alone decides")
        case .rules(let compiled, let built): (rules, ruleIndex) = (compiled, built)
        }
        let uri = AndroidURI(url)
        // The rules left out cannot match this path.
        for index in ruleIndex.candidates(uri.units.path) {
            let rule = rules[index]
            guard let checks = rule.checks(uri) else { continue }
            return result(rule.exclude ? .exclude : .match, "dynamic_app_link_components[\(index)] matches: " + checks.joined(separator: "; "), rule: index, json: rule.json)
        }
        let empty = rules.filter(\.isEmpty).count
        let emptyNote = empty > 0 ? " (\(empty) of them without a condition, which never matches)" : ""
        return result(.noMatch, "none of the \(rules.count) dynamic rules\(emptyNote) matches path \(show(uri.path)), query \(show(uri.query)), fragment \(show(uri.fragment)), and Android treats a URL no rule matches as excluded")
    }

    private func show(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "(none)" }
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
    /// The document grants no App Links to the app, or Android cannot read it at all.
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
