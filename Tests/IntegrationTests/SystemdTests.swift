import CTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A unix datagram socket standing in for systemd's NOTIFY_SOCKET: what `sd_notify` sends arrives here.
final class NotifySocket: Sendable {
    let path: String
    let descriptor: Int32

    init() throws {
        path = NSTemporaryDirectory() + "linkhost-notify-" + UUID().uuidString.prefix(8) + ".sock"
        descriptor = lhtest_notify_listen(path)
        guard descriptor >= 0 else { throw HarnessError("cannot bind a datagram socket at \(path): \(errorText(errno))") }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Messages received until one contains `field` (e.g. "READY=1"), or throws after `timeout`: `signal`
    /// with none to send, so the datagram's arrival is what wakes the wait (poll(2), on a thread of its own).
    func wait(for field: String, timeout: Duration = .seconds(10)) async throws -> [String] {
        try await signal([], when: field, timeout: timeout) { _ in }
    }

    /// Waits for `field` on a thread of its own and sends `signals` the moment it comes: the
    /// cooperative pool's threads may be busy for seconds in a full test run, far longer than the
    /// state the signals are meant to land in. Returns the messages received up to `field`.
    func signal(_ signals: [Int32], when field: String, timeout: Duration = .seconds(60),
                via send: @escaping @Sendable (Int32) -> Void) async throws -> [String] {
        let outcome = await onThreads([field], width: 1) { field -> Result<[String], HarnessError> in
            var messages: [String] = []
            let deadline = ContinuousClock.now + timeout
            var buffer = [CChar](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                let count = lhtest_notify_receive(self.descriptor, &buffer, Int32(buffer.count), 100)
                guard count > 0 else { continue }
                let message = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                messages.append(message)
                if message.split(separator: "\n").contains(Substring(field)) {
                    for signal in signals { send(signal) }
                    return .success(messages)
                }
            }
            return .failure(HarnessError("no \(field) on the notify socket within \(timeout); got \(messages)"))
        }
        return try outcome[0].get()
    }
}

/// systemd's interfaces without systemd: sd_notify over NOTIFY_SOCKET, and socket activation through
/// Debian's `systemd-socket-activate` (from the systemd package), which binds, waits for the first
/// connection attempt and then starts linkhost with LISTEN_FDS, exactly as a .socket unit does.
@Suite("systemd: notify and socket activation", .timeLimit(.minutes(1)))
struct SystemdTests {
    @Test("NOTIFY_SOCKET gets READY=1 once serving, RELOADING=1 then READY=1 for a SIGHUP, STOPPING=1 for SIGTERM")
    func notifications() async throws {
        let socket = try NotifySocket()
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site, environment: ["NOTIFY_SOCKET": socket.path])
        let ready = try await socket.wait(for: "READY=1")
        #expect(ready.last?.contains("STATUS=serving generation 1") == true, "\(ready)")
        #expect(try await server.request("GET", "/healthz").status == 200, "READY=1 must come only once the listener accepts")

        server.signal(SIGHUP)
        let reloading = try await socket.wait(for: "RELOADING=1")
        #expect(reloading.last?.contains("MONOTONIC_USEC=") == true, "\(reloading)")
        let reloaded = try await socket.wait(for: "READY=1")
        #expect(reloaded.last?.contains("generation 2") == true, "\(reloaded)")

        server.signal(SIGTERM)
        _ = try await socket.wait(for: "STOPPING=1")
        #expect(try await server.waitForExit(timeout: happensWithin).exitCode == 0)
    }

    /// `systemd-socket-activate -l 127.0.0.1:PORT … [--fdname=NAMES] -- linkhost serve` on `count` new ports, before
    /// linkhost runs; TestPorts starts it again on new ports when another process took one first.
    static func activate(_ site: SiteFixture, ports count: Int, names: [String]? = nil) async throws -> (child: ChildProcess, ports: [Int]) {
        let binary = try LinkHostCLI.binaryPath()
        return try await TestPorts.binding(count, "systemd-socket-activate") { ports in
            (try await startActivator(ports: ports, names: names, command: [binary, "serve", "--config", site.configPath], directory: site.directory), ports)
        }
    }

    /// Starts `systemd-socket-activate` on exactly `ports` (inside a caller's `TestPorts.binding`, which retries it
    /// when it reports "Failed to listen on …: Address already in use") and returns once it holds every socket: it
    /// prints "Listening on" for each, and nothing may connect before (on a busy machine it starts late).
    static func startActivator(ports: [Int], names: [String]?, options: [String] = [], command: [String], directory: String) async throws -> ChildProcess {
        let listen = ports.flatMap { ["-l", "127.0.0.1:\($0)"] }
        let naming = names.map { ["--fdname=" + $0.joined(separator: ":")] } ?? []
        let child = try ChildProcess(executable: try requireTool("systemd-socket-activate"), arguments: listen + naming + options + ["--"] + command,
                                     environment: LinkHostCLI.baseEnvironment, directory: directory)
        for port in ports { try await child.waitForStderr(containing: "Listening on 127.0.0.1:\(port)", timeout: .seconds(20)) }
        return child
    }

    /// A client for an activated socket (the activator holds it once `activate` returns). It connects on its
    /// first send, on the same thread, so linkhost (started by that connection) finds the request there at once.
    static func connect(_ port: Int) async throws -> RawHTTPClient {
        RawHTTPClient(deferredHost: "127.0.0.1", port: port, timeout: .seconds(5))
    }

    @Test("Socket activation: the first connection attempt, made before linkhost runs, is answered on the passed socket")
    func oneSocket() async throws {
        _ = try requireTool("systemd-socket-activate")
        let site = try SiteFixture()
        let (child, ports) = try await Self.activate(site, ports: 1)
        let port = ports[0]
        // linkhost is not running yet: this connection waits in the socket's backlog and starts it.
        let first = try await Self.connect(port)
        let answer = try await first.request("GET", "/.well-known/apple-app-site-association")
        #expect(answer.status == 200, "\(answer)")
        // The output arrives through pipes read by other threads: wait for it rather than race it.
        try await child.waitForStderr(containing: "1 socket passed by systemd")
        #expect(try await eventually { child.stderr.text.contains("linkhost: listening on http://127.0.0.1:\(port)") }, "\(child.stderr.text)")
        child.send(SIGTERM)
        #expect(try await child.waitForExit(timeout: happensWithin).exitCode == 0)
    }

    @Test("Socket activation with two sockets: both are served, and SIGHUP reloads on both")
    func twoSockets() async throws {
        _ = try requireTool("systemd-socket-activate")
        let site = try SiteFixture()
        let (child, ports) = try await Self.activate(site, ports: 2)
        #expect(try await Self.connect(ports[0]).request("GET", "/healthz").status == 200)
        #expect(try await Self.connect(ports[1]).request("GET", "/healthz").status == 200)
        try await child.waitForStderr(containing: "2 sockets passed by systemd")

        var changed = TestConfig()
        changed.bundleID = "com.example.activated"
        try site.writeConfig(changed)
        child.send(SIGHUP)
        try await child.waitForStderr(containing: "reloaded")
        for port in ports {
            let aasa = try await RawHTTPClient.open(port: port).request("GET", "/.well-known/apple-app-site-association")
            #expect(aasaAppIDs(parseJSON(aasa.body)) == [changed.appID], "port \(port): \(aasa)")
        }
        child.send(SIGTERM)
        #expect(try await child.waitForExit(timeout: happensWithin).exitCode == 0)
    }
}
