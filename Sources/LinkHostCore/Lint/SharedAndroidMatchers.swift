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

    /// One document, compiled, and the answers it has given.
    final class Answers {
        private let matcher: AndroidLinkMatcher
        private var answers: [Question: Answer] = [:]

        private struct Question: Hashable {
            let url: String
            let packageName: String
        }

        init(document: JSONValue) {
            matcher = AndroidLinkMatcher(document: document)
        }

        /// What Android 15+ does with `url` for `packageName`, the host not checked.
        func match(url: String, packageName: String) -> Answer {
            let question = Question(url: url, packageName: packageName)
            if let known = answers[question] { return known }
            let result = matcher.match(url: url, packageName: packageName, domain: "")
            let answer = Answer(opensApp: result.opensApp, rule: result.rule)
            answers[question] = answer
            return answer
        }
    }

    /// One site's document, and the answers of its canonical form.
    final class Entry {
        /// The answers of its canonical form, shared with every site of the same rules.
        let answers: Answers
        private let document: JSONValue
        private let slots: [String: String]?
        private let origin: String
        /// The document's own answers, for the questions the canonical form cannot take.
        private lazy var own = Answers(document: document)

        init(document: JSONValue, answers: Answers, slots: [String: String]?, origin: String) {
            (self.document, self.answers, self.slots, self.origin) = (document, answers, slots, origin)
        }

        /// What Android 15+ does with `url` for `packageName`, the host not checked.
        func match(url: String, packageName: String) -> Answer {
            guard let slots else { return answers.match(url: url, packageName: packageName) }
            guard let slot = slots[packageName], url.hasPrefix(origin), url.utf8.dropFirst(origin.utf8.count).first == UInt8(ascii: "/") else {
                return own.match(url: url, packageName: packageName)
            }
            return answers.match(url: SharedAASAMatchers.Entry.standInOrigin + url.dropFirst(origin.count), packageName: slot)
        }
    }

    /// How many canonical documents are kept.
    let capacity: Int
    /// The kept documents and their answers, the most recent last: tenants of one rule set come one after
    /// another, and a document is compared, not written out and hashed, to find its answers.
    private var kept: [(document: JSONValue, answers: Answers)] = []
    /// The dynamic rules last translated, by the AASA settings they came from: tenants share their settings.
    private var lastRules: (settings: AASASettings, rules: DynamicRuleSet)?

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// `AssetLinksGenerator.dynamicRules(for:)`, translated once for sites of the same AASA settings in a row.
    func dynamicRules(for site: SiteConfig) -> DynamicRuleSet {
        if let lastRules, lastRules.settings == site.aasa { return lastRules.rules }
        let rules = AssetLinksGenerator.dynamicRules(for: site)
        lastRules = (site.aasa, rules)
        return rules
    }

    /// The entry of `site`'s generated assetlinks.json, whose URLs are asked under `origin`.
    func entry(for site: SiteConfig, origin: String) -> Entry {
        let document = AssetLinksGenerator.document(for: site, rules: dynamicRules(for: site))
        let plainOrigin = (try? SplitURL(origin + "/")).map { ($0.scheme == "https" || $0.scheme == "http") && $0.path == "/" } ?? false
        guard plainOrigin, let (canonical, slots) = Self.canonical(document) else {
            return Entry(document: document, answers: answers(for: document), slots: nil, origin: origin)
        }
        return Entry(document: document, answers: answers(for: canonical), slots: slots, origin: origin)
    }

    /// The kept answers of `document`, or new ones.
    private func answers(for document: JSONValue) -> Answers {
        if let known = kept.last(where: { $0.document == document }) { return known.answers }
        let made = Answers(document: document)
        kept.append((document, made))
        if kept.count > capacity { kept.removeFirst() }
        return made
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
