import Foundation
import Testing

/// Link shapes and sites against the real binary over sockets; what only routing decides (shapes, sites by
/// Host, the AASA of shapes, per-site metrics) in process (`InProcessServer`), the same answer path without a socket.
@Suite("Sites and link shapes")
struct SitesTests {
    /// The five shapes of Stream's docs and apps, on one domain; the first is canonical.
    static let fiveShapes = [
        "/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}",
        "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}",
    ]

    static let brandTeam = "BRAND12345"

    /// A fixture whose default site serves the five shapes, plus a brand site with its own app, shapes,
    /// page template and static files.
    static func twoSites(baseURL: Bool = true) throws -> SiteFixture {
        var config = TestConfig()
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/brand-public", withIntermediateDirectories: true)
        try site.write("<!doctype html><title>brand home</title>\n", to: "brand-public/index.html")
        try site.write("<!doctype html><title>BRAND PAGE {{appName}}</title><p>{{callId}} {{callType}}</p>\n", to: "brand.html")
        var callLinks: [String: Any] = ["links": fiveShapes, "template": site.publicPath + "/call.html", "locales": site.publicPath + "/locales"]
        if baseURL { callLinks["baseURL"] = "https://links.example.com" }
        config.extra = [
            "callLinks": callLinks,
            "sites": [[
                "hosts": ["brand.example.org", "*.brand.example.net"],
                "apps": [["name": "Brand Video", "teamID": brandTeam, "bundleID": "org.brand.video"]],
                // A site's apps are its own on both platforms (issue 32): the brand has no Android app, and says so.
                "android": [] as [Any],
                "callLinks": ["links": ["/meet/{callId}"], "template": site.directory + "/brand.html", "defaultType": "meeting"],
                "static": ["root": site.directory + "/brand-public"],
            ]],
        ]
        try site.writeConfig(config)
        return site
    }

    @Test("every shape of the table is served on one domain, each pointing to the one canonical URL", arguments: [
        ("/call/abc123?type=video", "abc123", "video"),
        ("/call/abc123", "abc123", "default"),
        ("/join/audio:abc123", "abc123", "audio"),
        ("/join/abc123", "abc123", "default"),
        ("/join/abc123/", "abc123", "default"),
        ("/video/demos/join/abc123", "abc123", "default"),
        ("/join?call_id=abc123&call_type=livestream", "abc123", "livestream"),
        ("/join?utm_source=mail&call_id=abc123", "abc123", "default"),
    ])
    func fiveShapes(path: String, callID: String, callType: String) async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        let page = try await server.request("GET", path, headers: [("Host", "links.example.com")])
        #expect(page.status == 200, "\(path): \(page)")
        #expect(page.text.contains("<code dir=\"ltr\">\(callID)</code>"), "\(path)")
        #expect(page.text.contains("rel=\"canonical\" href=\"https://links.example.com/call/\(callID)?type=\(callType)\""), "\(path): \(page.text)")
        #expect(!page.text.contains("utm_source"), "other query items are never reflected")
    }

    @Test("links that fit no shape get the friendly 404 without their text", arguments: [
        "/join?call_type=video", "/join?call_id=", "/join?call_id=%3Cscript%3E", "/join/a%2Fb", "/join/abc/def",
        "/video/demos/abc", "/call/abc?type=<b>", "/join/:abc",
    ])
    func noShape(path: String) async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        let page = try await server.request("GET", path, headers: [("Host", "links.example.com")])
        #expect(page.status == 404, "\(path): \(page)")
        #expect(!page.text.contains("script") && !page.text.contains("<b>"))
    }

    @Test("the generated AASA opens every shape: one opening rule per shape after its exclusions, a query rule for the query shape")
    func aasaOfShapes() async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
        let applinks = (parseJSON(aasa.body) as? [String: Any])?["applinks"] as? [String: Any]
        let components = ((applinks?["details"] as? [[String: Any]])?.first?["components"] as? [[String: Any]]) ?? []
        // Each shape's exclusions, then its one opening rule; longer shapes and `type:id` first.
        let paths = components.filter { $0["exclude"] == nil }.map { $0["/"] as? String ?? "" }
        #expect(paths == ["/video/demos/join/?*", "/join/?*:?*", "/call/?*", "/join/?*", "/join"], "\(components)")
        #expect(components.last?["?"] as? [String: String] == ["call_id": "?*"])
        let printed = try await LinkHostCLI.run(["print", "aasa", "--config", server.site.configPath], directory: server.site.directory)
        #expect(printed.stdout == aasa.text, "print aasa gives the served bytes")
    }

    @Test("Host chooses the site: any case, any port, a trailing dot, wildcards; an unknown host gets the default site", arguments: [
        ("brand.example.org", true), ("BRAND.Example.ORG:8443", true), ("brand.example.org.", true), ("a.brand.example.net", true),
        ("deep.a.brand.example.net", true), ("brand.example.net", false), ("links.example.com", false), ("unknown.example", false),
        ("brand.example.org/x", false), ("b\u{fc}cher.example", false),
    ])
    func siteByHost(host: String, isBrand: Bool) async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
        #expect(aasa.status == 200, "\(host): \(aasa)")
        let apps = aasaAppIDs(parseJSON(aasa.body))
        #expect(apps == [isBrand ? "\(Self.brandTeam).org.brand.video" : TestConfig().appID], "\(host): \(apps)")
        let brandPage = try await server.request("GET", "/meet/abc", headers: [("Host", host)])
        let defaultPage = try await server.request("GET", "/join/abc", headers: [("Host", host)])
        #expect(brandPage.status == (isBrand ? 200 : 404) && defaultPage.status == (isBrand ? 404 : 200), "\(host)")
        if isBrand {
            #expect(brandPage.text.contains("BRAND PAGE Brand Video") && brandPage.text.contains("abc meeting"), "\(brandPage.text)")
            #expect(try await server.request("GET", "/", headers: [("Host", host)]).text.contains("brand home"))
        } else {
            #expect(defaultPage.text.contains("Linkhost Test"))
            #expect(try await server.request("GET", "/", headers: [("Host", host)]).text.contains("linkhost test home"))
        }
    }

    @Test("an absolute-form target's authority chooses the site, not the Host field")
    func absoluteForm() async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        let page = try await server.request("GET", "http://brand.example.org/meet/abc", headers: [("Host", "links.example.com")])
        #expect(page.status == 200 && page.text.contains("BRAND PAGE"), "\(page)")
    }

    @Test("hostile Host fields: 400 where RFC 9112 says so, else the default site, never reflected")
    func hostileHosts() async throws {
        let server = try await LinkHostProcess.start(try Self.twoSites(baseURL: false))
        let noHost = try await server.connect()
        try await noHost.send("GET /join/abc HTTP/1.1\r\n\r\n")
        #expect(try await noHost.readResponse().status == 400)
        let twoHosts = try await server.connect()
        try await twoHosts.send("GET /join/abc HTTP/1.1\r\nHost: brand.example.org\r\nHost: links.example.com\r\n\r\n")
        #expect(try await twoHosts.readResponse().status == 400)
        let long = try await server.request("GET", "/join/abc", headers: [("Host", String(repeating: "a", count: 10_240) + ".example")])
        #expect([400, 431].contains(long.status), "\(long.status)")
        // Control bytes: refused by the HTTP library, or the default site; never part of a page.
        let control = try await server.request("GET", "/join/abc", headers: [("Host", "brand.example.org\u{01}<x>")])
        #expect([404, 400].contains(control.status) && !control.text.contains("<x>") && !control.text.contains("BRAND PAGE"), "\(control)")
        // Without a base URL a page names a Host only when the config does (PageHost): none of these, so no page.
        for host in ["evil.example\"><script>alert(1)</script>", "evil.example/<svg onload=x>", "b\u{fc}cher.example", "links.example.com:8443"] {
            let page = try await server.request("GET", "/join/abc", headers: [("Host", host)])
            #expect(page.status == 404 && page.header("Cache-Control") == "no-store", "\(host): \(page.status)")
            #expect(!page.text.contains("<script>alert") && !page.text.contains("<svg onload") && !page.text.contains("b\u{fc}cher"), "\(host) reached the page")
        }
        // A host the brand site lists is written as listed: lowercase, without the port the request carried.
        let listed = try await server.request("GET", "/meet/abc", headers: [("Host", "X.Brand.Example.NET:8443")])
        #expect(listed.status == 200 && listed.text.contains("BRAND PAGE"), "\(listed)")
        let plain = try await server.request("GET", "/join/abc", headers: [("Host", "localhost:8443")])
        #expect(plain.text.contains("href=\"https://localhost:8443/call/abc?type=default\""), "\(plain.text)")
        #expect(server.isRunning)
    }

    @Test("each access-log line names the Host as sent and the site that answered")
    func accessLogNamesTheTenant() async throws {
        let server = try await LinkHostProcess.start(try Self.twoSites())
        _ = try await server.request("GET", "/meet/abc", headers: [("Host", "x.brand.example.net")])
        _ = try await server.request("GET", "/join/abc", headers: [("Host", "links.example.com")])
        let entries = { server.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
        #expect(try await eventually { entries().count >= 2 })
        let pairs = entries().map { "\($0["host"] as? String ?? "-") \($0["site"] as? String ?? "-") \($0["path"] as? String ?? "-")" }
        #expect(pairs.contains("x.brand.example.net brand.example.org /meet/abc"), "\(pairs)")
        #expect(pairs.contains("links.example.com default /join/abc"), "\(pairs)")
    }

    @Test("metrics count per site, labelled by the site's first host")
    func metricsPerSite() async throws {
        let server = try await InProcessServer.start(try Self.twoSites())
        _ = try await server.request("GET", "/meet/abc", headers: [("Host", "x.brand.example.net")])
        _ = try await server.request("GET", "/join/abc", headers: [("Host", "links.example.com")])
        let metrics = try await server.request("GET", "/metrics", headers: [("Host", "brand.example.org")]).text
        #expect(metrics.contains("linkhost_requests_total{site=\"brand.example.org\",route=\"call_page\",status=\"2xx\"} 1"), "\(metrics)")
        #expect(metrics.contains("linkhost_requests_total{site=\"default\",route=\"call_page\",status=\"2xx\"} 1"))
    }

    @Test("SIGHUP swaps every site at once: a broken site keeps all of the old ones serving")
    func reloadAllOrNothing() async throws {
        let site = try Self.twoSites()
        let server = try await LinkHostProcess.start(site)
        // A new first site whose template is missing: the whole reload must fail.
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.configPath))) as? [String: Any])
        let broken: [String: Any] = ["hosts": ["new.example"], "callLinks": ["links": ["/n/{callId}"], "template": "/nonexistent/t.html"]]
        document["sites"] = [broken] + (document["sites"] as? [Any] ?? [])
        try site.writeConfigText(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "reload failed")
        // The site is named by its id (its first host) beside its index.
        #expect(server.stderr.contains("site \"new.example\" (sites[0]) callLinks.template"), "\(server.stderr)")
        #expect(try await server.request("GET", "/meet/abc", headers: [("Host", "brand.example.org")]).status == 200)
        #expect(try await server.request("GET", "/n/abc", headers: [("Host", "new.example")]).status == 404)
    }
}
