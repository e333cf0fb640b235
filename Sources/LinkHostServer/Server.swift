import CCrypto
import CMicroHTTPD
import CSystem
import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server that cannot start: one line for people, and the exit code it deserves.
package struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    package let description: String
    /// 1 for a runtime failure (a port in use), 2 when the set-up itself is wrong and a restart cannot help.
    package var exitStatus: Int32 = 1
}

/// The one adapter between libmicrohttpd and the pure `Router`: the listener, its daemons, and (in
/// `RequestHandling.swift`) the request path; all C callbacks and pointers live in this module.
///
/// Requests are answered on libmicrohttpd's worker threads. Each reads the current snapshot under a
/// short lock, so a reload swaps every site at once and in-flight requests finish on the old snapshot.
package final class Server: Sendable {
    /// The address the listening socket is bound to, e.g. "127.0.0.1" or "::".
    package let boundHost: String
    /// The bound port; differs from the requested one when that was 0.
    package let boundPort: Int

    let current: Mutex<NativeSnapshot>
    /// Running daemons, the accepting one last; older ones are draining after a settings or certificate change.
    private let daemons = Mutex<[Daemon]>([])
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    let metrics: Metrics
    let accessLog: AccessLog?
    let metricsOnly: Bool
    /// Set on the plain-HTTP listener beside HTTPS: it answers challenges and redirects (Certificates/).
    let plainHTTP: PlainHTTPListener?
    /// HTTPS with certificates chosen per handshake by SNI from ACME's table, instead of `tls`.
    private let automaticTLS: Bool

    /// Binds (or takes `listeningSocket`, e.g. one systemd passed), starts libmicrohttpd's threads and
    /// begins serving `snapshot` (over TLS when `tls` is given).
    ///
    /// A `metricsOnly` server answers the metrics path and nothing else, for a private metrics port. With
    /// `automaticTLS` the server speaks HTTPS with the certificates ACME installs (`SNICertificates`); a
    /// `plainHTTP` server is the HTTP listener beside HTTPS.
    package init(snapshot: Snapshot, tls: TLSMaterial?, settings: ServerSettings, metrics: Metrics, accessLog: AccessLog? = nil, metricsOnly: Bool = false,
                automaticTLS: Bool = false, plainHTTP: PlainHTTPListener? = nil, listeningSocket: Int32? = nil) throws(ServerError) {
        let https = !metricsOnly && plainHTTP == nil && (tls != nil || automaticTLS)
        current = Mutex(NativeSnapshot(snapshot: snapshot, tls: tls, metrics: metrics, https: https))
        self.metrics = metrics
        self.accessLog = accessLog
        self.metricsOnly = metricsOnly
        self.plainHTTP = plainHTTP
        self.automaticTLS = automaticTLS && tls == nil
        let fd: Int32
        if let listeningSocket {
            guard csys_is_listening_stream(listeningSocket) == 1 else {
                throw ServerError(description: "descriptor \(listeningSocket) passed by systemd is not a listening stream socket (ListenStream= in the .socket unit)")
            }
            fd = listeningSocket
        } else {
            var errorNumber: Int32 = 0
            fd = cmhd_listen(settings.host, UInt16(settings.port), 1024, &errorNumber)
            guard fd >= 0 else { throw ServerError(description: Self.describeBindError(errorNumber, settings: settings)) }
        }
        listener = fd
        var address = [CChar](repeating: 0, count: 64)
        boundPort = Int(cmhd_socket_address(fd, &address, address.count))
        boundHost = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            let daemon = try startDaemon(settings: settings, tls: metricsOnly ? nil : tls)
            daemons.withLock { $0 = [daemon] }
        } catch {
            close(fd)
            throw error
        }
    }

    /// A server that listens nowhere and starts no daemon: it answers only the requests a test hands
    /// `answer(_:)` in memory, on the same path libmicrohttpd's callbacks take. `https` serves as the HTTPS
    /// listener does (its transport fields); `metricsOnly` and `plainHTTP` as for the listening server.
    package init(inProcess snapshot: Snapshot, https: Bool = false, metrics: Metrics = Metrics(startTime: 0), accessLog: AccessLog? = nil,
                 metricsOnly: Bool = false, plainHTTP: PlainHTTPListener? = nil) {
        current = Mutex(NativeSnapshot(snapshot: snapshot, tls: nil, metrics: metrics, https: https && !metricsOnly && plainHTTP == nil))
        self.metrics = metrics
        self.accessLog = accessLog
        self.metricsOnly = metricsOnly
        self.plainHTTP = plainHTTP
        automaticTLS = false
        listener = -1
        boundHost = ""
        boundPort = 0
    }

    /// Starts one more daemon on the shared listening socket; both accept until the older is quiesced.
    private func startDaemon(settings: ServerSettings, tls: TLSMaterial?) throws(ServerError) -> Daemon {
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
        let daemon = Daemon(server: self, settings: settings, tls: tls)
        let context = Unmanaged.passUnretained(daemon).toOpaque()
        var key = (tls?.privateKey ?? []).map { CChar(bitPattern: $0) } + [0]
        var certificate = (tls?.certificate ?? []).map { CChar(bitPattern: $0) } + [0]
        if tls != nil {
            guard cmhd_tls_pair_is_usable(key, certificate) == 1 else {
                daemon.stop()
                throw ServerError(description: "the TLS certificate and private key cannot be used together (is the key the certificate's, both PEM?)")
            }
            flags |= MHD_USE_TLS.rawValue
        } else if automaticTLS && !metricsOnly {
            // GnuTLS asks the SNI table during each handshake, so new certificates need no new daemon.
            options.append(cmhd_option_pointer(.HTTPS_CERT_CALLBACK, lhcrypto_sni_callback()))
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
                return cmhd_start_daemon(UInt32(flags), listener, accessHandler, context, requestCompleted, context, daemon.deadlines, options)
            }
        }
        guard let started else {
            daemon.stop()
            let what = tls == nil ? "" : " with TLS (is the private key the certificate's, both PEM?)"
            throw ServerError(description: "libmicrohttpd could not start on \(settings.host) port \(boundPort)\(what)")
        }
        daemon.pointer = started
        return daemon
    }

    /// Replaces the served snapshot; requests already running finish on the one they started with.
    ///
    /// New certificates or connection settings need a new daemon: it starts on the same socket first,
    /// so a bad certificate throws and leaves the old daemon serving, and no connection attempt is ever
    /// refused. The old daemon stops accepting and drains on a thread of its own for up to the new
    /// `shutdownTimeout`.
    package func install(_ snapshot: Snapshot, tls: TLSMaterial?, settings: ServerSettings) throws(ServerError) {
        guard !stopped.load(ordering: .acquiring) else { return }
        let native = NativeSnapshot(snapshot: snapshot, tls: tls, metrics: metrics,
                                    https: !metricsOnly && plainHTTP == nil && (tls != nil || automaticTLS))
        let running = daemons.withLock { $0.last }
        let tls = metricsOnly ? nil : tls
        guard let running, running.tls != tls || Self.daemonSettingsDiffer(running.settings, settings) else {
            current.withLock { $0 = native }
            return
        }
        let fresh = try startDaemon(settings: settings, tls: tls)
        let old = daemons.withLock { list -> [Daemon] in
            let old = list
            list = [fresh]
            return old
        }
        current.withLock { $0 = native }
        for daemon in old { _ = MHD_quiesce_daemon(daemon.pointer) }
        let deadline = LogTime.monotonicNanoseconds() &+ UInt64(settings.shutdownTimeout) * 1_000_000_000
        OwnThread.start("linkhost drain") {
            for daemon in old {
                _ = daemon.drain(until: deadline)
                daemon.stop()
            }
        }
    }

    /// `install(_:tls:settings:)` keeping the running daemon's connection settings (for listeners whose
    /// settings a reload does not change, such as the plain-HTTP listener beside HTTPS).
    package func install(_ snapshot: Snapshot, tls: TLSMaterial?) throws(ServerError) {
        let settings = daemons.withLock { $0.last?.settings } ?? snapshot.config.server
        try install(snapshot, tls: tls, settings: settings)
    }

    /// True when two settings start different daemons (everything but the address, port and drain time).
    static func daemonSettingsDiffer(_ a: ServerSettings, _ b: ServerSettings) -> Bool {
        a.threads != b.threads || a.connectionTimeout != b.connectionTimeout || a.connectionLimit != b.connectionLimit
            || a.perIPConnectionLimit != b.perIPConnectionLimit || a.connectionMemoryLimit != b.connectionMemoryLimit
            || a.headerTimeout != b.headerTimeout
    }

    /// The snapshot being served.
    package var snapshot: Snapshot { current.withLock { $0.snapshot } }

    /// Connections held now, for metrics.
    package var currentConnections: Int {
        daemons.withLock { list in list.reduce(0) { $0 + max(0, Int(cmhd_current_connections($1.pointer))) } }
    }

    /// Stops accepting, lets in-flight requests finish until `deadline` (monotonic nanoseconds), then
    /// closes everything. Blocks: call it on a thread of linkhost's own.
    package func shutdown(until deadline: UInt64) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let all = daemons.withLock { list -> [Daemon] in
            let all = list
            list = []
            return all
        }
        for daemon in all { _ = MHD_quiesce_daemon(daemon.pointer) }
        if listener >= 0 { close(listener) }
        for daemon in all {
            _ = daemon.drain(until: deadline)
            daemon.stop()
        }
    }

    /// `shutdown(until:)` with a deadline `timeout` seconds from now.
    package func shutdown(timeout: Double) {
        shutdown(until: LogTime.monotonicNanoseconds() &+ UInt64(max(0, timeout) * 1e9))
    }

    deinit { shutdown(timeout: 0) }

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

    /// How many processors are online: how many threads the answer path and `validate` use.
    public static func processorCount() -> Int {
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
