import LinkHostJSON

/// A compiled association file that `CanonicalAnswers` asks: what the platform does with a URL for one app.
protocol CanonicalMatcher {
    /// What the consistency checks read of one decision.
    associatedtype Answer
    /// Compiles `document` for matching.
    init(document: JSONValue)
    /// The platform's decision for `url` and `app` (an app ID or a package name), the host not checked.
    func answer(url: String, app: String) -> Answer
}

/// Compiled documents in a canonical form, shared by the sites whose rules are the same, with the answers each
/// has given: what `SharedAASAMatchers` and `SharedAndroidMatchers` have in common (issue 33).
///
/// A site's document is asked in its canonical form (each app replaced by a stand-in, the URL under one
/// stand-in origin) when it has one and its origin is plainly `scheme://authority`; a question the canonical form
/// cannot take (an app the document does not list, a URL under another origin) is asked of the site's own
/// document. The most recently made `capacity` documents are kept: a compiled document of hundreds of derived
/// rules is large, and a config of distinct sites shares none.
final class CanonicalAnswers<Matcher: CanonicalMatcher> {
    /// One document, compiled, and the answers it has given.
    final class Answers {
        private let matcher: Matcher
        private var answers: [Question: Matcher.Answer] = [:]

        private struct Question: Hashable {
            let url: String
            let app: String
        }

        init(document: JSONValue) {
            matcher = Matcher(document: document)
        }

        /// The decision for `url` and `app`, the host not checked; each question is decided once.
        func match(url: String, app: String) -> Matcher.Answer {
            let question = Question(url: url, app: app)
            if let known = answers[question] { return known }
            let answer = matcher.answer(url: url, app: app)
            answers[question] = answer
            return answer
        }
    }

    /// One site's document, and the answers of its canonical form.
    final class Entry {
        /// The document as generated.
        let document: JSONValue
        /// The answers of its canonical form, shared with every site of the same rules.
        let answers: Answers
        /// Each app's stand-in in the canonical document; nil when the document is asked as it is.
        private let slots: [String: String]?
        /// The site's origin, which the canonical form asks under `canonicalStandInOrigin`.
        private let origin: String
        /// The document's own answers, for the questions the canonical form cannot take.
        private lazy var own = Answers(document: document)

        init(document: JSONValue, answers: Answers, slots: [String: String]?, origin: String) {
            (self.document, self.answers, self.slots, self.origin) = (document, answers, slots, origin)
        }

        /// The decision for `url` and `app`, the host not checked.
        func match(url: String, app: String) -> Matcher.Answer {
            guard let slots else { return answers.match(url: url, app: app) }
            guard let slot = slots[app], url.hasPrefix(origin), url.utf8.dropFirst(origin.utf8.count).first == UInt8(ascii: "/") else {
                return own.match(url: url, app: app)
            }
            return answers.match(url: canonicalStandInOrigin + url.dropFirst(origin.count), app: slot)
        }
    }

    /// How many canonical documents are kept.
    let capacity: Int
    /// The kept documents and their answers, the most recent last: tenants of one rule set come one after
    /// another, and a document is compared, not written out and hashed, to find its answers.
    private var kept: [(document: JSONValue, answers: Answers)] = []

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// The entry of a site's generated `document`, whose URLs are asked under `origin`; `canonical` gives the
    /// document's canonical form and each app's stand-in, or nil when it has none.
    func entry(document: JSONValue, origin: String, canonical: (JSONValue) -> (JSONValue, [String: String])?) -> Entry {
        // An origin that is not plainly `scheme://authority` would read its URLs otherwise than the stand-in's.
        let plainOrigin = ServedConsistency.isPlainOrigin(origin)
            || (try? SplitURL(origin + "/")).map { ($0.scheme == "https" || $0.scheme == "http") && $0.path == "/" } ?? false
        guard plainOrigin, let (form, slots) = canonical(document) else {
            return Entry(document: document, answers: answers(for: document), slots: nil, origin: origin)
        }
        return Entry(document: document, answers: answers(for: form), slots: slots, origin: origin)
    }

    /// The kept answers of `document`, or new ones.
    private func answers(for document: JSONValue) -> Answers {
        if let known = kept.last(where: { $0.document == document }) { return known.answers }
        let made = Answers(document: document)
        kept.append((document, made))
        if kept.count > capacity { kept.removeFirst() }
        return made
    }
}

/// The origin every canonical question is asked under (a generic class cannot hold a stored static).
let canonicalStandInOrigin = "https://example.com"
