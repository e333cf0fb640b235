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
        /// A report from the page's script to count (`Beacon`); the server answers `beaconAnswers.accepted`,
        /// or `limited` when the site is over its rate.
        case beacon(Beacon)
    }

    /// The response for a request.
    public func respond(to request: Request) -> Response {
        switch decide(request).answer {
        case .prepared(let response): return response
        case .callPage(let page): return page.render()?.response(for: request.inOriginForm) ?? page.site.notFound
        case .beacon: return snapshot.beaconAnswers.accepted
        }
    }

    /// Decides what answers `request`.
    package func decide(_ request: Request) -> Decision {
        let request = request.inOriginForm
        let site = snapshot.site(forHost: request.host)
        if let refusal = snapshot.strictHostRefusal(authority: request.host.map { Array($0.utf8) }, site: site, path: request.path.utf8) {
            return Decision(site: site, answer: .prepared(refusal))
        }
        return Decision(site: site, answer: answer(request, on: site))
    }

    private func answer(_ request: Request, on site: Site) -> Answer {
        if request.path == Beacon.path {
            guard request.method == "POST" else { return .prepared(snapshot.beaconAnswers.methodNotAllowed) }
            guard let beacon = Beacon(event: request.query["e"], platform: request.query["p"]) else { return .prepared(snapshot.beaconAnswers.malformed) }
            return .beacon(beacon)
        }
        if let resource = snapshot.exactResource(request.path.utf8, on: site) ?? decodedResource(request.path, on: site) {
            return .prepared(request.isRead ? resource.response(for: request) : snapshot.methodNotAllowed)
        }
        guard let target = pageTarget(path: request.path.utf8, on: site, query: { request.query[$0] },
                                      language: { request.language }, acceptLanguage: { request.acceptLanguage })
        else { return .prepared(site.notFound(language: { request.language }, acceptLanguage: { request.acceptLanguage })) }
        guard request.isRead else { return .prepared(snapshot.methodNotAllowed) }
        let authority = request.host.map { Array($0.utf8) }
        let host: String?
        switch snapshot.pageHost(authority: authority, site: site) {
        case .noRequestHost: host = nil
        case .request(let range): host = authority.map { String(decoding: $0[range], as: UTF8.self) }
        case .lowercased(let bytes): host = String(decoding: bytes, as: UTF8.self)
        case .refused: return .prepared(snapshot.hostRefused)
        }
        return .callPage(PageRequest(site: site, target: target, host: host))
    }

    /// The call page or QR code a path that is no file asks for on `site`, or nil for none (a 404): the
    /// decision `decide` makes, on the request's bytes, so the server reaches it without making a `Request`.
    /// `query` gives the raw value of a query item; `language` and `acceptLanguage` are read only for pages.
    @inlinable
    package func pageTarget<Path: BidirectionalCollection<UInt8>>(path: Path, on site: Site, query: (String) -> String?,
                                                                   language: () -> String?, acceptLanguage: () -> String?) -> PageTarget? {
        let links = site.config.callLinks.links
        if let page = links.match(path: path, query: query) {
            return PageTarget(link: page.link, kind: .page(site.callPage.chooser.choose(override: language(), acceptLanguage: acceptLanguage())))
        }
        if let image = links.matchQRCode(path: path, query: query) {
            return PageTarget(link: image.link, kind: .qrCode)
        }
        if let image = links.matchQRCode(path: path, query: query, suffix: CallLinkMatcher.qrCodePNGSuffix) {
            return PageTarget(link: image.link, kind: .qrCodePNG)
        }
        return nil
    }

    /// Static file names may need percent-encoding in a URL; decode strictly, only when there is an escape.
    private func decodedResource(_ path: String, on site: Site) -> Resource? {
        guard path.utf8.contains(UInt8(ascii: "%")), let decoded = PathDecoding.decode(path) else { return nil }
        return snapshot.exactResource(decoded.utf8, on: site)
    }
}

/// What a call link's request asks for: its page in a language, or its QR-code image.
@usableFromInline
package enum PageKind: Hashable, Sendable {
    /// The HTML page, in the chosen locale.
    case page(LanguageChoice)
    /// The SVG image of the canonical URL (`…/qr.svg`), the same in every language.
    case qrCode
    /// The same image as PNG (`…/qr.png`).
    case qrCodePNG
}

/// Which call a request names, whichever link shape it used, and what of it: its page or its QR code.
@usableFromInline
package struct PageTarget: Sendable {
    /// The call.
    package let link: CallLink
    /// The page in a language, or the QR code.
    package let kind: PageKind

    /// Makes a target.
    @usableFromInline
    package init(link: CallLink, kind: PageKind) {
        self.link = link
        self.kind = kind
    }
}

/// One call page or QR code to render: everything its bytes depend on, which is also its cache key.
package struct PageRequest: Sendable {
    /// The site whose page it is.
    package let site: Site
    /// The call, whichever link shape named it.
    package let link: CallLink
    /// The page in a language, or the QR code.
    package let kind: PageKind
    /// The host of the page's absolute URLs when the site builds them from the Host (`PageHost`), as chosen
    /// from the request's: part of the cache key.
    package let host: String?

    /// The page `target` names on `site`; `host` is the one `PageHost` chose, nil under a base URL.
    package init(site: Site, target: PageTarget, host: String?) {
        self.site = site
        link = target.link
        kind = target.kind
        self.host = host
    }

    /// The rendered page (or image) with its 304; nil for a QR code when the site has no origin to encode.
    package func render() -> Resource? {
        switch kind {
        case .page(let language): return site.callPage.render(link, language: language, host: host)
        case .qrCode: return site.callPage.renderQRCode(link, host: host)
        case .qrCodePNG: return site.callPage.renderQRCode(link, host: host, png: true)
        }
    }

    /// The position of the rendered page's headers in `CallPage.headerSets`; nil for a QR code.
    package var headerSet: Int? {
        guard case .page(let language) = kind else { return nil }
        return site.callPage.headerSet(for: language)
    }
}

