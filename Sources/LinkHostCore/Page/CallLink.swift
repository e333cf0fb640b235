import CallLinks

/// One call link taken from a request: `/<path>/<callId>?type=<callType>` or `/<path>/<callType>:<callId>`.
public struct CallLink: Sendable, Equatable {
    /// The configured path segment the link used, e.g. `call`.
    public let path: String
    /// The call ID: 1–64 of `[A-Za-z0-9_-]`.
    public let callID: String
    /// The call type: 1–64 of `[A-Za-z0-9_-]`.
    public let callType: String

    /// What a request path says about call links.
    public enum Match: Sendable, Equatable {
        /// The path does not start with a call-link path segment.
        case notCallLink
        /// It does, but the rest is not a valid call; answered with the friendly 404, never echoed.
        case invalid
        /// A valid call link.
        case valid(CallLink)
    }

    /// Reads a raw (still percent-encoded) path and raw `type` query value against the configured paths.
    ///
    /// Valid IDs and types never contain "%", so any escape, encoded slash or NUL makes the link invalid
    /// without being decoded.
    public static func match(path rawPath: String, type rawType: String?, settings: CallLinkSettings) -> Match {
        let bytes = rawPath.utf8
        guard bytes.first == UInt8(ascii: "/") else { return .notCallLink }
        let afterSlash = bytes.dropFirst()
        guard let slash = afterSlash.firstIndex(of: UInt8(ascii: "/")) else {
            return settings.paths.contains(String(decoding: afterSlash, as: UTF8.self)) ? .invalid : .notCallLink
        }
        let prefix = String(decoding: afterSlash[..<slash], as: UTF8.self)
        guard settings.paths.contains(prefix) else { return .notCallLink }
        var rest = afterSlash[afterSlash.index(after: slash)...]
        if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }

        let callID: Substring.UTF8View.SubSequence
        var callType: String
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
            let typePart = rest[..<colon]
            callID = rest[rest.index(after: colon)...]
            guard CallToken.isValid(typePart) else { return .invalid }
            callType = String(decoding: typePart, as: UTF8.self)
        } else {
            callID = rest
            callType = settings.defaultType
            if let rawType, !rawType.isEmpty {
                guard CallToken.isValid(rawType.utf8) else { return .invalid }
                callType = rawType
            }
        }
        guard CallToken.isValid(callID) else { return .invalid }
        return .valid(CallLink(path: prefix, callID: String(decoding: callID, as: UTF8.self), callType: callType))
    }
}

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
