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

    @Test("each file is fetched with its fetcher's user agent (Apple's CDN for the AASA, Android's verifier for assetlinks.json); --user-agent sends one for all")
    func userAgent() async throws {
        let server = try CheckCannedServer(Self.deployment())
        let run = try await LinkHostCLI.run(["check", "--allow-http", server.origin, "--format", "json"])
        #expect(run.exitCode == 0, "\(run)")
        let android = "Dalvik/2.1.0 (Linux; U; Android 15; Pixel 9 Build/AP4A.250105.002)"
        let seen = server.requestLog
        let aasa = seen.filter { $0.request.hasSuffix("apple-app-site-association") }
        let assetLinks = seen.filter { $0.request.hasSuffix("/.well-known/assetlinks.json") }
        #expect(aasa.count == 3 && aasa.allSatisfy { $0.userAgent == "AASA-Bot/1.0.0" }, "\(seen)")
        #expect(assetLinks.map(\.request) == ["GET /.well-known/assetlinks.json", "HEAD /.well-known/assetlinks.json"] && assetLinks.allSatisfy { $0.userAgent == android }, "\(seen)")
        #expect((run.json as? [String: Any])?["assetLinksUserAgent"] as? String == android, "\(run)")

        let given = try CheckCannedServer(Self.deployment())
        let overridden = try await LinkHostCLI.run(["check", "--allow-http", given.origin, "--user-agent", "Test-Agent/2", "--format", "json"])
        #expect((overridden.json as? [String: Any])?["userAgent"] as? String == "Test-Agent/2", "\(overridden)")
        #expect(given.requestLog.count == 5 && given.requestLog.allSatisfy { $0.userAgent == "Test-Agent/2" }, "\(given.requestLog)")
        #expect(overridden.exitCode == 0, "\(overridden)")
    }

    /// A config with an App Clip and two link templates, its files as `linkhost print` makes them, and a
    /// canned deployment of those files, byte for byte or (re-written) with an edit applied to one of them.
    static func staleFile(aasa editAASA: ((inout [String: Any]) -> Void)? = nil, assetLinks editAssetLinks: ((inout [[String: Any]]) -> Void)? = nil) async throws -> (site: CheckSite, server: CheckCannedServer) {
        let config = CheckSite.config
            .replacingOccurrences(of: #""appStoreID": "1234567890" }"#, with: #""appStoreID": "1234567890", "appClipBundleID": "com.example.video.Clip" }"#)
            .replacingOccurrences(of: #""paths": ["call"]"#, with: #""links": ["/call/{callId}?type={callType}", "/join/{callType}:{callId}"], "defaultType": "default""#)
            .replacingOccurrences(of: #""aasa": { "rules": [ { "path": "/call/admin", "exclude": true }, { "path": "/call/?*" } ] },"#, with: "")
        #expect(config.contains("appClipBundleID"), "the fixture's app lost its App Clip: \(config)")
        let site = try CheckSite(config: config)
        let printedAASA = try await LinkHostCLI.run(["print", "aasa", "--config", site.configPath])
        let printedLinks = try await LinkHostCLI.run(["print", "assetlinks", "--config", site.configPath])
        var aasa = try #require(try JSONSerialization.jsonObject(with: Data(printedAASA.stdout.utf8)) as? [String: Any], "\(printedAASA)")
        var links = try #require(try JSONSerialization.jsonObject(with: Data(printedLinks.stdout.utf8)) as? [[String: Any]], "\(printedLinks)")
        editAASA?(&aasa)
        editAssetLinks?(&links)
        let text = { (value: Any) in String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self) }
        let server = try CheckCannedServer(Self.deployment([
            "GET /.well-known/apple-app-site-association": CheckCannedServer.response("200 OK", type: "application/json", editAASA == nil ? printedAASA.stdout : try text(aasa)),
            "GET /.well-known/assetlinks.json": CheckCannedServer.response("200 OK", type: "application/json", editAssetLinks == nil ? printedLinks.stdout : try text(links)),
        ]))
        return (site, server)
    }

    @Test("check --config: the config's own files pass; a live AASA without its App Clip (LH516), or whose rules keep the second template's links out (LH513), and live dynamic rules that exclude every /join/ link (LH515) fail with exit 1")
    func staleFilesThatStopCallLinks() async throws {
        let good = try await Self.staleFile()
        let passed = try await LinkHostCLI.run(["check", "--allow-http", good.server.origin, "--config", good.site.configPath, "--format", "json"])
        #expect(passed.exitCode == 0 && Self.codes(passed).isEmpty, "\(passed)")

        let noClip = try await Self.staleFile(aasa: { $0.removeValue(forKey: "appclips") })
        let clipRun = try await LinkHostCLI.run(["check", "--allow-http", noClip.server.origin, "--config", noClip.site.configPath])
        #expect(clipRun.exitCode == 1, "\(clipRun)")
        #expect(clipRun.stdout.contains("error LH516 /.well-known/apple-app-site-association: does not list the App Clip ABCDE12345.com.example.video.Clip of the default site"), "\(clipRun)")

        let joinExcludedOnIOS = try await Self.staleFile(aasa: { aasa in
            var applinks = aasa["applinks"] as? [String: Any] ?? [:]
            var details = applinks["details"] as? [[String: Any]] ?? []
            details[0]["components"] = [["/": "/join/*", "exclude": true]] + (details[0]["components"] as? [[String: Any]] ?? [])
            applinks["details"] = details
            aasa["applinks"] = applinks
        })
        let iOSRun = try await LinkHostCLI.run(["check", "--allow-http", joinExcludedOnIOS.server.origin, "--config", joinExcludedOnIOS.site.configPath])
        #expect(iOSRun.exitCode == 1, "\(iOSRun)")
        #expect(iOSRun.stdout.contains("error LH513") && iOSRun.stdout.contains("/join/default:a1b2c3d4 (exclude by details[0].components[0]"), "\(iOSRun)")

        // A proxy's stale copy: the /join/ links excluded, everything else allowed.
        let staleRules = try await Self.staleFile(assetLinks: { links in
            var extensions = links[0]["relation_extensions"] as? [String: Any] ?? [:]
            extensions["delegate_permission/common.handle_all_urls"] = ["dynamic_app_link_components": [["/": "/join/*", "exclude": true], ["/": "*"]]]
            links[0]["relation_extensions"] = extensions
        })
        let androidRun = try await LinkHostCLI.run(["check", "--allow-http", staleRules.server.origin, "--config", staleRules.site.configPath])
        #expect(androidRun.exitCode == 1, "\(androidRun)")
        let line = androidRun.stdout.split(separator: "\n").first { $0.contains("error LH515") }.map(String.init) ?? ""
        #expect(line.contains("/.well-known/assetlinks.json: has dynamic rules that keep com.example.video of the default site from its call link")
                && line.contains("/join/default:a1b2c3d4 (exclude by dynamic_app_link_components[0] {\"/\":\"/join/*\",\"exclude\":true})")
                && !line.contains("/call/"), "\(androidRun)")
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
        // Where the copies differ, not only that they do: the app the CDN's copy lacks, and the key.
        #expect(differs.stdout.contains("lacks ABCDE12345.com.example.video (applinks); they differ at applinks (missing)"), "\(differs)")
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
