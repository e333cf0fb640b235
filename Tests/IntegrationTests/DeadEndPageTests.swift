import Foundation
import Testing

/// Issue 32, items 8 and 9, through the real server and Debian's headless Chromium: no page's first action is
/// a dead end (a phone app's scheme on a computer, a store listing an app is not in), the texts agree with the
/// buttons shown, and the 404 page and `/` name the app and the next step.
@Suite("No dead ends on the guest's pages", .serialized, .timeLimit(.minutes(5)))
struct DeadEndPageTests {
    /// The issue's team: an iOS app with scheme acmevideo, an Android app, `localhost` as the open-in-app host,
    /// the shipped page, 404 and home page; `webJoin` adds a web join.
    static func site(webJoin: Bool, apps: [String: Any] = [:], android: [String: Any] = [:]) throws -> SiteFixture {
        var config = TestConfig(name: "Acme Video", bundleID: "com.acme.video", packageName: "com.acme.video", urlScheme: "acmevideo")
        config.baseURL = nil
        let site = try SiteFixture(config)
        var callLinks: [String: Any] = ["paths": ["call"], "template": site.publicPath + "/call.html", "openInAppHost": "localhost"]
        if webJoin { callLinks["webJoinURL"] = "https://meet.example.com/j/{callId}" }
        var app: [String: Any] = ["name": "Acme Video", "teamID": "ABCDE12345", "bundleID": "com.acme.video", "urlScheme": "acmevideo", "appStoreID": "1234567890"]
        app.merge(apps) { $1 }
        if app["installURL"] != nil { app["appStoreID"] = nil }
        var androidApp: [String: Any] = ["packageName": "com.acme.video", "sha256CertFingerprints": [config.fingerprint]]
        androidApp.merge(android) { $1 }
        config.extra = ["callLinks": callLinks, "apps": [app], "android": [androidApp]]
        for shipped in ["404.html", "index.html"] {
            try? FileManager.default.removeItem(atPath: site.publicPath + "/" + shipped)
            try FileManager.default.copyItem(atPath: SiteFixture.repositoryRoot + "/public/" + shipped, toPath: site.publicPath + "/" + shipped)
        }
        try site.writeConfig(config)
        return site
    }

    /// The first visible primary button in page order, as `(id, href)`: what the guest is offered first. A
    /// button counts as hidden with its own `hidden` or its section's (the in-app browser's, the stores').
    static func firstAction(_ visit: HeadlessChromium.Visit) -> (id: String, href: String)? {
        let storesHidden = visit.dom.contains("class=\"stores\" aria-labelledby=\"stores-title\" hidden")
        var rest = visit.dom[...]
        while let start = rest.range(of: "<a ") {
            let tag = rest[start.lowerBound...].prefix { $0 != ">" }
            rest = rest[start.upperBound...]
            guard tag.contains("button primary"), !tag.contains(" hidden"), let match = tag.firstMatch(of: /id="([^"]+)"/) else { continue }
            let id = String(match.1)
            if id == "leave-webview" && visit.isHidden(id: "webview") { continue }
            if (id == "app-store" || id == "play-store") && storesHidden { continue }
            return (id, visit.href(id: id) ?? "")
        }
        return nil
    }

    /// The text of the element with `id`, tags left out.
    static func text(_ visit: HeadlessChromium.Visit, id: String) -> String {
        guard let range = visit.dom.range(of: "id=\"\(id)\"") else { return "" }
        let after = visit.dom[range.upperBound...].drop { $0 != ">" }.dropFirst()
        return String(after.prefix { $0 != "<" })
    }

    @Test("iPhone Safari without the app, Android Chrome, a computer with and without web join, an in-app browser: none starts at a dead end")
    func fiveGuests() async throws {
        let site = try Self.site(webJoin: true)
        let server = try await LinkHostProcess.start(site)
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"

        // iOS served the open-in-app host's page: the app is missing, the App Store leads.
        let iPhone = try await HeadlessChromium.visit("http://localhost:\(server.port)/call/abc123?type=video", as: .iPhone)
        let iPhoneFirst = try #require(Self.firstAction(iPhone), "\(iPhone.dom)")
        #expect(iPhoneFirst.id == "app-store" && iPhoneFirst.href == "https://apps.apple.com/app/id1234567890", "\(iPhoneFirst)")
        #expect(Self.text(iPhone, id: "app-missing") == "Acme Video isn’t on this phone yet.", "agrees with the install link under it")
        #expect(iPhone.isHidden(id: "open-app"))

        let android = try await HeadlessChromium.visit(url, as: .android)
        let androidFirst = try #require(Self.firstAction(android))
        #expect(androidFirst.id == "open-app" && androidFirst.href.contains("#Intent;scheme=https;package=com.acme.video;S.browser_fallback_url=https%3A%2F%2Fplay.google.com"), "\(androidFirst)")

        let desktop = try await HeadlessChromium.visit(url, as: .desktop)
        let desktopFirst = try #require(Self.firstAction(desktop))
        #expect(desktopFirst.id == "web-join", "\(desktopFirst)")
        #expect(desktop.isHidden(id: "open-app"), "a computer is never offered the phone app's scheme: \(desktop.tag(id: "open-app") ?? "")")
        #expect(Self.text(desktop, id: "web-join") == "Join without the app")

        let inApp = try await HeadlessChromium.visit(url, as: GuestJourneyTests.device(.iPhone, agent: GuestJourneyTests.instagramIOS, name: "Instagram iOS"))
        let inAppFirst = try #require(Self.firstAction(inApp))
        #expect(inAppFirst.id == "leave-webview" && inAppFirst.href.hasPrefix("x-safari-https://"), "\(inAppFirst)")
        #expect(inApp.isHidden(id: "open-app"), "no open button under \"…may not open the app\": \(inApp.tag(id: "open-app") ?? "")")
        #expect(!Self.text(inApp, id: "webview-title").contains("can’t open"), "\(Self.text(inApp, id: "webview-title"))")

        let plain = try Self.site(webJoin: false)
        let plainServer = try await LinkHostProcess.start(plain)
        let computer = try await HeadlessChromium.visit("http://127.0.0.1:\(plainServer.port)/call/abc123?type=video", as: .desktop)
        #expect(computer.isHidden(id: "open-app"), "without web join the scheme used to lead: \(computer.tag(id: "open-app") ?? "")")
        #expect(Self.firstAction(computer) == nil, "no button leads: the QR code does")
        let qr = try #require(computer.dom.range(of: "id=\"qr\""))
        let actions = try #require(computer.dom.range(of: "id=\"actions\""))
        #expect(qr.lowerBound < actions.lowerBound, "the QR code comes first")
    }

    @Test("apps outside the stores: the page links to their install page or none, never to a listing that does not exist")
    func appsOutsideTheStores() async throws {
        let site = try Self.site(webJoin: true, apps: ["installURL": "https://testflight.apple.com/join/AbCdEf12"], android: ["installURL": false])
        let server = try await LinkHostProcess.start(site)
        let page = try await server.request("GET", "/call/abc123?type=video", headers: [("Host", "127.0.0.1")])
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200)
        #expect(!html.contains("apps.apple.com") && !html.contains("play.google.com"), "no store listing: \(html)")
        #expect(html.contains(#"<a class="button store" id="app-store" href="https://testflight.apple.com/join/AbCdEf12">Install Acme Video</a>"#), "\(html)")
        #expect(!html.contains("id=\"play-store\""))
        #expect(!html.contains("apple-itunes-app"), "no Smart App Banner for an app not in the App Store")

        let iPhone = try await HeadlessChromium.visit("http://localhost:\(server.port)/call/abc123?type=video", as: .iPhone)
        let first = try #require(Self.firstAction(iPhone))
        #expect(first.id == "app-store" && first.href == "https://testflight.apple.com/join/AbCdEf12", "\(first)")
        let android = try await HeadlessChromium.visit("http://127.0.0.1:\(server.port)/call/abc123?type=video", as: .android)
        #expect(android.tag(id: "play-store") == nil)
        #expect(!(android.href(id: "open-app") ?? "").contains("play.google.com"), "\(android.href(id: "open-app") ?? "")")
        #expect(android.dom.contains("class=\"stores\" aria-labelledby=\"stores-title\" hidden"), "no \"Install it\" section without an install link")

        let bad = try Self.site(webJoin: false, apps: ["installURL": "http://testflight.apple.com/join/x"])
        let validation = try await LinkHostCLI.run(["validate", "--config", bad.configPath], directory: bad.directory)
        #expect(validation.exitCode == 2 && validation.stderr.contains("installURL") && validation.stderr.contains("is not an https URL"), "\(validation)")
    }

    @Test("callLinks.desktopScheme: only then does the page tell call.js that a computer may be offered the scheme")
    func desktopScheme() async throws {
        let plain = try await LinkHostProcess.start(try Self.site(webJoin: false))
        let without = String(decoding: try await plain.request("GET", "/call/abc123", headers: [("Host", "127.0.0.1")]).body, as: UTF8.self)
        #expect(without.contains(#"data-scheme="acmevideo://call/abc123?type=default" data-app-host="https://localhost/call/abc123?type=default" data-desktop-scheme="""#), "\(without)")

        let site = try Self.site(webJoin: false)
        var config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.configPath))) as? [String: Any] ?? [:]
        var callLinks = config["callLinks"] as? [String: Any] ?? [:]
        callLinks["desktopScheme"] = true
        config["callLinks"] = callLinks
        try site.write(String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self), to: "linkhost.json")
        let server = try await LinkHostProcess.start(site)
        let page = String(decoding: try await server.request("GET", "/call/abc123", headers: [("Host", "127.0.0.1")]).body, as: UTF8.self)
        #expect(page.contains(#"data-desktop-scheme="true""#), "\(page)")
        let computer = try await HeadlessChromium.visit("http://127.0.0.1:\(server.port)/call/abc123", as: .desktop)
        #expect(computer.href(id: "open-app") == "acmevideo://call/abc123?type=default" && !computer.isHidden(id: "open-app"), "\(computer.tag(id: "open-app") ?? "")")
        #expect(Self.firstAction(computer)?.id == "open-app", "no web join: the desktop app's scheme leads")
    }

    @Test("the 404 page and / name the site's app and give the next step")
    func notFoundAndHome() async throws {
        let site = try Self.site(webJoin: true)
        let server = try await InProcessServer.start(site)
        for path in ["/nope", "/"] {
            let response = try await server.request("GET", path, headers: [("Host", "127.0.0.1")])
            let html = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == (path == "/" ? 200 : 404), "\(path)")
            #expect(html.contains(#"<p class="app-name">Acme Video</p>"#), "\(path): \(html)")
            #expect(html.contains("open it on the phone where Acme Video is installed"), "\(path): \(html)")
            #expect(!html.contains("{{"), "\(path)")
        }
        // A team's own index.html (a web app's {{ message }}) is no template of linkhost's: served as it is.
        let webApp = try Self.site(webJoin: true)
        try webApp.write("<!doctype html><title>app</title><p>{{ message }}</p>\n", to: "public/index.html")
        let webAppServer = try await InProcessServer.start(webApp)
        let raw = try await webAppServer.request("GET", "/", headers: [("Host", "127.0.0.1")])
        #expect(raw.status == 200 && String(decoding: raw.body, as: UTF8.self) == "<!doctype html><title>app</title><p>{{ message }}</p>\n")
    }
}
