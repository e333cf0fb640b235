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

    /// Makes a request value.
    public init(method: String = "GET", path: String, query: [String: String] = [:], ifNoneMatch: String? = nil, userAgent: String? = nil, host: String? = nil) {
        self.host = host
        self.method = method
        self.path = path
        self.query = query
        self.ifNoneMatch = ifNoneMatch
        self.userAgent = userAgent
    }

    /// True for GET and HEAD, the only methods linkhost serves content for.
    public var isRead: Bool { method == "GET" || method == "HEAD" }
}
