import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A bad day: broken files on reload, a full disk for the log, a forbidden port, SIGTERM under load.
@Suite("Faults", .timeLimit(.minutes(1)))
struct FaultTests {
    static let aasaPath = "/.well-known/apple-app-site-association"

    /// Sends SIGHUP after `breakIt` and checks the reload fails with `words` and the old snapshot keeps serving.
    private func reloadFails(_ site: SiteFixture, server: LinkHostProcess, words: String, _ breakIt: () throws -> Void) async throws {
        let before = try await server.request("GET", "/call/abc")
        #expect(before.status == 200)
        try breakIt()
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        #expect(server.stderr.contains(words), "\(server.stderr)")
        #expect(server.isRunning)
        #expect(try await server.request("GET", "/call/abc").body == before.body, "the old snapshot must keep serving")
        #expect(try await server.request("GET", Self.aasaPath).status == 200)
    }

    @Test("SIGHUP with a broken page template keeps the old snapshot serving")
    func brokenTemplate() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        try await reloadFails(site, server: server, words: "callLinks.template") {
            try site.write("<p>{{callid}}</p>", to: "public/call.html")
        }
    }

    @Test("SIGHUP after public/ was deleted keeps the old snapshot serving")
    func deletedPublic() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        try await reloadFails(site, server: server, words: "public") {
            try FileManager.default.moveItem(atPath: site.publicPath, toPath: site.directory + "/public-moved")
        }
        #expect(try await server.request("GET", "/style.css").status == 200)
    }

    @Test("SIGHUP with a certificate that is gone keeps serving HTTPS with the old one")
    func missingCertificate() async throws {
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        try site.writeConfig(try await site.servingHTTPS())
        let server = try await LinkHostProcess.start(site)
        try FileManager.default.removeItem(atPath: site.directory + "/cert.pem")
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        #expect(server.stderr.contains("server.tls.certificateFile"), "\(server.stderr)")
        let probe = try await runTool("curl", ["-sk", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(server.port)/healthz"])
        #expect(probe.stdout == "200", "\(probe.stdout) \(probe.stderr)")
    }

    @Test("With stdout on a full disk, access-log lines are dropped and every request is still answered")
    func fullDiskForLogs() async throws {
        let site = try SiteFixture()
        let binary = try LinkHostCLI.binaryPath()
        // /dev/full fails every write with ENOSPC, as a full disk does. Port 0: the stderr line names the port.
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec \"$0\" serve --config \"$1\" --host 127.0.0.1 --port 0 >/dev/full", binary, site.configPath],
                                     environment: LinkHostCLI.baseEnvironment, directory: site.directory)
        defer { child.send(SIGKILL) }
        let (_, port) = try await LinkHostProcess.waitUntilListening(child, timeout: .seconds(10))
        #expect(try await eventually { (try? await RawHTTPClient.open(port: port).request("GET", "/healthz").status) == 200 })
        let client = try await RawHTTPClient.open(port: port)
        let statuses = try await onThread("2000 requests on one connection") {
            try (0..<2_000).map { index in try client.request("GET", index % 2 == 0 ? Self.aasaPath : "/call/abc\(index % 50)").status }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.enumerated().filter { $0.element != 200 }.prefix(5))")
        #expect(child.isRunning)
        child.send(SIGTERM)
        let ended = try await child.waitForExit(timeout: happensWithin)
        #expect(ended.exitCode == 0, "\(ended)")
    }

    @Test("Port 80 as a non-root user: exit 1 with a message that says why, no crash loop")
    func privilegedPort() async throws {
        let unprivilegedStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_unprivileged_port_start", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 1024
        try #require(unprivilegedStart > 80, "this kernel lets unprivileged users bind port 80")
        try #require(getuid() == 0, "needs root to drop to another user")
        _ = try requireTool("setpriv")
        let site = try SiteFixture()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: site.directory)
        // In the fixture's folder: the config's relative paths (public/locales) resolve there, not in the checkout,
        // which user 65534 may not enter (CI's clone lies in a folder only root can; setpriv still execs the build).
        let result = try await runTool("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", try LinkHostCLI.binaryPath(),
                                                      "serve", "--config", site.configPath, "--host", "127.0.0.1", "--port", "80"],
                                       directory: site.directory)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("permission denied") && result.stderr.contains("1024"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrace"))
    }

    @Test("SIGTERM under load: every answered request is whole, the server exits 0")
    func stopUnderLoad() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let port = server.port
        // Blocking clients run on threads of their own: on the cooperative pool (two threads here) they
        // would hold back the SIGTERM below, and every other test's awaits, until they finished.
        // SIGTERM once the load is under way (40 answers so far), not after a guess at how long that takes.
        let answeredSoFar = Atomic<Int>(0)
        let parts = await onThreads(Array(0...4), width: 5) { index -> (answered: Int, broken: [String]) in
            if index == 4 {
                let deadline = ContinuousClock.now + .seconds(3)
                while answeredSoFar.load(ordering: .acquiring) < 40 && ContinuousClock.now < deadline { usleep(1_000) }
                server.signal(SIGTERM)
                return (0, [])
            }
            var answered = 0
            var broken: [String] = []
            let deadline = ContinuousClock.now + .seconds(3)
            while ContinuousClock.now < deadline {
                do {
                    let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                    let response = try client.request("GET", index % 2 == 0 ? Self.aasaPath : "/call/load\(index)")
                    if response.status == 200 {
                        answered += 1
                        answeredSoFar.add(1, ordering: .releasing)
                    } else {
                        broken.append("status \(response.status)")
                    }
                } catch HTTPClientError.connectFailed {
                    break
                } catch HTTPClientError.closed(let received) where received.isEmpty {
                    // Closed before any byte of an answer: the server had stopped accepting; nothing half-sent.
                    break
                } catch {
                    broken.append("\(error)")
                    break
                }
            }
            return (answered, broken)
        }
        let outcome = (answered: parts.reduce(0) { $0 + $1.answered }, broken: parts.flatMap(\.broken))
        #expect(outcome.broken.isEmpty, "\(outcome.broken.prefix(5))")
        #expect(outcome.answered >= 40, "the load was not under way when SIGTERM came: \(outcome.answered) answered")
        let ended = try await server.waitForExit(timeout: .seconds(15))
        #expect(ended.exitCode == 0, "\(ended)")
    }
}
