/// Whether a URL belongs to the domain an `apple-app-site-association` file was served for.
///
/// iOS only consults a domain's file for URLs on that domain, so a URL on another host is never a universal
/// link for it, whatever the rules say.
public enum DomainCheck {
    /// The verdict on one URL.
    public enum Outcome: Sendable, Equatable {
        /// No domain was given, so the host was not checked.
        case skipped
        /// The URL is on the domain.
        case matches
        /// The URL's host is not the domain (nor, for a `*.` domain, under it).
        case hostMismatch
        /// The host is right but the URL is on another port than the domain's.
        case portMismatch
    }

    /// A domain as the entitlement or the CLI names it: `example.com`, `*.example.com`, `example.com:8443`.
    public struct Domain: Sendable, Equatable {
        /// The host, lower-cased, without `*.` and without a trailing dot.
        public let host: String
        /// Whether the domain was `*.host`, which covers every subdomain of `host` but not `host` itself.
        public let coversSubdomains: Bool
        /// The explicit port, or nil for the scheme's default.
        public let port: Int?

        /// Reads a domain, tolerating the `applinks:` prefix, a `?mode=` suffix and a pasted `https://`.
        public init(_ text: String) {
            var rest = Substring(text.trimmingASCIISpaces())
            if rest.hasPrefix("applinks:") { rest = rest.dropFirst("applinks:".count) }
            if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
            if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
            var port: Int?
            if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]"),
               let number = Int(rest[rest.index(after: colon)...]), number >= 0, number <= 65535 {
                port = number
                rest = rest[..<colon]
            }
            coversSubdomains = rest.hasPrefix("*.")
            if coversSubdomains { rest = rest.dropFirst(2) }
            host = DomainCheck.normalize(String(rest))
            self.port = port
        }

        /// True when no domain was given at all.
        public var isEmpty: Bool { host.isEmpty && !coversSubdomains }
    }

    /// Lower-cases a host and drops one trailing dot, since `Example.COM.` and `example.com` name the same site.
    public static func normalize(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix("."), lowered.count > 1 { lowered.removeLast() }
        return lowered
    }

    /// The scheme's default port, so that `https://example.com:443/` is on `example.com`.
    public static func defaultPort(forScheme scheme: String) -> Int? {
        switch scheme {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }

    /// Checks a split URL against a domain; an empty domain skips the check.
    public static func check(_ url: SplitURL, against domain: Domain) -> Outcome {
        guard !domain.isEmpty else { return .skipped }
        let hostMatches: Bool
        if domain.coversSubdomains {
            hostMatches = url.host.hasSuffix("." + domain.host) && url.host.count > domain.host.count + 1
        } else {
            hostMatches = url.host == domain.host
        }
        guard hostMatches else { return .hostMismatch }
        let urlPort = url.port ?? defaultPort(forScheme: url.scheme)
        let domainPort = domain.port ?? defaultPort(forScheme: url.scheme)
        return urlPort == domainPort ? .matches : .portMismatch
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    func trimmingASCIISpaces() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
