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

    /// A server whose config names its port (no `--port` override, so a config that moves it means something),
    /// on a port TestPorts hands out (started again on another when it is taken), with a second port for the test
    /// to move it to (never bound). Returns the server, the config and site it runs from, and that second port.
    static func startOnConfiguredPort() async throws -> (server: LinkHostProcess, config: TestConfig, site: SiteFixture, otherPort: Int) {
        try await TestPorts.binding(2, "linkhost on a configured port") { ports in
            var config = TestConfig()
            config.serverPort = ports[0]
            let site = try SiteFixture(config)
            let server = try await start(site, arguments: ["serve", "--config", site.configPath, "--host", "127.0.0.1"])
            return (server, config, site, ports[1])
        }
    }

    /// Waits for a `linkhost serve` child's `listening on` line and returns its address.
    /// Throws with the captured output when the server exits first or stays silent past `timeout`.
    static func waitUntilListening(_ child: ChildProcess, timeout: Duration) async throws -> (host: String, port: Int) {
        var news = OutputNews([child.stderr], until: ContinuousClock.now + timeout)
        defer { news.stop() }
        while true {
            let awake = await news.next()
            let output = child.stderr.text
            if let line = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.hasPrefix(listeningPrefix) }) {
                guard let address = parse(listeningLine: String(line)) else {
                    throw HarnessError("cannot read the address in \"\(line)\"")
                }
                return address
            }
            // Its stderr closed (it exits, a moment before it can be reaped), or silent past the deadline and gone.
            if child.stderr.isFinished || (!awake && !child.isRunning) {
                let ended = try await child.waitForExit(timeout: happensWithin)
                throw HarnessError("linkhost exited before listening: \(ended)")
            }
            if !awake {
                throw HarnessError("linkhost printed no \"listening on\" line within \(timeout)\n--- stdout ---\n\(child.stdout.text)--- stderr ---\n\(output)")
            }
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

    /// A new connection to the server, connected on a thread of its own.
    /// Its failures and responses carry the tail of this server's stderr.
    /// It connects on its first send, on that send's thread (see `RawHTTPClient(deferredHost:)`).
    func connect(timeout: Duration = .seconds(5)) async throws -> RawHTTPClient {
        let client = RawHTTPClient(deferredHost: host, port: port, timeout: timeout)
        client.serverLog = { [self] in stderrTail() }
        return client
    }

    /// One request on a new connection, its socket I/O on a thread of its own. The response's description (and
    /// the error, when the exchange fails) carries the request sent and the tail of the server's stderr, so a
    /// failed test's log shows what was sent, what came back and what linkhost said meanwhile.
    func request(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> HTTPResponse {
        try await onThread("request \(method) \(path)") { [self] in try blockingRequest(method, path, headers: headers, body: body) }
    }

    /// `request` on the calling thread, for code already on a thread of its own (an `onThread` or `onThreads` body,
    /// a load client); async code awaits `request`.
    func blockingRequest(_ method: String = "GET", _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPResponse {
        do {
            var response = try RawHTTPClient(host: host, port: port).request(method, path, headers: headers, body: body)
            response.context = exchangeContext(method, path, headers: headers, body: body)
            return response
        } catch {
            throw HarnessError("\(method) \(path) to linkhost at \(host):\(port) failed: \(error)\n" + exchangeContext(method, path, headers: headers, body: body))
        }
    }

    /// Returns once linkhost has read every byte `client` sent: the server's end of that connection has nothing
    /// left in its receive queue (/proc/net/tcp or tcp6, found by the two ports). The event that shows a half-sent
    /// request is in the server's hands, instead of a sleep that may end before the server ran at all.
    func waitUntilRead(by client: RawHTTPClient, timeout: Duration = happensWithin) async throws {
        let (local, remote) = (String(format: ":%04X", port), String(format: ":%04X", client.localPort))
        var last = "no such connection"
        // The kernel tells no one when a receive queue empties: `eventually` looks at /proc until it has.
        let read = try await eventually(timeout: timeout) {
            for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                let rows = Self.readWhole(table).split(separator: "\n").map { $0.split(separator: " ") }
                // sl local_address rem_address st tx_queue:rx_queue …
                if let row = rows.first(where: { $0.count > 4 && $0[1].hasSuffix(local) && $0[2].hasSuffix(remote) }) {
                    let queues = row[4].split(separator: ":")
                    if queues.count == 2, Int(queues[1], radix: 16) == 0 { return true }
                    last = "receive queue \(row[4])"
                }
            }
            return false
        }
        if read { return }
        throw HarnessError("linkhost did not read what the client on port \(client.localPort) sent within \(timeout) (\(last))\n--- linkhost stderr ---\n\(stderrTail())")
    }

    /// A file read to its end with read(2): Foundation's String(contentsOfFile:) stops after the first page of a
    /// /proc table (it reports a size of 0), and the connection looked for may be further down.
    static func readWhole(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Returns once every request answered so far is in the access log (stdout): asks for a path of its own and
    /// waits for that request's line, which the server writes after theirs. The event that shows the log was
    /// flushed, instead of a sleep longer than the flusher's period. Needs the access log on.
    func flushAccessLog() async throws {
        let marker = "/access-log-flushed-" + UUID().uuidString
        _ = try await request("GET", marker)
        try await child.waitForOutput(containing: marker)
    }

    /// The request as sent and the last lines linkhost wrote to stderr, for failure messages.
    func exchangeContext(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> String {
        let sent = String(decoding: RawHTTPClient.requestBytes(method, path, headers: headers, body: body).prefix(1_000), as: UTF8.self)
        return "--- request sent ---\n\(sent.replacingOccurrences(of: "\r\n", with: "\n"))--- linkhost stderr, last lines ---\n\(stderrTail())"
    }

    /// The last `lines` lines of the server's stderr (its log of starts, reloads, warnings and errors).
    func stderrTail(_ lines: Int = 15) -> String {
        let all = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        return all.suffix(lines + 1).joined(separator: "\n")
    }

    /// Sends a signal to the server.
    func signal(_ signal: Int32) { child.send(signal) }

    /// Sends `signal` and returns how long the server took to exit (`limit` when it had not by then). Signal
    /// and stopwatch run on a thread of their own: in a full run the test's own steps may wait seconds for a
    /// cooperative-pool thread, which would be timed too.
    func signalAndTimeExit(_ signal: Int32, limit: Duration = .seconds(20)) async -> Duration {
        await onThread("stopwatch for signal \(signal)") { [self] () -> Duration in
            let sent = ContinuousClock.now
            self.signal(signal)
            while isRunning && ContinuousClock.now - sent < limit { usleep(5_000) }
            return ContinuousClock.now - sent
        }
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
