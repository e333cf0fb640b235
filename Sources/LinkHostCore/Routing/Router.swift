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
        case .callPage(let page): return page.render()?.response(for: request.inOriginForm) ?? page.site.notFound
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
        let links = site.config.callLinks.links
        let query = { (name: String) in request.query[name] }
        let kind: PageKind
        let link: CallLink
        if let page = links.match(path: request.path.utf8, query: query) {
            link = page.link
            kind = .page(site.callPage.chooser.choose(override: request.language, acceptLanguage: request.acceptLanguage))
        } else if let image = links.matchQRCode(path: request.path.utf8, query: query) {
            link = image.link
            kind = .qrCode
        } else {
            return .prepared(site.notFound)
        }
        guard request.isRead else { return .prepared(snapshot.methodNotAllowed) }
        // The canonical URL comes from the Host only when the site has no base URL; only then is it part of the key.
        let host = site.config.callLinks.baseURL == nil ? request.host : nil
        return .callPage(PageRequest(site: site, link: link, kind: kind, host: host))
    }

    /// Static file names may need percent-encoding in a URL; decode strictly, only when there is an escape.
    private func decodedResource(_ path: String, on site: Site) -> Resource? {
        guard path.utf8.contains(UInt8(ascii: "%")), let decoded = PathDecoding.decode(path) else { return nil }
        return snapshot.exactResource(decoded.utf8, on: site)
    }
}

/// What a call link's request asks for: its page in a language, or its QR-code image.
package enum PageKind: Hashable, Sendable {
    /// The HTML page, in the chosen locale.
    case page(LanguageChoice)
    /// The SVG image of the canonical URL (`…/qr.svg`), the same in every language.
    case qrCode
}

/// One call page or QR code to render: everything its bytes depend on, which is also its cache key.
package struct PageRequest: Sendable {
    /// The site whose page it is.
    package let site: Site
    /// The call, whichever link shape named it.
    package let link: CallLink
    /// The page in a language, or the QR code.
    package let kind: PageKind
    /// The request's Host, when the site builds absolute URLs from it.
    package let host: String?

    /// The key of the rendered page in the server's cache: the same for every link shape of one call.
    package var key: PageKey { PageKey(site: site.index, link: link, kind: kind, host: host) }

    /// The rendered page (or image) with its 304; nil for a QR code when the site has no origin to encode.
    package func render() -> Resource? {
        switch kind {
        case .page(let language): return site.callPage.render(link, language: language, host: host)
        case .qrCode: return site.callPage.renderQRCode(link, host: host)
        }
    }

    /// The position of the rendered page's headers in `CallPage.headerSets`; nil for a QR code.
    package var headerSet: Int? {
        guard case .page(let language) = kind else { return nil }
        return site.callPage.headerSet(for: language)
    }
}

/// Names every input of a rendered call page within one snapshot. The device is not one of them:
/// the page is the same bytes for every User-Agent.
package struct PageKey: Hashable, Sendable {
    let site: Int
    let link: CallLink
    let kind: PageKind
    let host: String?
}
