import Foundation
import Testing

/// The binary carries the default page (issue 41, item 7): started in a folder with nothing but its config,
/// the real binary validates and serves the call page, its script, styles, locales, home and not-found pages;
/// a `public/` on disk, or a path the config names, is read as before (docs/call-page.md, "The page built
/// into linkhost").
@Suite("The page built into the binary", .serialized, .timeLimit(.minutes(3)))
struct BuiltInPageTests {
    /// A folder holding only `linkhost.json`: no `public/`, and a config that names no page path. A site in
    /// `sites` and a tenant in a site file name none either, so they inherit the top level's defaults.
    static func emptyFolder(extraTopLevel: String = "") throws -> SiteFixture {
        let site = try SiteFixture()
        try FileManager.default.removeItem(atPath: site.publicPath)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: true)
        try site.write(#"{"id": "tenant", "hosts": ["tenant.example"], "apps": [{"name": "Tenant Talk", "teamID": "FGHIJ67890", "bundleID": "com.tenant.talk"}], "android": []}"#,
                       to: "sites.d/tenant.json")
        try site.writeConfigText("""
            {
              "apps": [{"name": "Acme Meet", "teamID": "ABCDE12345", "bundleID": "com.acme.meet", "appStoreID": "1234567890"}],
              "android": [{"packageName": "com.acme.meet", "sha256CertFingerprints": ["\(TestConfig().fingerprint)"]}],
              "callLinks": {"paths": ["call"], "baseURL": "https://links.example.com"\(extraTopLevel)},
              "sites": [{"hosts": ["brand.example"], "apps": [{"name": "Brand Video", "teamID": "KLMNO12345", "bundleID": "com.brand.video"}], "android": []}],
              "siteFiles": "sites.d/*.json"
            }
            """)
        return site
    }

    static let shipped = SiteFixture.repositoryRoot + "/public/"

    @Test("in an empty folder, validate passes and serve answers the page, its script, styles, languages, home and 404")
    func emptyFolderServes() async throws {
        let site = try Self.emptyFolder()
        #expect(!FileManager.default.fileExists(atPath: site.publicPath))
        let valid = try await LinkHostCLI.run(["validate", "--config", "linkhost.json"], directory: site.directory)
        #expect(valid.exitCode == 0 && !(valid.stdout + valid.stderr).contains("LH114"), "\(valid)")

        let server = try await LinkHostProcess.start(site, arguments: ["serve", "--config", "linkhost.json", "--host", "127.0.0.1", "--port", "0"])
        let page = try await server.request("GET", "/call/abc123?type=video")
        #expect(page.status == 200, "\(page)")
        #expect(page.text.contains(#"<script src="/call.js" defer></script>"#) && page.text.contains("Acme Meet"), "\(page.text)")
        for (path, type) in [("/call.js", "text/javascript"), ("/site.css", "text/css"), ("/favicon.svg", "image/svg+xml")] {
            let file = try await server.request("GET", path)
            #expect(file.status == 200 && file.header("Content-Type")?.hasPrefix(type) == true, "\(path): \(file)")
            #expect(file.body == Array(try Data(contentsOf: URL(fileURLWithPath: Self.shipped + String(path.dropFirst())))), "\(path) is public/'s")
        }
        let arabic = try await server.request("GET", "/call/abc123?lang=ar")
        #expect(arabic.text.contains(#"<html lang="ar" dir="rtl""#), "the locales are built in too: \(arabic.text.prefix(200))")
        let home = try await server.request("GET", "/")
        #expect(home.status == 200 && home.text.contains("Acme Meet"), "the home page, a template: \(home)")
        let missing = try await server.request("GET", "/nothing-here")
        #expect(missing.status == 404 && missing.text.contains("Acme Meet") && !missing.text.contains("{{"), "the not-found page, baked: \(missing)")
        // The template and the locale files are the page's sources, never files of their own.
        for source in ["/call.html", "/locales/en.json", "/404.html"] {
            #expect(try await server.request("GET", source).status == 404, "\(source)")
        }
        // A site and a tenant that name no path inherit the built-in page with the top level's defaults.
        for (host, name) in [("brand.example", "Brand Video"), ("tenant.example", "Tenant Talk")] {
            let tenant = try await server.request("GET", "/call/abc123", headers: [("Host", host)])
            #expect(tenant.status == 200 && tenant.text.contains(name) && tenant.text.contains(#"src="/call.js""#), "\(host): \(tenant)")
            #expect(try await server.request("GET", "/call.js", headers: [("Host", host)]).status == 200, "\(host)/call.js")
        }
    }

    @Test("a public/ on disk overrides the built-in files; a path the config names is never replaced by them")
    func diskOverrides() async throws {
        let site = try Self.emptyFolder()
        try FileManager.default.createDirectory(atPath: site.publicPath, withIntermediateDirectories: true)
        try site.write("/* the operator's own script */\n", to: "public/call.js")
        let server = try await LinkHostProcess.start(site, arguments: ["serve", "--config", "linkhost.json", "--host", "127.0.0.1", "--port", "0"])
        #expect(try await server.request("GET", "/call.js").text == "/* the operator's own script */\n")
        // The folder replaces the built-in one whole: what it lacks is not filled in from the binary.
        #expect(try await server.request("GET", "/site.css").status == 404)
        // The template and locales are keys of their own: absent from public/, they are still the built-in ones.
        #expect(try await server.request("GET", "/call/abc123").status == 200)

        let named = try Self.emptyFolder(extraTopLevel: #", "template": "brand/call.html""#)
        let refused = try await LinkHostCLI.run(["validate", "--config", "linkhost.json"], directory: named.directory)
        let said = refused.stdout + refused.stderr
        #expect(refused.exitCode != 0 && said.contains("LH114") && said.contains("\"brand/call.html\""), "\(refused)")
        #expect(said.contains("leave callLinks.template out of the config to use the default, the copy built into linkhost"), "\(refused)")
    }
}
