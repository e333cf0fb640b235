import Foundation
import Testing

/// `linkhost check` against a real linkhost, canned misbehaving servers, and TLS.
@Suite("check command")
struct CheckCommandTests {
    static let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [{"/": "/call/*"}]}]}}"#
    static let assetlinks = """
    [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.video", "sha256_cert_fingerprints": ["\(CheckSite.fingerprints[0])", "\(CheckSite.fingerprints[1])"]}}]
    """

    /// A well-behaved deployment; tests replace single responses.
    static func deployment(_ overrides: [String: String] = [:]) -> [String: String] {
        [
            "GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", aasa),
            "GET /.well-known/assetlinks.json": CheckCannedServer.response("200 OK", type: "application/json", assetlinks),
        ].merging(overrides) { $1 }
    }

    /// The codes of a `--format json` report.
    static func codes(_ run: Termination) -> [String] {
        let diagnostics = (run.json as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        return diagnostics.compactMap { $0["code"] as? String }
    }

    @Test("a real linkhost passes, over plain http with --allow-http")
    func realServerPasses() async throws {
        let site = try CheckSite()
        let server = try await site.serve()
        defer { server.child.stop() }
        let human = try await LinkHostCLI.run(["check", "--allow-http", server.origin])
        #expect(human.exitCode == 0, "\(human)")
        #expect(human.stdout.contains("\(server.origin): passed"), "\(human)")
        #expect(human.stdout.contains("GET  \(server.origin)/.well-known/apple-app-site-association: 200, application/json"), "\(human)")

        let json = try await LinkHostCLI.run(["check", "--allow-http", server.origin, "--format", "json"])
        #expect(json.exitCode == 0, "\(json)")
        let report = try #require(json.json as? [String: Any], "\(json)")
        #expect(report["passed"] as? Bool == true)
        #expect(report["userAgent"] as? String == "AASA-Bot/1.0.0")
        let requests = report["requests"] as? [[String: Any]] ?? []
        #expect(requests.map { $0["method"] as? String ?? "" } == ["GET", "HEAD", "GET", "GET", "HEAD"])
        #expect(requests.allSatisfy { $0["status"] as? Int == 200 }, "\(requests)")
        #expect(Self.codes(json).isEmpty, "\(json)")
    }

    @Test("plain http is a usage error without --allow-http")
    func plainHTTPNeedsAllowHTTP() async throws {
        let run = try await LinkHostCLI.run(["check", "http://127.0.0.1:9"])
        #expect(run.exitCode == 2, "\(run)")
        #expect(run.stderr.contains("--allow-http"), "\(run)")
    }

    @Test("a misbehaving server fails with the right code", arguments: [
        ("redirect", ["GET /.well-known/apple-app-site-association": CheckCannedServer.response("301 Moved Permanently", type: "text/html", "moved", extra: ["Location: /moved"]),
                      "GET /moved": CheckCannedServer.response("200 OK", type: "application/json", aasa)], "LH503"),
        ("text/plain", ["GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "text/plain", aasa)], "LH505"),
        ("broken JSON", ["GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", #"{"applinks": {"details": [}"#)], "LH100"),
        ("missing AASA", ["GET /.well-known/apple-app-site-association": CheckCannedServer.response("404 Not Found", type: "text/plain", "no")], "LH504"),
        ("HEAD differs", ["HEAD /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", "{}")], "LH507"),
        ("root copy differs", ["GET /apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", "{}")], "LH506"),
        ("unreachable rule", ["GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [{"/": "*", "exclude": true}, {"/": "/call/*"}]}]}}"#)], "LH203"),
    ])
    func misbehavingServer(name: String, overrides: [String: String], code: String) async throws {
        let server = try CheckCannedServer(Self.deployment(overrides))
        let run = try await LinkHostCLI.run(["check", "--allow-http", server.origin, "--format", "json"])
        #expect(run.exitCode == 1, "\(name): \(run)")
        #expect(Self.codes(run).contains(code), "\(name): \(run)")
        #expect((run.json as? [String: Any])?["passed"] as? Bool == false)
        let urls = ((run.json as? [String: Any])?["requests"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        #expect(!urls.contains { $0.hasSuffix("/moved") }, "a redirect was followed: \(urls)")
    }

    @Test("the canned deployment passes, also with chunked bodies, and the human report names the problems")
    func cannedDeployment() async throws {
        let chunked = try CheckCannedServer(Self.deployment([
            "GET /.well-known/apple-app-site-association": CheckCannedServer.chunked(type: "application/json", Self.aasa + String(repeating: " ", count: 300)),
        ]))
        let passed = try await LinkHostCLI.run(["check", "--allow-http", chunked.origin])
        #expect(passed.exitCode == 0, "\(passed)")

        let failing = try CheckCannedServer(Self.deployment(["GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "text/plain", Self.aasa)]))
        let failed = try await LinkHostCLI.run(["check", "--allow-http", failing.origin])
        #expect(failed.exitCode == 1, "\(failed)")
        #expect(failed.stdout.contains("failed with 1 error"), "\(failed)")
        #expect(failed.stdout.contains("error LH505 /.well-known/apple-app-site-association: is served as \"text/plain\""), "\(failed)")
    }

    @Test("the user agent is sent as given")
    func userAgent() async throws {
        // Only requests with the right agent would be answered by a filtering server; here the canned server
        // answers anything, so the agent is checked in the report.
        let server = try CheckCannedServer(Self.deployment())
        let run = try await LinkHostCLI.run(["check", "--allow-http", server.origin, "--user-agent", "Test-Agent/2", "--format", "json"])
        #expect((run.json as? [String: Any])?["userAgent"] as? String == "Test-Agent/2", "\(run)")
        #expect(run.exitCode == 0, "\(run)")
    }

    @Test("Apple's CDN copy: failure headers and differences are reported")
    func cdn() async throws {
        let origin = try CheckCannedServer(Self.deployment())
        let host = "127.0.0.1"
        let failing = try CheckCannedServer(["GET /a/v1/\(host)": CheckCannedServer.response("404 Not Found", type: "text/plain", "", extra: ["Apple-Failure-Reason: SWCERR00301 Timeout", "Apple-Failure-Details: the origin did not answer"])])
        let failed = try await LinkHostCLI.run(["check", "--allow-http", origin.origin, "--cdn-url", failing.origin + "/a/v1/", "--format", "json"])
        #expect(failed.exitCode == 1, "\(failed)")
        #expect(Self.codes(failed) == ["LH509"], "\(failed)")
        #expect(failed.stdout.contains("SWCERR00301 Timeout: the origin did not answer"), "\(failed)")

        let stale = try CheckCannedServer(["GET /a/v1/\(host)": CheckCannedServer.response("200 OK", type: "application/json", "{}")])
        let differs = try await LinkHostCLI.run(["check", "--allow-http", origin.origin, "--cdn-url", stale.origin + "/a/v1/", "--format", "json"])
        #expect(differs.exitCode == 0, "a stale CDN copy is a warning: \(differs)")
        #expect(Self.codes(differs) == ["LH508"], "\(differs)")
    }

    @Test("TLS: a self-signed certificate fails verification, and passes with --cacert")
    func tlsVerification() async throws {
        let certificate = try CheckCertificate()
        let server = try CheckCannedServer(Self.deployment(), certificate: (certificate.cert, certificate.key))
        let untrusted = try await LinkHostCLI.run(["check", server.origin, "--format", "json"])
        #expect(untrusted.exitCode == 1, "\(untrusted)")
        #expect(Self.codes(untrusted) == ["LH502"], "\(untrusted)")
        #expect(untrusted.stdout.contains("not trusted"), "\(untrusted)")

        let trusted = try await LinkHostCLI.run(["check", server.origin, "--cacert", certificate.cert])
        #expect(trusted.exitCode == 0, "\(trusted)")
        #expect(trusted.stdout.contains("passed"), "\(trusted)")
        // The certificate's facts from the handshake, and LH512: the test certificate lives one day.
        #expect(trusted.stdout.contains("certificate: issuer CN=localhost, valid until ") && trusted.stdout.contains("names localhost"), "\(trusted)")
        #expect(trusted.stdout.contains("LH512"), "\(trusted)")

        // The host name is checked too: the certificate names localhost and 127.0.0.1, not 127.0.0.2.
        let port = server.origin.split(separator: ":").last.map(String.init) ?? ""
        let byName = try await LinkHostCLI.run(["check", "https://localhost:\(port)", "--cacert", certificate.cert])
        #expect(byName.exitCode == 0, "\(byName)")
    }

    @Test("TLS: a certificate for another name fails even when it is trusted")
    func tlsHostName() async throws {
        let certificate = try CheckCertificate(name: "links.example.com", loopback: false)
        let server = try CheckCannedServer(Self.deployment(), certificate: (certificate.cert, certificate.key))
        let run = try await LinkHostCLI.run(["check", server.origin, "--cacert", certificate.cert, "--format", "json"])
        #expect(run.exitCode == 1, "\(run)")
        #expect(Self.codes(run) == ["LH502"], "\(run)")
    }
}
