import CTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a failing integration test prints: the request it sent, the answer it got (or why none came) and the
/// tail of linkhost's stderr, so a CI log alone explains the failure.
@Suite("Failure reports")
struct FailureReportTests {
    @Test("A response printed in a failed expectation shows the request sent and linkhost's stderr beside the answer")
    func responseCarriesTheExchange() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let response = try await server.request("GET", "/no-such-page", headers: [("X-Probe", "report-me")])
        let printed = "\(response)"
        #expect(printed.hasPrefix("HTTP/1.1 404"), "\(printed)")
        #expect(printed.contains("--- request sent ---\nGET /no-such-page HTTP/1.1\nHost: links.example.com"), "\(printed)")
        #expect(printed.contains("X-Probe: report-me"), "\(printed)")
        #expect(printed.contains("--- linkhost stderr, last lines ---") && printed.contains("linkhost: listening on http://127.0.0.1:\(server.port)"), "\(printed)")
    }

    @Test("A request that gets no answer throws an error naming the request, what came back and linkhost's last words")
    func failedExchangeCarriesTheExchange() async throws {
        for _ in 0..<3 {
            let server = try await LinkHostProcess.start(SiteFixture())
            server.signal(SIGTERM)
            _ = try await server.waitForExit(timeout: happensWithin)
            // The freed port is held while it is asked: another test's linkhost (port 0) could be handed it and
            // answer. Taken already, the test starts again with a new server.
            let held = lhtest_hold_port(Int32(server.port))
            guard held >= 0 else { continue }
            defer { close(held) }
            do {
                let response = try await server.request("GET", "/.well-known/apple-app-site-association")
                Issue.record("a stopped server answered: \(response)")
            } catch {
                let printed = "\(error)"
                #expect(printed.contains("GET /.well-known/apple-app-site-association to linkhost at 127.0.0.1:\(server.port) failed: cannot connect"), "\(printed)")
                #expect(printed.contains("--- request sent ---\nGET /.well-known/apple-app-site-association HTTP/1.1"), "\(printed)")
                #expect(printed.contains("linkhost: stopped"), "the stderr tail shows why: \(printed)")
            }
            return
        }
        Issue.record("the stopped server's port was taken by another process each of three times")
    }

    @Test("On a connection of its own, a response and a failed read carry the last bytes sent and linkhost's stderr")
    func connectionCarriesTheExchange() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let client = try await server.connect(timeout: .seconds(2))
        try await client.send("GET /style.css HTTP/1.1\r\nHost: links.example.com\r\n\r\n")
        let answer = try await client.readResponse()
        #expect("\(answer)".contains("--- last bytes sent ---\nGET /style.css HTTP/1.1") && "\(answer)".contains("linkhost: listening on"), "\(answer)")
        // Half a head, then nothing: the read times out (or, when the connection is old enough, the server's
        // header deadline answers 408 first); either way what is printed says what was sent and what linkhost logged.
        try await client.send("GET /style.css HTTP/1.1\r\nHost: links")
        let printed: String
        do {
            let response = try await client.readResponse()
            #expect(response.status == 408, "half a head was answered: \(response)")
            printed = "\(response)"
        } catch {
            printed = "\(error)"
        }
        #expect(printed.contains("--- last bytes sent ---\nGET /style.css HTTP/1.1\nHost: links"), "\(printed)")
        #expect(printed.contains("--- server stderr, last lines ---"), "\(printed)")
    }
}
