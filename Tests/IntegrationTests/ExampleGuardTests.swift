import Foundation
import Testing

/// The example guard judges content (issue 32, item 7): under automatic HTTPS, `serve` refuses any config
/// carrying the shipped example's apps, packages, fingerprints or URLs, marker or not, and `validate` in the
/// same environment says the same thing; `LINKHOST_ALLOW_EXAMPLE=1` overrides both.
@Suite("The example guard judges content", .timeLimit(.minutes(2)))
struct ExampleGuardTests {
    /// ACME on for a real-looking host, with a CA nobody answers on: nothing here may reach a CA.
    private func acmeEnvironment(_ site: SiteFixture) -> [String: String] {
        ["LINKHOST_ACME_HOSTS": "links.mycompany.com", "LINKHOST_ACME_DIRECTORY": "https://127.0.0.1:9/directory",
         "LINKHOST_HTTP_PORT": "8081", "LINKHOST_ACME_DEFAULT_STATE_DIRECTORY": site.directory + "/acme"]
    }

    /// The shipped config with its `"example": true` deleted, as in the issue.
    private func unmarkedExample() throws -> SiteFixture {
        let site = try SiteFixture()
        let text = try String(contentsOfFile: SiteFixture.repositoryRoot + "/config/linkhost.json", encoding: .utf8)
        try site.writeConfigText(text.replacingOccurrences(of: "\"example\": true,\n", with: ""))
        return site
    }

    /// `serve`'s refusal and `validate`'s report of the site's config under the ACME environment.
    private func serveAndValidate(_ site: SiteFixture, extra: [String: String] = [:]) async throws -> (serve: Termination, validate: Termination) {
        let environment = acmeEnvironment(site).merging(extra) { $1 }
        let serve = try await LinkHostCLI.run(LinkHostProcess.defaultArguments(for: site), environment: environment, directory: site.directory, timeout: .seconds(30))
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], environment: environment, directory: site.directory)
        return (serve, validate)
    }

    @Test("the shipped config without its marker: serve refuses a certificate and names what is the example's; validate says the same, LH121")
    func unmarked() async throws {
        let site = try unmarkedExample()
        let (serve, validate) = try await serveAndValidate(site)
        #expect(serve.exitCode == 2 && !serve.stderr.contains("listening on"), "\(serve)")
        for part in ["shipped example", "ABCDE12345.com.example.video", "com.example.video", "fingerprint", "https://app.example.com/join/", "LINKHOST_ALLOW_EXAMPLE=1"] {
            #expect(serve.stderr.contains(part), "serve's refusal lacks \(part): \(serve.stderr)")
        }
        let sentence = try #require(serve.stderr.range(of: "the shipped example config").map { String(serve.stderr[$0.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(validate.exitCode == 2 && validate.stderr.contains("error LH121") && validate.stderr.contains(sentence), "validate must say what serve says (\(sentence)): \(validate)")
        #expect(!FileManager.default.fileExists(atPath: site.directory + "/acme"), "nothing of ACME may have started")
    }

    @Test("each piece of the example's identity alone is refused under ACME: its package, its fingerprint, its web-join URL", arguments: [
        ("package", "com.example.video"), ("fingerprint", "E5:44:CF:3F:B2:96:04:8A:A8:BE:1D:E6:42:83:A0:16:64:FC:34:2F:95:B9:EE:D8:50:06:73:C5:83:E9:6D:14"),
        ("webJoinURL", "https://app.example.com/join/{callId}?type={callType}"),
    ])
    func eachPiece(_ piece: (what: String, value: String)) async throws {
        var config = TestConfig()
        switch piece.what {
        case "package": config.packageName = piece.value
        case "fingerprint": config.fingerprint = piece.value
        default: break
        }
        let site = try SiteFixture(config)
        if piece.what == "webJoinURL" {
            try site.writeConfigText(config.json(publicPath: site.publicPath).replacingOccurrences(of: "\"paths\" : [", with: "\"webJoinURL\" : \"\(piece.value)\", \"paths\" : ["))
        }
        let (serve, validate) = try await serveAndValidate(site)
        #expect(serve.exitCode == 2 && serve.stderr.contains("shipped example"), "\(piece.what): \(serve)")
        #expect(validate.exitCode == 2 && validate.stderr.contains("error LH121"), "\(piece.what): \(validate)")
        let allowed = try await LinkHostCLI.run(["validate", "--config", site.configPath], environment: acmeEnvironment(site).merging(["LINKHOST_ALLOW_EXAMPLE": "1"]) { $1 }, directory: site.directory)
        #expect(!allowed.stdout.contains("error LH121") && !allowed.stderr.contains("error LH121"), "LINKHOST_ALLOW_EXAMPLE=1 lifts it in validate too: \(allowed)")
    }

    @Test("without automatic HTTPS the shipped config validates (warnings only) and make run's serve goes on; a config of one's own is not refused under ACME")
    func unchangedElsewhere() async throws {
        let shipped = try SiteFixture()
        try shipped.writeConfigText(try String(contentsOfFile: SiteFixture.repositoryRoot + "/config/linkhost.json", encoding: .utf8))
        let validate = try await LinkHostCLI.run(["validate", "--config", shipped.configPath], directory: shipped.directory)
        #expect(validate.exitCode == 0 && validate.stdout.contains("warning LH121") && !validate.stdout.contains("error"), "\(validate)")
        let server = try await LinkHostProcess.start(shipped)
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association")
        #expect(aasa.status == 200)

        let own = try SiteFixture()
        let ownRun = try await LinkHostCLI.run(["validate", "--config", own.configPath], environment: acmeEnvironment(own), directory: own.directory)
        #expect(!ownRun.stdout.contains("error LH121") && !ownRun.stderr.contains("error LH121"), "\(ownRun)")
    }
}
