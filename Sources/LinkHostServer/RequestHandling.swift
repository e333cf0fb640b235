import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// The request path: from libmicrohttpd's callback to a queued response, counted and logged.
extension Server {
    /// Answers one request whose headers have arrived: libmicrohttpd's (`NativeRequest`), or a test's
    /// (`InMemoryRequest`). Generic, not an existential, so the production path is specialized and keeps its
    /// byte handling free of allocations. What answers is `Router.decide`'s, made once on the request's bytes;
    /// what is left here is what needs the server: counters, clocks, the page cache and the native responses.
    func answer<Incoming: IncomingRequest>(_ incoming: Incoming, started: UInt64) -> MHD_Result {
        let native = current.withLock { $0 }
        if metricsOnly { return answerMetricsOnly(incoming, native: native) }
        let request = RequestBytes(incoming: incoming, userAgent: incoming.headerBytes("User-Agent"), started: started)
        let decision = native.router.decide(DecidedRequest(incoming: incoming))
        let site = decision.site
        // The plain-HTTP listener beside HTTPS answers challenges and redirects itself (Certificates/), on the
        // hosts server.strictHosts lets through.
        if let plainHTTP, !decision.answer.isUnknownHost,
           let response = plainHTTP.intercept(incoming, path: incoming.path, site: site, snapshot: native.snapshot, hostField: incoming.header("Host")) {
            return respond(response, to: request, site: site, native: native)
        }
        switch decision.answer {
        case .prepared(let response), .unknownHost(let response), .hostRefused(let response):
            return respond(response, to: request, site: site, native: native)
        case .live(let response):
            return respond(isLive(response.route) ? filled(response) : response, to: request, site: site, native: native)
        case .malformedBeacon(let response):
            native.counters[site.index].beacons.recordDrop(.malformed)
            return respond(response, to: request, site: site, native: native)
        case .crossSiteBeacon(let response):
            native.counters[site.index].beacons.recordDrop(.crossSite)
            return respond(response, to: request, site: site, native: native)
        case .beacon(let beacon):
            let counters = native.counters[site.index].beacons
            // Counted only within the client's share and the site's allowance: a flood moves the numbers by at
            // most that much, and one address flooding leaves the site's allowance to the other guests.
            guard counters.admit(client: clientAddress(incoming, native: native), now: LogTime.monotonicNanoseconds()) else {
                counters.recordDrop(.rate)
                return respond(native.snapshot.beaconAnswers.limited, to: request, site: site, native: native)
            }
            counters.record(beacon)
            return respond(native.snapshot.beaconAnswers.accepted, to: request, site: site, native: native)
        case .page(let target, let host):
            let ifNoneMatch = incoming.header("If-None-Match")
            switch host {
            case .none:
                return answerPage(target, site: site, host: nil, ifNoneMatch: ifNoneMatch, request: request, native: native)
            case .request(let bytes):
                return answerPage(target, site: site, host: UnsafeBufferPointer(rebasing: bytes), ifNoneMatch: ifNoneMatch, request: request, native: native)
            case .lowercased(let bytes):
                return bytes.withUnsafeBufferPointer { host in
                    answerPage(target, site: site, host: host, ifNoneMatch: ifNoneMatch, request: request, native: native)
                }
            }
        }
    }

    /// Answers 400 and closes, for a request whose framing or Host is ambiguous.
    func refuseAmbiguous(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> MHD_Result {
        refuse(\.badRequest, NativeRequest(connection, url: url, method: method))
    }

    /// Answers 413 and closes, for a request whose body is larger than linkhost reads (or of unknown size):
    /// no route takes one, and reading it would hold the connection far past the request deadline.
    func refuseBody(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> MHD_Result {
        refuse(\.contentTooLarge, NativeRequest(connection, url: url, method: method))
    }

    /// Queues a refusal made at load on the handler's first call (so libmicrohttpd reads nothing more and
    /// closes), and logs it on the default site: such a request is not routed.
    private func refuse(_ answer: KeyPath<Snapshot, Response>, _ incoming: NativeRequest) -> MHD_Result {
        let native = current.withLock { $0 }
        let response = native.snapshot[keyPath: answer]
        let result = queue(response, on: incoming, native: native)
        let request = RequestBytes(incoming: incoming, userAgent: incoming.headerBytes("User-Agent"), started: LogTime.monotonicNanoseconds())
        finish(request, route: .badRequest, status: response.status, bytes: response.body.count, site: native.snapshot.sites[0], native: native)
        return result
    }

    /// Queues `response`, then counts and logs it as the answer to `request`.
    func respond<Incoming: IncomingRequest>(_ response: Response, to request: RequestBytes<Incoming>, site: Site, native: NativeSnapshot) -> MHD_Result {
        let result = queue(response, on: request.incoming, native: native)
        finish(request, route: response.route, status: response.status, bytes: response.body.count, site: site, native: native)
        return result
    }

    /// Counts and logs an answered request.
    func finish<Incoming: IncomingRequest>(_ request: RequestBytes<Incoming>, route: Route, status: Int, bytes: Int, site: Site, native: NativeSnapshot) {
        let microseconds = Int((LogTime.monotonicNanoseconds() &- request.started) / 1000)
        metrics.record(native.counters[site.index], route: route, status: status, microseconds: microseconds, userAgent: Span(_unsafeElements: request.userAgent))
        guard let accessLog else { return }
        let incoming = request.incoming
        let referer = incoming.headerBytes("Referer")
        let isHead = request.method.count == 4 && request.method[0] == UInt8(ascii: "H")
        let peer = incoming.peerAddress
        let client = forwardedClient(incoming, peer: peer, native: native)
        // The tenant, for a log shared by many: the Host as sent (escaped by the writer) and the site that answered.
        client.withUnsafeBufferPointer { client in
            native.siteLabels[site.index].withUnsafeBufferPointer { label in
                accessLog.record(LogFields(
                    remote: client.isEmpty ? peer : client, host: incoming.headerBytes("Host"), site: label,
                    method: request.method, path: request.path, status: status, bytes: isHead ? 0 : bytes,
                    durationMicroseconds: microseconds,
                    userAgent: request.userAgent, referer: referer))
            }
        }
    }

    /// Behind trusted proxies, the address they forward (an empty array, no allocation, for everyone else).
    private func forwardedClient<Incoming: IncomingRequest>(_ incoming: Incoming, peer: UnsafeBufferPointer<UInt8>, native: NativeSnapshot) -> [UInt8] {
        let trusted = native.snapshot.config.server.trustedProxies
        return trusted.isEmpty ? [] : ForwardedClient.address(
            peer: peer, trusted: trusted, forwardedFor: { Self.joinedHeader(incoming, "X-Forwarded-For") },
            connectingIP: { incoming.headerString("CF-Connecting-IP") }).map { Array($0.utf8) } ?? []
    }

    /// The client's address as the access log shows it: the forwarded one behind trusted proxies, else the peer's.
    private func clientAddress<Incoming: IncomingRequest>(_ incoming: Incoming, native: NativeSnapshot) -> [UInt8] {
        let peer = incoming.peerAddress
        let client = forwardedClient(incoming, peer: peer, native: native)
        return client.isEmpty ? Array(peer) : client
    }

    /// Every line of a request header joined with ", ", or whether it is absent or longer than 2 KiB: a client
    /// may send its own `X-Forwarded-For` line before the one its proxy appends to.
    static func joinedHeader<Incoming: IncomingRequest>(_ incoming: Incoming, _ name: StaticString) -> ForwardedClient.Field {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 2048) { buffer in
            let length = incoming.joinedHeader(name, into: buffer)
            if length < 0 { return .tooLong }
            if length == 0 { return incoming.header(name) == nil ? .absent : .value("") }
            return .value(String(cString: buffer.baseAddress!))
        }
    }

    /// Queues a response: its native copy when it was computed at load, else a native response made now.
    func queue<Incoming: IncomingRequest>(_ response: Response, on incoming: Incoming, native: NativeSnapshot) -> MHD_Result {
        if let id = response.preparedID, let prepared = native.responses[id] {
            return response.body.withUnsafeBytes { incoming.queue(prepared, status: UInt32(response.status), body: $0) }
        }
        guard let built = native.makeNative(response) else { return .NO }
        defer { MHD_destroy_response(built) }
        return response.body.withUnsafeBytes { incoming.queue(built, status: UInt32(response.status), body: $0) }
    }

    /// The private metrics port: the metrics, and the health probe with the detail the public one leaves out.
    private func answerMetricsOnly<Incoming: IncomingRequest>(_ incoming: Incoming, native: NativeSnapshot) -> MHD_Result {
        let path = String(decoding: incoming.path, as: UTF8.self)
        let observability = native.snapshot.config.observability
        if path == observability.metricsPath { return queue(filled(Snapshot.metricsResponse), on: incoming, native: native) }
        if path == observability.healthPath, let health = native.snapshot.shared.value(for: Array(path.utf8)) {
            return queue(filled(health.ok), on: incoming, native: native)
        }
        return queue(native.snapshot.sites[0].notFound, on: incoming, native: native)
    }

    /// True for the `Router.Answer.live` answers whose body is made now, so their prepared copy may not be
    /// sent as it is: the metrics, and the health probe while certificates are managed or a config failure is
    /// told. The one place that says so; `filled` makes their bodies.
    private func isLive(_ route: Route) -> Bool {
        route == .metrics || (route == .health && (metrics.certificates.isActive || metrics.configStatus.hasHealthLines))
    }

    /// A live answer (`isLive`) with its body made now.
    private func filled(_ response: Response) -> Response {
        var response = response
        if response.route == .metrics {
            // Bounded however often it is scraped: at most a burst, then about one rendering a second.
            response.body = metrics.renderBudget.page(now: LogTime.monotonicNanoseconds()) { metrics.render(currentConnections: currentConnections) }
        } else if response.route == .health {
            // With ACME the probe's body also tells each host's certificate; after a failed reload, that it failed
            // (why, only on the private metrics port); the status stays 200 while serving (README, "Health").
            response.body += Array(metrics.configStatus.healthLines(detail: metricsOnly).utf8)
            if metrics.certificates.isActive { response.body += Array(metrics.certificates.healthLines(now: LogTime.now().seconds).utf8) }
            response.preparedID = nil
        }
        return response
    }

    /// The bytes of a NUL-terminated C string, without copying.
    static func bytes(_ text: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
    }
}

extension Router.Answer {
    /// True for `server.strictHosts`' refusal, which the plain-HTTP listener must not turn into a redirect.
    var isUnknownHost: Bool {
        if case .unknownHost = self { return true }
        return false
    }
}

/// What the log and metrics need of a request, as bytes the request holds until it completes.
struct RequestBytes<Incoming: IncomingRequest> {
    let incoming: Incoming
    let userAgent: UnsafeBufferPointer<UInt8>
    /// Monotonic nanoseconds when the request's head was whole.
    let started: UInt64

    var method: UnsafeBufferPointer<UInt8> { incoming.method }
    var path: UnsafeBufferPointer<UInt8> { incoming.path }
}
