import LinkHostCore
import LinkHostServer

/// `linkhost serve`: runs the server.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve the AASA, assetlinks, call pages and static files (the default command)."
    static let help = """
    USAGE: linkhost [serve] [--config PATH] [--host HOST] [--port PORT]

    Serves /.well-known/apple-app-site-association, /apple-app-site-association,
    /.well-known/assetlinks.json, call-link pages and the files in public/.
    Prints "linkhost: listening on http://ADDRESS:PORT" on stderr once ready; stdout carries
    the access log and nothing else.

    OPTIONS:
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --host HOST     Address to bind, e.g. :: (dual stack), 0.0.0.0, 127.0.0.1
                      (default: $LINKHOST_HOST or server.host).
      --port PORT     Port to bind; 0 picks a free one (default: $LINKHOST_PORT or server.port).
      -h, --help      Show this help.

    SIGNALS:
      SIGHUP          Reload the config, templates, locales and static files of every site; a bad
                      set keeps the old one serving, a change that needs a restart is refused.
      SIGTERM, SIGINT Stop accepting, let in-flight requests finish (server.shutdownTimeout), exit 0.
                      A second one during the drain stops at once: exit 143 (SIGTERM) or 130 (SIGINT).

    EXIT CODES: 0 stopped cleanly, 1 runtime failure (e.g. port in use), 2 usage or config error,
    128 + N stopped at once by a second signal N.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--host", "--port"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        let options = ServeOptions(
            configPath: configPath(arguments, environment: environment),
            host: arguments["--host"],
            port: try arguments.integer("--port", in: 0...65535, command: name),
            environment: environment)
        if let host = options.host, host.isEmpty { throw UsageError(message: "--host needs an address", command: name) }
        return Supervisor.run(options)
    }
}
