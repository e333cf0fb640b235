import Foundation
import Testing

/// Many tenants on one server: strict hosts, static overlays and the multi-tenant example in process
/// (`InProcessServer`, the answer path without a socket); each site's `id` in metrics, logs and diagnostics
/// against the real binary.
@Suite("Tenant sites")
struct TenantSitesTests {
    static let brandTeam = "BRAND12345"

    /// A default site and a brand site (`id` "brand") whose static folder holds only its own `site.css`.
    static func tenants(strictHosts: Bool) throws -> SiteFixture {
        var config = TestConfig()
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/brand-public", withIntermediateDirectories: true)
        try site.write("body { color: #b00; } /* brand */\n", to: "brand-public/site.css")
        try site.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", to: "public/favicon.svg")
        config.serverExtra = ["strictHosts": strictHosts]
        config.extra = ["sites": [[
            "id": "brand",
            "hosts": ["meet.brand.example", "*.brand.example"],
            "apps": [["name": "Brand Video", "teamID": brandTeam, "bundleID": "org.brand.video"]],
            "static": ["root": site.directory + "/brand-public"],
        ], [
            // The top level's own domain, listed as a site that inherits everything: with strict hosts the
            // default site answers only what a site lists.
            "hosts": ["links.example.com"],
        ]]]
        try site.writeConfig(config)
        return site
    }

    @Test("strict hosts: a host no site lists gets 404 no-store for everything but health and metrics")
    func strictHosts() async throws {
        let server = try await InProcessServer.start(try Self.tenants(strictHosts: true))
        for host in ["meet.customer26.example", "unknown.example:8443", "127.0.0.1"] {
            for path in ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/call/abc", "/", "/call.js"] {
                let answer = try await server.request("GET", path, headers: [("Host", host)])
                #expect(answer.status == 404 && answer.header("Cache-Control") == "no-store", "\(host) \(path): \(answer)")
                #expect(!answer.text.contains("ABCDE12345") && !answer.text.contains("Linkhost Test"), "\(host) \(path) leaked the default tenant")
            }
            #expect(try await server.request("GET", "/healthz", headers: [("Host", host)]).status == 200, "\(host): probes use the pod's address")
            let conditional = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host), ("If-None-Match", "\"x\"")])
            #expect(conditional.status == 404, "\(host): with a validator too")
        }
        let listed = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
        #expect(listed.status == 200 && aasaAppIDs(parseJSON(listed.body)) == [TestConfig().appID], "\(listed)")
        let brand = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "a.brand.example")])
        #expect(brand.status == 200 && aasaAppIDs(parseJSON(brand.body)) == ["\(Self.brandTeam).org.brand.video"])
        #expect(try await server.request("GET", "/call/abc", headers: [("Host", "links.example.com")]).status == 200)
    }

    @Test("without strict hosts an unknown host still gets the default site, as before")
    func lenientHosts() async throws {
        let server = try await InProcessServer.start(try Self.tenants(strictHosts: false))
        let answer = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "meet.customer26.example")])
        #expect(answer.status == 200 && aasaAppIDs(parseJSON(answer.body)) == [TestConfig().appID], "\(answer)")
    }

    @Test("a site's static folder overlays the top level's: its own files win, the rest come from below")
    func staticOverlay() async throws {
        let server = try await InProcessServer.start(try Self.tenants(strictHosts: false))
        let brand = [("Host", "meet.brand.example")]
        let css = try await server.request("GET", "/site.css", headers: brand)
        #expect(css.status == 200 && css.text.contains("/* brand */"), "\(css)")
        let shipped = try await server.request("GET", "/call.js", headers: [("Host", "links.example.com")])
        let script = try await server.request("GET", "/call.js", headers: brand)
        #expect(script.status == 200 && script.body == shipped.body && !script.body.isEmpty, "\(script.status)")
        #expect(try await server.request("GET", "/favicon.svg", headers: brand).status == 200)
        #expect(try await server.request("GET", "/site.css", headers: [("Host", "links.example.com")]).text.contains("/* brand */") == false)
        #expect(try await server.request("GET", "/nothing-here.txt", headers: brand).status == 404)
        // The call page on the brand's host finds its script and style.
        let page = try await server.request("GET", "/call/abc", headers: brand)
        #expect(page.status == 200 && page.text.contains("Brand Video"), "\(page.status)")
    }

    @Test("the site's id names it in the metrics' site label and the access log's site field")
    func idInMetricsAndLogs() async throws {
        let server = try await LinkHostProcess.start(try Self.tenants(strictHosts: false))
        _ = try await server.request("GET", "/call/abc", headers: [("Host", "x.brand.example")])
        let metrics = try await server.request("GET", "/metrics", headers: [("Host", "links.example.com")]).text
        #expect(metrics.contains("linkhost_requests_total{site=\"brand\",route=\"call_page\",status=\"2xx\"} 1"), "\(metrics)")
        #expect(!metrics.contains("site=\"meet.brand.example\""))
        let entries = { server.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
        #expect(try await eventually { entries().contains { $0["path"] as? String == "/call/abc" } })
        let line = entries().first { $0["path"] as? String == "/call/abc" }
        #expect(line?["site"] as? String == "brand" && line?["host"] as? String == "x.brand.example", "\(String(describing: line))")
    }

    @Test("validate names a site by its id, and refuses two sites with one (LH122)")
    func validateNamesSites() async throws {
        let site = try Self.tenants(strictHosts: false)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.configPath))) as? [String: Any])
        var sites = try #require(document["sites"] as? [[String: Any]])
        sites[0]["apps"] = [["name": "Brand Video", "teamID": "brand", "bundleID": "org.brand.video"]]
        sites[1]["id"] = "brand"
        document["sites"] = sites
        try site.writeConfigText(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        let result = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("error LH101 site \"brand\" (sites[0]) apps[0].teamID: "), "\(result.stderr)")
        #expect(result.stderr.contains("error LH122 site \"brand\" (sites[1]) id: \"brand\" (its id) already names sites[0]"), "\(result.stderr)")
        let json = try await LinkHostCLI.run(["validate", "--format", "json", "--config", site.configPath], directory: site.directory)
        #expect(json.stdout.contains("\"path\": \"sites[0].apps[0].teamID\""), "--format json keeps the plain path: \(json.stdout)")
    }

    @Test("the multi-tenant example (deploy/multi-tenant) validates clean, and serves strict hosts and a one-file brand")
    func multiTenantExample() async throws {
        let root = SiteFixture.repositoryRoot
        let checked = try await LinkHostCLI.run(["validate", "--config", "deploy/multi-tenant/linkhost.json"], directory: root)
        #expect(checked.exitCode == 0 && checked.stdout.contains("valid (3 sites") && !checked.stdout.contains("warning"), "\(checked)")
        // The same file served from a test folder: its folders made absolute, metrics on the main port.
        var text = try String(contentsOfFile: root + "/deploy/multi-tenant/linkhost.json", encoding: .utf8)
        text = text.replacing("\"root\": \"public\"", with: "\"root\": \"\(root)/public\"")
            .replacing("\"root\": \"deploy/", with: "\"root\": \"\(root)/deploy/")
            .replacing("\"observability\": {\n    \"metrics\": {\n      \"port\": 9090,\n      \"host\": \"::\"\n    }\n  }", with: "\"observability\": {}")
        #expect(!text.contains("9090") && text.contains(root + "/deploy/multi-tenant/brands/acme"))
        let site = try SiteFixture()
        try site.writeConfigText(text)
        let server = try await InProcessServer.start(site)
        let stranger = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "meet.customer26.example")])
        #expect(stranger.status == 404 && stranger.header("Cache-Control") == "no-store", "\(stranger)")
        let acme = [("Host", "meet.acme-video.example")]
        let favicon = try await server.request("GET", "/favicon.svg", headers: acme)
        #expect(favicon.status == 200 && favicon.text.contains("#c2410c"), "the brand's own favicon: \(favicon)")
        #expect(try await server.request("GET", "/call.js", headers: acme).status == 200, "the rest comes from the top level's folder")
        #expect(try await server.request("GET", "/call/abc?type=video", headers: acme).text.contains("Acme Meet"))
        let globex = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "call-staging.globex.example")])
        #expect(aasaAppIDs(parseJSON(globex.body)) == ["GLOBEX7890.com.globex.call"], "\(globex)")
    }
}
