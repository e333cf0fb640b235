import CMicroHTTPD

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
        let site: Site
        do {
            site = try load(options, generation: 1)
        } catch {
            Lifecycle.error("\(error)")
            return 2
        }
        // Before any thread starts, so libmicrohttpd's workers inherit the mask and only sigwait sees signals.
        cmhd_signals_block()
        let server: Server
        do {
            server = try Server(site: site, settings: site.config.server)
        } catch {
            Lifecycle.error(error.description)
            return 1
        }
        let shownHost = server.boundHost.contains(":") ? "[\(server.boundHost)]" : server.boundHost
        StandardStreams.output("listening on http://\(shownHost):\(server.boundPort)\n")
        Lifecycle.info("serving \(options.configPath) (generation 1) with \(site.config.apps.count) iOS and \(site.config.android.count) Android apps")

        while true {
            let signal = cmhd_signals_wait()
            if signal == SIGHUP {
                reload(options, server: server)
                continue
            }
            Lifecycle.info("stopping: finishing in-flight requests (up to \(server.site.config.server.shutdownTimeout) s)")
            server.shutdown(timeout: Double(server.site.config.server.shutdownTimeout))
            Lifecycle.info("stopped")
            return 0
        }
    }

    /// Loads and builds a snapshot with all overrides applied; throws every problem.
    public static func load(_ options: ServeOptions, generation: Int) throws(ConfigError) -> Site {
        var config = try ConfigLoader.load(path: options.configPath, environment: options.environment)
        if let host = options.host { config.server.host = host }
        if let port = options.port { config.server.port = port }
        let site = try Site(config: config, generation: generation)
        for warning in site.warnings { Lifecycle.warning("\(options.configPath): \(warning)") }
        return site
    }

    /// Builds the new snapshot beside the old one; only a complete success replaces it.
    private static func reload(_ options: ServeOptions, server: Server) {
        let old = server.site
        do {
            let site = try load(options, generation: old.generation + 1)
            if site.config.server != old.config.server {
                Lifecycle.warning("server settings changed in \(options.configPath); they take effect on restart")
            }
            server.install(site)
            Lifecycle.info("reloaded \(options.configPath) (generation \(site.generation))")
        } catch {
            Lifecycle.error("reload failed, still serving generation \(old.generation): \(error)")
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
