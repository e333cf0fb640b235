/// The kinds of visitor the page adapts to: the open-in-app URL differs, and only a computer's browser
/// gets a QR code (it is the phone that scans it; bots and tools read the meta tags).
public enum Platform: String, Sendable, CaseIterable {
    /// iPhone, iPad, iPod.
    case ios
    /// Android phones and tablets.
    case android
    /// A browser on a computer.
    case desktop
    /// No User-Agent, link-preview bots, crawlers and command-line tools.
    case other

    /// Classifies a User-Agent header.
    public init(userAgent: String?) {
        guard let agent = userAgent, agent.hasPrefix("Mozilla/") else { self = .other; return }
        if agent.contains("Android") {
            self = .android
        } else if agent.contains("iPhone") || agent.contains("iPad") || agent.contains("iPod") {
            self = .ios
        } else if Self.botWords.contains(where: { agent.containsIgnoringASCIICase($0) }) {
            self = .other
        } else {
            self = .desktop
        }
    }

    /// Words that mark crawlers and link-preview fetchers that still send a browser-like agent.
    private static let botWords = ["bot", "crawler", "spider", "preview", "facebookexternalhit", "embedly", "slurp"]
}

extension String {
    /// Case-insensitive ASCII containment, without Foundation.
    fileprivate func containsIgnoringASCIICase(_ word: String) -> Bool {
        let haystack = Array(utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let needle = Array(word.utf8)
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
