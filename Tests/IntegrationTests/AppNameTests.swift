import Foundation
import Testing

/// The call page always names the app: an Android-only site takes its Android app's `name`, and a site
/// with no name anywhere is refused at load rather than rendered as "Open it in  to join".
@Suite("App names on the page", .timeLimit(.minutes(1)))
struct AppNameTests {
    private static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test("An Android-only site shows its Android app's name wherever the page names the app")
    func androidOnlyName() async throws {
        var config = TestConfig()
        config.includesApple = false
        config.name = "Droid Calls"
        let server = try await InProcessServer.start(SiteFixture(config))
        let page = try await server.request("GET", "/call/abc?type=video", headers: [("Accept-Language", "en")])
        #expect(page.status == 200, "\(page)")
        #expect(page.text.contains("Open it in Droid Calls to join"), "\(page.text)")
        #expect(page.text.contains(#"<p class="app-name">Droid Calls</p>"#), "\(page.text)")
        #expect(!page.text.contains(" in  ") && page.text.contains(#"<meta property="og:site_name" content="Droid Calls">"#), "an empty app name reached the page: \(page.text)")
    }

    @Test("No name anywhere (no iOS app, unnamed Android apps) is LH108 at the android section, for validate and serve")
    func noNameIsAnError() async throws {
        let site = try SiteFixture()
        let android = #"[{"packageName": "com.example.droid", "sha256CertFingerprints": ["\#(Self.fingerprint)"]}]"#
        try site.write(#"{"apps": [], "android": \#(android), "callLinks": {"template": "\#(site.directory)/public/call.html"}}"#, to: "linkhost.json")
        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(validated.exitCode == 2 && validated.stderr.contains("error LH108 android[0].name"), "\(validated)")
        let served = try await LinkHostCLI.run(["serve", "--config", site.configPath, "--host", "127.0.0.1", "--port", "0"], directory: site.directory)
        #expect(served.exitCode == 2 && served.stderr.contains("android[0].name"), "\(served)")
    }

    @Test("A site of its own without iOS apps needs a named Android app even when the top level has an iOS app")
    func siteWithoutName() async throws {
        let site = try SiteFixture()
        let text = #"""
        {"apps": [{"name": "Top", "teamID": "ABCDE12345", "bundleID": "com.example.top"}],
         "callLinks": {"template": "\#(site.directory)/public/call.html"},
         "sites": [{"hosts": ["droid.example.com"], "apps": [],
                    "android": [{"packageName": "com.example.droid", "sha256CertFingerprints": ["\#(Self.fingerprint)"]}]}]}
        """#
        try site.write(text, to: "linkhost.json")
        let validated = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(validated.exitCode == 2 && validated.stderr.contains("error LH108 site \"droid.example.com\" (sites[0]) android[0].name"), "\(validated)")
    }
}
