import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a SIGHUP does with each kind of `server.*` and `observability.*` change (README, "Reload"):
/// refused changes keep the whole old config serving and say so once; applied ones take effect.
@Suite("Reload policy", .timeLimit(.minutes(2)))
struct ReloadPolicyTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    /// `linkhost_reloads_total{result="RESULT"}` from the server's metrics.
    static func reloads(_ server: LinkHostProcess, _ result: String) async throws -> Int? {
        let text = try await server.request("GET", "/metrics").text
        let prefix = "linkhost_reloads_total{result=\"\(result)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    @Test("A new server.port is refused: one log line naming it, result=\"refused\", the old AASA and port keep serving")
    func portChangeRefused() async throws {
        // No --port override: the file's port is the one in force, so changing it means something.
        let (server, config, site, movedPort) = try await LinkHostProcess.startOnConfiguredPort()
        let before = try await server.request("GET", Self.aasaPath)
        var moved = config
        moved.serverPort = movedPort
        moved.bundleID = "com.example.moved"
        try site.writeConfig(moved)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload refused")
        let lines = server.stderr.split(separator: "\n").filter { $0.contains("reload refused") }
        #expect(lines.count == 1, "\(server.stderr)")
        // The key, never its values (issue 30): a value may be a secret.
        #expect(lines.first?.contains("server.port changed") == true && lines.first?.contains("\(moved.serverPort)") == false, "\(lines)")
        // The counter is recorded just after the log line: wait for it, then for nothing else.
        #expect(try await eventually { try await Self.reloads(server, "refused") == 1 })
        #expect(try await Self.reloads(server, "ok") == 0)
        #expect(try await server.request("GET", Self.aasaPath).body == before.body, "the refused config must not be half applied")
    }

    @Test("A new observability.accessLog format is refused; the next reload without it is applied")
    func accessLogChangeRefused() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        var changed = TestConfig()
        changed.extra["observability"] = ["accessLog": "common"]
        try site.writeConfig(changed)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "observability.accessLog changed")
        var fixed = TestConfig()
        fixed.bundleID = "com.example.after-refusal"
        try site.writeConfig(fixed)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reloaded")
        #expect(aasaAppIDs(parseJSON(try await server.request("GET", Self.aasaPath).body)) == [fixed.appID])
        // The counter is recorded just after the "reloaded" line: wait for it.
        #expect(try await eventually { try await Self.reloads(server, "ok") == 1 })
        #expect(try await Self.reloads(server, "refused") == 1)
    }

    @Test("A new server.headerTimeout is applied: after the reload a trickled head is cut after 1 s instead of 10 s")
    func headerTimeoutApplied() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        var shorter = TestConfig()
        shorter.serverExtra["headerTimeout"] = 1
        try site.writeConfig(shorter)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reloaded")
        let (host, port) = (server.host, server.port)
        // The trickle and its clock run on a thread of their own: a busy cooperative pool would stretch
        // the test's sleeps, and with them what it measures.
        let (closed, took) = await onThreads([port], width: 1) { port -> (Bool, Duration) in
            guard let slow = try? RawHTTPClient(host: host, port: port) else { return (false, .zero) }
            let started = ContinuousClock.now
            guard (try? slow.send("GET \(Self.aasaPath) HTTP/1.1\r\nHost: links.example.com\r\n")) != nil else { return (true, .zero) }
            // One header byte every 200 ms: always within connectionTimeout, never a whole head.
            while ContinuousClock.now - started < .seconds(5) {
                if (try? slow.send("X")) == nil || lhtestPeerClosed(slow) { return (true, ContinuousClock.now - started) }
                usleep(200_000)
            }
            return (false, ContinuousClock.now - started)
        }[0]
        #expect(closed, "the trickled head was still open after 5 s")
        #expect(took < .seconds(3), "cut after \(took); the reloaded deadline is 1 s")
        #expect(try await server.request("GET", "/healthz").status == 200)
    }

    @Test("A new server.shutdownTimeout is applied to the next drain (30 s → 1 s)")
    func shutdownTimeoutApplied() async throws {
        var config = TestConfig()
        config.shutdownTimeout = 30
        let site = try SiteFixture(config)
        let server = try await LinkHostProcess.start(site)
        var shorter = config
        shorter.shutdownTimeout = 1
        try site.writeConfig(shorter)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reloaded")
        let held = try await SignalTests.holdRequest(on: server)
        let drained = await server.signalAndTimeExit(SIGTERM)
        let ended = try await server.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(drained < .seconds(4), "the drain took \(drained), longer than the reloaded 1 s allows")
        #expect(ended.stderr.contains("up to 1 s"), "\(ended)")
        _ = held
    }

    @Test("A new observability.healthPath is applied with the snapshot")
    func healthPathApplied() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        var changed = TestConfig()
        changed.extra["observability"] = ["healthPath": "/ready"]
        try site.writeConfig(changed)
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reloaded")
        #expect(try await server.request("GET", "/ready").text.hasPrefix("ok\n"))
        #expect(try await server.request("GET", "/healthz").status == 404)
    }
}

/// True when the server has closed (or reset) the client's connection. Blocking: for a trickle on its own thread.
func lhtestPeerClosed(_ client: RawHTTPClient) -> Bool {
    client.readUntilClosed(wait: .milliseconds(1)) != nil
}
