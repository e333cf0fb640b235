import CSystem
import LinkHostCore
import LinkHostCrypto
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where `serve` gets its config, and what the command line overrides.
package struct ServeOptions: Sendable {
    /// The config file.
    package var configPath: String
    /// `--host`, winning over the file and the environment.
    package var host: String?
    /// `--port`, winning over the file and the environment.
    package var port: Int?
    /// The process environment, for `LINKHOST_*` overrides.
    package var environment: [String: String]

    /// Makes serve options.
    package init(configPath: String, host: String? = nil, port: Int? = nil, environment: [String: String] = [:]) {
        self.configPath = configPath
        self.host = host
        self.port = port
        self.environment = environment
    }
}

/// Runs the server for the life of the process: load, serve, reload on SIGHUP, drain on SIGTERM/SIGINT.
///
/// The main thread only waits for signals. A reload is built on the `Reloader`'s thread and a drain
/// runs on a thread of its own, so every signal is heard at once whatever is under way: a SIGHUP
/// during a reload asks for one more, a second SIGTERM/SIGINT during the drain stops the process.
package enum Supervisor {
    /// The exit code when a second SIGTERM or SIGINT cuts the drain short: 128 + the signal's number
    /// (143 for SIGTERM, 130 for SIGINT), what a shell reports for a process that signal ended.
    package static func forcedStopStatus(_ signal: Int32) -> Int32 { 128 + signal }

    /// Serves until a stop signal; returns the exit code (0 stopped cleanly, 1 runtime failure, 2 config
    /// error); a second stop signal during the drain exits at once with `forcedStopStatus`.
    package static func run(_ options: ServeOptions) -> Int32 {
        // First, before any thread exists: every thread inherits the mask, so only the signal loop ever
        // takes these signals, and a stop that arrives while the config loads waits here instead of
        // killing the process half-started.
        csys_signals_block()
        csys_use_one_malloc_arena()
        // Started in a function of its own so that its locals end with it: a first snapshot still held here
        // while the loop runs would stay in memory after every reload (150 MB for 1,000 sites).
        switch start(options) {
        case .exited(let status): return status
        case .serving(let service, let reloader): return waitForSignals(service, reloader: reloader)
        }
    }

    /// What `start` leads to: serving, or an exit status before serving began.
    private enum Start {
        case serving(Service, Reloader)
        case exited(Int32)
    }

    /// Loads the config, waits out a stop signal that came meanwhile, and starts serving.
    private static func start(_ options: ServeOptions) -> Start {
        SystemdNotifier.status("loading \(options.configPath)")
        // Before the load reads it: a file replaced while the first snapshot builds is then seen as changed.
        let loadedFile = ConfigWatcher.Fingerprint.of(options.configPath)
        let snapshot: Snapshot
        let tls: TLSMaterial?
        do {
            (snapshot, tls) = try load(options, generation: 1)
        } catch {
            Lifecycle.error("\(error)")
            return .exited(2)
        }
        // At once after the load: the pattern is known only now, and a file changed from here on is seen.
        let loadedSiteFiles = ConfigWatcher.SiteFilesFingerprint.of(snapshot.config.siteFiles)
        var reloadWhenStarted = false
        switch csys_signals_wait_for(0) {
        case SIGTERM, SIGINT:
            Lifecycle.info("stopped before serving: a stop signal came while \(options.configPath) was loading")
            return .exited(0)
        case SIGHUP:
            // The file may have changed after it was read: read it again once serving.
            reloadWhenStarted = true
        default:
            break
        }
        let config = snapshot.config
        // At start only: what validate reports as LH120, so an operator who never runs validate still sees it.
        for found in FilePermissionLint.configFileDiagnostics(path: options.configPath) + FilePermissionLint.keyDiagnostics(config) {
            Lifecycle.warning("\(found.path.isEmpty ? options.configPath : found.path): \(found.message)")
        }
        let limit = Server.effectiveConnectionLimit(config.server.connectionLimit)
        if limit < config.server.connectionLimit {
            Lifecycle.warning("server.connectionLimit \(config.server.connectionLimit) is above what the open-files limit allows; using \(limit) (raise it with ulimit -n or LimitNOFILE=)")
        }
        let service: Service
        do {
            service = try Service.start(snapshot: snapshot, tls: tls)
        } catch {
            Lifecycle.error(error.description)
            return .exited(error.exitStatus)
        }
        announce(service, options: options, tls: tls)
        // The state folder follows each snapshot installed; the first one's copies are written beside serving.
        let stateWriter = config.server.stateDirectory.map(SiteStateWriter.init(directory:))
        if let stateWriter { OwnThread.start("linkhost state") { stateWriter.write(service.snapshot.config) } }
        let reloader = Reloader(service: service, options: options, stateWriter: stateWriter)
        if reloadWhenStarted { reloader.request() }
        ConfigWatcher.start(path: options.configPath, loaded: loadedFile, loadedSiteFiles: loadedSiteFiles, service: service, reloader: reloader)
        return .serving(service, reloader)
    }

    /// The `listening on` lines (what tests and operators wait for) and the start's lifecycle lines, all on
    /// stderr: stdout carries the access log alone, so a log shipper parsing it never meets a line of another kind.
    private static func announce(_ service: Service, options: ServeOptions, tls: TLSMaterial?) {
        Lifecycle.info(LibraryDescription.line(headerTimeout: service.snapshot.config.server.headerTimeout))
        for server in service.servers {
            let shownHost = server.boundHost.contains(":") ? "[\(server.boundHost)]" : server.boundHost
            Lifecycle.info("listening on \(service.snapshot.config.server.servesHTTPS ? "https" : "http")://\(shownHost):\(server.boundPort)")
        }
        warnIfExampleIsPublic(service)
        if !service.activated.isEmpty {
            let named = service.activated.names.isEmpty ? "" : ", named \(service.activated.names.joined(separator: ", "))"
            let ports = service.activated.httpSocket == nil ? "server.host and server.port are" : "server.host, server.port and server.httpPort are"
            let count = service.servers.count + (service.activated.httpSocket == nil ? 0 : 1)
            Lifecycle.info("serving on \(count) socket\(count == 1 ? "" : "s") passed by systemd (LISTEN_FDS\(named)); \(ports) not used")
        }
        let observability = service.snapshot.config.observability
        if let metricsServer = service.metricsServer {
            let host = metricsServer.boundHost.contains(":") ? "[\(metricsServer.boundHost)]" : metricsServer.boundHost
            Lifecycle.info("metrics on http://\(host):\(metricsServer.boundPort)\(observability.metricsPath)")
        }
        service.metrics.serving(service.snapshot)
        Lifecycle.info("serving \(options.configPath) (generation 1): \(describe(service.snapshot)), config sha256:\(service.snapshot.configSHA256)")
        SystemdNotifier.ready(service.metrics.certificates.serviceStatus(generation: 1))
    }

    /// Says loudly, once per listener, that the example's apps are being served where others can reach them:
    /// fine for `make run` or a try-out, never what a real link domain should answer.
    private static func warnIfExampleIsPublic(_ service: Service) {
        guard service.snapshot.config.isExample else { return }
        for server in service.servers where !ExampleConfig.isLoopback(server.boundHost) {
            Lifecycle.warning("!!! serving the shipped EXAMPLE config (\"example\": true, team \(ExampleConfig.teamID), \(ExampleConfig.package)) on \(server.boundHost) port \(server.boundPort), reachable from other machines: "
                + "its AASA hands this host's links to the example app, not yours. Mount your own config (--config PATH, LINKHOST_CONFIG, or -v …:/etc/linkhost/linkhost.json:ro) before pointing a domain here")
        }
    }

    /// The signal loop of the main thread; returns the exit code once the drain has finished.
    private static func waitForSignals(_ service: Service, reloader: Reloader) -> Int32 {
        let drained = Atomic<Bool>(false)
        var draining = false
        while true {
            // While draining, wake now and then to see whether the drain thread is done.
            let signal = draining ? csys_signals_wait_for(20) : csys_signals_wait()
            if draining && drained.load(ordering: .acquiring) { return 0 }
            switch signal {
            case SIGHUP where draining:
                Lifecycle.info("SIGHUP ignored: stopping")
            case SIGHUP:
                reloader.request()
            case SIGTERM where draining, SIGINT where draining:
                let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
                Lifecycle.warning("second \(name) while stopping: exiting now with \(forcedStopStatus(signal)), in-flight requests are cut off")
                service.accessLog?.flush()
                csys_exit_now(forcedStopStatus(signal))
            case SIGTERM, SIGINT:
                guard service.beginDrain() else { continue }
                draining = true
                let timeout = service.snapshot.config.server.shutdownTimeout
                Lifecycle.info("stopping: finishing in-flight requests (up to \(timeout) s; a second SIGTERM or SIGINT stops at once)")
                SystemdNotifier.stopping("finishing in-flight requests")
                OwnThread.start("linkhost drain") {
                    service.drain(timeout: timeout)
                    Lifecycle.info("stopped")
                    drained.store(true, ordering: .releasing)
                }
            default:
                continue
            }
        }
    }

    /// The config file as read once: its bytes and their SHA-256 in hex.
    struct ConfigFile {
        let bytes: [UInt8]
        /// The config's identity in `/healthz`, the metrics and the log: the file's bytes only, not the
        /// environment's overrides nor the templates, locales and files it names (README, "Config identity").
        let sha256: String

        /// Reads `path`; throws LH100 when it cannot be read.
        init(path: String) throws(ConfigError) {
            bytes = try ConfigLoader.read(path: path)
            sha256 = Self.sha256(bytes)
        }

        /// SHA-256 in hex. With `siteFiles`, the identity is that of the main file's bytes followed by each
        /// site file's name, size and content hash (`Config.siteFilesDigest`), so a tenant's change shows.
        static func sha256(_ bytes: [UInt8]) -> String {
            Digest.sha256(bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// Loads and builds a snapshot with all overrides applied, and reads its certificate; throws every problem.
    package static func load(_ options: ServeOptions, generation: Int) throws(ConfigError) -> (Snapshot, TLSMaterial?) {
        try load(options, file: ConfigFile(path: options.configPath), generation: generation)
    }

    /// `load` from bytes already read, so the hash reported is that of the very bytes parsed. A site file
    /// that fails falls back to its version in `lastGood` (the sites serving, by file name; nil at start, when
    /// `server.stateDirectory`'s kept versions serve), or is left out; each such site is one error line.
    static func load(_ options: ServeOptions, file: ConfigFile, generation: Int, lastGood: [String: SiteConfig]? = nil) throws(ConfigError) -> (Snapshot, TLSMaterial?) {
        var config = try ConfigLoader.parse(file.bytes, source: options.configPath, environment: options.environment, configPath: options.configPath, lastGood: lastGood,
                                            cores: Server.processorCount(), fileHash: ConfigFile.sha256)
        if let host = options.host { config.server.host = host }
        if let port = options.port { config.server.port = port }
        if let refusal = ExampleConfig.acmeRefusal(config, environment: options.environment) {
            throw ConfigError(source: options.configPath, diagnostics: [ConfigDiagnostic(.lh121, path: "", message: refusal)])
        }
        let identity = config.siteFilesDigest.isEmpty ? file.sha256 : ConfigFile.sha256(file.bytes + Array(config.siteFilesDigest.utf8))
        let snapshot = try Snapshot(config: config, generation: generation, configSHA256: identity, lastGood: lastGood ?? [:], cores: Server.processorCount())
        let tls = try config.server.tls.map { settings throws(ConfigError) in try TLSMaterial(settings) }
        for warning in snapshot.warnings { Lifecycle.warning("\(options.configPath): \(warning)") }
        // One line per failed tenant, each whole: a log search for the site or LH133 finds it.
        if !snapshot.config.siteFileFailures.isEmpty { Lifecycle.errors(snapshot.config.siteFileFailures.map(\.line)) }
        return (snapshot, tls)
    }

    /// "2 sites, 1 iOS and 1 Android app": what a snapshot serves, for the log.
    static func describe(_ snapshot: Snapshot) -> String {
        let sites = snapshot.sites.map(\.config)
        let iOS = Set(sites.flatMap(\.appIDs)).count
        let android = Set(sites.flatMap { $0.android.map(\.packageName) }).count
        return "\(sites.count == 1 ? "1 site" : "\(sites.count) sites"), \(iOS) iOS and \(android) Android app\(android == 1 ? "" : "s")"
    }
}
