import Foundation
import Testing

/// The call page behind real shared caches (Debian's nginx and Varnish, on loopback) and a real browser.
///
/// Serialized: each test runs a cache, a linkhost and Chromium, and two cores are all there is.
@Suite("Call page behind caches", .serialized, .timeLimit(.minutes(3)))
struct CDNCacheTests {
    /// A site with an iOS app (custom scheme), an Android app and a web join, as the page is used for real.
    static func site(extra: (SiteFixture) -> [String: Any] = { _ in [:] }) throws -> SiteFixture {
        let site = try SiteFixture()
        var config = TestConfig(urlScheme: "examplevideo")
        // A base URL: the browsers reach the cache as 127.0.0.1, a loopback name the config does not name, whose
        // pages are `no-store` (issue 30); the base URL's are the ones a cache keeps.
        config.extra = ["callLinks": ["paths": ["call"], "webJoinURL": "https://meet.example.com/j/{callId}", "baseURL": "https://links.example.com"]].merging(extra(site)) { $1 }
        try site.writeConfig(config)
        return site
    }

    /// How many times linkhost answered `route` with a status of `statusClass`, from its /metrics.
    static func count(_ server: LinkHostProcess, route: String, statusClass: String = "2xx") async throws -> Int {
        let metrics = try await server.request("GET", "/metrics").text
        let series = "linkhost_requests_total{site=\"default\",route=\"\(route)\",status=\"\(statusClass)\"} "
        guard let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix(series) }) else { return 0 }
        return Int(line.dropFirst(series.count)) ?? -1
    }

    @Test("nginx ignoring Vary (as CloudFront's default does): desktop, Android, iPhone and iPad each get a page that works on them")
    func nginxIgnoringVary() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let cache = try await CacheProxy.nginx(backend: server.port, ignoringVary: true)
        let url = cache.url("/call/abc123?type=video")

        let desktop = try await HeadlessChromium.visit(url, as: .desktop)
        let android = try await HeadlessChromium.visit(url, as: .android)
        let iPhone = try await HeadlessChromium.visit(url, as: .iPhone)
        let iPad = try await HeadlessChromium.visit(url, as: .iPad)

        // One rendering served them all: the cache held one copy of the page, the same bytes for every device.
        #expect(try await Self.count(server, route: "call_page") == 1)

        #expect(desktop.htmlTag.contains("data-platform=\"desktop\""), "\(desktop.htmlTag)")
        #expect(desktop.requests.contains(cache.url("/call/abc123/qr.svg?type=video")), "\(desktop.requests)")
        #expect(desktop.tag(id: "web-join")?.contains("button primary") == true, "a computer joins in the browser first")
        #expect(!desktop.isHidden(id: "app-store") && !desktop.isHidden(id: "play-store"))

        let playStore = "https://play.google.com/store/apps/details?id=com.example.linkhost.android&referrer="
            + "https%3A%2F%2Flinks.example.com%2Fcall%2Fabc123%3Ftype%3Dvideo"
        #expect(android.htmlTag.contains("data-platform=\"android\""))
        #expect(android.href(id: "open-app")?.hasPrefix("intent://links.example.com/call/abc123?type=video#Intent;scheme=https;package=com.example.linkhost.android;S.browser_fallback_url=https%3A%2F%2Fplay.google.com") == true,
                "\(android.tag(id: "open-app") ?? "no open-app link")")
        #expect(android.href(id: "play-store") == playStore)
        #expect(android.isHidden(id: "app-store") && !android.isHidden(id: "play-store"))
        #expect(!android.requests.contains { $0.contains("qr.svg") }, "a phone downloaded the QR code: \(android.requests)")

        #expect(iPhone.htmlTag.contains("data-platform=\"ios\""))
        #expect(iPhone.href(id: "open-app") == "examplevideo://call/abc123?type=video", "\(iPhone.tag(id: "open-app") ?? "no open-app link")")
        #expect(iPhone.isHidden(id: "play-store") && !iPhone.isHidden(id: "app-store"))
        #expect(!iPhone.requests.contains { $0.contains("qr.svg") }, "a phone downloaded the QR code: \(iPhone.requests)")

        // iPadOS Safari's desktop-class User-Agent says Macintosh; the touch screen makes it an iPad.
        #expect(iPad.htmlTag.contains("data-platform=\"ios\""), "\(iPad.htmlTag)")
        #expect(iPad.href(id: "open-app") == "examplevideo://call/abc123?type=video")
    }

    @Test("nginx ignoring Vary hands a German visitor the English copy; the script asks for ?lang=de once")
    func languageBehindACacheIgnoringVary() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let cache = try await CacheProxy.nginx(backend: server.port, ignoringVary: true)
        let url = cache.url("/call/abc123?type=video")
        let english = try await HeadlessChromium.visit(url, as: .desktop, acceptLanguage: "en-US,en;q=0.9")
        #expect(english.htmlTag.contains("lang=\"en\"") && english.requests.filter { $0.contains("/call/abc123?") }.count == 1)
        let german = try await HeadlessChromium.visit(url, as: .iPhone, acceptLanguage: "de-DE,de;q=0.9")
        #expect(german.htmlTag.contains("lang=\"de\""), "\(german.htmlTag)")
        #expect(german.dom.contains("<h1 id=\"title\">Anruf beitreten</h1>"))
        #expect(german.requests.contains(cache.url("/call/abc123?type=video&lang=de")), "\(german.requests)")
        let arabic = try await HeadlessChromium.visit(url, as: .android, acceptLanguage: "ar")
        #expect(arabic.htmlTag.contains("lang=\"ar\" dir=\"rtl\""), "\(arabic.htmlTag)")
    }

    @Test("Varnish honouring Vary: 1,000 requests with 200 real User-Agents reach linkhost at most once per language")
    func varnishOncePerLanguage() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let cache = try await CacheProxy.varnish(backend: server.port)
        let agents = try RealUserAgents.load(200)
        let languages = [("en-US,en;q=0.9", "en"), ("de-DE,de;q=0.9,en;q=0.8", "de"), ("ar-EG,ar;q=0.9,en;q=0.5", "ar")]
        var wrong: [String] = []
        var answered = 0
        for connection in 0..<10 {
            let client = try await cache.connect()
            for index in (connection * 100)..<((connection + 1) * 100) {
                let (acceptLanguage, tag) = languages[index % languages.count]
                let page = try await client.request("GET", "/call/viral42?type=video", headers: [("Host", "127.0.0.1:\(cache.port)"), ("User-Agent", agents[index % agents.count]), ("Accept-Language", acceptLanguage)])
                answered += 1
                if page.status != 200 || page.header("Content-Language") != tag || !page.text.contains("<code dir=\"ltr\">viral42</code>") {
                    wrong.append("request \(index): \(page.status) \(page.header("Content-Language") ?? "-")")
                }
            }
        }
        let renders = try await Self.count(server, route: "call_page")
        print("Varnish: \(answered) requests, \(agents.count) User-Agents, \(languages.count) languages; linkhost answered \(renders)")
        #expect(answered == 1000 && wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(renders >= 1 && renders <= languages.count, "linkhost answered \(renders) of 1,000 requests")
    }

    static let revalidated = ["/call/abc?type=video", "/.well-known/apple-app-site-association", "/site.css"]

    @Test("ETag and Cache-Control let nginx and Varnish revalidate pages, the AASA and static files with 304", arguments: ["nginx", "Varnish"])
    func revalidation(cacheName: String) async throws {
        let server = try await LinkHostProcess.start(try Self.site { site in
            ["static": ["root": site.publicPath, "cacheMaxAge": 1], "aasa": ["cacheMaxAge": 1],
             "callLinks": ["paths": ["call"], "cacheMaxAge": 1, "baseURL": "https://links.example.com"]]
        })
        let cache = cacheName == "nginx" ? try await CacheProxy.nginx(backend: server.port, ignoringVary: false) : try await CacheProxy.varnish(backend: server.port)
        var first: [String: HTTPResponse] = [:]
        for path in Self.revalidated {
            let response = try await cache.request(path, headers: [("Accept-Language", "fr")])
            #expect(response.status == 200 && isStrongETag(response.header("ETag")), "\(path): \(response)")
            first[path] = response
        }
        // max-age is 1 s by the cache's clock: asked again until linkhost's log shows the cache revalidating each
        // path (If-None-Match, 304), rather than a sleep guessing when that clock has moved past it. Every answer,
        // stored copy or revalidated, is the first one.
        var differing: [String] = []
        let notModified = try await eventually {
            for path in Self.revalidated {
                let again = try await cache.request(path, headers: [("Accept-Language", "fr")])
                if !(again.status == 200 && again.body == first[path]?.body && again.header("ETag") == first[path]?.header("ETag")) {
                    differing.append("\(path): \(again)")
                }
            }
            let lines = server.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return Self.revalidated.allSatisfy { path in
                let bare = String(path.prefix { $0 != "?" })
                return lines.contains { $0["path"] as? String == bare && $0["status"] as? Int == 304 }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
        #expect(notModified, "linkhost never answered 304 to \(cacheName):\n\(server.stdout.suffix(3000))")
    }
}
