import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The call-link page: both link shapes, headers, languages, revalidation, invalid links and reflection in
/// process (`InProcessServer`, the server's answer path without a socket); HEAD framing, a hostile Host, QR
/// decoding and the page cache across reloads over real sockets.
@Suite("Call page", .timeLimit(.minutes(1)))
struct CallPageTests {
    @Test("A valid call link answers 200 HTML with the call ID, type, app name and locked-down headers")
    func validLink() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let page = try await server.request("GET", "/call/abc_DEF-123?type=video")
        #expect(page.status == 200, "\(page)")
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Length") == String(page.body.count))
        #expect(page.text.contains("<code dir=\"ltr\">abc_DEF-123</code>"))
        #expect(page.text.contains("<dd><bdi>video</bdi></dd>"))
        #expect(page.text.contains(TestConfig().name))
        #expect(page.text.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"))
        #expect(page.text.contains("apple-itunes-app"))
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"))
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(maxAge(page.header("Cache-Control")) != nil)
        #expect(page.header("Vary") == "Accept-Language")
        #expect(page.header("Content-Language") == "en")
        #expect(isStrongETag(page.header("ETag")))
    }

    @Test("The type:callId link shape and a trailing slash are accepted; a missing type falls back to the default")
    func linkShapes() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let shaped = try await server.request("GET", "/call/livestream:xyz789")
        #expect(shaped.status == 200 && shaped.text.contains("<code dir=\"ltr\">xyz789</code>") && shaped.text.contains("<dd><bdi>livestream</bdi></dd>"), "\(shaped)")
        let slash = try await server.request("GET", "/call/xyz789/")
        #expect(slash.status == 200 && slash.text.contains("<dd><bdi>default</bdi></dd>"), "\(slash)")
    }

    @Test("HEAD on a call page sends the headers only")
    func head() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let client = try await server.connect()
        try await client.send(RawHTTPClient.requestBytes("HEAD", "/call/abc"))
        let head = try await client.readResponse(toMethod: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        let get = try await client.request("GET", "/call/abc")
        #expect(head.header("Content-Length") == String(get.body.count))
    }

    static let invalidLinks = [
        "/call/", "/call/a%2Fb", "/call/%00x", "/call/..%2F..%2Fsecret.txt", "/call/abc/extra", "/call/" + String(repeating: "x", count: 65),
        "/call/<script>alert(1)</script>", "/call/abc?type=%3Cscript%3E", "/call/abc?type=a%0d%0aSet-Cookie:%20evil=1",
        "/call/INJECT%22onload%3D", "/call/abc?type=" + String(repeating: "t", count: 65),
    ]

    @Test("Invalid call links get the friendly 404 page and never reflect the input", arguments: invalidLinks)
    func invalidLink(path: String) async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let response = try await server.request("GET", path)
        #expect(response.status == 404, "\(response)")
        for marker in ["script", "alert", "Set-Cookie", "evil", "INJECT", "onload", "secret", "ttttt", "xxxxx"] {
            #expect(!response.text.contains(marker), "404 for \(path) reflects \(marker)")
            #expect(!response.headers.contains { $0.name.lowercased() == "set-cookie" || $0.value.contains(marker) }, "\(response)")
        }
    }

    @Test("The shipped 404 page answers in the visitor's language on the server's own path, ?lang= first",
          arguments: [("ar", nil, "ar", "rtl"), ("de", nil, "de", "ltr"), ("de", "ja", "ja", "ltr"), ("xx", nil, "en", "ltr")])
    func localizedNotFound(acceptLanguage: String, lang: String?, tag: String, direction: String) async throws {
        let fixture = try SiteFixture()
        try fixture.write(try String(contentsOfFile: SiteFixture.repositoryRoot + "/public/404.html", encoding: .utf8), to: "public/404.html")
        let server = try await InProcessServer.start(fixture)
        // A bad call link and an unknown path take different turns in the server; both end on this page.
        let query = lang.map { "?lang=\($0)" } ?? ""
        for path in ["/call/a%3Cb" + query, "/no/such/page" + query] {
            let response = try await server.request("GET", path, headers: [("Accept-Language", acceptLanguage)])
            #expect(response.status == 404 && response.header("Content-Type") == "text/html; charset=utf-8", "\(path): \(response)")
            #expect(response.header("Content-Language") == tag, "\(path): \(response)")
            #expect(response.header("Vary") == "Accept-Language")
            #expect(response.text.contains("<html lang=\"\(tag)\" dir=\"\(direction)\">"), "\(response.text)")
            #expect(!response.text.contains("{{"))
        }
        let raw = try await server.request("GET", "/404.html")
        #expect(raw.status == 404 && !raw.text.contains("{{"), "404.html is the template, never served raw: \(raw)")
    }

    @Test("Query items other than type are ignored, never reflected")
    func otherQueryItems() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let page = try await server.request("GET", "/call/abc?type=video&utm_source=%3Cb%3Ereflected%3C/b%3E&x=REFLECTED")
        #expect(page.status == 200)
        #expect(!page.text.contains("reflected") && !page.text.contains("REFLECTED"))
    }

    @Test("Every device gets the same page, holding the intent URL with its Play fallback, the custom scheme and the QR image")
    func platforms() async throws {
        let server = try await InProcessServer.start(SiteFixture(TestConfig(urlScheme: "examplevideo")))
        let agents = ["Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120"]
        var pages: [HTTPResponse] = []
        for agent in agents { pages.append(try await server.request("GET", "/call/abc?type=video", headers: [("User-Agent", agent), ("Host", "links.example.com")])) }
        #expect(pages.allSatisfy { $0.body == pages[0].body && $0.header("ETag") == pages[0].header("ETag") && $0.header("Vary") == "Accept-Language" })
        let page = pages[0].text
        #expect(page.contains("data-intent=\"intent://links.example.com/call/abc?type=video#Intent;scheme=https;package="), "\(pages[0])")
        #expect(page.contains("S.browser_fallback_url=https%3A%2F%2Fplay.google.com"))
        #expect(page.contains("referrer=https%3A%2F%2Flinks.example.com%2Fcall%2Fabc%3Ftype%3Dvideo"))
        #expect(page.contains("data-scheme=\"examplevideo://call/abc?type=video\""))
        #expect(page.contains("srcset=\"/call/abc/qr.svg?type=video\""))
    }

    @Test("The QR image decodes to the canonical URL for every link shape, and revalidates with 304", arguments: [
        "/call/abc/qr.svg?type=video", "/call/video:abc/qr.svg",
    ])
    func qrImage(path: String) async throws {
        var config = TestConfig()
        config.baseURL = nil
        let server = try await LinkHostProcess.start(SiteFixture(config))
        // The browser below asks as 127.0.0.1, a loopback name: the image encodes it.
        let host = ("Host", "127.0.0.1:\(server.port)")
        let image = try await server.request("GET", path, headers: [host])
        #expect(image.status == 200 && image.header("Content-Type") == "image/svg+xml", "\(image)")
        let etag = try #require(image.header("ETag"))
        let again = try await server.request("GET", path, headers: [host, ("If-None-Match", etag)])
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        // What a mail client shows: Chromium draws the image, zbarimg reads it back.
        let png = server.site.directory + "/qr.png"
        _ = try await HeadlessChromium.visit("http://127.0.0.1:\(server.port)\(path)", as: .desktop, screenshot: png)
        let scanned = try await runTool("zbarimg", ["-q", "--raw", png])
        #expect(scanned.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "https://127.0.0.1:\(server.port)/call/abc?type=video", "\(scanned.stderr)")
    }

    @Test("A query-form link has its image at its path + /qr.svg with the same query, checked like the page")
    func queryFormQRCode() async throws {
        var config = TestConfig()
        config.extra = ["callLinks": ["links": ["/join?call_id={callId}&call_type={callType}"], "baseURL": "https://links.example.com"]]
        let server = try await InProcessServer.start(SiteFixture(config))
        let image = try await server.request("GET", "/join/qr.svg?call_type=audio&call_id=abc")
        #expect(image.status == 200 && image.text.contains("aria-label=\"https://links.example.com/join?call_id=abc&amp;call_type=audio\""), "\(image)")
        for refused in ["/join/qr.svg?call_type=audio", "/join/qr.svg?call_id=%3Cx%3E", "/join//qr.svg?call_id=abc", "/joinqr.svg?call_id=abc"] {
            #expect(try await server.request("GET", refused).status == 404, "\(refused)")
        }
        let page = try await server.request("GET", "/join?call_id=abc&call_type=audio")
        #expect(page.text.contains("srcset=\"/join/qr.svg?call_id=abc&amp;call_type=audio\""), "\(page)")
    }

    @Test("A rendered page revalidates with 304 from the server's page cache too, per language")
    func pageRevalidation() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let german = try await server.request("GET", "/call/abc", headers: [("Accept-Language", "de-DE,de;q=0.9")])
        #expect(german.header("Content-Language") == "de" && german.text.contains("<html lang=\"de\" dir=\"ltr\""))
        let etag = try #require(german.header("ETag"))
        for _ in 0..<2 {
            let again = try await server.request("GET", "/call/abc", headers: [("Accept-Language", "de"), ("If-None-Match", etag)])
            #expect(again.status == 304 && again.header("ETag") == etag && again.header("Vary") == "Accept-Language", "\(again)")
        }
        let arabic = try await server.request("GET", "/call/abc", headers: [("Accept-Language", "ar"), ("If-None-Match", etag)])
        #expect(arabic.status == 200 && arabic.text.contains("dir=\"rtl\"") && arabic.header("Content-Language") == "ar")
        let chosen = try await server.request("GET", "/call/abc?lang=ja", headers: [("Accept-Language", "de")])
        #expect(chosen.header("Content-Language") == "ja" && chosen.header("Vary") == nil)
    }

    @Test("A hostile Host header cannot reach the page's URLs")
    func hostileHost() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let page = try await server.request("GET", "/call/abc", headers: [("Host", "evil.example\"><script>x</script>")])
        #expect(page.status == 200 || page.status == 400, "\(page)")
        #expect(!page.text.contains("<script>x") && !page.text.contains("evil.example"))
    }

    @Test("The page template and files outside public/ are never served raw")
    func templateNotServed() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        for path in ["/call.html", "/public/call.html", "/%63all.html", "/linkhost.json", "/../linkhost.json"] {
            let response = try await server.request("GET", path)
            #expect(response.status == 404, "\(path): \(response)")
            #expect(!response.text.contains("{{"), "\(path) leaked the template")
        }
    }

    @Test("A cached page is the same bytes as a fresh one, and a reload renders with the new config")
    func pageCache() async throws {
        let site = try SiteFixture()
        let server = try await LinkHostProcess.start(site)
        let first = try await server.request("GET", "/call/cached1?type=video")
        let again = try await server.request("GET", "/call/cached1?type=video")
        #expect(first.status == 200 && again.body == first.body)
        let other = try await server.request("GET", "/call/cached2?type=video")
        #expect(other.text.contains("<code dir=\"ltr\">cached2</code>") && !other.text.contains("cached1"))
        var renamed = TestConfig()
        renamed.name = "Renamed App"
        try site.writeConfig(renamed)
        server.signal(SIGHUP)
        #expect(try await eventually { try await server.request("GET", "/call/cached1?type=video").text.contains("Renamed App") })
    }
}
