import Foundation
import Testing

/// Client-initiated renegotiation, which testssl.sh has reported as "VULNERABLE" against linkhost: OpenSSL's
/// own client shows the server never renegotiates. A ClientHello in the middle of a TLS 1.2 session is
/// answered with close_notify and the connection ends, so a client cannot make it spend handshakes on
/// one connection (the denial of service the finding is about). scripts/check-testssl.sh waives the
/// finding with this test as its reason. TLS 1.3 has no renegotiation at all.
@Suite("TLS renegotiation")
struct TLSRenegotiationTests {
    @Test("a mid-session ClientHello (s_client's R command) gets close_notify, no ServerHello, and no request is answered after it")
    func clientRenegotiationIsRefused() async throws {
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        try site.writeConfig(try await site.servingHTTPS(keyArguments: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
                                                   extraArguments: ["-addext", "subjectAltName=DNS:localhost"]))
        let server = try await LinkHostProcess.start(site)
        // s_client reads its commands from standard input, which must stay open while it renegotiates
        // (with -ign_eof it would send "R" as data instead): one request, R, then a second request. One stream,
        // so that RENEGOTIATING (stderr) stands where it happened among the -msg lines (stdout).
        // Each step waits for the one before it: with fixed sleeps a slow handshake let "R" reach s_client in the
        // same read as the request, and it went out as data instead of a renegotiation.
        let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let client = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec openssl s_client -connect 127.0.0.1:\(server.port) -tls1_2 -servername localhost -msg 2>&1"],
                                      input: .open, environment: ["PATH": "/usr/bin:/bin"], directory: site.directory)
        _ = client.writeInput(request)
        try await client.waitForOutput(containing: "HTTP/1.1 200", timeout: .seconds(20))
        _ = client.writeInput("R\n")
        try await client.waitForOutput(containing: "RENEGOTIATING", timeout: .seconds(20))
        // R is consumed (s_client said so), so the second request goes out on its own. What ends the wait is an
        // event either way: s_client's "closed" (or its exit) when the server ends the session, or a second answer
        // when it went on serving; nothing waits for an answer to stay away.
        _ = client.writeInput(request)
        let settled = try await eventually(timeout: .seconds(20)) {
            let output = client.stdout.text
            return output.contains("\nclosed\n") || output.components(separatedBy: "HTTP/1.1 200").count > 2 || !client.isRunning
        }
        #expect(settled, "s_client neither saw the session end nor a second answer: \(client.stdout.text)")
        client.closeInput()
        let run = try await client.waitForExit(timeout: .seconds(20))
        let text = run.stdout + run.stderr
        let lines = text.split(separator: "\n").map(String.init)
        let answers = lines.filter { $0.hasPrefix("HTTP/1.1 200") }
        #expect(answers.count == 1, "the request before R is answered, the one after it is not: \(text)")
        let renegotiating = try #require(lines.firstIndex(of: "RENEGOTIATING"), "s_client did not renegotiate: \(text)")
        let after = lines[renegotiating...]
        #expect(after.contains { $0.hasPrefix(">>> TLS 1.2, Handshake") && $0.hasSuffix("ClientHello") }, "no ClientHello was sent: \(text)")
        #expect(!after.contains { $0.hasPrefix("<<< TLS 1.2, Handshake") }, "the server answered the ClientHello with a handshake: \(text)")
        #expect(after.contains { $0.hasPrefix("<<< TLS 1.2, Alert") && $0.hasSuffix("close_notify") }, "the server did not close with close_notify: \(text)")
        // The server itself is unharmed.
        #expect(try await runTool("openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2", "-ign_eof", "-servername", "localhost"],
                                           input: "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", timeout: .seconds(10)).stdout.contains("HTTP/1.1 200"))
    }
}
