import Foundation
import Testing

/// Issue 41 items 6 and 8: `match` says what happens, over the real binary. A URL the platform opens the app
/// with but no printed parser reads is a dead end (exit 4, and a line saying so), not "opens the app"; under
/// `server.strictHosts` a host no site lists gets the server's 404, as the snapshot decides it; and
/// `match --app CLIP` on a non-call URL of the clip's host says what launching the clip there leads to.
@Suite("match tells the truth", .timeLimit(.minutes(3)))
struct MatchTruthTests {
    /// The issue's team: an iOS app and an Android app on meet.acme.test, links under /call/ and /join/,
    /// server.strictHosts on.
    static func site() throws -> SiteFixture {
        var config = TestConfig(name: "Acme Meet", bundleID: "com.acmemeet.ios", packageName: "com.acmemeet.android")
        config.baseURL = nil
        config.serverExtra = ["strictHosts": true]
        config.extra = ["sites": [["hosts": ["meet.acme.test"]]]]
        let site = try SiteFixture(config)
        var text = try String(contentsOfFile: site.configPath, encoding: .utf8)
        text = text.replacingOccurrences(of: #""paths" : ["#, with: #""paths" : ["join", "#)
        try site.writeConfigText(text)
        return site
    }

    static let deadEnds: [(url: String, platform: String)] = [
        ("https://meet.acme.test/call/abc123?type=de*x", "ios"),
        ("https://meet.acme.test/call/abc123?type=default?", "ios"),
        ("https://meet.acme.test:8443/call/abc123", "ios"),
        ("https://meet.acme.test//call/abc123", "ios"),
        ("https://meet.acme.test/call/abc%20123", "android"),
        ("https://meet.acme.test/join/default%3Aabc123", "android"),
    ]

    @Test("a URL the platform opens the app with but its parser reads no call in exits 4 with a dead-end line; a call link exits 0")
    func deadEnd() async throws {
        let site = try Self.site()
        for (url, platform) in Self.deadEnds {
            let run = try await LinkHostCLI.run(["match", url, "--platform", platform, "--config", site.configPath])
            #expect(run.exitCode == 4, "today: exit 0, \"opens in the app\": \(run)")
            #expect(run.stdout.contains("opens in the app"), "the platform's decision stays as it is: \(run)")
            #expect(run.stdout.contains("  dead end: \(platform == "ios" ? "iOS" : "Android") opens ") && run.stdout.contains("reads no call in it"), "\(run)")
        }
        for platform in ["ios", "android", "both"] {
            let good = try await LinkHostCLI.run(["match", "https://meet.acme.test/join/default:abc123", "--platform", platform, "--config", site.configPath])
            #expect(good.exitCode == 0 && !good.stdout.contains("dead end"), "\(good)")
        }
        let help = try await LinkHostCLI.run(["match", "--help"])
        #expect(help.stdout.contains("4 a dead end: the platform opens an app with the URL"), "\(help)")
    }

    @Test("under server.strictHosts a host no site lists is the server's 404, not the default site's call page")
    func strictHosts() async throws {
        let site = try Self.site()
        let run = try await LinkHostCLI.run(["match", "https://other.acme.test/call/x", "--platform", "both", "--config", site.configPath])
        #expect(run.exitCode == 3, "\(run)")
        #expect(run.stdout.contains("linkhost: 404 Not Found: no site of this server serves this host (server.strictHosts)"), "today: the default site's call page: \(run)")
        #expect(!run.stdout.contains("the call page of call") && !run.stdout.contains("opens in the app"), "\(run)")

        // The server's own answer (the request path the server takes, without a socket).
        let server = try await InProcessServer.start(site)
        let answer = try await server.request("GET", "/call/x", headers: [("Host", "other.acme.test")])
        #expect(answer.status == 404 && answer.text.contains("no site of this server serves this host"), "\(answer)")
        let served = try await server.request("GET", "/call/x", headers: [("Host", "meet.acme.test")])
        #expect(served.status == 200, "\(served)")
        let listed = try await LinkHostCLI.run(["match", "https://meet.acme.test/call/x", "--config", site.configPath])
        #expect(listed.exitCode == 0 && listed.stdout.contains("linkhost: the call page of call \"x\""), "\(listed)")
    }

    @Test("match --app CLIP on a non-call URL of the clip's host says the clip would be handed a link it cannot join, without contradicting itself")
    func clipNonCallURL() async throws {
        let site = try AppClipTests.fixture()
        let run = try await LinkHostCLI.run(["match", "https://links.example.com/settings", "--config", site.configPath, "--app", AppClipTests.clipBundleID])
        #expect(run.exitCode == 4, "\(run)")
        #expect(!(run.stdout.contains("invocation: no") && run.stdout.contains("would launch the clip")), "today: \"invocation: no: … would launch the clip\": \(run)")
        #expect(run.stdout.contains("invocation: a dead end: ") && run.stdout.contains("cannot join"), "\(run)")
        #expect(run.stdout.contains("card: no: linkhost serves no call page here"), "\(run)")
    }
}
