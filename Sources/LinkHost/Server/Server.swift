import CMicroHTTPD
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
    private let daemon: DaemonHandle
    private let inFlight = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Binds, starts libmicrohttpd's threads and begins serving `site`.
    public init(site: Site, settings: ServerSettings) throws(ServerError) {
        current = Mutex(NativeSite(site: site))
        var errorNumber: Int32 = 0
        let fd = cmhd_listen(settings.host, UInt16(settings.port), 1024, &errorNumber)
        guard fd >= 0 else { throw ServerError(description: Self.describeBindError(errorNumber, settings: settings)) }
        var address = [CChar](repeating: 0, count: 64)
        boundPort = Int(cmhd_socket_address(fd, &address, address.count))
        boundHost = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        let threads = settings.threads > 0 ? settings.threads : Self.processorCount()
        var options = [
            cmhd_option_value(.CONNECTION_TIMEOUT, settings.connectionTimeout),
            cmhd_option_value(.CONNECTION_LIMIT, settings.connectionLimit),
            cmhd_option_value(.PER_IP_CONNECTION_LIMIT, settings.perIPConnectionLimit),
        ]
        if threads > 1 { options.append(cmhd_option_value(.THREAD_POOL_SIZE, threads)) }
        options.append(cmhd_option_end())

        // ITC lets MHD_quiesce_daemon stop accepting while workers finish; epoll scales to many idle connections.
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue)
        daemon = DaemonHandle()
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let started = cmhd_start_daemon(flags, fd, accessHandler, context, requestCompleted, context, options) else {
            close(fd)
            throw ServerError(description: "libmicrohttpd could not start on \(settings.host) port \(boundPort)")
        }
        daemon.pointer.withLock { $0 = DaemonPointer(raw: started) }
    }

    /// Replaces the served snapshot; requests already running finish on the one they started with.
    public func install(_ site: Site) {
        let native = NativeSite(site: site)
        current.withLock { $0 = native }
    }

    /// The snapshot being served.
    public var site: Site { current.withLock { $0.router.site } }

    /// Connections held now, for metrics.
    public var currentConnections: Int {
        daemon.pointer.withLock { pointer in pointer.map { Int(cmhd_current_connections($0.raw)) } ?? 0 }
    }

    /// Stops accepting, lets in-flight requests finish for up to `timeout` seconds, then closes everything.
    public func shutdown(timeout: Double) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        daemon.pointer.withLock { pointer in
            guard let daemon = pointer?.raw else { return }
            let listener = MHD_quiesce_daemon(daemon)
            if listener >= 0 { close(listener) }
            var waited = 0.0
            while inFlight.load(ordering: .acquiring) > 0 && waited < timeout {
                usleep(10_000)
                waited += 0.01
            }
            MHD_stop_daemon(daemon)
            pointer = nil
        }
    }

    deinit { shutdown(timeout: 0) }

    // MARK: Request path

    fileprivate func requestStarted() { inFlight.add(1, ordering: .relaxed) }

    fileprivate func requestFinished() { inFlight.subtract(1, ordering: .releasing) }

    fileprivate func answer(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> MHD_Result {
        let native = current.withLock { $0 }
        var query: [String: String] = [:]
        for name in Router.queryItemNames {
            if let value = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, name) {
                query[name] = String(cString: value)
            }
        }
        let request = Request(
            method: String(cString: method),
            path: String(cString: url),
            query: query,
            ifNoneMatch: cmhd_request_header(connection, "If-None-Match").map { String(cString: $0) },
            userAgent: cmhd_request_header(connection, "User-Agent").map { String(cString: $0) },
            host: cmhd_request_header(connection, "Host").map { String(cString: $0) })
        let response = native.router.respond(to: request)
        if let id = response.preparedID, let prepared = native.responses[id] {
            return MHD_queue_response(connection, UInt32(response.status), prepared)
        }
        guard let built = NativeSite.makeNative(response) else { return .NO }
        defer { MHD_destroy_response(built) }
        return MHD_queue_response(connection, UInt32(response.status), built)
    }

    // MARK: Helpers

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

/// The daemon pointer, guarded so shutdown from one thread and metrics from another never race.
private final class DaemonHandle: Sendable {
    let pointer = Mutex<DaemonPointer?>(nil)
}

/// An MHD daemon pointer; unchecked because every use goes through `DaemonHandle`'s lock.
private struct DaemonPointer: @unchecked Sendable {
    let raw: OpaquePointer
}

/// A snapshot with a native libmicrohttpd copy of each prepared response.
///
/// Unchecked: MHD responses are immutable once built and reference-counted by MHD, and its
/// documentation allows queueing one response on many connections from many threads.
private final class NativeSite: @unchecked Sendable {
    let router: Router
    let responses: [OpaquePointer?]

    init(site: Site) {
        router = Router(site: site)
        responses = site.preparedResponses.map(Self.makeNative)
    }

    deinit {
        // MHD keeps its own reference for responses still being sent, so this never cuts one short.
        for response in responses { if let response { MHD_destroy_response(response) } }
    }

    static func makeNative(_ response: Response) -> OpaquePointer? {
        let native = response.body.withUnsafeBytes { cmhd_response_copy($0.baseAddress, $0.count) }
        guard let native else { return nil }
        for header in response.headers {
            MHD_add_response_header(native, header.name, header.value)
        }
        return native
    }
}

/// Marks a request whose headers have been seen; MHD only needs a non-null value.
private var requestMarker: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

/// libmicrohttpd's access handler. The first call only marks the request: queueing a response
/// there makes MHD close the connection instead of keeping it alive for the next request.
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, uploadSize, requestContext in
    guard let context, let connection, let url, let method, let requestContext else { return .NO }
    let server = Unmanaged<Server>.fromOpaque(context).takeUnretainedValue()
    if requestContext.pointee == nil {
        requestContext.pointee = requestMarker
        server.requestStarted()
        return .YES
    }
    if let uploadSize, uploadSize.pointee != 0 {
        // linkhost accepts no request bodies; read and drop them so the connection stays usable.
        uploadSize.pointee = 0
        return .YES
    }
    return server.answer(connection, url: url, method: method)
}

/// Called once per request MHD handed to the access handler, whether answered or aborted.
private let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, requestContext.pointee != nil else { return }
    requestContext.pointee = nil
    Unmanaged<Server>.fromOpaque(context).takeUnretainedValue().requestFinished()
}
