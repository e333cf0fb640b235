import LinkHostCore

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
            summary = outcome.snapshot.map(ConfigLinter.summary(of:)) ?? ""
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
