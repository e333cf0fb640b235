import LinkHostCheck
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif
import LinkHostHTTPClient

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
    /// Runs as `run(_:environment:)`, knowing who the service runs as when `--env-file` read a unit.
    static func run(_ words: ArraySlice<String>, environment: [String: String], account: ServiceAccount?) throws -> Int32
}

extension Command {
    /// Most commands need no service account.
    static func run(_ words: ArraySlice<String>, environment: [String: String], account: ServiceAccount?) throws -> Int32 {
        try run(words, environment: environment)
    }
}

/// A URL on this machine's running server for `path`, as serve would listen under `config`: $LINKHOST_PORT, else
/// the config's server.port (8080 when the config cannot be read); beside HTTPS the plain-HTTP listener, since
/// ACME's certificates name the public hosts, not 127.0.0.1.
func localServerURL(_ config: Config?, environment: [String: String], path: String) -> String {
    var port = config?.server.port ?? environment["LINKHOST_PORT"].flatMap { Int($0) } ?? 8080
    var scheme = config?.server.tls == nil ? "http" : "https"
    if let httpPort = config?.server.httpPort, config?.server.servesHTTPS == true {
        (scheme, port) = ("http", httpPort)
    }
    return "\(scheme)://127.0.0.1:\(port)\(path)"
}

/// The origin and path of an http(s) URL given to a command that fetches one; a usage error for anything else.
func fetchTarget(_ url: String, defaultPath: String, command: String) throws(UsageError) -> (origin: FetchOrigin, path: String) {
    guard let origin = FetchOrigin(url: url), ["http", "https"].contains(origin.scheme) else {
        throw UsageError(message: "--url takes an http(s) URL, not '\(url)'", command: command)
    }
    let pathStart = url.firstRange(of: "://").map { url[$0.upperBound...] }.flatMap { $0.firstIndex(of: "/") }
    return (origin, pathStart.map { String(url[$0...]) } ?? defaultPath)
}
