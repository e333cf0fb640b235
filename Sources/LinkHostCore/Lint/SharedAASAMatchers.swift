import LinkHostJSON

/// The generated AASA of the sites being linted, parsed and compiled for matching, with the answers each has
/// given: sites that serve the same bytes (the same apps and link templates) share one, so a config of many
/// alike sites generates, compiles and matches a URL once.
///
/// An answer depends on the document, the URL and the app only (the consistency checks do not check the
/// host), so it is kept by exactly those. The most recently made `capacity` documents are kept, since a
/// compiled document of hundreds of derived rules is large and a config of distinct sites shares none.
final class SharedAASAMatchers {
    /// One document and its answers.
    final class Entry {
        /// The document as generated.
        let document: JSONValue
        let bytes: [UInt8]
        private let matcher: AASAMatcher
        private var answers: [Question: MatchResult] = [:]

        private struct Question: Hashable {
            let url: String
            let appID: String
        }

        init(document: JSONValue, bytes: [UInt8]) {
            self.document = document
            self.bytes = bytes
            matcher = AASAMatcher(document: document)
        }

        /// What iOS does with `url` for `appID`, the host not checked.
        func match(url: String, appID: String) -> MatchResult {
            let question = Question(url: url, appID: appID)
            if let known = answers[question] { return known }
            let result = matcher.match(url: url, appID: appID, domain: "")
            answers[question] = result
            return result
        }
    }

    /// How many documents are kept.
    let capacity: Int
    private var entries: [Entry] = []

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// The entry of `site`'s generated AASA: a kept one when the site serves the same bytes, else a new one.
    func entry(for site: Site) -> Entry {
        // A site without apps serves no AASA, but the checks still read the (app-less) document it would be.
        if !site.aasaBytes.isEmpty, let kept = entries.last(where: { $0.bytes == site.aasaBytes }) { return kept }
        let entry = Entry(document: AASAGenerator.document(for: site.config), bytes: site.aasaBytes)
        guard !site.aasaBytes.isEmpty else { return entry }
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst() }
        return entry
    }
}
