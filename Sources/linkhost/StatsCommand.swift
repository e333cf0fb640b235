import LinkHostCheck
import LinkHostCore
import LinkHostHTTPClient
import LinkHostServer

/// `linkhost stats`: what the call pages of each site reported, read from a running server's metrics.
enum StatsCommand: Command {
    static let name = "stats"
    static let summary = "Show the sites' page views and taps (a summary, the busiest), from a running server's metrics."
    static let help = """
    USAGE: linkhost stats [--url URL] [--config PATH] [--top N] [--by COUNT] [--all] [--site NAME]
                          [--format human|json] [--timeout SECONDS]

    Reads a running linkhost's metrics and prints a summary first (how many sites, the totals of
    page views, taps and pages served, the three busiest sites), then a table for each of the 10
    busiest sites: the page views their call pages reported by platform (iOS, Android, desktop,
    in-app browser, bot, other), the taps on each action (open in the app, store, web join, copy,
    leave the in-app browser), and how many pages the server answered itself (a cache in front
    answers the rest; the page's own report counts those too). The counts are since the process
    started, for this replica only: sum replicas in Prometheus. Nothing in them identifies a
    visitor or a call.

    OPTIONS:
      --url URL          The metrics page. Default: http://127.0.0.1:PORT/PATH with the
                         port and metrics path serve would use ($LINKHOST_PORT, else the
                         config's server.port, or observability.metrics.port when the metrics
                         have their own listener; observability.metrics.path).
      --config PATH      Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --top N            The N busiest sites' tables after the summary (default: 10); with
                         --format json, only those N sites.
      --by COUNT         What makes a site busy: views (default: page views), taps, pages (call
                         pages this server answered) or dropped (beacons not counted).
      --all              Every site's table in name order, without the summary.
      --site NAME        Only this site (its id, else its first host; `default` for the top level).
      --format FORMAT    human (default) or json: [{"site", "views": {platform: n},
                         "actions": {action: {platform: n}}, "dropped", "pagesServed"}], every
                         site in name order unless --top N.
      --timeout SECONDS  How long the request may take (default: 5).
      -h, --help         Show this help.

    EXIT CODES: 0 printed, 1 the server could not be read, 2 usage error (an unknown --site too).
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--url", "--config", "--site", "--format", "--timeout", "--top", "--by"], flags: ["--all"])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        let format = try outputFormat(arguments, command: name)
        let (top, measure) = try ranking(arguments)
        let config = try? ConfigLoader.load(path: configPath(arguments, environment: environment), environment: environment)
        let metricsPath = config?.observability.metricsPath ?? "/metrics"
        // Metrics on their own listener (observability.metrics.port) are plain HTTP on that port.
        let url = arguments["--url"] ?? (config?.observability.metricsPort.map { "http://127.0.0.1:\($0)\(metricsPath)" }
            ?? localServerURL(config, environment: environment, path: metricsPath))
        let (origin, path) = try fetchTarget(url, defaultPath: "/metrics", command: name)
        let timeout = try arguments.integer("--timeout", in: 1...60, command: name) ?? 5
        // A thousand sites' metrics are a few megabytes; the bound keeps a wrong URL from filling memory.
        let client = HTTPClient(timeoutSeconds: timeout, maximumResponseSize: 64 * 1024 * 1024)
        let body: [UInt8]
        switch client.fetch(FetchRequest(method: "GET", origin: origin, path: path, userAgent: "linkhost-stats")) {
        case .success(let response) where response.status == 200:
            body = response.body
        case .success(let response):
            StandardStreams.error("linkhost stats: \(url) answered \(response.status), not the metrics\n")
            return 1
        case .failure(let error):
            StandardStreams.error(TerminalText.safe("linkhost stats: \(url): \(error)\n"))
            return 1
        }
        var all = PageStats.read(String(decoding: body, as: UTF8.self))
        guard !all.isEmpty else {
            StandardStreams.error("linkhost stats: \(url) holds no linkhost page metrics (is it linkhost's metrics path?)\n")
            return 1
        }
        // The metrics leave out a site that has counted nothing yet; the config this server runs lists it anyway
        // (when the config is the server's: named, or the one that gave the URL).
        if let config, arguments["--config"] != nil || arguments["--url"] == nil {
            for site in config.sites where !all.contains(where: { $0.site == site.label }) { all.append(SiteStats(site: site.label)) }
        }
        var sites = all
        if let wanted = arguments["--site"] {
            sites = all.filter { $0.site == wanted }
            guard !sites.isEmpty else {
                let labels = all.map { TerminalText.safe($0.site, keepingLineFeeds: false) }
                throw UsageError(message: "no site '\(wanted)' in \(url); its sites: \(labels.joined(separator: ", "))", command: name)
            }
        }
        // The labels are the server's bytes: PageStats.table and .summary escape them, and JSON keeps no raw control character.
        if format == "json" {
            let chosen = top.map { PageStats.busiest(sites, by: measure, top: $0) } ?? sites
            StandardStreams.output(TerminalText.safe(PageStats.json(chosen), style: .json) + "\n")
        } else if arguments["--site"] != nil || arguments.has("--all") {
            StandardStreams.output(PageStats.table(sites))
        } else {
            // A thousand tenants' tables are three thousand lines: the summary and the busiest say what matters.
            let shown = PageStats.busiest(sites, by: measure, top: top ?? 10)
            var text = PageStats.summary(sites, by: measure) + "\n" + PageStats.table(shown)
            let rest = sites.count - shown.count
            if rest > 0 { text += "\n(the other \(rest) site\(rest == 1 ? "" : "s"): --top N or --all shows them)\n" }
            StandardStreams.output(text)
        }
        return 0
    }

    /// `--top` and `--by`, checked against `--site` and `--all` before anything is fetched.
    private static func ranking(_ arguments: Arguments) throws(UsageError) -> (top: Int?, measure: StatsMeasure) {
        let top = try arguments.integer("--top", in: 1...1_000_000, command: name)
        let written = arguments["--by"]
        guard let measure = written.map(StatsMeasure.init(rawValue:)) ?? .views else {
            let choices = StatsMeasure.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "--by takes one of \(choices), not '\(written ?? "")'", command: name)
        }
        let ranks = top != nil || written != nil
        if ranks, arguments["--site"] != nil {
            throw UsageError(message: "--site shows one site; --top and --by choose among all of them", command: name)
        }
        if ranks, arguments.has("--all") {
            throw UsageError(message: "--all shows every site in name order; --top and --by choose the busiest", command: name)
        }
        return (top, measure)
    }
}
