import CallLinks

/// Decides every request, once: the site its host chooses, `server.strictHosts`' refusal, a file (or its 304,
/// or 405), a beacon, a call page or QR code and the host it names, or the site's 404. No sockets, no clocks,
/// no disk.
///
/// `decide` reads the request where it is (`RequestHead`): the server asks it on its hot path with
/// libmicrohttpd's bytes, and a test's in-memory request, a `Request` value (`respond(to:)`, `match`, the
/// fuzzer) go through the same function, so no second routing can drift from it.
public struct Router: Sendable {
    /// The snapshot being served.
    public let snapshot: Snapshot

    /// Makes a router over a snapshot.
    public init(snapshot: Snapshot) { self.snapshot = snapshot }

    /// What answers a request, and on which site. `Part` is a piece of the request's own bytes (a page's host).
    @usableFromInline
    package struct Decision<Part> {
        /// The site the request's host chose.
        package let site: Site
        /// The answer.
        package let answer: Answer<Part>

        @usableFromInline
        init(site: Site, answer: Answer<Part>) {
            self.site = site
            self.answer = answer
        }
    }

    /// Every kind of answer; the server handles each case (an exhaustive `switch`), so a new one is a compile error there.
    @usableFromInline
    package enum Answer<Part> {
        /// A response computed at load, sent as it is: a file or its 304, a 404, a 405.
        case prepared(Response)
        /// The health probe or the metrics page: prepared, but the server fills its body while it has live lines.
        case live(Response)
        /// `server.strictHosts`: no site lists the host (`Snapshot.unknownHost`).
        case unknownHost(Response)
        /// A call link asked for with a Host the config does not name (`Snapshot.hostRefused`).
        case hostRefused(Response)
        /// A beacon from the site's own page: the server counts it within the rates (`beaconAnswers.accepted`
        /// or `.limited`).
        case beacon(Beacon)
        /// A beacon sent from another site's page (`BeaconOrigin`): `beaconAnswers.forbidden`, counted as dropped.
        case crossSiteBeacon(Response)
        /// A POST to the beacon path that names no beacon: `beaconAnswers.malformed`, counted as dropped.
        case malformedBeacon(Response)
        /// A call page or QR code to render (or take from the page cache); `host` is what its absolute URLs name.
        case page(PageTarget, host: PageHostName<Part>)
    }

    /// The response for a request made of strings: the decision, with a page rendered by the core.
    public func respond(to request: Request) -> Response {
        let decision = decide(request)
        switch decision.answer {
        case .prepared(let response), .live(let response), .unknownHost(let response), .hostRefused(let response),
             .crossSiteBeacon(let response), .malformedBeacon(let response):
            return response
        case .beacon:
            return snapshot.beaconAnswers.accepted
        case .page(let target, let host):
            let page = PageRequest(site: decision.site, target: target, host: host.text)
            return page.render()?.response(ifNoneMatch: request.ifNoneMatch) ?? decision.site.notFound
        }
    }

    /// Decides a request made of strings (tests, `match`, the fuzzer) with the server's own `decide`.
    package func decide(_ request: Request) -> Decision<ArraySlice<UInt8>> {
        decide(RequestValueHead(request))
    }

    /// Decides what answers `request`, reading its fields and query items only as far as the answer needs.
    @inlinable
    package func decide<Head: RequestHead>(_ request: Head) -> Decision<Head.Bytes.SubSequence> {
        let target = request.path[...]
        // RFC 9112 §3.2.2: an absolute-form target's authority takes the place of Host.
        guard target.first != UInt8(ascii: "/"), let absolute = Self.absoluteForm(target) else {
            return decide(request, path: target, authority: request.host.map { $0[...] })
        }
        if absolute.path.isEmpty { return decide(request, path: CollectionOfOne(UInt8(ascii: "/")), authority: absolute.authority) }
        return decide(request, path: absolute.path, authority: absolute.authority)
    }

    /// The decision on `path` (origin form) and `authority` (the Host, or an absolute target's).
    @inlinable
    func decide<Head: RequestHead, Path: BidirectionalCollection<UInt8>>(_ request: Head, path: Path, authority: Head.Bytes.SubSequence?)
        -> Decision<Head.Bytes.SubSequence> {
        let site = snapshot.site(forAuthority: authority)
        // server.strictHosts: a host no site lists gets nothing of the default site's, on either listener.
        if let refusal = snapshot.strictHostRefusal(authority: authority, site: site, path: path) {
            return Decision(site: site, answer: .unknownHost(refusal))
        }
        return Decision(site: site, answer: answer(request, path: path, authority: authority, on: site))
    }

    @inlinable
    func answer<Head: RequestHead, Path: BidirectionalCollection<UInt8>>(_ request: Head, path: Path, authority: Head.Bytes.SubSequence?, on site: Site)
        -> Answer<Head.Bytes.SubSequence> {
        let isRead = Self.isRead(request.method)
        // A file computed at load, found by the path as sent, or as decoded when it has an escape.
        if let resource = snapshot.exactResource(path, on: site) ?? decodedResource(path, on: site) {
            let response = resource.response(ifNoneMatch: request.ifNoneMatch)
            if response.route == .beacon { return beacon(request, authority: authority, on: site) }
            guard isRead else { return .prepared(snapshot.methodNotAllowed) }
            return response.route == .health || response.route == .metrics ? .live(response) : .prepared(response)
        }
        guard let target = pageTarget(path: path, on: site, query: { request.queryItem($0) },
                                      language: { request.language }, acceptLanguage: { request.acceptLanguage })
        else { return .prepared(site.notFound(language: { request.language }, acceptLanguage: { request.acceptLanguage })) }
        guard isRead else { return .prepared(snapshot.methodNotAllowed) }
        switch snapshot.pageHost(authority: authority, site: site) {
        case .noRequestHost: return .page(target, host: .none)
        case .request(let range): return .page(target, host: .request(authority![range]))
        case .lowercased(let bytes): return .page(target, host: .lowercased(bytes))
        case .refused: return .hostRefused(snapshot.hostRefused)
        }
    }

    /// The beacon path (`Beacon.path`, every host): a beacon on POST from the site's own page, else its refusal.
    @usableFromInline
    func beacon<Head: RequestHead>(_ request: Head, authority: Head.Bytes.SubSequence?, on site: Site) -> Answer<Head.Bytes.SubSequence> {
        let answers = snapshot.beaconAnswers
        guard request.method.elementsEqual("POST".utf8) else { return .prepared(answers.methodNotAllowed) }
        guard let beacon = Beacon(event: request.queryItem("e"), platform: request.queryItem("p")) else { return .malformedBeacon(answers.malformed) }
        // Only from the site's own pages: another site's page must not move its counters (issue 30, item 8).
        let host = authority.map { String(decoding: $0, as: UTF8.self) }
        guard BeaconOrigin.isOwn(fetchSite: request.fetchSite, origin: request.origin, host: host, site: site, in: snapshot) else {
            return .crossSiteBeacon(answers.forbidden)
        }
        return .beacon(beacon)
    }

    /// The call page or QR code a path that is no file asks for on `site`, or nil for none (a 404).
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

    /// Static file names may need percent-encoding in a URL; decoded strictly, only when there is an escape.
    @inlinable
    func decodedResource<Path: Collection<UInt8>>(_ path: Path, on site: Site) -> Resource? {
        guard path.contains(UInt8(ascii: "%")) else { return nil }
        return decodedResource(String(decoding: path, as: UTF8.self), on: site)
    }

    @usableFromInline
    func decodedResource(_ path: String, on site: Site) -> Resource? {
        PathDecoding.decode(path).flatMap { snapshot.exactResource($0.utf8, on: site) }
    }

    /// GET and HEAD, the only methods linkhost serves content for (as sent: methods are case-sensitive).
    @inlinable
    static func isRead<Method: Collection<UInt8>>(_ method: Method) -> Bool {
        var bytes = method.makeIterator()
        switch (bytes.next(), bytes.next(), bytes.next(), bytes.next(), bytes.next()) {
        case (UInt8(ascii: "G"), UInt8(ascii: "E"), UInt8(ascii: "T"), nil, nil): return true
        case (UInt8(ascii: "H"), UInt8(ascii: "E"), UInt8(ascii: "A"), UInt8(ascii: "D"), nil): return true
        default: return false
        }
    }

    /// The authority and path of an absolute-form target (`http://host/path`, scheme in any case), nil for any
    /// other form. The path is empty when the target has none.
    @inlinable
    static func absoluteForm<Target: Collection<UInt8>>(_ target: Target) -> (authority: Target.SubSequence, path: Target.SubSequence)?
    where Target.SubSequence == Target {
        var rest = target
        for byte in "http".utf8 {
            guard let first = rest.first, first | 0x20 == byte else { return nil }
            rest = rest.dropFirst()
        }
        if rest.first.map({ $0 | 0x20 }) == UInt8(ascii: "s") { rest = rest.dropFirst() }
        for byte in "://".utf8 {
            guard rest.first == byte else { return nil }
            rest = rest.dropFirst()
        }
        let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        return (rest[..<slash], rest[slash...])
    }
}

/// The host a call page's absolute URLs name, as `Router` chose it (`PageHost`).
@usableFromInline
package enum PageHostName<Part> {
    /// None from the request: the site's `baseURL`, or no origin at all.
    case none
    /// These bytes of the request (lowercase already).
    case request(Part)
    /// The request's host, lowercased.
    case lowercased([UInt8])
}

extension PageHostName where Part: Collection<UInt8> {
    /// The host as text, nil for none.
    package var text: String? {
        switch self {
        case .none: return nil
        case .request(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .lowercased(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }
}
