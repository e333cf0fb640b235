/// Maps a request value to a response value; no sockets, no clocks, no disk.
public struct Router: Sendable {
    /// The query items the router reads; the server adapter extracts exactly these (static text, so the
    /// adapter hands them to C without a conversion per request).
    public static let queryItemNames: [StaticString] = ["type"]

    /// The snapshot being served.
    public let site: Site

    /// Makes a router over a snapshot.
    public init(site: Site) { self.site = site }

    /// The response for a request.
    public func respond(to request: Request) -> Response {
        let request = request.inOriginForm
        if let resource = site.resources[request.path] ?? decodedResource(request.path) {
            return request.isRead ? resource.response(for: request) : site.methodNotAllowed
        }
        switch CallLink.match(path: request.path, type: request.query["type"], settings: site.config.callLinks) {
        case .valid(let link):
            guard request.isRead else { return site.methodNotAllowed }
            return site.callPage.render(link, platform: Platform(userAgent: request.userAgent), host: request.host)
        case .invalid, .notCallLink:
            return site.notFound
        }
    }

    /// Static file names may need percent-encoding in a URL; decode strictly, only when there is an escape.
    private func decodedResource(_ path: String) -> Resource? {
        guard path.utf8.contains(UInt8(ascii: "%")), let decoded = PathDecoding.decode(path) else { return nil }
        return site.resources[decoded]
    }
}
