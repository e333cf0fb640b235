import LinkHostCheck
import LinkHostCore
import LinkHostHTTPClient
import LinkHostServer

/// `linkhost check`: a live deployment, seen the way Apple's and Google's fetchers see it.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check a live deployment the way Apple's and Google's fetchers see it."
    static let help = """
    USAGE: linkhost check [URL ...] [--config PATH] [--user-agent UA] [--cdn] [--allow-http]
                          [--cacert FILE] [--timeout SECONDS] [--connect-to H1:P1:H2:P2 ...]
                          [--format human|json]

    Fetches the association files from the deployment at each URL (its origin, e.g.
    https://links.example.com; a bare host name means https) and checks:
      /.well-known/apple-app-site-association  no redirect, 200, Content-Type
          application/json, at most 128 KB, valid JSON, the linter's checks (see
          linkhost validate), and HEAD answering like GET;
      /apple-app-site-association  when served, the same bytes;
      /.well-known/assetlinks.json  200, application/json, valid statements, HEAD
          answering like GET.
    Redirects are never followed. TLS certificates are verified against the system
    trust store, including the host name.

    With --config, check decides for each app the config gives a host, with the
    platforms' matchers (Apple's on the AASA, AOSP's on the dynamic rules) on a call
    link of every link template of the host's site: the live AASA must open each in
    every iOS app (LH513) and list every App Clip under appclips (LH516); the live
    assetlinks.json must verify every Android app with every fingerprint the config
    lists (LH514; a 404 there is an error, LH510), and its dynamic rules must not keep
    a call link out of an app (LH515) — each an error naming the site, the app and
    the links. A file that differs from the one the config generates but changes no
    such decision is a warning naming where (LH511). A site with no iOS app (and no
    clip) whose AASA answers 404, or with no Android app whose assetlinks.json answers
    404, passes: linkhost serves that 404 on purpose. Without a URL every host of
    every site is checked (wildcard hosts are skipped; the default site's
    callLinks.baseURL stands for it when set).

    Hosts are checked at the same time, at most 16 at once, each within its own
    --timeout, so a host that hangs or trickles costs that and no one else's: N hosts
    take about ceil(N / 16) x --timeout at most (plus linkhost's own work on the
    answers, and name lookups, which the system resolver bounds). The report lists
    them in the order given, then one summary line.

    OPTIONS:
      --user-agent UA     User-Agent to send for every file. Default: each file's
                          fetcher's, which firewalls and bot filters sometimes block:
                          AASA-Bot/1.0.0 (Apple's CDN) for the AASA and Apple's copy,
                          Dalvik/2.1.0 (Linux; U; Android 15; Pixel 9 Build/AP4A.250105.002)
                          (Android's verifier: the agent every Android device's
                          StatementService sends, its version, model and build vary)
                          for assetlinks.json.
      --config PATH       The config the deployment serves; compare its files, and give the
                          hosts to check when no URL is given.
      --cdn               Also fetch Apple's CDN copy from
                          https://app-site-association.cdn-apple.com/a/v1/HOST, report its
                          Apple-Failure-Reason and Apple-Failure-Details, and whether it
                          differs from the origin's file (LH508 names the apps and
                          JSON paths where the copies differ).
      --cdn-url URL       Fetch the CDN copy from URL followed by HOST instead (testing).
      --allow-http        Accept a plain http:// URL, for local testing (devices need https).
      --cacert FILE       Trust the CA certificates of this PEM file instead of the system
                          store (a private CA, a test certificate).
      --timeout SECONDS   Time each host's whole exchange may take, connect to last
                          byte, TLS or not (default: 10): all its requests share it
                          (the AASA, its HEAD and root copy, assetlinks.json and its
                          HEAD, and with --cdn Apple's copy for the host; no redirect
                          is followed). A request cut off and the requests left
                          unsent are named (LH501).
      --connect-to H1:P1:H2:P2
                          Dial H2:P2 for requests to H1:P1, as curl's option of that name
                          (an empty part matches any / keeps the request's): one origin or
                          replica behind a CDN, checked with the host's name, SNI and
                          certificate. May be given more than once; the first that fits wins.
      --format FORMAT     human (default) or json: {"target", "userAgent",
                          "assetLinksUserAgent", "passed",
                          "requests", "diagnostics": [{code, severity, path, message}]},
                          an array of them when several deployments are checked.
      -h, --help          Show this help.

    Codes are listed in docs/diagnostics.md.

    EXIT CODES: 0 every check passed on every host (warnings may be printed),
    1 a check failed on a host that answered (a wrong, missing or broken file, an
    app that would not open or verify), 2 usage or config error, 3 a host could not
    be reached at all (and nothing else failed) — so an alert can tell a broken
    deploy from an outage.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(
            words, command: name,
            options: ["--config", "--user-agent", "--cdn-url", "--cacert", "--timeout", "--format", "--connect-to"],
            flags: ["--cdn", "--allow-http"]
        )
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        let format = try outputFormat(arguments, command: name)
        let config = try arguments["--config"].map { path throws(UsageError) in try loadConfig(path, environment: environment) }
        let targets = arguments.positional.isEmpty ? try configTargets(config) : arguments.positional
        let origins = try targets.map { given throws(UsageError) in try origin(given, allowHTTP: arguments.has("--allow-http")) }
        let userAgent = arguments["--user-agent"]
        if let userAgent, userAgent.isEmpty || userAgent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw UsageError(message: "--user-agent needs a value on one line", command: name)
        }
        if case .failure(let failure)? = arguments["--cacert"].map({ DocumentFile.bytes(at: $0) }) {
            throw UsageError(message: "--cacert: \(failure.message)", command: name)
        }
        let cdnBase = arguments["--cdn-url"]
        if let cdnBase, FetchOrigin(url: cdnBase) == nil {
            throw UsageError(message: "--cdn-url '\(cdnBase)' is not an http(s) URL", command: name)
        }
        let connectTo = try arguments.all("--connect-to").map { text throws(UsageError) -> ConnectTo in
            guard let rule = ConnectTo(text) else { throw UsageError(message: "--connect-to takes HOST1:PORT1:HOST2:PORT2 (as curl), not '\(text)'", command: name) }
            return rule
        }
        let timeout = try arguments.integer("--timeout", in: 1...300, command: name) ?? 10
        let client = HTTPClient(timeoutSeconds: timeout, caFile: arguments["--cacert"], connectTo: connectTo)
        let expected = config.map(CheckExpectedFiles.init)
        let checks = origins.map { origin in
            var options = DeploymentCheckOptions(
                origin: origin, userAgent: userAgent, checkCDN: arguments.has("--cdn") || cdnBase != nil,
                cdnBase: cdnBase ?? DeploymentCheckOptions.appleCDNBase
            )
            options.timeout = .seconds(timeout)
            expected?.fill(&options)
            return options
        }
        let reports = DeploymentCheck.runAll(checks, fetch: client.fetcher)
        let summary = DeploymentSummary(reports)
        if format == "json" {
            // Headers, URLs and errors in the reports are the servers' bytes: no control character of theirs reaches the terminal.
            StandardStreams.output(TerminalText.safe(reports.count == 1 ? reports[0].jsonText : DeploymentReport.jsonText(of: reports), style: .json))
        } else {
            StandardStreams.output(TerminalText.safe(DeploymentReport.humanText(of: reports) + summary.line + "\n"))
        }
        return summary.exitCode
    }

    /// The origin of one deployment given on the command line.
    private static func origin(_ given: String, allowHTTP: Bool) throws(UsageError) -> FetchOrigin {
        let url = given.contains("://") ? given : "https://" + given
        guard let origin = FetchOrigin(url: url) else {
            throw UsageError(message: "'\(given)' is not an https:// URL with a host", command: name)
        }
        if origin.scheme == "http" && !allowHTTP {
            throw UsageError(message: "devices fetch association files over https only; add --allow-http to check a plain http server while testing", command: name)
        }
        return origin
    }

    private static func loadConfig(_ path: String, environment: [String: String]) throws(UsageError) -> Config {
        do {
            return try ConfigLoader.load(path: path, environment: environment)
        } catch {
            throw UsageError(message: "--config: \(error)", command: name)
        }
    }

    /// Every exact host of every site, and the default site's base URL when it has one.
    private static func configTargets(_ config: Config?) throws(UsageError) -> [String] {
        guard let config else { throw UsageError(message: "give the deployment's URL, e.g. https://links.example.com, or --config to check every host it names", command: name) }
        var targets = config.defaultSite.callLinks.baseURL.map { [$0] } ?? []
        for host in config.sites.flatMap(\.hosts) where !host.hasPrefix("*.") && !targets.contains("https://" + host) {
            targets.append("https://" + host)
        }
        guard !targets.isEmpty else {
            throw UsageError(message: "the config names no host to check (no sites, no callLinks.baseURL); give the deployment's URL", command: name)
        }
        return targets
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
