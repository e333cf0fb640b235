/// An HTTP request as the router sees it: only the parts that decide a response.
///
/// The server adapter fills in exactly these fields, so routing is a pure function of this value.
public struct Request: Sendable, Equatable {
    /// Method as sent, e.g. "GET".
    public var method: String
    /// Request path as sent (still percent-encoded), without the query.
    public var path: String
    /// Raw values of the query items named in `Router.queryItemNames`; other items are never read.
    public var query: [String: String]
    /// The `If-None-Match` header.
    public var ifNoneMatch: String?
    /// The `User-Agent` header.
    public var userAgent: String?
    /// The `Host` header, used for absolute URLs when no base URL is configured.
    public var host: String?
    /// The `Accept-Language` header, which picks the call page's locale.
    public var acceptLanguage: String?
    /// The raw value of the `lang` query item: a locale tag that overrides `Accept-Language`.
    public var language: String?

    /// Makes a request value.
    public init(method: String = "GET", path: String, query: [String: String] = [:], ifNoneMatch: String? = nil, userAgent: String? = nil, host: String? = nil,
                acceptLanguage: String? = nil, language: String? = nil) {
        self.host = host
        self.acceptLanguage = acceptLanguage
        self.language = language
        self.method = method
        self.path = path
        self.query = query
        self.ifNoneMatch = ifNoneMatch
        self.userAgent = userAgent
    }

    /// The request with an absolute-form target (`GET http://host/path`) turned into origin form, its
    /// authority taking the place of `Host` (RFC 9112 §3.2.2); other targets are returned unchanged.
    public var inOriginForm: Request {
        let lowered = path.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return self }
        let rest = path.dropFirst(schemeLength)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var request = self
        request.host = String(rest[..<slash])
        request.path = slash == rest.endIndex ? "/" : String(rest[slash...])
        return request
    }

    /// True for GET and HEAD, the only methods linkhost serves content for.
    public var isRead: Bool { method == "GET" || method == "HEAD" }
}
