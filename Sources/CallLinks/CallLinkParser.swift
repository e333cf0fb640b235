/// Turns a link an app receives into the call it names, with the very code the server matches links with.
///
/// ```swift
/// let parser = try CallLinkParser(templates: ["/call/{callId}?type={callType}", "/join/{callType}:{callId}"],
///                                 defaultType: "default", hosts: ["links.example.com"])
/// parser.parse("https://links.example.com/call/abc?type=video")   // CallLink(callID: "abc", callType: "video")
/// ```
///
/// `linkhost print swift-parser` prints the line that builds it from the server's config, so the app and
/// the server read the same templates. A link is a call link when it is `https` (port 443 or none) or `http`
/// (port 80 or none) on one of the hosts, and its path and query fit a template exactly as the server's
/// routing decides; the fragment is ignored, as browsers never send it.
///
/// `http` reads as the same call as `https` because iOS opens both in the app: Apple's universal links are
/// "standard HTTP or HTTPS links" (developer.apple.com/documentation/xcode/allowing-apps-and-websites-to-link-to-your-content),
/// and the `NSUserActivity.webpageURL` the app is handed is "the http or https URL"
/// (developer.apple.com/documentation/foundation/nsuseractivitytypebrowsingweb). A messenger that auto-links
/// a bare `links.example.com/call/abc` writes it as `http`, and the app must not open with nothing to do.
///
/// With `schemes`, the custom-scheme form of every template is a call link too: the scheme, `://`, and the
/// path and query without their leading `/` (`examplevideo://call/abc?type=video`), as the page writes it.
public struct CallLinkParser: Sendable, Hashable {
    /// The templates in order, with the default call type.
    public let matcher: CallLinkMatcher
    /// The hosts links are accepted on, lowercased; `*.example.com` covers every subdomain.
    public let hosts: [String]
    /// The app's custom URL schemes, lowercased, whose links are read in the scheme form.
    public let schemes: [String]

    /// The templates in order; the first is canonical.
    public var templates: [CallLinkTemplate] { matcher.templates }
    /// The call type of links that carry none.
    public var defaultType: String { matcher.defaultType }

    /// Parses and checks the templates, the default type and the hosts the way the server's config does.
    public init(templates: [String], defaultType: String = "default", hosts: [String], schemes: [String] = []) throws(CallLinkParserError) {
        guard !templates.isEmpty else { throw .noTemplates }
        var parsed: [CallLinkTemplate] = []
        for text in templates {
            let template: CallLinkTemplate
            do {
                template = try CallLinkTemplate(text)
            } catch {
                throw .template(text, error)
            }
            if let earlier = parsed.first(where: { $0.answersFirst(over: template) }) {
                throw .neverDecides(text, earlier: earlier.text)
            }
            parsed.append(template)
        }
        guard CallToken.isValid(defaultType) else { throw .defaultType(defaultType) }
        guard !hosts.isEmpty else { throw .noHosts }
        var lowered: [String] = []
        for host in hosts {
            if let problem = CallLinkHost.problem(host) { throw .host(host, problem: problem) }
            lowered.append(host.lowercased())
        }
        for scheme in schemes where !Self.isCustomScheme(scheme) { throw .scheme(scheme) }
        matcher = CallLinkMatcher(templates: parsed, defaultType: defaultType)
        self.hosts = lowered
        self.schemes = schemes.map { $0.lowercased() }
    }

    /// The call `url` names, or nil when it is not a call link of these hosts and templates.
    public func parse(_ url: String) -> CallLink? {
        guard url.utf8.count <= Self.maxLength else { return nil }
        if let pathAndQuery = schemeForm(url) { return matcher.match(pathAndQuery: pathAndQuery)?.link }
        guard let parts = CallLinkURL(url), let defaultPort = Self.webSchemePorts[parts.scheme], parts.port == nil || parts.port == defaultPort,
              hosts.contains(where: { CallLinkHost.covers($0, host: parts.host) })
        else { return nil }
        let query = parts.query.map { QueryItems.firstValues($0) } ?? [:]
        return matcher.match(path: parts.path.utf8, query: { query[$0] })?.link
    }

    /// The web schemes iOS opens universal links of, with the port each implies (a link on another port is
    /// another origin, which the AASA does not cover).
    static let webSchemePorts = ["https": 443, "http": 80]

    /// The longest link read: far above any call link, so a pasted novel is refused before it is scanned.
    public static let maxLength = 2048

    /// `/` and what follows `SCHEME://` up to the fragment, when `url` is in one of `schemes`' forms; read
    /// as bytes, like `CallLinkURL`.
    private func schemeForm(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard !schemes.isEmpty, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        guard schemes.contains(CallLinkURL.asciiLowercased(bytes[..<colon])) else { return nil }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8), !rest.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        let afterSlashes = rest.dropFirst(2)
        guard afterSlashes.first != UInt8(ascii: "/") else { return nil }
        return "/" + String(decoding: afterSlashes[..<(afterSlashes.firstIndex(of: UInt8(ascii: "#")) ?? afterSlashes.endIndex)], as: UTF8.self)
    }

    /// A custom URL scheme (RFC 3986 §3.1), not a web one: a letter, then letters, digits, `+`, `-`, `.`.
    static func isCustomScheme(_ scheme: String) -> Bool {
        let lowered = scheme.lowercased()
        guard let first = lowered.utf8.first, first >= 0x61 && first <= 0x7A, lowered != "http", lowered != "https" else { return false }
        return lowered.utf8.allSatisfy { CallLinkHost.isLetterOrDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }
}

/// Why a `CallLinkParser` cannot be made; the description reads like the config's error for the same mistake.
public enum CallLinkParserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The template list is empty.
    case noTemplates
    /// A template is malformed (the same error the config reports as LH115).
    case template(String, CallLinkTemplateError)
    /// A template is listed after one that matches every link it matches.
    case neverDecides(String, earlier: String)
    /// The default type is not a call token.
    case defaultType(String)
    /// The host list is empty.
    case noHosts
    /// A host cannot be a site's host.
    case host(String, problem: String)
    /// A scheme is not a custom URL scheme.
    case scheme(String)

    /// The problem in one sentence.
    public var description: String {
        switch self {
        case .noTemplates: return "no link template; give at least one, such as \"/call/{callId}?type={callType}\""
        case .template(let text, let error): return "\"\(text)\" \(error)"
        case .neverDecides(let text, let earlier):
            return text == earlier ? "\"\(text)\" is listed twice" : "\"\(text)\" never decides: \"\(earlier)\" before it matches every link it matches"
        case .defaultType(let type): return "defaultType \"\(type)\" \(CallToken.expectation)"
        case .noHosts: return "no host; give the hosts links are served on, such as \"links.example.com\""
        case .host(let host, let problem): return "host \"\(host)\" \(problem)"
        case .scheme(let scheme): return "scheme \"\(scheme)\" is not a custom URL scheme such as \"examplevideo\" (a letter, then letters, digits, +, - or .; not http or https)"
        }
    }
}
