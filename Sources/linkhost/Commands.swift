import LinkHost

#if canImport(Glibc)
import Glibc
#endif

/// One `linkhost` subcommand: its name, help text and entry point.
protocol Command: SendableMetatype {
    /// The word that selects it.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs with the words after the command name; returns the exit code.
    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32
}

/// `linkhost serve`: runs the server.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve the AASA, assetlinks, call pages and static files (the default command)."
    static let help = """
    USAGE: linkhost [serve] [--config PATH] [--host HOST] [--port PORT]

    Serves /.well-known/apple-app-site-association, /apple-app-site-association,
    /.well-known/assetlinks.json, call-link pages and the files in public/.
    Prints "listening on http://ADDRESS:PORT" once ready.

    OPTIONS:
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --host HOST     Address to bind, e.g. :: (dual stack), 0.0.0.0, 127.0.0.1
                      (default: $LINKHOST_HOST or server.host).
      --port PORT     Port to bind; 0 picks a free one (default: $LINKHOST_PORT or server.port).
      -h, --help      Show this help.

    SIGNALS:
      SIGHUP          Reload the config, template and public/; a bad set keeps the old one serving.
      SIGTERM, SIGINT Stop accepting, let in-flight requests finish, exit 0.

    EXIT CODES: 0 stopped cleanly, 1 runtime failure (e.g. port in use), 2 usage or config error.
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

/// `linkhost validate`: checks a config without serving it.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Check a config and report every problem, without serving."
    static let help = """
    USAGE: linkhost validate [--config PATH]

    Loads the config, the static files and everything generated from them, exactly as
    serve would, and reports every problem with its JSON path.

    OPTIONS:
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      -h, --help      Show this help.

    EXIT CODES: 0 valid (warnings may be printed), 2 invalid or usage error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        let path = configPath(arguments, environment: environment)
        do {
            let site = try Supervisor.load(ServeOptions(configPath: path, environment: environment), generation: 1)
            StandardStreams.output("\(path): valid (\(site.config.apps.count) iOS app\(site.config.apps.count == 1 ? "" : "s"), \(site.config.android.count) Android app\(site.config.android.count == 1 ? "" : "s"), AASA \(site.aasaBytes.count) bytes)\n")
            return 0
        } catch {
            StandardStreams.error("\(error)\n")
            return 2
        }
    }
}

/// `linkhost print aasa|assetlinks`: writes a generated file exactly as served.
enum PrintCommand: Command {
    static let name = "print"
    static let summary = "Print the generated AASA or assetlinks.json exactly as served."
    static let help = """
    USAGE: linkhost print aasa|assetlinks [--config PATH]

    Writes the generated file to standard output, byte for byte as the server sends it.

    OPTIONS:
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      -h, --help      Show this help.

    EXIT CODES: 0 printed, 1 nothing to print (no app of that kind), 2 usage or config error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        guard arguments.positional.count == 1, let what = arguments.positional.first, ["aasa", "assetlinks"].contains(what) else {
            throw UsageError(message: "say what to print: 'aasa' or 'assetlinks'", command: name)
        }
        let config: Config
        do {
            config = try ConfigLoader.load(path: configPath(arguments, environment: environment), environment: environment)
        } catch {
            StandardStreams.error("\(error)\n")
            return 2
        }
        let bytes = what == "aasa"
            ? (config.apps.isEmpty ? [] : AASAGenerator.bytes(for: config))
            : (config.android.isEmpty ? [] : AssetLinksGenerator.bytes(for: config.android))
        guard !bytes.isEmpty else {
            StandardStreams.error("linkhost: no \(what == "aasa" ? "iOS app in \"apps\"" : "Android app in \"android\"") is configured\n")
            return 1
        }
        StandardStreams.output(String(decoding: bytes, as: UTF8.self))
        return 0
    }
}
