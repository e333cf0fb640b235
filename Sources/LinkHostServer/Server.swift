import CMicroHTTPD
import CSystem
import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server that cannot start: one line for people, and the exit code it deserves.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    public let description: String
}

/// The one adapter between libmicrohttpd and the pure `Router`: all C callbacks and pointers live here.
///
/// Requests are answered on libmicrohttpd's worker threads. Each reads the current snapshot under a
/// short lock, so a reload swaps the whole snapshot at once and in-flight requests finish on the old one.
public final class Server: Sendable {
    /// The address the listening socket is bound to, e.g. "127.0.0.1" or "::".
    public let boundHost: String
    /// The bound port; differs from the requested one when that was 0.
    public let boundPort: Int

    private let current: Mutex<NativeSite>
    /// Running daemons, the accepting one last; older ones are draining after a certificate change.
    private let daemons = Mutex<[Daemon]>([])
    private let listener: Int32
    private let settings: ServerSettings
    private let stopped = Atomic<Bool>(false)
    private let metrics: Metrics
    private let accessLog: AccessLog?
    private let metricsOnly: Bool

    /// Binds, starts libmicrohttpd's threads and begins serving `site` (over TLS when it has certificates).
    ///
    /// A `metricsOnly` server answers the metrics path and nothing else, for a private metrics port.
    public init(site: Site, tls: TLSMaterial?, settings: ServerSettings, metrics: Metrics, accessLog: AccessLog? = nil, metricsOnly: Bool = false) throws(ServerError) {
        current = Mutex(NativeSite(site: site, tls: tls))
        self.settings = settings
        self.metrics = metrics
        self.accessLog = accessLog
        self.metricsOnly = metricsOnly
        var errorNumber: Int32 = 0
        let fd = cmhd_listen(settings.host, UInt16(settings.port), 1024, &errorNumber)
        guard fd >= 0 else { throw ServerError(description: Self.describeBindError(errorNumber, settings: settings)) }
        listener = fd
        var address = [CChar](repeating: 0, count: 64)
        boundPort = Int(cmhd_socket_address(fd, &address, address.count))
        boundHost = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            let daemon = try startDaemon(tls: metricsOnly ? nil : tls)
            daemons.withLock { $0 = [daemon] }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Starts one more daemon on the shared listening socket; both accept until the older is quiesced.
    private func startDaemon(tls: TLSMaterial?) throws(ServerError) -> Daemon {
        let threads = settings.threads > 0 ? settings.threads : Self.processorCount()
        var options = [
            cmhd_option_value(.CONNECTION_TIMEOUT, settings.connectionTimeout),
            cmhd_option_value(.CONNECTION_LIMIT, Self.effectiveConnectionLimit(settings.connectionLimit)),
            cmhd_option_value(.PER_IP_CONNECTION_LIMIT, settings.perIPConnectionLimit),
            cmhd_option_value(.CONNECTION_MEMORY_LIMIT, settings.connectionMemoryLimit),
        ]
        if threads > 1 { options.append(cmhd_option_value(.THREAD_POOL_SIZE, threads)) }
        // ITC lets MHD_quiesce_daemon stop accepting while workers finish; epoll scales to many idle connections.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        let daemon = Daemon(server: self)
        let context = Unmanaged.passUnretained(daemon).toOpaque()
        var key = (tls?.privateKey ?? []).map { CChar(bitPattern: $0) } + [0]
        var certificate = (tls?.certificate ?? []).map { CChar(bitPattern: $0) } + [0]
        if tls != nil {
            guard cmhd_tls_pair_is_usable(key, certificate) == 1 else {
                throw ServerError(description: "the TLS certificate and private key cannot be used together (is the key the certificate's, both PEM?)")
            }
            flags |= MHD_USE_TLS.rawValue
        }
        // GnuTLS copies the PEM text while the daemon starts, so the buffers need to live only for this call.
        let started = key.withUnsafeMutableBufferPointer { keyBuffer in
            certificate.withUnsafeMutableBufferPointer { certificateBuffer in
                if tls != nil {
                    options.append(cmhd_option_pointer(.HTTPS_MEM_KEY, keyBuffer.baseAddress))
                    options.append(cmhd_option_pointer(.HTTPS_MEM_CERT, certificateBuffer.baseAddress))
                }
                options.append(cmhd_option_end())
                return cmhd_start_daemon(UInt32(flags), listener, accessHandler, context, requestCompleted, context, options)
            }
        }
        guard let started else {
            let what = tls == nil ? "" : " with TLS (is the private key the certificate's, both PEM?)"
            throw ServerError(description: "libmicrohttpd could not start on \(settings.host) port \(boundPort)\(what)")
        }
        daemon.pointer = started
        return daemon
    }

    /// Replaces the served snapshot; requests already running finish on the one they started with.
    ///
    /// New certificates need a new daemon: it starts on the same socket first, so a bad certificate
    /// throws and leaves the old daemon serving, and no connection attempt is ever refused.
    public func install(_ site: Site, tls: TLSMaterial?) throws(ServerError) {
        let native = NativeSite(site: site, tls: tls)
        if !metricsOnly, tls != current.withLock({ $0.tls }) {
            let fresh = try startDaemon(tls: tls)
            let old = daemons.withLock { list -> [Daemon] in
                let old = list
                list = [fresh]
                return old
            }
            current.withLock { $0 = native }
            let timeout = Double(settings.shutdownTimeout)
            for daemon in old { _ = MHD_quiesce_daemon(daemon.pointer) }
            Task.detached { for daemon in old { daemon.drainAndStop(timeout: timeout) } }
            return
        }
        current.withLock { $0 = native }
    }

    /// The snapshot being served.
    public var site: Site { current.withLock { $0.router.site } }

    /// Connections held now, for metrics.
    public var currentConnections: Int {
        daemons.withLock { list in list.reduce(0) { $0 + max(0, Int(cmhd_current_connections($1.pointer))) } }
    }

    /// Stops accepting, lets in-flight requests finish for up to `timeout` seconds, then closes everything.
    public func shutdown(timeout: Double) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let all = daemons.withLock { list -> [Daemon] in
            let all = list
            list = []
            return all
        }
        for daemon in all { _ = MHD_quiesce_daemon(daemon.pointer) }
        close(listener)
        for daemon in all { daemon.drainAndStop(timeout: timeout) }
    }

    deinit { shutdown(timeout: 0) }

    // MARK: Request path

    fileprivate func answer(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, started: UInt64) -> MHD_Result {
        let native = current.withLock { $0 }
        if metricsOnly { return answerMetricsOnly(connection, url: url, native: native) }
        let path = Self.bytes(url)
        let methodBytes = Self.bytes(method)
        let userAgent = cmhd_request_header(connection, "User-Agent").map(Self.bytes) ?? UnsafeBufferPointer(start: nil, count: 0)
        var response: Response
        // The hot path: an unconditional GET or HEAD of a file computed at load is answered from the
        // request's bytes, without making a String. It gives exactly what `Router.respond` would.
        if let resource = native.exact(path), Self.isGetOrHead(methodBytes), cmhd_request_header(connection, "If-None-Match") == nil,
           resource.ok.route != .metrics {
            response = resource.ok
        } else {
            var query: [String: String] = [:]
            for name in Router.queryItemNames {
                // Static strings are NUL-terminated UTF-8 already.
                let value = UnsafeRawPointer(name.utf8Start).withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) {
                    MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, $0)
                }
                if let value { query[name.description] = String(cString: value) }
            }
            let request = Request(
                method: String(cString: method),
                path: String(cString: url),
                query: query,
                ifNoneMatch: cmhd_request_header(connection, "If-None-Match").map { String(cString: $0) },
                userAgent: userAgent.isEmpty ? nil : String(decoding: userAgent, as: UTF8.self),
                host: cmhd_request_header(connection, "Host").map { String(cString: $0) })
            // A page for the same link, platform and host renders the same bytes until the next reload.
            let pageKey = request.isRead && request.ifNoneMatch == nil
                ? PageCache.Key(path: request.path, type: request.query["type"], platform: Platform(userAgent: request.userAgent),
                                host: native.router.site.config.callLinks.baseURL == nil ? request.host : nil)
                : nil
            if let pageKey, let cached = native.pages.queue(pageKey, on: connection) {
                finish(route: .callPage, status: 200, bytes: cached.bytes, connection: connection, method: methodBytes, path: path, userAgent: userAgent, started: started)
                return cached.result
            }
            response = native.router.respond(to: request)
            if response.route == .metrics {
                response.body = metrics.render(currentConnections: currentConnections)
            }
            if let pageKey, response.route == .callPage, response.status == 200, let result = native.pages.store(pageKey, response, on: connection) {
                finish(route: .callPage, status: 200, bytes: response.body.count, connection: connection, method: methodBytes, path: path, userAgent: userAgent, started: started)
                return result
            }
        }
        let result = queue(response, on: connection, native: native)
        finish(route: response.route, status: response.status, bytes: response.body.count, connection: connection, method: methodBytes, path: path, userAgent: userAgent, started: started)
        return result
    }

    /// Counts and logs an answered request.
    private func finish(route: Route, status: Int, bytes: Int, connection: OpaquePointer, method methodBytes: UnsafeBufferPointer<UInt8>,
                        path: UnsafeBufferPointer<UInt8>, userAgent: UnsafeBufferPointer<UInt8>, started: UInt64) {
        metrics.record(route: route, status: status, userAgent: Span(_unsafeElements: userAgent))
        if let accessLog {
            let referer = cmhd_request_header(connection, "Referer").map(Self.bytes) ?? UnsafeBufferPointer(start: nil, count: 0)
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
    }

    /// Answers 400 and closes, for a request whose framing or Host is ambiguous.
    fileprivate func refuseAmbiguous(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> MHD_Result {
        let native = current.withLock { $0 }
        let response = native.router.site.badRequest
        let result = queue(response, on: connection, native: native)
        let userAgent = cmhd_request_header(connection, "User-Agent").map(Self.bytes) ?? UnsafeBufferPointer(start: nil, count: 0)
        finish(route: .badRequest, status: 400, bytes: response.body.count, connection: connection, method: Self.bytes(method),
               path: Self.bytes(url), userAgent: userAgent, started: LogTime.monotonicNanoseconds())
        return result
    }

    /// The bytes of a NUL-terminated C string, without copying.
    private static func bytes(_ text: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
    }

    private static func isGetOrHead(_ method: UnsafeBufferPointer<UInt8>) -> Bool {
        (method.count == 3 && method[0] == UInt8(ascii: "G") && method[1] == UInt8(ascii: "E") && method[2] == UInt8(ascii: "T"))
            || (method.count == 4 && method[0] == UInt8(ascii: "H") && method[1] == UInt8(ascii: "E") && method[2] == UInt8(ascii: "A") && method[3] == UInt8(ascii: "D"))
    }

    private func queue(_ response: Response, on connection: OpaquePointer, native: NativeSite) -> MHD_Result {
        if let id = response.preparedID, let prepared = native.responses[id] {
            return MHD_queue_response(connection, UInt32(response.status), prepared)
        }
        guard let built = NativeSite.makeNative(response, cHeaders: native.callPageHeaders) else { return .NO }
        defer { MHD_destroy_response(built) }
        return MHD_queue_response(connection, UInt32(response.status), built)
    }

    private func answerMetricsOnly(_ connection: OpaquePointer, url: UnsafePointer<CChar>, native: NativeSite) -> MHD_Result {
        let observability = native.router.site.config.observability
        var response = native.router.site.notFound
        if String(cString: url) == observability.metricsPath {
            response = Response(status: 200, headers: PreparedResponses.commonHeaders + [HTTPHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
                                body: metrics.render(currentConnections: currentConnections), route: .metrics)
        }
        return queue(response, on: connection, native: native)
    }

    // MARK: Helpers

    /// Descriptors kept free for what a reload opens (config, template, static files, certificates) and the
    /// listener, epoll and ITC descriptors: running out of them would make every reload fail.
    static let reservedDescriptors = 64

    /// The configured connection limit, lowered to what the open-files limit allows.
    static func effectiveConnectionLimit(_ configured: Int) -> Int {
        let available = csys_raise_open_files_limit()
        guard available > 0 else { return configured }
        return max(1, min(configured, available - reservedDescriptors))
    }

    private static func processorCount() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    private static func describeBindError(_ errorNumber: Int32, settings: ServerSettings) -> String {
        let place = "\(settings.host) port \(settings.port)"
        switch errorNumber {
        case EADDRINUSE: return "cannot listen on \(place): the port is already in use (another linkhost or web server?)"
        case EACCES: return "cannot listen on \(place): permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE; use 8080 behind a proxy)"
        case EADDRNOTAVAIL: return "cannot listen on \(place): the address is not one of this machine's"
        case let code where code < 0: return "cannot listen on \(place): the host name cannot be resolved"
        default: return "cannot listen on \(place): \(String(cString: strerror(errorNumber)))"
        }
    }
}

/// One running MHD daemon and the requests it has in flight; the context of its callbacks.
///
/// Unchecked: `pointer` is written once, before the daemon is published to other threads.
private final class Daemon: @unchecked Sendable {
    unowned let server: Server
    var pointer: OpaquePointer!
    let inFlight = Atomic<Int>(0)

    init(server: Server) { self.server = server }

    /// Waits up to `timeout` seconds for in-flight requests, then stops the daemon (closing idle connections).
    func drainAndStop(timeout: Double) {
        var waited = 0.0
        while inFlight.load(ordering: .acquiring) > 0 && waited < timeout {
            usleep(10_000)
            waited += 0.01
        }
        MHD_stop_daemon(pointer)
    }
}

/// A snapshot with a native libmicrohttpd copy of each prepared response.
///
/// Unchecked: MHD responses are immutable once built and reference-counted by MHD, and its
/// documentation allows queueing one response on many connections from many threads.
private final class NativeSite: @unchecked Sendable {
    let router: Router
    /// The certificate this snapshot is served with; a change needs a new daemon.
    let tls: TLSMaterial?
    let responses: [OpaquePointer?]
    /// Rendered call pages of this snapshot.
    let pages: PageCache
    /// The call page's constant headers in C form.
    let callPageHeaders: CHeaders
    /// Exact request paths by FNV-1a hash of their bytes, for the String-free hot path.
    private let exactPaths: [UInt64: [(path: [UInt8], resource: Resource)]]

    init(site: Site, tls: TLSMaterial?) {
        router = Router(site: site)
        self.tls = tls
        responses = site.preparedResponses.map { Self.makeNative($0) }
        callPageHeaders = CHeaders(site.callPage.headers)
        pages = PageCache(capacity: site.config.callLinks.pageCacheSize, headers: callPageHeaders)
        var table: [UInt64: [(path: [UInt8], resource: Resource)]] = [:]
        for (path, resource) in site.resources {
            let bytes = Array(path.utf8)
            table[Self.hash(bytes), default: []].append((bytes, resource))
        }
        exactPaths = table
    }

    /// The resource at exactly these path bytes, if one was computed at load.
    func exact(_ path: UnsafeBufferPointer<UInt8>) -> Resource? {
        exactPaths[Self.hash(path)]?.first { $0.path.elementsEqual(path) }?.resource
    }

    private static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    deinit {
        // MHD keeps its own reference for responses still being sent, so this never cuts one short.
        for response in responses { if let response { MHD_destroy_response(response) } }
    }

    static func makeNative(_ response: Response, cHeaders: CHeaders? = nil) -> OpaquePointer? {
        let native = response.representationLength.map { cmhd_response_headers_only(UInt64($0)) }
            ?? response.body.withUnsafeBytes { cmhd_response_copy($0.baseAddress, $0.count) }
        guard let native else { return nil }
        if let cHeaders, cHeaders.source == response.headers {
            for (name, value) in cHeaders.fields {
                name.withUnsafeBufferPointer { name in
                    value.withUnsafeBufferPointer { value in _ = MHD_add_response_header(native, name.baseAddress, value.baseAddress) }
                }
            }
        } else {
            for header in response.headers {
                MHD_add_response_header(native, header.name, header.value)
            }
        }
        return native
    }

    /// Header fields already in C form, for responses rendered per request with the same headers
    /// (call pages): converting each String to a C string per request cost two allocations a field.
    struct CHeaders {
        let source: [HTTPHeader]
        let fields: [(name: [CChar], value: [CChar])]

        init(_ headers: [HTTPHeader]) {
            source = headers
            fields = headers.map { (Array($0.name.utf8CString), Array($0.value.utf8CString)) }
        }
    }
}

/// libmicrohttpd's access handler. The first call only marks the request: queueing a response
/// there makes MHD close the connection instead of keeping it alive for the next request.
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, _, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let requestContext else { return .NO }
    let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
    if requestContext.pointee == nil {
        // Refused before any body is read; answering on the first call makes MHD close the connection,
        // so nothing after this request can be read as another one.
        if cmhd_request_is_ambiguous(connection, version) != 0 {
            return daemon.server.refuseAmbiguous(connection, url: url, method: method)
        }
        // The request's start time, kept in MHD's per-request slot itself: no allocation per request.
        requestContext.pointee = UnsafeMutableRawPointer(bitPattern: UInt(max(LogTime.monotonicNanoseconds(), 1)))
        daemon.inFlight.add(1, ordering: .relaxed)
        return .YES
    }
    if let uploadSize, uploadSize.pointee != 0 {
        // linkhost accepts no request bodies; read and drop them so the connection stays usable.
        uploadSize.pointee = 0
        return .YES
    }
    return daemon.server.answer(connection, url: url, method: method, started: UInt64(UInt(bitPattern: requestContext.pointee)))
}

/// Called once per request MHD handed to the access handler, whether answered or aborted.
private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, requestContext.pointee != nil else { return }
    requestContext.pointee = nil
    Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue().inFlight.subtract(1, ordering: .releasing)
}

/// Native copies of rendered call pages, bounded, dropped with their snapshot.
///
/// Unchecked: the dictionary and the MHD responses in it are touched only under `entries`' lock,
/// and a response is queued before the lock is released, so eviction can never free one in use.
private final class PageCache: @unchecked Sendable {
    /// What decides a page's bytes.
    struct Key: Hashable {
        let path: String
        let type: String?
        let platform: Platform
        let host: String?
    }

    /// Unchecked for the reason the cache is: only touched under the lock.
    private struct Entry: @unchecked Sendable {
        let response: OpaquePointer
        let bytes: Int
    }

    /// A connection handed into the lock; it belongs to the calling worker thread throughout.
    private struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity: Int
    private let headers: NativeSite.CHeaders

    init(capacity: Int, headers: NativeSite.CHeaders) {
        self.capacity = capacity
        self.headers = headers
    }

    deinit {
        entries.withLock { all in for entry in all.values { MHD_destroy_response(entry.response) } }
    }

    /// Queues the cached page for `key`, if there is one.
    func queue(_ key: Key, on connection: OpaquePointer) -> (result: MHD_Result, bytes: Int)? {
        guard capacity > 0 else { return nil }
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            guard let entry = all[key] else { return nil }
            return (MHD_queue_response(handle.pointer, 200, entry.response), entry.bytes)
        }
    }

    /// Makes a native copy of a rendered page, keeps it (emptying the cache when full), and queues it.
    func store(_ key: Key, _ response: Response, on connection: OpaquePointer) -> MHD_Result? {
        guard capacity > 0, let made = NativeSite.makeNative(response, cHeaders: headers) else { return nil }
        let native = Entry(response: made, bytes: response.body.count)
        let handle = ConnectionHandle(pointer: connection)
        return entries.withLock { all in
            if all.count >= capacity {
                for entry in all.values { MHD_destroy_response(entry.response) }
                all.removeAll(keepingCapacity: true)
            }
            if let old = all.updateValue(native, forKey: key) {
                MHD_destroy_response(old.response)
            }
            return MHD_queue_response(handle.pointer, 200, native.response)
        }
    }
}
