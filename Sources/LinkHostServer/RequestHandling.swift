import CMicroHTTPD
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// The request path: from libmicrohttpd's callback to a queued response, counted and logged.
extension Server {
    /// Answers one request whose headers have arrived.
    func answer(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, started: UInt64) -> MHD_Result {
        let native = current.withLock { $0 }
        if metricsOnly { return answerMetricsOnly(connection, url: url, native: native) }
        let path = Self.bytes(url)
        let methodBytes = Self.bytes(method)
        let userAgent = Self.header(connection, "User-Agent")
        let hostField = cmhd_request_header(connection, "Host")
        let site = native.snapshot.site(forAuthority: hostField.map(Self.bytes))
        // The plain-HTTP listener beside HTTPS answers challenges and redirects itself (Certificates/).
        if let plainHTTP, let response = plainHTTP.intercept(connection, path: path, site: site, snapshot: native.snapshot, hostField: hostField) {
            let result = queue(response, on: connection, native: native)
            finish(response.route, status: response.status, bytes: response.body.count, site: site, connection: connection,
                   method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
            return result
        }
        // The hot path: an unconditional GET or HEAD of a file computed at load is answered from the
        // request's bytes, without making a String, from the very table `Router.decide` reads.
        if Self.isGetOrHead(methodBytes), cmhd_request_header(connection, "If-None-Match") == nil,
           let resource = native.snapshot.exactResource(path, on: site), resource.ok.route != .metrics,
           resource.ok.route != .health || !metrics.certificates.isActive {
            let result = queue(resource.ok, on: connection, native: native)
            finish(resource.ok.route, status: resource.ok.status, bytes: resource.ok.body.count, site: site, connection: connection,
                   method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
            return result
        }
        var query: [String: String] = [:]
        for item in native.queryItemNames {
            let value = item.cString.withUnsafeBufferPointer { MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, $0.baseAddress) }
            if let value { query[item.name] = String(cString: value) }
        }
        let request = Request(
            method: String(cString: method),
            path: String(cString: url),
            query: query,
            ifNoneMatch: cmhd_request_header(connection, "If-None-Match").map { String(cString: $0) },
            userAgent: userAgent.isEmpty ? nil : String(decoding: userAgent, as: UTF8.self),
            host: hostField.map { String(cString: $0) },
            acceptLanguage: cmhd_request_header(connection, "Accept-Language").map { String(cString: $0) },
            language: MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "lang").map { String(cString: $0) })
        let decision = native.router.decide(request)
        switch decision.answer {
        case .prepared(var response):
            if response.route == .metrics {
                response.body = metrics.render(currentConnections: currentConnections)
            } else if response.route == .health, metrics.certificates.isActive {
                // With ACME the probe's body also tells each host's certificate; the status stays 200 while serving.
                response.body += Array(metrics.certificates.healthLines(now: LogTime.now().seconds).utf8)
                response.preparedID = nil
            }
            let result = queue(response, on: connection, native: native)
            finish(response.route, status: response.status, bytes: response.body.count, site: decision.site, connection: connection,
                   method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
            return result
        case .callPage(let page):
            let cache = native.pages[decision.site.index]
            let key = page.key
            let route: Route = page.headerSet == nil ? .callQRCode : .callPage
            if let cached = cache.queue(key, ifNoneMatch: request.ifNoneMatch, on: connection) {
                finish(route, status: cached.status, bytes: cached.bytes, site: decision.site, connection: connection,
                       method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
                return cached.result
            }
            guard let resource = page.render() else {
                let response = decision.site.notFound
                let result = queue(response, on: connection, native: native)
                finish(response.route, status: response.status, bytes: response.body.count, site: decision.site, connection: connection,
                       method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
                return result
            }
            let headers = page.headerSet.map { native.callPageHeaders[decision.site.index][$0] }
            let answered = cache.store(key, resource, headers: headers, ifNoneMatch: request.ifNoneMatch, on: connection)
            let response = answered == nil ? resource.response(for: request) : resource.ok
            let result = answered?.result ?? queue(response, on: connection, native: native, headers: headers)
            finish(route, status: answered?.status ?? response.status, bytes: answered?.bytes ?? response.body.count, site: decision.site,
                   connection: connection, method: methodBytes, path: path, userAgent: userAgent, started: started, native: native)
            return result
        }
    }

    /// Answers 400 and closes, for a request whose framing or Host is ambiguous.
    func refuseAmbiguous(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> MHD_Result {
        let native = current.withLock { $0 }
        let response = native.snapshot.badRequest
        let result = queue(response, on: connection, native: native)
        // An ambiguous Host names no site for certain: the refusal is the default site's.
        finish(.badRequest, status: 400, bytes: response.body.count, site: native.snapshot.sites[0], connection: connection,
               method: Self.bytes(method), path: Self.bytes(url), userAgent: Self.header(connection, "User-Agent"),
               started: LogTime.monotonicNanoseconds(), native: native)
        return result
    }

    /// Counts and logs an answered request.
    private func finish(_ route: Route, status: Int, bytes: Int, site: Site, connection: OpaquePointer, method methodBytes: UnsafeBufferPointer<UInt8>,
                        path: UnsafeBufferPointer<UInt8>, userAgent: UnsafeBufferPointer<UInt8>, started: UInt64, native: NativeSnapshot) {
        metrics.record(native.counters[site.index], route: route, status: status, userAgent: Span(_unsafeElements: userAgent))
        guard let accessLog else { return }
        let referer = Self.header(connection, "Referer")
        let isHead = methodBytes.count == 4 && methodBytes[0] == UInt8(ascii: "H")
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { address in
            cmhd_client_address(connection, address.baseAddress, address.count)
            accessLog.record(
                remote: Span(_unsafeElements: Self.bytes(UnsafePointer(address.baseAddress!))),
                method: Span(_unsafeElements: methodBytes), path: Span(_unsafeElements: path),
                status: status, bytes: isHead ? 0 : bytes,
                durationMicroseconds: Int((LogTime.monotonicNanoseconds() &- started) / 1000),
                userAgent: Span(_unsafeElements: userAgent), referer: Span(_unsafeElements: referer))
        }
    }

    /// Queues a response: its native copy when it was computed at load, else a native response made now
    /// (with `headers` already in C form when they are the response's).
    private func queue(_ response: Response, on connection: OpaquePointer, native: NativeSnapshot, headers: CHeaders? = nil) -> MHD_Result {
        if let id = response.preparedID, let prepared = native.responses[id] {
            return MHD_queue_response(connection, UInt32(response.status), prepared)
        }
        guard let built = NativeSnapshot.makeNative(response, cHeaders: headers) else { return .NO }
        defer { MHD_destroy_response(built) }
        return MHD_queue_response(connection, UInt32(response.status), built)
    }

    private func answerMetricsOnly(_ connection: OpaquePointer, url: UnsafePointer<CChar>, native: NativeSnapshot) -> MHD_Result {
        var response = native.snapshot.sites[0].notFound
        if String(cString: url) == native.snapshot.config.observability.metricsPath {
            response = Snapshot.metricsResponse
            response.body = metrics.render(currentConnections: currentConnections)
        }
        return queue(response, on: connection, native: native)
    }

    /// The bytes of a NUL-terminated C string, without copying.
    private static func bytes(_ text: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
    }

    /// A request header's bytes, empty when it is absent.
    private static func header(_ connection: OpaquePointer, _ name: String) -> UnsafeBufferPointer<UInt8> {
        cmhd_request_header(connection, name).map(bytes) ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    private static func isGetOrHead(_ method: UnsafeBufferPointer<UInt8>) -> Bool {
        (method.count == 3 && method[0] == UInt8(ascii: "G") && method[1] == UInt8(ascii: "E") && method[2] == UInt8(ascii: "T"))
            || (method.count == 4 && method[0] == UInt8(ascii: "H") && method[1] == UInt8(ascii: "E") && method[2] == UInt8(ascii: "A") && method[3] == UInt8(ascii: "D"))
    }
}
