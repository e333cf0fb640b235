import CallLinks

/// Maps a request value to a response value; no sockets, no clocks, no disk.
///
/// `decide` is the routing itself; the server's fast path answers from the same tables `decide` reads
/// (`Snapshot.exactResource`), and renders call pages through `decide` too, so both give the same answers.
public struct Router: Sendable {
    /// The snapshot being served.
    public let snapshot: Snapshot

    /// Makes a router over a snapshot.
    public init(snapshot: Snapshot) { self.snapshot = snapshot }

    /// What answers a request, and on which site.
    package struct Decision: Sendable {
        /// The site the request's host chose.
        package let site: Site
        /// The answer.
        package let answer: Answer
    }

    /// An answer: a response computed at load, or a call page still to render.
    package enum Answer: Sendable {
        /// A response computed at load (its `preparedID` is set), or the metrics page to fill.
        case prepared(Response)
        /// A call page: the page to render, and the key its rendering is cached under.
        case callPage(PageRequest)
    }

    /// The response for a request.
    public func respond(to request: Request) -> Response {
        switch decide(request).answer {
        case .prepared(let response): return response
        case .callPage(let page): return page.render()
        }
    }

    /// Decides what answers `request`.
    package func decide(_ request: Request) -> Decision {
        let request = request.inOriginForm
        let site = snapshot.site(forHost: request.host)
        return Decision(site: site, answer: answer(request, on: site))
    }

    private func answer(_ request: Request, on site: Site) -> Answer {
        if let resource = snapshot.exactResource(request.path.utf8, on: site) ?? decodedResource(request.path, on: site) {
            return .prepared(request.isRead ? resource.response(for: request) : snapshot.methodNotAllowed)
        }
        guard let (link, _) = site.config.callLinks.links.match(path: request.path.utf8, query: { request.query[$0] }) else {
            return .prepared(site.notFound)
        }
        guard request.isRead else { return .prepared(snapshot.methodNotAllowed) }
        let platform = Platform(userAgent: request.userAgent)
        // The canonical URL comes from the Host only when the site has no base URL; only then is it part of the key.
        let host = site.config.callLinks.baseURL == nil ? request.host : nil
        return .callPage(PageRequest(site: site, link: link, platform: platform, host: host))
    }

    /// Static file names may need percent-encoding in a URL; decode strictly, only when there is an escape.
    private func decodedResource(_ path: String, on site: Site) -> Resource? {
        guard path.utf8.contains(UInt8(ascii: "%")), let decoded = PathDecoding.decode(path) else { return nil }
        return snapshot.exactResource(decoded.utf8, on: site)
    }
}

/// One call page to render: everything its bytes depend on, which is also its cache key.
package struct PageRequest: Sendable {
    /// The site whose page it is.
    package let site: Site
    /// The call, whichever link shape named it.
    package let link: CallLink
    /// The kind of visitor.
    package let platform: Platform
    /// The request's Host, when the site builds absolute URLs from it.
    package let host: String?

    /// The key of the rendered page in the server's cache: the same for every link shape of one call.
    package var key: PageKey { PageKey(site: site.index, link: link, platform: platform, host: host) }

    /// The rendered page.
    package func render() -> Response { site.callPage.render(link, platform: platform, host: host) }
}

/// Names every input of a rendered call page within one snapshot.
package struct PageKey: Hashable, Sendable {
    let site: Int
    let link: CallLink
    let platform: Platform
    let host: String?
}
