import LinkHostJSON

/// The generated AASA of the sites being linted, compiled for matching, with the answers each has given:
/// sites whose rules are the same share one, whatever their apps and hosts, so a config of ten thousand
/// tenants of one rule set compiles its rules and decides each URL once (issue 33).
///
/// An answer depends on the rules, the URL's path, query and fragment, and which details list the app; not on
/// the host (the consistency checks do not check it) nor on the app's ID itself. So a site's document is asked
/// in a canonical form (`canonical(_:)`): its `applinks` alone, each app ID replaced by its place of first
/// appearance, the URL under one stand-in origin. The most recently made `capacity` rule sets are kept, since a
/// compiled document of hundreds of derived rules is large and a config of distinct sites shares none.
final class SharedAASAMatchers {
    /// What the consistency checks read of a decision: whether the URL opens the app, and the rule that decided.
    struct Answer {
        let decision: MatchDecision
        let rule: AASARuleReference?
    }

    /// One rule set, compiled, and the answers it has given.
    final class Answers {
        private let matcher: AASAMatcher
        private var answers: [Question: Answer] = [:]

        private struct Question: Hashable {
            let url: String
            let appID: String
        }

        init(document: JSONValue) {
            matcher = AASAMatcher(document: document)
        }

        /// What iOS does with `url` for `appID`, the host not checked.
        func match(url: String, appID: String) -> Answer {
            let question = Question(url: url, appID: appID)
            if let known = answers[question] { return known }
            let result = matcher.match(url: url, appID: appID, domain: "")
            let answer = Answer(decision: result.decision, rule: result.rule)
            answers[question] = answer
            return answer
        }
    }

    /// One site's document, and the answers of its rule set.
    final class Entry {
        /// The document as generated.
        let document: JSONValue
        /// The answers of its rule set, shared with every site of the same rules.
        let answers: Answers
        /// Each app ID's stand-in in the canonical document; nil when the document is asked as it is.
        private let slots: [String: String]?
        /// The site's origin, which the canonical form asks under `standInOrigin`.
        private let origin: String
        /// The document's own answers, for the questions the canonical form cannot take.
        private lazy var own = Answers(document: document)

        init(document: JSONValue, answers: Answers, slots: [String: String]?, origin: String) {
            (self.document, self.answers, self.slots, self.origin) = (document, answers, slots, origin)
        }

        /// What iOS does with `url` for `appID`, the host not checked.
        func match(url: String, appID: String) -> Answer {
            guard let slots else { return answers.match(url: url, appID: appID) }
            // The canonical form answers for the apps it lists and URLs under the site's origin; any other
            // question (an app the document does not list) has no stand-in, and is asked of a matcher of its own.
            guard let slot = slots[appID], url.hasPrefix(origin), url.utf8.dropFirst(origin.utf8.count).first == UInt8(ascii: "/") else {
                return own.match(url: url, appID: appID)
            }
            return answers.match(url: Self.standInOrigin + url.dropFirst(origin.count), appID: slot)
        }

        /// The origin every canonical question is asked under.
        static let standInOrigin = "https://example.com"
    }

    /// How many rule sets are kept.
    let capacity: Int
    /// The kept documents and their answers, the most recent last: tenants of one rule set come one after
    /// another, and a document is compared, not written out and hashed, to find its answers.
    private var kept: [(document: JSONValue, answers: Answers)] = []

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// The entry of `site`'s generated AASA, sharing the answers of a kept rule set when the site's are the same.
    func entry(for site: Site) -> Entry {
        let document = AASAGenerator.document(for: site.config)
        let origin = ServedConsistency.origin(of: site.config)
        // An origin that is not plainly `scheme://authority` would read its URLs otherwise than the stand-in's.
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

    /// `document`'s `applinks` alone, each app ID of its details replaced by `A0`, `A1`… in order of first
    /// appearance, with the stand-in of each app ID; nil for the oldest form, whose details are keyed by app
    /// ID (a rule's reference names that key), or a document without `applinks` details.
    static func canonical(_ document: JSONValue) -> (JSONValue, [String: String])? {
        guard var applinks = document.objectValue?["applinks"]?.objectValue, case .array(let details)? = applinks["details"] else { return nil }
        var slots: [String: String] = [:]
        func slot(_ value: JSONValue) -> JSONValue {
            guard case .string(let id) = value else { return value }
            if let known = slots[id] { return .string(known) }
            let made = "A\(slots.count)"
            slots[id] = made
            return .string(made)
        }
        let renamed = details.map { detail -> JSONValue in
            guard case .object(var object) = detail else { return detail }
            for index in object.members.indices {
                switch (object.members[index].key, object.members[index].value) {
                case ("appIDs", .array(let ids)): object.members[index].value = .array(ids.map(slot))
                case ("appID", let id): object.members[index].value = slot(id)
                default: break
                }
            }
            return .object(object)
        }
        for index in applinks.members.indices where applinks.members[index].key == "details" { applinks.members[index].value = .array(renamed) }
        return (.object(JSONObject([JSONMember("applinks", .object(applinks))])), slots)
    }
}
