import LinkHostJSON

/// The generated assetlinks.json of the sites being linted, compiled as Android reads it, with the answers
/// each has given: sites of the same dynamic rules share one, whatever their packages, fingerprints and hosts
/// (`SharedAASAMatchers` does the same for the AASA; issue 33).
///
/// Android's decision depends on the statements' shape, the rules and the URL's path, query and fragment, and
/// on a package name only through which statement names it: so the document is asked in a canonical form, each
/// package name replaced by its place of first appearance and each fingerprint by one stand-in (Android reads
/// only that there is one), the URL under one stand-in origin.
final class SharedAndroidMatchers {
    /// What the consistency checks read of a decision: whether the URL opens the app, and the deciding rule.
    struct Answer {
        let opensApp: Bool
        let rule: Int?
    }

    /// The assetlinks.json compiled as Android 15+ reads it, asked for a package name.
    struct Matcher: CanonicalMatcher {
        private let matcher: AndroidLinkMatcher

        init(document: JSONValue) {
            matcher = AndroidLinkMatcher(document: document)
        }

        /// What Android 15+ does with `url` for the package `app`, the host not checked.
        func answer(url: String, app: String) -> Answer {
            let result = matcher.match(url: url, packageName: app, domain: "")
            return Answer(opensApp: result.opensApp, rule: result.rule)
        }
    }

    /// One site's document, and the answers of its canonical form.
    typealias Entry = CanonicalAnswers<Matcher>.Entry

    private let shared: CanonicalAnswers<Matcher>
    /// The dynamic rules last translated, by what the translation reads of the AASA settings they came from:
    /// tenants share their rules, not their App Clips.
    private var lastRules: (settings: AASASettings, rules: DynamicRuleSet)?
    /// `DerivedAASARules.platformsReadAlike` of each path and bound names asked: the same few for every tenant.
    private var readAlike: [String: Bool] = [:]

    init(capacity: Int = 8) {
        shared = CanonicalAnswers(capacity: capacity)
    }

    /// `AssetLinksGenerator.dynamicRules(for:)`, translated once for sites of the same AASA settings in a row.
    func dynamicRules(for site: SiteConfig) -> DynamicRuleSet {
        if let lastRules, DynamicRuleTranslation.sameInput(lastRules.settings, site.aasa) { return lastRules.rules }
        let rules = AssetLinksGenerator.dynamicRules(for: site)
        lastRules = (site.aasa, rules)
        return rules
    }

    /// `DerivedAASARules.platformsReadAlike(path, boundNames:)`, decided once per path and names.
    func platformsReadAlike(_ path: String, boundNames: [String]) -> Bool {
        let key = boundNames.joined(separator: "&") + "\u{0}" + path
        if let known = readAlike[key] { return known }
        let answer = DerivedAASARules.platformsReadAlike(path, boundNames: boundNames)
        readAlike[key] = answer
        return answer
    }

    /// The entry of `site`'s generated assetlinks.json, whose URLs are asked under `origin`.
    func entry(for site: SiteConfig, origin: String) -> Entry {
        shared.entry(document: AssetLinksGenerator.document(for: site, rules: dynamicRules(for: site)), origin: origin, canonical: Self.canonical)
    }

    /// `document` with each non-empty package name replaced by `p0`, `p1`… in order of first appearance and
    /// each fingerprint string by `F`, with the stand-in of each package name; nil when it is not an array.
    static func canonical(_ document: JSONValue) -> (JSONValue, [String: String])? {
        guard case .array(let statements) = document else { return nil }
        var slots: [String: String] = [:]
        let renamed = statements.map { statement -> JSONValue in
            guard case .object(var object) = statement else { return statement }
            for index in object.members.indices where object.members[index].key == "target" {
                guard case .object(var target) = object.members[index].value else { continue }
                for member in target.members.indices {
                    switch (target.members[member].key, target.members[member].value) {
                    case ("package_name", .string(let name)) where !name.isEmpty:
                        let slot = slots[name] ?? "p\(slots.count)"
                        slots[name] = slot
                        target.members[member].value = .string(slot)
                    case ("sha256_cert_fingerprints", .array(let prints)):
                        target.members[member].value = .array(prints.map { if case .string = $0 { return .string("F") } else { return $0 } })
                    default: break
                    }
                }
                object.members[index].value = .object(target)
            }
            return .object(object)
        }
        return (.array(renamed), slots)
    }
}

extension CanonicalAnswers<SharedAndroidMatchers.Matcher>.Entry {
    /// What Android 15+ does with `url` for `packageName`, the host not checked.
    func match(url: String, packageName: String) -> SharedAndroidMatchers.Answer {
        match(url: url, app: packageName)
    }
}
