import LinkHostServer
import LinkHostCore

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

/// `linkhost validate`: lints a config (or a saved AASA or assetlinks.json) without serving it.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Lint a config (or an AASA or assetlinks.json file) and report every problem."
    static let help = """
    USAGE: linkhost validate [--config PATH | --aasa FILE | --assetlinks FILE]
                             [--format human|json]

    Loads the config, the static files and everything generated from them, exactly as
    serve would, and lints beyond what loading needs. Every problem has a stable code
    (listed in docs/diagnostics.md), a severity and a JSON path:
      - formats and sizes: Team and bundle IDs, the 128 KB AASA limit, the JSON type
        of every value, defaults keys, legacy and modern AASA keys mixed;
      - rules: rules an earlier rule makes unreachable, an exclusion that blocks every
        link, undefined or malformed $(...) variables, apps listed twice;
      - what is served: every call-link shape (/<path>/<id>, /<path>/<type>:<id>, with
        and without ?type=) must open every app, while /, the association files and the
        files of the static folder must not;
      - Android: package names, fingerprints, and a single fingerprint (the Play
        app-signing key is the one usually forgotten).
    With --aasa or --assetlinks, lints that file instead, e.g. one saved from a server.

    OPTIONS:
      --config PATH       Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --aasa FILE         An apple-app-site-association file to lint.
      --assetlinks FILE   An assetlinks.json file to lint.
      --format FORMAT     human (default) or json: an array of
                          {"code", "severity", "path", "message"}.
      -h, --help          Show this help.

    EXIT CODES: 0 no errors (warnings may be printed), 2 errors found or usage error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--aasa", "--assetlinks", "--format"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        let format = try outputFormat(arguments, command: name)
        let sources = ["--config", "--aasa", "--assetlinks"].filter { arguments[$0] != nil }
        if sources.count > 1 { throw UsageError(message: "give one of --config, --aasa and --assetlinks", command: name) }

        let report: LintReport
        var summary = ""
        if let file = arguments["--aasa"] ?? arguments["--assetlinks"] {
            let lint = arguments["--aasa"] != nil ? AASALinter.lint(bytes:source:) : AssetLinksLinter.lint(bytes:source:)
            switch DocumentFile.bytes(at: file) {
            case .success(let bytes):
                report = lint(bytes, file)
                summary = "\(bytes.count) bytes"
            case .failure(let failure):
                report = LintReport(source: file, diagnostics: [LintDiagnostic(failure.code, .error, path: "", failure.message)])
            }
        } else {
            let outcome = ConfigLinter.lint(path: configPath(arguments, environment: environment), environment: environment)
            report = outcome.report
            summary = outcome.site.map(ConfigLinter.summary(of:)) ?? ""
        }
        if format == "json" {
            StandardStreams.output(report.jsonText)
        } else if report.hasErrors {
            StandardStreams.error(report.humanText(validSummary: summary))
        } else {
            StandardStreams.output(report.humanText(validSummary: summary))
        }
        return report.hasErrors ? 2 : 0
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
