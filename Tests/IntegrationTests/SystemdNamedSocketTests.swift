import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Socket activation with named sockets (`FileDescriptorName=https` / `http`, LISTEN_FDNAMES), through
/// `systemd-socket-activate --fdname`, which passes names exactly as a .socket unit does.
@Suite("systemd: named sockets", .timeLimit(.minutes(3)))
struct SystemdNamedSocketTests {

    /// One curl request: status and headers as curl dumps them.
    private func curl(_ url: String) async throws -> (status: Int, headers: String) {
        let result = try await runTool("curl", ["-sS", "-k", "--max-time", "5", "-D", "-", "-o", "/dev/null", url])
        let status = result.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, result.stdout + result.stderr)
    }

    @Test("HTTPS and HTTP sockets named in the opposite order of their ports: each serves its own listener; server.httpPort is not bound")
    func httpsAndHTTP() async throws {
        _ = try requireTool("systemd-socket-activate")
        let site = try SiteFixture()
        // A port nobody binds, from the same owner as the activator's: it differs from theirs and from any port-0 listener.
        let configuredHTTP = try TestPorts.candidates(1)[0]
        var config = try await site.servingHTTPS()
        config.serverExtra["httpPort"] = configuredHTTP
        try site.writeConfig(config)
        // HTTP first: a linkhost that went by order would take it for HTTPS.
        let (child, ports) = try await SystemdTests.activate(site, ports: 2, names: ["http", "https"])
        let (httpPort, httpsPort) = (ports[0], ports[1])
        // linkhost starts on the first connection attempt, which waits in the socket's backlog. Its start is
        // waited for by its own line, so curl's bound below times the request, not a cold start on a busy machine.
        #expect(await acceptsConnections(port: httpsPort), "the passed HTTPS socket takes a connection")
        try await child.waitForStderr(containing: "linkhost: listening on https://127.0.0.1:\(httpsPort)")
        let secure = try await curl("https://127.0.0.1:\(httpsPort)/.well-known/apple-app-site-association")
        #expect(secure.status == 200 && secure.headers.lowercased().contains("strict-transport-security: max-age="), "\(secure.headers)")
        let plain = try await curl("http://127.0.0.1:\(httpPort)/.well-known/apple-app-site-association")
        #expect(plain.status == 200 && !plain.headers.lowercased().contains("strict-transport-security"), "\(plain.headers)")
        let redirected = try await curl("http://127.0.0.1:\(httpPort)/call/abc?type=video")
        #expect(redirected.status == 308, "the plain-HTTP listener redirects the rest: \(redirected.headers)")
        try await child.waitForStderr(containing: "named http, https")
        #expect(child.stderr.text.contains("linkhost: listening on https://127.0.0.1:\(httpsPort)"), "\(child.stderr.text)")
        await #expect(throws: (any Error).self, "server.httpPort \(configuredHTTP) must not be bound beside the passed socket") {
            try await RawHTTPClient.open(port: configuredHTTP, timeout: .seconds(1))
        }
        child.send(SIGTERM)
        #expect(try await child.waitForExit(timeout: happensWithin).exitCode == 0)
    }

    /// Starts an activation that does not fit the config and returns how it ended (after the first connection attempt).
    private func mismatch(_ config: TestConfig, _ site: SiteFixture, ports: Int, names: [String]?) async throws -> Termination {
        try site.writeConfig(config)
        let (child, bound) = try await SystemdTests.activate(site, ports: ports, names: names)
        // The attempt starts linkhost; it fails before it answers, so the connection may be reset or refused.
        // At least 20 attempts whatever the clock says: in a full run this task may first run after a long wait.
        let deadline = ContinuousClock.now + .seconds(15)
        var attempts = 0
        while child.isRunning && (attempts < 20 || ContinuousClock.now < deadline) {
            attempts += 1
            if (try? await RawHTTPClient.open(port: bound[0], timeout: .seconds(1)).request("GET", "/healthz")) != nil { break }
            // Pacing between attempts, not a poll for news: each attempt is what makes systemd-socket-activate
            // start linkhost, and the child's exit (checked by the loop) is the event that ends them.
            try await Task.sleep(for: .milliseconds(100))
        }
        // Generous: in a full parallel run on two shared cores a debug linkhost may take seconds to load.
        do {
            return try await child.waitForExit(timeout: .seconds(30))
        } catch {
            throw HarnessError("\(error)\n--- stderr ---\n\(child.stderr.text)")
        }
    }

    @Test("What systemd passes does not fit the config: exit 2 with one line naming the fix")
    func mismatches() async throws {
        _ = try requireTool("systemd-socket-activate")
        let site = try SiteFixture()
        var https = try await site.servingHTTPS()
        https.serverExtra["httpPort"] = try TestPorts.candidates(1)[0]
        var httpsOnly = try await site.servingHTTPS()
        httpsOnly.serverExtra["httpPort"] = nil
        let cases: [(String, TestConfig, Int, [String]?, String)] = [
            ("unnamed sockets, HTTPS and httpPort", https, 1, nil, "without the names https or http"),
            ("https named, plain config", TestConfig(), 1, ["https"], "named https, but the config serves plain HTTP"),
            ("https only, httpPort set", https, 1, ["https"], "no socket named http"),
            ("http only, HTTPS config", https, 1, ["http"], "no socket named https"),
            ("http without httpPort", httpsOnly, 2, ["https", "http"], "has no server.httpPort"),
            ("an unknown name", https, 2, ["https", "web"], "named \"web\""),
        ]
        for (name, config, ports, names, expected) in cases {
            let ended = try await mismatch(config, site, ports: ports, names: names)
            #expect(ended.exitCode == 2, "\(name): \(ended)")
            let errors = ended.stderr.split(separator: "\n").filter { $0.hasPrefix("linkhost: error:") }
            #expect(errors.count == 1 && errors[0].contains(expected), "\(name): \(ended.stderr)")
            #expect(!ended.stderr.contains("listening on"), "\(name): \(ended)")
        }
    }

    @Test("One unnamed socket and a plain-HTTP config: served as before names existed")
    func unnamedPlain() async throws {
        _ = try requireTool("systemd-socket-activate")
        let site = try SiteFixture()
        let (child, ports) = try await SystemdTests.activate(site, ports: 1, names: ["linkhost.socket"])
        let port = ports[0]
        #expect(try await SystemdTests.connect(port).request("GET", "/healthz").status == 200)
        try await child.waitForStderr(containing: "1 socket passed by systemd (LISTEN_FDS)")
        child.send(SIGTERM)
        #expect(try await child.waitForExit(timeout: happensWithin).exitCode == 0)
    }
}
