import Foundation
import Testing

/// TLS session resumption against the real binary, with OpenSSL's client as the peer.
@Suite("TLS sessions")
struct TLSSessionTests {
    /// One `openssl s_client` exchange: a request for the health probe, the session saved to or offered from a file.
    private func exchange(port: Int, version: String, saveTo: String? = nil, offer: String? = nil) async throws -> (reused: Bool, new: Bool, answered: Bool, text: String) {
        var arguments = ["s_client", "-connect", "127.0.0.1:\(port)", version, "-ign_eof", "-servername", "localhost"]
        if let saveTo { arguments += ["-sess_out", saveTo] }
        if let offer { arguments += ["-sess_in", offer] }
        let result = try await runTool("openssl", arguments, input: "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", timeout: .seconds(10))
        let lines = result.stdout.split(separator: "\n")
        return (lines.contains { $0.hasPrefix("Reused, ") }, lines.contains { $0.hasPrefix("New, ") },
                result.stdout.contains("HTTP/1.1 200 OK"), result.stdout + result.stderr)
    }

    @Test("a returning client resumes its session over TLS 1.3 and 1.2; another process makes it a full handshake", arguments: ["-tls1_3", "-tls1_2"])
    func resumption(version: String) async throws {
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        try site.writeConfig(try await site.servingHTTPS(keyArguments: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
                                                   extraArguments: ["-addext", "subjectAltName=DNS:localhost"]))
        let server = try await LinkHostProcess.start(site)
        let session = site.directory + "/session\(version).pem"

        let first = try await exchange(port: server.port, version: version, saveTo: session)
        #expect(first.new && first.answered, "\(first.text)")
        let second = try await exchange(port: server.port, version: version, offer: session)
        #expect(second.reused && second.answered, "the session was not resumed: \(second.text)")

        // Tickets are sealed with a key of the issuing process only: a restarted server or another replica
        // refuses them, and the client falls back to a full handshake instead of failing.
        let other = try await LinkHostProcess.start(site)
        let elsewhere = try await exchange(port: other.port, version: version, offer: session)
        #expect(!elsewhere.reused && elsewhere.new && elsewhere.answered, "\(elsewhere.text)")
    }
}
