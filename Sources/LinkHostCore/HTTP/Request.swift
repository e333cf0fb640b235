/// An HTTP request made of strings, for what decides a request outside the server: tests, `match`, the fuzzer.
///
/// `Router` reads it through `RequestValueHead`, with the same `decide` the server asks with a request's bytes.
public struct Request: Sendable, Equatable {
    /// Method as sent, e.g. "GET".
    public var method: String
    /// The request target as sent (still percent-encoded; an absolute form is read as one), without the query.
    public var path: String
    /// Raw values of query items by name (the first of each name), as a request sends them.
    public var query: [String: String]
    /// The `If-None-Match` header.
    public var ifNoneMatch: String?
    /// The `User-Agent` header.
    public var userAgent: String?
    /// The `Host` header: the site, and the host of a page's absolute URLs when the site has no base URL.
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
}
