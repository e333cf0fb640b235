import LinkHostCore
import Synchronization

/// Everything `serve` runs once started: the public listeners (one per socket systemd passed, or the
/// one linkhost bound), the plain-HTTP listener and certificate manager beside HTTPS (`AutomaticHTTPS`),
/// the private metrics listener, the counters and the access log, and whether it is still serving or
/// already draining.
final class Service: Sendable {
    /// Where the process is in its life; a reload installs only while `serving`.
    enum Phase: Sendable { case serving, draining }

    let servers: [Server]
    let automaticHTTPS: AutomaticHTTPS?
    let metricsServer: Server?
    let metrics: Metrics
    let accessLog: AccessLog?
    /// The sockets systemd passed (LISTEN_FDS), empty when linkhost bound its own.
    let activated: ActivatedSockets
    private let phase = Mutex<Phase>(.serving)

    private init(servers: [Server], automaticHTTPS: AutomaticHTTPS?, metricsServer: Server?, metrics: Metrics, accessLog: AccessLog?, activated: ActivatedSockets) {
        self.servers = servers
        self.automaticHTTPS = automaticHTTPS
        self.metricsServer = metricsServer
        self.metrics = metrics
        self.accessLog = accessLog
        self.activated = activated
    }

    /// Takes systemd's sockets or binds `config.server`, and starts serving `snapshot` on each.
    static func start(snapshot: Snapshot, tls: TLSMaterial?) throws(ServerError) -> Service {
        let config = snapshot.config
        let metrics = Metrics(startTime: Double(LogTime.now().seconds))
        let accessLog = config.observability.accessLog == .off ? nil : AccessLog(format: config.observability.accessLog)
        let activated = try ActivatedSockets.take(for: config.server)
        let sockets = activated.publicSockets
        // The HTTP listener and stored ACME certificates first, so HTTPS has them from its first handshake.
        let automaticHTTPS = try AutomaticHTTPS.start(snapshot: snapshot, tls: tls, metrics: metrics, accessLog: accessLog, listeningSocket: activated.httpSocket)
        let automaticTLS = config.server.acme != nil
        var servers: [Server] = []
        if sockets.isEmpty {
            servers.append(try Server(snapshot: snapshot, tls: tls, settings: config.server, metrics: metrics, accessLog: accessLog, automaticTLS: automaticTLS))
        } else {
            for fd in sockets {
                servers.append(try Server(snapshot: snapshot, tls: tls, settings: config.server, metrics: metrics, accessLog: accessLog,
                                          automaticTLS: automaticTLS, listeningSocket: fd))
            }
        }
        var metricsServer: Server?
        if let settings = metricsSettings(config) {
            metricsServer = try Server(snapshot: snapshot, tls: nil, settings: settings, metrics: metrics, metricsOnly: true)
        }
        return Service(servers: servers, automaticHTTPS: automaticHTTPS, metricsServer: metricsServer, metrics: metrics, accessLog: accessLog,
                       activated: activated)
    }

    /// The private metrics listener's settings, or nil when metrics share the public port (or are off).
    private static func metricsSettings(_ config: Config) -> ServerSettings? {
        guard config.observability.metricsEnabled, let port = config.observability.metricsPort else { return nil }
        var settings = config.server
        settings.host = config.observability.metricsHost
        settings.port = port
        settings.threads = 1
        settings.tls = nil
        return settings
    }

    /// The snapshot being served.
    var snapshot: Snapshot { servers[0].snapshot }

    /// Installs a reload's snapshot on every listener, unless the drain has begun (then false). Holds
    /// the phase lock, so a drain that starts meanwhile waits for the install and then stops it all.
    func install(_ snapshot: Snapshot, tls: TLSMaterial?) throws(ServerError) -> Bool {
        try phase.withLock { phase throws(ServerError) -> Bool in
            guard phase == .serving else { return false }
            for server in servers { try server.install(snapshot, tls: tls, settings: snapshot.config.server) }
            if let metricsServer, let settings = Self.metricsSettings(snapshot.config) {
                try metricsServer.install(snapshot, tls: nil, settings: settings)
            }
            automaticHTTPS?.install(snapshot, tls: tls)
            return true
        }
    }

    /// Marks the service draining; false when it already was.
    func beginDrain() -> Bool {
        phase.withLock { phase in
            defer { phase = .draining }
            return phase == .serving
        }
    }

    /// Stops every listener, letting in-flight requests finish for up to `timeout` seconds. Blocks.
    func drain(timeout: Int) {
        let deadline = LogTime.monotonicNanoseconds() &+ UInt64(timeout) * 1_000_000_000
        for server in servers { server.shutdown(until: deadline) }
        automaticHTTPS?.shutdown(timeout: 1)
        metricsServer?.shutdown(timeout: 1)
        accessLog?.flush()
    }
}
