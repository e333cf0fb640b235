import Foundation
import Testing

/// Issue #30 (round four), items 5 and 6, over real sockets against the real binary: obsolete line folding is
/// refused in every field on every libmicrohttpd, and the access log's remote is a bare address the client
/// cannot choose.
@Suite("Hardening round four: the wire", .timeLimit(.minutes(1)))
struct HardeningRoundFourWireTests {
    /// Sends `head` on a new connection and returns everything the server sent before it closed.
    static func exchange(_ server: LinkHostProcess, _ head: String) async throws -> String {
        let connection = try await server.connect()
        try await connection.send(head)
        let received = try #require(await connection.readUntilClosed(wait: .seconds(10)), "the server kept the connection open")
        return String(decoding: received, as: UTF8.self)
    }

    @Test("Item 6: a folded Content-Length or Transfer-Encoding gets 400 and closes, and the body is never read as a request", arguments: [
        "Content-Length:\r\n 5",
        "Content-Length: \r\n\t5",
        "Transfer-Encoding:\r\n chunked",
        "Transfer-Encoding: chunked\r\n , identity",
        "X-Anything: a\r\n Content-Length: 5",
    ])
    func foldedFraming(field: String) async throws {
        let server = try await LinkHostProcess.start(try SiteFixture(TestConfig()))
        let head = "POST /style.css HTTP/1.1\r\nHost: links.example.com\r\n\(field)\r\n\r\nhelloGET /healthz HTTP/1.1\r\nHost: links.example.com\r\n\r\n"
        let answer = try await Self.exchange(server, head)
        #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(field.debugDescription): \(answer)")
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one response only, no second request parsed: \(answer)")
        // The next request's line in the log shows the smuggled one never reached the router.
        _ = try await server.request("GET", "/after-folding")
        #expect(try await eventually { server.stdout.contains("/after-folding") }, "\(server.stdout)")
        #expect(!server.stdout.contains("helloGET") && !server.stdout.contains("\"/healthz\""), "\(server.stdout)")
    }

    @Test("Item 6: an unfolded request with the same fields, and spaces before a value, still get their answers")
    func unfoldedStillServed() async throws {
        let server = try await LinkHostProcess.start(try SiteFixture(TestConfig()))
        let answer = try await server.request("GET", "/style.css", headers: [("X-Spaced", "   value"), ("X-Empty", "")])
        #expect(answer.status == 200, "\(answer)")
    }

    /// Sends each request from loopback (a trusted proxy) and returns each path's whole `combined` log line.
    static func combinedLines(_ requests: [(path: String, headers: [(String, String)])]) async throws -> [String: String] {
        var config = TestConfig()
        config.serverExtra["trustedProxies"] = ["127.0.0.0/8", "10.0.0.0/8"]
        config.extra["observability"] = ["accessLog": "combined"]
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        for request in requests { _ = try await server.request("GET", request.path, headers: request.headers) }
        var lines: [String: String] = [:]
        let complete = try await eventually {
            lines = [:]
            for line in server.stdout.split(separator: "\n") {
                for request in requests where line.contains("\"GET \(request.path) HTTP/1.1\"") { lines[request.path] = String(line) }
            }
            return lines.count == requests.count
        }
        #expect(complete, "\(server.stdout)")
        return lines
    }

    @Test("Item 5: the combined log's remote is a bare IP address, whatever the forwarding fields hold")
    func bareRemote() async throws {
        let longChain = Array(repeating: "198.51.100.1", count: 200).joined(separator: ", ")
        let requests: [(path: String, headers: [(String, String)])] = [
            ("/long-chain", [("X-Forwarded-For", longChain), ("CF-Connecting-IP", "6.6.6.66")]),
            ("/zone-quote", [("CF-Connecting-IP", "6.6.6.67%] \"forged")]),
            ("/zone-hop", [("X-Forwarded-For", "10.1.2.3%\" - - [01/Jan/2020:00:00:00 +0000] \"GET /admin, 203.0.113.8%x\" \"y")]),
            ("/bad-hop-and-cf", [("X-Forwarded-For", "garbage"), ("CF-Connecting-IP", "6.6.6.68")]),
            ("/uppercase-v6", [("X-Forwarded-For", "2001:DB8:0:0:0:0:0:9")]),
        ]
        let lines = try await Self.combinedLines(requests)
        func remote(_ path: String) -> String? { lines[path]?.components(separatedBy: " - - [").first }
        #expect(remote("/long-chain") == "127.0.0.1", "an unreadable X-Forwarded-For leaves the peer, never CF-Connecting-IP: \(lines)")
        #expect(remote("/zone-quote") == "6.6.6.67", "\(lines)")
        #expect(remote("/zone-hop") == "203.0.113.8", "\(lines)")
        #expect(remote("/bad-hop-and-cf") == "127.0.0.1", "\(lines)")
        #expect(remote("/uppercase-v6") == "2001:db8::9", "\(lines)")
        for (path, line) in lines {
            #expect(line.components(separatedBy: "\"GET ").count == 2, "one request line only in \(path)'s log line: \(line)")
            #expect(!line.contains("forged") && !line.contains("/admin"), "\(line)")
        }
    }
}
