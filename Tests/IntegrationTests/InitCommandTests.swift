import Foundation
import Testing

/// `linkhost init` (issue 32): a team's config that validates with no error and no warning, serves, and
/// whose every printed per-app file validates clean for its app; `config/examples/team.json` is its output.
@Suite("linkhost init", .timeLimit(.minutes(3)))
struct InitCommandTests {
    static let fingerprints = [
        "3A:5C:1F:00:91:6E:2B:44:7D:A0:19:C8:52:E3:6F:0B:8D:27:94:1E:C5:60:AF:33:D9:48:0C:B6:71:2A:E5:9F",
        "B2:07:6D:E1:44:9A:3C:F8:10:5B:7E:C2:29:86:D0:4F:A3:15:68:BB:0E:72:C9:3D:56:E4:1A:8F:27:90:DC:43",
        "C4:19:0E:7A:52:D3:8B:61:F0:2C:95:47:AE:13:D8:6B:30:E9:74:5F:A1:0C:B8:26:D5:93:4E:17:6A:F2:08:BD",
    ]

    /// The answers config/examples/team.json was written from (docs/team-config.md shows them).
    static let teamAnswers = [
        "--team-id", "ACME123456", "--ios", "com.acme.video", "--app-store-id", "1456789012", "--app-clip", "com.acme.video.Clip",
        "--android", "com.acme.video=\(fingerprints[0]),\(fingerprints[1])",
        "--host", "meet.acme-video.com", "--open-host", "open.acme-video.com", "--web-join", "https://app.acme-video.com/join/{callId}?type={callType}",
        "--staging-host", "staging-meet.acme-video.com", "--staging-open-host", "staging-open.acme-video.com",
        "--staging-ios", "com.acme.video.staging", "--staging-android", "com.acme.video.staging=\(fingerprints[2])",
    ]

    @Test("config/examples/team.json is exactly what init writes for its answers")
    func exampleIsInitOutput() async throws {
        let site = try SiteFixture()
        let output = site.directory + "/team.json"
        let run = try await LinkHostCLI.run(["init"] + Self.teamAnswers + ["--output", output])
        #expect(run.exitCode == 0, "\(run)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        let shipped = try String(contentsOfFile: SiteFixture.repositoryRoot + "/config/examples/team.json", encoding: .utf8)
        #expect(written == shipped, "regenerate config/examples/team.json with linkhost init and the answers of InitCommandTests.teamAnswers")
    }

    @Test("init's config validates with no error and no warning, serves both environments, and every app's printed files validate clean for that app")
    func writtenConfigWorks() async throws {
        let site = try SiteFixture()
        let run = try await LinkHostCLI.run(["init"] + Self.teamAnswers + ["--output", "linkhost.json", "--force"], directory: site.directory)
        #expect(run.exitCode == 0, "\(run)")
        for host in ["meet.acme-video.com", "open.acme-video.com", "staging-meet.acme-video.com", "staging-open.acme-video.com"] {
            #expect(run.stdout.contains("   \(host)  (") && run.stdout.contains("a certificate for \(host)"), "DNS and TLS for \(host): \(run.stdout)")
        }
        let validate = try await LinkHostCLI.run(["validate", "--config", "linkhost.json"], directory: site.directory)
        #expect(validate.exitCode == 0 && validate.stdout.contains("valid (3 sites") && !validate.stdout.contains("warning"), "\(validate)")

        // Every `linkhost print … --app` line of the next steps, run as printed, then checked for its app.
        let prints = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("linkhost print ") }
        #expect(prints.count == 9, "entitlements + swift-parser per iOS app, the clip's entitlements, android-manifest + kotlin-parser per Android app: \(prints)")
        for line in prints {
            let words = line.split(separator: " ").dropFirst().map(String.init)
            let printed = try await LinkHostCLI.run(words, directory: site.directory)
            #expect(printed.exitCode == 0 && !printed.stdout.isEmpty, "\(line): \(printed)")
            guard let kind = ["entitlements": "--entitlements", "android-manifest": "--android-manifest"][words[1]],
                  let app = words.firstIndex(of: "--app").map({ words[$0 + 1] }) else { continue }
            try site.write(printed.stdout, to: "\(app).\(words[1])")
            let checked = try await LinkHostCLI.run(["validate", "--config", "linkhost.json", kind, "\(app).\(words[1])", "--app", app], directory: site.directory)
            #expect(checked.exitCode == 0 && !checked.stdout.contains("warning"), "\(line) output fails its own validation: \(checked)\n\(printed.stdout)")
            #expect(!printed.stdout.contains(app.hasSuffix(".staging") ? "applinks:meet." : "staging-"), "\(line) names the other environment: \(printed.stdout)")
        }

        let server = try await LinkHostProcess.start(site)
        let production = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "open.acme-video.com")])
        #expect(production.status == 200 && production.text.contains("ACME123456.com.acme.video\"") && !production.text.contains("staging"), "\(production.text)")
        let staging = try await server.request("GET", "/.well-known/assetlinks.json", headers: [("Host", "staging-meet.acme-video.com")])
        #expect(staging.status == 200 && staging.text.contains("com.acme.video.staging") && !staging.text.contains("\"com.acme.video\""), "\(staging.text)")
        let page = try await server.request("GET", "/call/abc123", headers: [("Host", "meet.acme-video.com")])
        #expect(page.status == 200 && page.text.contains("https://open.acme-video.com/call/abc123"), "the open button leads to the open host")
        // The Smart App Banner (Apple's syntax: app-id, then app-clip-bundle-id) and the App Store button.
        let banner = #/<meta name="apple-itunes-app" content="app-id=1456789012, app-clip-bundle-id=com\.acme\.video\.Clip[,"]/#
        #expect(page.text.contains(banner) && page.text.contains("https://apps.apple.com/app/id1456789012"), "\(page.text)")
        // Staging has no store listing: its page links neither store (installURL false), and init said so.
        let stagingPage = try await server.request("GET", "/call/abc123", headers: [("Host", "staging-meet.acme-video.com")])
        #expect(stagingPage.status == 200 && !stagingPage.text.contains("play.google.com") && !stagingPage.text.contains("apps.apple.com"), "\(stagingPage.text)")
        #expect(run.stdout.contains("staging, iPhone: no install link") && run.stdout.contains("staging, Android: no install link"), "\(run.stdout)")
        #expect(run.stdout.contains("default App Clip experience for https://meet.acme-video.com/") && run.stdout.contains("advanced App Clip experience for https://open.acme-video.com/"), "\(run.stdout)")
        let unknown = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "elsewhere.example")])
        #expect(unknown.status == 404, "strictHosts: a host no site lists gets no production AASA")
    }

    @Test("init silences no warning: one release fingerprint leaves LH403 visible, no --app-store-id leaves LH128, each named in the next steps")
    func warningsStayVisible() async throws {
        let site = try SiteFixture()
        let run = try await LinkHostCLI.run(["init", "--team-id", "ACME123456", "--ios", "com.acme.video", "--android", "com.acme.video=\(Self.fingerprints[0])",
                                             "--host", "meet.acme-video.com", "--open-host", "open.acme-video.com", "--output", "linkhost.json", "--force"], directory: site.directory)
        #expect(run.exitCode == 0 && run.stdout.contains("validate warns (LH403)") && run.stdout.contains("validate warns LH128"), "\(run)")
        let written = try String(contentsOfFile: site.directory + "/linkhost.json", encoding: .utf8)
        #expect(!written.contains("\"lint\"") && !written.contains("installURL"), "\(written)")
        let validate = try await LinkHostCLI.run(["validate", "--config", "linkhost.json", "--format", "json"], directory: site.directory)
        let codes = (validate.json as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(validate.exitCode == 0 && codes.sorted() == ["LH128", "LH403"], "\(validate)")
    }

    @Test("init refuses to overwrite without --force (the file is unchanged), replaces with it, and writes nothing for a bad answer")
    func overwriteAndBadAnswers() async throws {
        let site = try SiteFixture()
        let output = site.directory + "/linkhost.json"
        let before = try String(contentsOfFile: output, encoding: .utf8)
        let refused = try await LinkHostCLI.run(["init"] + Self.teamAnswers + ["--output", output])
        #expect(refused.exitCode == 2 && refused.stderr.contains("--force") && refused.stdout.isEmpty, "\(refused)")
        let after = try String(contentsOfFile: output, encoding: .utf8)
        #expect(after == before)
        let forced = try await LinkHostCLI.run(["init"] + Self.teamAnswers + ["--output", output, "--force"])
        let replaced = try String(contentsOfFile: output, encoding: .utf8)
        #expect(forced.exitCode == 0 && replaced.contains("staging-open.acme-video.com"), "\(forced)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.directory).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary file was renamed: \(leftovers)")

        let fresh = site.directory + "/new.json"
        let cases: [(change: (String, String), message: String)] = [
            (("--team-id", "abc"), "--team-id 'abc'"),
            (("--ios", "com..video"), "--ios 'com..video'"),
            (("--android", "com.acme.video=12:34"), "fingerprint '12:34'"),
            (("--android", "com.acme.video"), "PACKAGE=SHA256"),
            (("--host", "https://meet.acme-video.com"), "--host 'https://meet.acme-video.com'"),
            (("--open-host", "meet.acme-video.com"), "--open-host 'meet.acme-video.com' is already given as --host"),
            (("--web-join", "ftp://x"), "--web-join 'ftp://x'"),
            (("--app-store-id", "id1456789012"), "--app-store-id 'id1456789012' is not an App Store ID"),
            (("--app-clip", "com.acme.Clip"), "--app-clip 'com.acme.Clip' does not start with the first --ios 'com.acme.video' and a dot"),
        ]
        for (change, message) in cases {
            var words = Self.teamAnswers
            if let index = words.firstIndex(of: change.0) { words[index + 1] = change.1 }
            let run = try await LinkHostCLI.run(["init"] + words + ["--output", fresh])
            #expect(run.exitCode == 2 && run.stderr.contains(message), "\(change): \(run)")
            #expect(!FileManager.default.fileExists(atPath: fresh), "\(change) wrote a file")
        }
        // A staging link host equal to production's: one environment per host; nothing about the open host.
        var sameHost = Self.teamAnswers
        sameHost[sameHost.firstIndex(of: "--staging-host")! + 1] = "meet.acme-video.com"
        let same = try await LinkHostCLI.run(["init"] + sameHost + ["--output", fresh])
        #expect(same.exitCode == 2 && same.stderr.contains("--staging-host 'meet.acme-video.com' is already given as --host; every host serves one environment")
                && !same.stderr.contains("open host"), "\(same)")
        let noStagingHost = try await LinkHostCLI.run(["init", "--team-id", "ACME123456", "--ios", "com.acme.video", "--host", "meet.acme-video.com", "--staging-ios", "com.acme.video.staging", "--output", fresh])
        #expect(noStagingHost.exitCode == 2 && noStagingHost.stderr.contains("--staging-host"), "\(noStagingHost)")
        let help = try await LinkHostCLI.run(["init", "--help"])
        #expect(help.exitCode == 0 && help.stdout.contains("USAGE: linkhost init") && help.stdout.contains("--staging-android")
                && help.stdout.contains("--app-store-id ID") && help.stdout.contains("--app-clip BUNDLE") && help.stdout.contains("--staging-app-store-id"), "\(help)")
    }
}
