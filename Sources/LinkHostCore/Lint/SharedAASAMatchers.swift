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

    /// The AASA compiled as iOS reads it, asked for an app ID.
    struct Matcher: CanonicalMatcher {
        private let matcher: AASAMatcher

        init(document: JSONValue) {
            matcher = AASAMatcher(document: document)
        }

        /// What iOS does with `url` for the app ID `app`, the host not checked.
        func answer(url: String, app: String) -> Answer {
            let result = matcher.match(url: url, appID: app, domain: "")
            return Answer(decision: result.decision, rule: result.rule)
        }
    }

    /// One site's document, and the answers of its rule set.
    typealias Entry = CanonicalAnswers<Matcher>.Entry

    private let shared: CanonicalAnswers<Matcher>

    init(capacity: Int = 8) {
        shared = CanonicalAnswers(capacity: capacity)
    }

    /// The entry of `site`'s generated AASA, sharing the answers of a kept rule set when the site's are the same.
    func entry(for site: Site) -> Entry {
        shared.entry(document: AASAGenerator.document(for: site.config), origin: ServedConsistency.origin(of: site.config), canonical: Self.canonical)
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

extension CanonicalAnswers<SharedAASAMatchers.Matcher>.Entry {
    /// What iOS does with `url` for `appID`, the host not checked.
    func match(url: String, appID: String) -> SharedAASAMatchers.Answer {
        match(url: url, app: appID)
    }
}
