import LinkHostCheck
import LinkHostCore

/// `linkhost check`: a live deployment, seen the way Apple's and Google's fetchers see it.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check a live deployment the way Apple's and Google's fetchers see it."
    static let help = """
    USAGE: linkhost check URL [--user-agent UA] [--cdn] [--allow-http] [--cacert FILE]
                              [--timeout SECONDS] [--format human|json]

    Fetches the association files from the deployment at URL (its origin, e.g.
    https://links.example.com; a bare host name means https) and checks:
      /.well-known/apple-app-site-association  no redirect, 200, Content-Type
          application/json, at most 128 KB, valid JSON, the linter's checks (see
          linkhost validate), and HEAD answering like GET;
      /apple-app-site-association  when served, the same bytes;
      /.well-known/assetlinks.json  200, application/json, valid statements, HEAD
          answering like GET.
    Redirects are never followed. TLS certificates are verified against the system
    trust store, including the host name.

    OPTIONS:
      --user-agent UA     User-Agent to send (default: AASA-Bot/1.0.0, the agent of
                          Apple's CDN fetcher, which firewalls sometimes block).
      --cdn               Also fetch Apple's CDN copy from
                          https://app-site-association.cdn-apple.com/a/v1/HOST, report its
                          Apple-Failure-Reason and Apple-Failure-Details, and whether it
                          differs from the origin's file.
      --cdn-url URL       Fetch the CDN copy from URL followed by HOST instead (testing).
      --allow-http        Accept a plain http:// URL, for local testing (devices need https).
      --cacert FILE       Trust the CA certificates of this PEM file instead of the system
                          store (a private CA, a test certificate).
      --timeout SECONDS   Time each request may take (default: 10).
      --format FORMAT     human (default) or json: {"target", "userAgent", "passed",
                          "requests", "diagnostics": [{code, severity, path, message}]}.
      -h, --help          Show this help.

    Codes are listed in docs/diagnostics.md.

    EXIT CODES: 0 every check passed (warnings may be printed), 1 problems found,
    2 usage error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(
            words, command: name,
            options: ["--user-agent", "--cdn-url", "--cacert", "--timeout", "--format"],
            flags: ["--cdn", "--allow-http"]
        )
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        guard arguments.positional.count == 1, let given = arguments.positional.first else {
            throw UsageError(message: arguments.positional.isEmpty ? "give the deployment's URL, e.g. https://links.example.com" : "give one URL", command: name)
        }
        let format = try outputFormat(arguments, command: name)
        let url = given.contains("://") ? given : "https://" + given
        guard let origin = FetchOrigin(url: url) else {
            throw UsageError(message: "'\(given)' is not an https:// URL with a host", command: name)
        }
        if origin.scheme == "http" && !arguments.has("--allow-http") {
            throw UsageError(message: "devices fetch association files over https only; add --allow-http to check a plain http server while testing", command: name)
        }
        let userAgent = arguments["--user-agent"] ?? DeploymentCheckOptions.appleUserAgent
        if userAgent.isEmpty || userAgent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw UsageError(message: "--user-agent needs a value on one line", command: name)
        }
        if case .failure(let failure)? = arguments["--cacert"].map(DocumentFile.bytes(at:)) {
            throw UsageError(message: "--cacert: \(failure.message)", command: name)
        }
        let cdnBase = arguments["--cdn-url"]
        if let cdnBase, FetchOrigin(url: cdnBase) == nil {
            throw UsageError(message: "--cdn-url '\(cdnBase)' is not an http(s) URL", command: name)
        }
        let client = HTTPClient(
            timeoutSeconds: try arguments.integer("--timeout", in: 1...300, command: name) ?? 10,
            caFile: arguments["--cacert"]
        )
        let options = DeploymentCheckOptions(
            origin: origin, userAgent: userAgent, checkCDN: arguments.has("--cdn") || cdnBase != nil,
            cdnBase: cdnBase ?? DeploymentCheckOptions.appleCDNBase
        )
        let report = DeploymentCheck.run(options, fetch: client.fetcher)
        StandardStreams.output(format == "json" ? report.jsonText : report.humanText)
        return report.passed ? 0 : 1
    }
}

/// `--format human|json`, shared by `check` and `validate`.
func outputFormat(_ arguments: Arguments, command: String) throws(UsageError) -> String {
    let format = arguments["--format"] ?? "human"
    guard format == "human" || format == "json" else {
        throw UsageError(message: "--format takes human or json, not '\(format)'", command: command)
    }
    return format
}
