import CTestSupport
import Foundation
import Testing

/// Connection handling: keep-alive, pipelining, IPv6, and a port that is already taken.
@Suite("Connections and listening", .timeLimit(.minutes(1)))
struct ConnectionTests {
    @Test("Three requests one after another are answered on one TCP connection (keep-alive)")
    func keepAlive() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let connection = try await server.connect()
        let paths = ["/.well-known/apple-app-site-association", "/style.css", "/.well-known/assetlinks.json"]
        for path in paths {
            let response = try await connection.request("GET", path)
            #expect(response.status == 200, "\(path) on the shared connection: \(response)")
            #expect(response.header("Connection")?.lowercased() != "close", "\(path): the server asked to close: \(response)")
        }
        // Still open after the third answer: a fourth request on it is answered too (a server that closed the
        // connection would never read it), which shows what a 200 ms wait for no close could only suggest.
        let fourth = try await connection.request("GET", paths[0])
        #expect(fourth.status == 200, "the server closed the keep-alive connection after three answers: \(fourth)")
    }

    @Test("Pipelined requests sent in one write are answered in order on one connection")
    func pipelining() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let connection = try await server.connect()
        let paths = ["/style.css", "/no-such-page", "/apple-app-site-association"]
        try await connection.send(paths.flatMap { RawHTTPClient.requestBytes("GET", $0) })
        var statuses: [Int] = []
        for _ in paths { statuses.append(try await connection.readResponse().status) }
        #expect(statuses == [200, 404, 200])
    }

    @Test("--host ::1 serves over IPv6", .enabled(if: lhtest_ipv6_loopback_available() != 0, "this machine has no IPv6 loopback (::1)"))
    func ipv6Loopback() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site, arguments: ["serve", "--config", site.configPath, "--host", "::1", "--port", "0"])
        #expect(server.host == "::1")
        #expect(server.stderr.contains("linkhost: listening on http://[::1]:\(server.port)"), "IPv6 addresses must be bracketed in the URL: \(server.stderr)")
        let response = try await RawHTTPClient.open(host: "::1", port: server.port).request("GET", "/.well-known/apple-app-site-association")
        #expect(response.status == 200, "\(response)")
    }

    @Test("A port already in use → exit 1 with a message saying so; the first server keeps serving")
    func portInUse() async throws {
        let first = try await LinkHostProcess.start(SiteFixture())
        let site = try SiteFixture()
        let second = try await LinkHostCLI.run(
            ["serve", "--config", site.configPath, "--host", "127.0.0.1", "--port", String(first.port)],
            directory: site.directory)
        #expect(second.exitCode == 1, "\(second)")
        #expect(second.stderr.contains("already in use"), "\(second)")
        #expect(second.stderr.contains(String(first.port)), "the message should name the port: \(second)")
        #expect(!second.stderr.contains("listening on"), "\(second)")
        #expect(try await first.request("GET", "/apple-app-site-association").status == 200)
    }
}
