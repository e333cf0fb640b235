import CSystem
import LinkHostCore
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where `serve` gets its config, and what the command line overrides.
public struct ServeOptions: Sendable {
    /// The config file.
    public var configPath: String
    /// `--host`, winning over the file and the environment.
    public var host: String?
    /// `--port`, winning over the file and the environment.
    public var port: Int?
    /// The process environment, for `LINKHOST_*` overrides.
    public var environment: [String: String]

    /// Makes serve options.
    public init(configPath: String, host: String? = nil, port: Int? = nil, environment: [String: String] = [:]) {
        self.configPath = configPath
        self.host = host
        self.port = port
        self.environment = environment
    }
}

/// Runs the server for the life of the process: load, serve, reload on SIGHUP, drain on SIGTERM/SIGINT.
public enum Supervisor {
    /// Serves until a stop signal; returns the exit code (0 stopped cleanly, 1 runtime failure, 2 config error).
    public static func run(_ options: ServeOptions) -> Int32 {
        let snapshot: Snapshot
        let tls: TLSMaterial?
        do {
            (snapshot, tls) = try load(options, generation: 1)
        } catch {
            Lifecycle.error("\(error)")
            return 2
        }
        // Before any thread starts, so libmicrohttpd's workers inherit the mask and only sigwait sees signals.
        csys_signals_block()
        let config = snapshot.config
        let limit = Server.effectiveConnectionLimit(config.server.connectionLimit)
        if limit < config.server.connectionLimit {
            Lifecycle.warning("server.connectionLimit \(config.server.connectionLimit) is above what the open-files limit allows; using \(limit) (raise it with ulimit -n or LimitNOFILE=)")
        }
        let metrics = Metrics(startTime: Double(LogTime.now().seconds))
        let observability = config.observability
        let accessLog = observability.accessLog == .off ? nil : AccessLog(format: observability.accessLog)
        let server: Server
        var metricsServer: Server?
        let automaticHTTPS: AutomaticHTTPS?
        do {
            // The HTTP listener and stored ACME certificates first, so HTTPS has them from its first handshake.
            automaticHTTPS = try AutomaticHTTPS.start(snapshot: snapshot, metrics: metrics, accessLog: accessLog)
            server = try Server(snapshot: snapshot, tls: tls, settings: config.server, metrics: metrics, accessLog: accessLog, automaticTLS: config.server.acme != nil)
            if observability.metricsEnabled, let port = observability.metricsPort {
                var settings = config.server
                settings.host = observability.metricsHost
                settings.port = port
                settings.threads = 1
                metricsServer = try Server(snapshot: snapshot, tls: nil, settings: settings, metrics: metrics, metricsOnly: true)
            }
        } catch {
            Lifecycle.error(error.description)
            return 1
        }
        let shownHost = server.boundHost.contains(":") ? "[\(server.boundHost)]" : server.boundHost
        StandardStreams.output("listening on \(config.server.servesHTTPS ? "https" : "http")://\(shownHost):\(server.boundPort)\n")
        if let metricsServer {
            let host = metricsServer.boundHost.contains(":") ? "[\(metricsServer.boundHost)]" : metricsServer.boundHost
            Lifecycle.info("metrics on http://\(host):\(metricsServer.boundPort)\(observability.metricsPath)")
        }
        Lifecycle.info("serving \(options.configPath) (generation 1): \(describe(snapshot))")

        while true {
            let signal = csys_signals_wait()
            if signal == SIGHUP {
                let snapshot = reload(options, server: server)
                metrics.recordReload(succeeded: snapshot != nil, generation: snapshot?.generation ?? 0)
                if let snapshot {
                    try? metricsServer?.install(snapshot, tls: nil)
                    automaticHTTPS?.install(snapshot)
                }
                continue
            }
            let shutdownTimeout = server.snapshot.config.server.shutdownTimeout
            Lifecycle.info("stopping: finishing in-flight requests (up to \(shutdownTimeout) s)")
            server.shutdown(timeout: Double(shutdownTimeout))
            metricsServer?.shutdown(timeout: 1)
            automaticHTTPS?.shutdown(timeout: 1)
            accessLog?.flush()
            Lifecycle.info("stopped")
            return 0
        }
    }

    /// Loads and builds a snapshot with all overrides applied, and reads its certificate; throws every problem.
    public static func load(_ options: ServeOptions, generation: Int) throws(ConfigError) -> (Snapshot, TLSMaterial?) {
        var config = try ConfigLoader.load(path: options.configPath, environment: options.environment)
        if let host = options.host { config.server.host = host }
        if let port = options.port { config.server.port = port }
        let snapshot = try Snapshot(config: config, generation: generation)
        let tls = try config.server.tls.map { settings throws(ConfigError) in try TLSMaterial(settings) }
        for warning in snapshot.warnings { Lifecycle.warning("\(options.configPath): \(warning)") }
        return (snapshot, tls)
    }

    /// "2 sites, 1 iOS and 1 Android app": what a snapshot serves, for the log.
    private static func describe(_ snapshot: Snapshot) -> String {
        let sites = snapshot.sites.map(\.config)
        let iOS = Set(sites.flatMap(\.appIDs)).count
        let android = Set(sites.flatMap { $0.android.map(\.packageName) }).count
        return "\(sites.count == 1 ? "1 site" : "\(sites.count) sites"), \(iOS) iOS and \(android) Android app\(android == 1 ? "" : "s")"
    }

    /// Builds a snapshot on a thread of its own at a lower priority, so a reload under load takes
    /// spare CPU rather than time from the threads answering requests.
    private static func loadAtLowPriority(_ options: ServeOptions, generation: Int) throws(ConfigError) -> (Snapshot, TLSMaterial?) {
        let result = Mutex<Result<(Snapshot, TLSMaterial?), ConfigError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "linkhost.reload").async {
            csys_lower_thread_priority(10)
            let outcome = Result { () throws(ConfigError) -> (Snapshot, TLSMaterial?) in try load(options, generation: generation) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Builds the new snapshot beside the old one; only a complete success replaces it.
    @discardableResult
    private static func reload(_ options: ServeOptions, server: Server) -> Snapshot? {
        let old = server.snapshot
        do {
            let (snapshot, tls) = try loadAtLowPriority(options, generation: old.generation + 1)
            if snapshot.config.server != old.config.server {
                Lifecycle.warning("server settings changed in \(options.configPath); they take effect on restart")
            }
            if snapshot.config.observability != old.config.observability {
                Lifecycle.warning("observability settings changed in \(options.configPath); they take effect on restart")
            }
            try server.install(snapshot, tls: tls)
            Lifecycle.info("reloaded \(options.configPath) (generation \(snapshot.generation)): \(describe(snapshot))")
            return snapshot
        } catch let error as ServerError {
            Lifecycle.error("reload failed, still serving generation \(old.generation): \(error)")
            return nil
        } catch {
            Lifecycle.error("reload failed, still serving generation \(old.generation): \(error)")
            return nil
        }
    }
}

/// Lifecycle messages on stderr, one line each, prefixed so they stand apart from access logs.
enum Lifecycle {
    static func info(_ message: String) { write("linkhost: \(message)") }
    static func warning(_ message: String) { write("linkhost: warning: \(message)") }
    static func error(_ message: String) { write("linkhost: error: \(message)") }

    private static func write(_ line: String) {
        StandardStreams.error(line + "\n")
    }
}
