import Foundation
import Testing

/// `server.trustedProxies` over real sockets: the access log's `remote` from a trusted peer and from any other.
@Suite("Trusted proxies", .timeLimit(.minutes(1)))
struct TrustedProxyTests {
    /// Sends one request per header set, each on its own path, and returns each path's logged `remote`.
    static func loggedRemotes(_ server: LinkHostProcess, _ requests: [(path: String, headers: [(String, String)])]) async throws -> [String: String] {
        for request in requests { _ = try await server.request("GET", request.path, headers: request.headers) }
        var remotes: [String: String] = [:]
        let complete = try await eventually {
            remotes = [:]
            for line in server.stdout.split(separator: "\n") {
                guard let entry = parseJSON(Array(line.utf8)) as? [String: Any], let path = entry["path"] as? String else { continue }
                remotes[path] = entry["remote"] as? String
            }
            return remotes.count >= requests.count
        }
        #expect(complete, "stdout: \(server.stdout)")
        return remotes
    }

    static func start(trusting proxies: [String], host: String = "127.0.0.1") async throws -> LinkHostProcess {
        var config = TestConfig()
        config.serverExtra["trustedProxies"] = proxies
        let site = try SiteFixture(config)
        return try await LinkHostProcess.start(site, arguments: ["serve", "--config", site.configPath, "--host", host, "--port", "0"])
    }

    static let requests: [(path: String, headers: [(String, String)])] = [
        ("/forwarded", [("X-Forwarded-For", "198.51.100.1, 203.0.113.9")]),
        ("/through-two", [("X-Forwarded-For", "203.0.113.10, 10.1.2.3")]),
        ("/two-lines", [("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "203.0.113.11")]),
        ("/cloudflare", [("CF-Connecting-IP", "2001:db8:1::7")]),
        ("/garbage", [("X-Forwarded-For", "unknown")]),
        ("/plain", []),
    ]

    @Test("From a trusted loopback peer the log shows the rightmost untrusted forwarded hop or CF-Connecting-IP")
    func trustedPeer() async throws {
        let server = try await Self.start(trusting: ["127.0.0.0/8", "10.0.0.0/8"])
        let remotes = try await Self.loggedRemotes(server, Self.requests)
        #expect(remotes["/forwarded"] == "203.0.113.9")
        #expect(remotes["/through-two"] == "203.0.113.10", "a trusted hop is skipped")
        #expect(remotes["/two-lines"] == "203.0.113.11", "the proxy's own line, not the one the client put first")
        #expect(remotes["/cloudflare"] == "2001:db8:1::7")
        #expect(remotes["/garbage"] == "127.0.0.1")
        #expect(remotes["/plain"] == "127.0.0.1")
    }

    @Test("From an untrusted peer (loopback not in the list) the forwarding fields are ignored")
    func untrustedPeer() async throws {
        let server = try await Self.start(trusting: ["10.0.0.0/8", "2001:db8::/32"])
        let remotes = try await Self.loggedRemotes(server, Self.requests)
        for request in Self.requests { #expect(remotes[request.path] == "127.0.0.1", "\(request.path): \(remotes)") }
    }

    @Test("IPv6: a trusted ::1 peer is believed, an IPv6 list without it is not")
    func ipv6Peer() async throws {
        let trusted = try await Self.start(trusting: ["::1/128"], host: "::1")
        let believed = try await Self.loggedRemotes(trusted, [("/v6", [("X-Forwarded-For", "2001:db8::42")])])
        #expect(believed["/v6"] == "2001:db8::42")
        let untrusted = try await Self.start(trusting: ["2001:db8::/32"], host: "::1")
        let ignored = try await Self.loggedRemotes(untrusted, [("/v6", [("X-Forwarded-For", "2001:db8::42")])])
        #expect(ignored["/v6"] == "::1")
    }

    @Test("A malformed trustedProxies entry is a config error naming it")
    func malformedEntry() async throws {
        var config = TestConfig()
        config.serverExtra["trustedProxies"] = ["10.0.0.0/8", "10.0.0.0/40"]
        let site = try SiteFixture(config)
        let result = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(result.exitCode != 0 && (result.stdout + result.stderr).contains("server.trustedProxies[1]"), "\(result)")
    }
}
