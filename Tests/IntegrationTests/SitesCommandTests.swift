import Foundation
import Testing

/// `match`, `print`, `validate` and `check` on a config with sites: each works on the site of the host.
@Suite("Commands per site")
struct SitesCommandTests {
    @Test("match picks the site by the URL's host and says what linkhost answers, with the server's matching")
    func matchPerSite() async throws {
        let site = try SitesTests.twoSites()
        let brand = try await LinkHostCLI.run(["match", "https://x.brand.example.net/meet/abc", "--config", site.configPath], directory: site.directory)
        #expect(brand.exitCode == 0, "\(brand)")
        #expect(brand.stdout.contains("for the site brand.example.org (sites[0])") && brand.stdout.contains("BRAND12345.org.brand.video: match"), "\(brand)")
        #expect(brand.stdout.contains(#"linkhost: the call page of call "abc", type "meeting" (template sites[0].callLinks.links[0] "/meet/{callId}"; canonical /meet/abc)"#), "\(brand)")
        let query = try await LinkHostCLI.run(["match", "https://links.example.com/join?call_id=abc&call_type=video", "--config", site.configPath], directory: site.directory)
        #expect(query.exitCode == 0, "\(query)")
        #expect(query.stdout.contains("for the default site") && query.stdout.contains(#"(template callLinks.links[4] "/join?call_id={callId}&call_type={callType}"; canonical /call/abc?type=video)"#), "\(query)")
        let neither = try await LinkHostCLI.run(["match", "https://links.example.com/meet/abc", "--config", site.configPath], directory: site.directory)
        #expect(neither.exitCode == 1 && neither.stdout.contains("linkhost: not a call link of this site"), "\(neither)")
    }

    @Test("print aasa|assetlinks --host prints that site's file; an unknown host is a usage error listing the hosts")
    func printPerSite() async throws {
        let site = try SitesTests.twoSites()
        let server = try await LinkHostProcess.start(site)
        let printed = try await LinkHostCLI.run(["print", "aasa", "--host", "Brand.Example.org", "--config", site.configPath], directory: site.directory)
        let served = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "brand.example.org")])
        #expect(printed.exitCode == 0 && printed.stdout == served.text, "\(printed)")
        let noAndroid = try await LinkHostCLI.run(["print", "assetlinks", "--host", "a.brand.example.net", "--config", site.configPath], directory: site.directory)
        // The brand site has apps of its own and no Android app: it publishes none, not the top level's (issue 32).
        #expect(noAndroid.exitCode == 1 && !noAndroid.stdout.contains(TestConfig().packageName) && noAndroid.stderr.contains("no Android app"), "\(noAndroid)")
        let unknown = try await LinkHostCLI.run(["print", "aasa", "--host", "nowhere.example", "--config", site.configPath], directory: site.directory)
        #expect(unknown.exitCode == 2 && unknown.stderr.contains("no site serves 'nowhere.example'") && unknown.stderr.contains("'brand.example.org'"), "\(unknown)")
    }

    @Test("validate reports problems of every site at its sites[N] path, with codes")
    func validatePerSite() async throws {
        let site = try SitesTests.twoSites()
        let clean = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(clean.exitCode == 0 && clean.stdout.contains("valid (2 sites; default site:"), "\(clean)")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.configPath))) as? [String: Any])
        var sites = try #require(document["sites"] as? [[String: Any]])
        // A second site claiming the first one's host, in another case.
        sites.append(["hosts": ["Brand.example.org"]])
        document["sites"] = sites
        try site.writeConfigText(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        let broken = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], directory: site.directory)
        #expect(broken.exitCode == 2, "\(broken)")
        #expect(broken.stdout.contains(#""code": "LH116""#), "\(broken.stdout)")
        #expect(broken.stdout.contains("sites[1].hosts[0]"), "\(broken.stdout)")
    }

    @Test("validate finds a site whose own rules miss its call links (LH301), named at the site's rule")
    func validateSiteRules() async throws {
        let site = try SitesTests.twoSites()
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.configPath))) as? [String: Any])
        var sites = try #require(document["sites"] as? [[String: Any]])
        sites[0]["aasa"] = ["rules": [["path": "/meet/*", "exclude": true], ["path": "/other/*"]]]
        document["sites"] = sites
        try site.writeConfigText(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(run.exitCode == 2, "\(run)")
        #expect(run.stderr.contains("error LH301 site \"brand.example.org\" (sites[0]) aasa.rules[0]:") && run.stderr.contains("/meet/a1b2c3d4"), "\(run)")
    }

    @Test("check --config compares each host's served files with the config's (LH511) and checks every host without a URL")
    func checkPerSite() async throws {
        let site = try SitesTests.twoSites()
        let server = try await LinkHostProcess.start(site)
        let target = "http://127.0.0.1:\(server.port)"
        let same = try await LinkHostCLI.run(["check", target, "--allow-http", "--config", site.configPath], directory: site.directory)
        #expect(same.exitCode == 0 && !same.stdout.contains("LH511"), "\(same)")
        // Another app in the default site: the running server still serves the old file.
        var config = TestConfig()
        config.teamID = "ZYXWV98765"
        let other = try SiteFixture(config)
        let differs = try await LinkHostCLI.run(["check", target, "--allow-http", "--config", other.configPath], directory: other.directory)
        #expect(differs.stdout.contains("warning LH511 /.well-known/apple-app-site-association:"), "\(differs)")
        let hosts = try await LinkHostCLI.run(["check", "--config", site.configPath, "--timeout", "2", "--format", "json"], directory: site.directory)
        // The default site's base URL and the brand's exact host; example hosts do not resolve: unreachable, exit 3.
        #expect(hosts.exitCode == 3 && hosts.stdout.contains(#""target": "https://links.example.com""#) && hosts.stdout.contains("https://brand.example.org"), "\(hosts)")
    }
}
