import LinkHostCheck
import LinkHostCore
import LinkHostHTTPClient
import LinkHostServer

/// `linkhost healthcheck`: probes a running server, for Docker's HEALTHCHECK (the image has no curl).
enum HealthcheckCommand: Command {
    static let name = "healthcheck"
    static let summary = "Probe a running server's health path; exit 0 when it answers 200."
    static let help = """
    USAGE: linkhost healthcheck [--url URL] [--config PATH] [--timeout SECONDS]

    Sends GET to the health path of a running linkhost and exits 0 when it answers 200; prints
    what the probe says besides "ok": the config's sha256 and generation, a failed reload.
    Made for Docker's HEALTHCHECK and other probes on machines without curl.

    OPTIONS:
      --url URL          What to probe. Default: http://127.0.0.1:PORT/PATH with the port and
                         health path serve would use: $LINKHOST_PORT, else the config's
                         server.port (server.httpPort beside HTTPS) and
                         observability.healthPath (8080 and /healthz when the config
                         cannot be read).
      --config PATH      Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --timeout SECONDS  How long the probe may take (default: 3).
      -h, --help         Show this help.

    EXIT CODES: 0 healthy, 1 unhealthy or unreachable, 2 usage error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--url", "--config", "--timeout"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        // The probe follows the same settings serve does, so a moved port or health path still checks out.
        let config = try? ConfigLoader.load(path: configPath(arguments, environment: environment), environment: environment)
        let url = arguments["--url"] ?? localServerURL(config, environment: environment, path: config?.observability.healthPath ?? "/healthz")
        let (origin, path) = try fetchTarget(url, defaultPath: "/healthz", command: name)
        let timeout = try arguments.integer("--timeout", in: 1...60, command: name) ?? 3
        let client = HTTPClient(timeoutSeconds: timeout, maximumResponseSize: 64 * 1024)
        switch client.fetch(FetchRequest(method: "GET", origin: origin, path: path, userAgent: "linkhost-healthcheck")) {
        case .success(let response) where response.status == 200:
            StandardStreams.output("healthy: \(url) answered 200\n")
            // linkhost's probe says more after `ok` (which config serves, a failed reload, certificates):
            // shown, so `kubectl exec POD -- linkhost healthcheck` tells replicas apart.
            let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
            if lines.first == "ok" {
                for line in lines.dropFirst() where line.utf8.allSatisfy({ $0 >= 0x20 }) { StandardStreams.output("  \(line)\n") }
            }
            return 0
        case .success(let response):
            StandardStreams.error("unhealthy: \(url) answered \(response.status)\n")
            return 1
        case .failure(let error):
            StandardStreams.error("unhealthy: \(url): \(error)\n")
            return 1
        }
    }
}
