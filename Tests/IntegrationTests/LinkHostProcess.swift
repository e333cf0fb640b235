import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running `linkhost serve` on its own temporary site, bound to an ephemeral port.
///
/// `start` returns once the server printed its `linkhost: listening on` line (on stderr; stdout is the access log). The process is killed when this
/// object goes away (see `ChildProcess`), so tests that fail or throw leave nothing running.
final class LinkHostProcess: Sendable {
    let site: SiteFixture
    let child: ChildProcess
    /// The address from the `listening on` line, without brackets (e.g. "127.0.0.1" or "::1").
    let host: String
    let port: Int

    private init(site: SiteFixture, child: ChildProcess, host: String, port: Int) {
        self.site = site
        self.child = child
        self.host = host
        self.port = port
    }

    /// The arguments a test server normally gets: its config, loopback only, a free port.
    static func defaultArguments(for site: SiteFixture) -> [String] {
        ["serve", "--config", site.configPath, "--host", "127.0.0.1", "--port", "0"]
    }

    /// Starts the real binary on `site` (in its folder) and waits for `listening on`.
    /// Throws with the captured output when the server exits first or stays silent past `timeout`.
    static func start(
        _ site: SiteFixture, arguments: [String]? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(10)
    ) async throws -> LinkHostProcess {
        let child = try ChildProcess(
            executable: try LinkHostCLI.binaryPath(), arguments: arguments ?? defaultArguments(for: site),
            environment: LinkHostCLI.baseEnvironment.merging(environment) { $1 }, directory: site.directory)
        let (host, port) = try await waitUntilListening(child, timeout: timeout)
        return LinkHostProcess(site: site, child: child, host: host, port: port)
    }

    /// Waits for a `linkhost serve` child's `listening on` line and returns its address.
    /// Throws with the captured output when the server exits first or stays silent past `timeout`.
    static func waitUntilListening(_ child: ChildProcess, timeout: Duration) async throws -> (host: String, port: Int) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let output = child.stderr.text
            if let line = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.hasPrefix(listeningPrefix) }) {
                guard let address = parse(listeningLine: String(line)) else {
                    throw HarnessError("cannot read the address in \"\(line)\"")
                }
                return address
            }
            if !child.isRunning {
                let ended = try await child.waitForExit(timeout: happensWithin)
                throw HarnessError("linkhost exited before listening: \(ended)")
            }
            if ContinuousClock.now >= deadline {
                throw HarnessError("linkhost printed no \"listening on\" line within \(timeout)\n--- stdout ---\n\(child.stdout.text)--- stderr ---\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How the start line begins on stderr.
    static let listeningPrefix = "linkhost: listening on "

    /// "listening on http://127.0.0.1:8080" or "listening on http://[::1]:8080" → host and port.
    static func parse(listeningLine line: String) -> (host: String, port: Int)? {
        guard let scheme = line.range(of: "https://") ?? line.range(of: "http://") else { return nil }
        let authority = line[scheme.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]), port > 0 else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    /// A new connection to the server.
    func connect(timeout: Duration = .seconds(5)) throws -> RawHTTPClient {
        try RawHTTPClient(host: host, port: port, timeout: timeout)
    }

    /// One request on a new connection.
    func request(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPResponse {
        try connect().request(method, path, headers: headers, body: body)
    }

    /// Sends a signal to the server.
    func signal(_ signal: Int32) { child.send(signal) }

    /// Sends `signal` and returns how long the server took to exit (`limit` when it had not by then). Signal
    /// and stopwatch run on a thread of their own: in a full run the test's own steps may wait seconds for a
    /// cooperative-pool thread, which would be timed too.
    func signalAndTimeExit(_ signal: Int32, limit: Duration = .seconds(20)) async -> Duration {
        await onThreads([self], width: 1) { server -> Duration in
            let sent = ContinuousClock.now
            server.signal(signal)
            while server.isRunning && ContinuousClock.now - sent < limit { usleep(5_000) }
            return ContinuousClock.now - sent
        }[0]
    }

    /// Waits for the server to exit; throws when it is still running after `timeout`.
    func waitForExit(timeout: Duration) async throws -> Termination { try await child.waitForExit(timeout: timeout) }

    /// Waits until stderr contains `text`; the default is generous because a passing wait returns at once and a
    /// loaded full run (every suite at once on two cores) has made a small reload take seconds.
    func waitForStderr(containing text: String, timeout: Duration = .seconds(15)) async throws {
        try await child.waitForStderr(containing: text, timeout: timeout)
    }

    var stderr: String { child.stderr.text }
    var stdout: String { child.stdout.text }
    var isRunning: Bool { child.isRunning }
}
