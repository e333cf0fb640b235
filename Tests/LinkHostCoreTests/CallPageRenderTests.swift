import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The shipped call page and locales, rendered through the router: one page per link and language,
/// whatever the device, with its QR code beside it.
@Suite("Call page rendering")
struct CallPageRenderTests {
    private static func makeRouter(configure: (inout Config) -> Void = { _ in }) throws -> Router {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].callLinks.baseURL = "https://links.example.com"
        configure(&config)
        return Router(snapshot: try Snapshot(config: config))
    }

    static let agents: [String?] = [
        nil, "curl/8.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ]

    @Test("every User-Agent gets the same bytes, and nothing says the page varies by it")
    func sameForEveryDevice() throws {
        let router = try Self.makeRouter()
        let pages = Self.agents.map { router.respond(to: Request(path: "/call/abc", query: ["type": "video"], userAgent: $0)) }
        #expect(pages.allSatisfy { $0.status == 200 && $0.body == pages[0].body && $0.headers == pages[0].headers })
        #expect(pages[0].header("Vary") == "Accept-Language")
        #expect(pages[0].header("Cache-Control") == "public, max-age=60")
        #expect(pages[0].header("Content-Language") == "en")
        let other = try Self.makeRouter().respond(to: Request(path: "/call/abd", query: ["type": "video"]))
        #expect(pages[0].header("ETag") != other.header("ETag") && pages[0].header("ETag")?.hasPrefix("\"") == true)
        #expect(pages[0].header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(!pages[0].bodyText.contains("<script>") && pages[0].bodyText.contains("<script src=\"/call.js\" defer></script>"))
    }

    @Test("the page holds every platform's way in: custom scheme, intent with Play fallback, both stores, the QR image")
    func everyPlatformsLinks() throws {
        let page = try Self.makeRouter().respond(to: Request(path: "/call/abc", query: ["type": "video"])).bodyText
        let canonical = "https%3A%2F%2Flinks.example.com%2Fcall%2Fabc%3Ftype%3Dvideo"
        #expect(page.contains("data-scheme=\"examplevideo://call/abc?type=video\""))
        #expect(page.contains("data-intent=\"intent://links.example.com/call/abc?type=video#Intent;scheme=https;package=com.example.video;S.browser_fallback_url="
            + "https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.example.video%26referrer%3D" + canonical.replacing("%", with: "%25") + ";end\""))
        #expect(page.contains("href=\"https://play.google.com/store/apps/details?id=com.example.video&amp;referrer=\(canonical)\""))
        #expect(page.contains("href=\"https://apps.apple.com/app/id1234567890\""))
        #expect(page.contains("srcset=\"/call/abc/qr.svg?type=video\""))
        #expect(page.contains("app-argument=https://links.example.com/call/abc?type=video"))
    }

    @Test("Accept-Language and ?lang= pick the locale; <html lang dir> and Content-Language follow it", arguments: [
        ("de-DE,de;q=0.9", nil, "de", "ltr", true), ("ar", nil, "ar", "rtl", true), ("pt-PT", nil, "pt-BR", "ltr", true),
        ("sv", nil, "en", "ltr", true), ("de", "ja", "ja", "ltr", false), (nil, "AR", "ar", "rtl", false),
    ] as [(String?, String?, String, String, Bool)])
    func languages(accept: String?, lang: String?, tag: String, dir: String, varies: Bool) throws {
        let page = try Self.makeRouter().respond(to: Request(path: "/call/abc", acceptLanguage: accept, language: lang))
        #expect(page.header("Content-Language") == tag)
        #expect(page.bodyText.contains("<html lang=\"\(tag)\" dir=\"\(dir)\""))
        #expect((page.header("Vary") == "Accept-Language") == varies)
    }

    @Test("a site with one locale does not vary by language")
    func oneLocale() throws {
        let folder = try Fixtures.temporaryFolder(files: ["en.json": try String(contentsOfFile: "public/locales/en.json", encoding: .utf8)])
        defer { removeItem(folder) }
        let page = try Self.makeRouter { $0.sites[0].callLinks.locales = folder }.respond(to: Request(path: "/call/abc", acceptLanguage: "de"))
        #expect(page.status == 200 && page.header("Vary") == nil && page.header("Content-Language") == "en")
        #expect(page.bodyText.contains("data-languages=\"en\""))
    }

    @Test("a string missing from a locale shows the default locale's, and is a warning")
    func missingString() throws {
        let english = try String(contentsOfFile: "public/locales/en.json", encoding: .utf8)
        let folder = try Fixtures.temporaryFolder(files: ["en.json": english, "de.json": #"{"strings": {"heading": "Anruf beitreten"}}"#])
        defer { removeItem(folder) }
        let router = try Self.makeRouter { $0.sites[0].callLinks.locales = folder }
        let page = router.respond(to: Request(path: "/call/abc", acceptLanguage: "de")).bodyText
        #expect(page.contains("<h1 id=\"title\">Anruf beitreten</h1>"))
        #expect(page.contains("Join in your browser") || page.contains("Download on the App Store"))
        #expect(router.snapshot.warnings.contains { $0.code == .lh603 && $0.message.contains("de.json") && $0.message.contains("\"lead\"") })
    }

    @Test("If-None-Match with the page's ETag gives a 304 with its validators and no body")
    func notModified() throws {
        let router = try Self.makeRouter()
        let page = router.respond(to: Request(path: "/call/abc", acceptLanguage: "fr"))
        let again = router.respond(to: Request(path: "/call/abc", ifNoneMatch: page.header("ETag"), acceptLanguage: "fr"))
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == page.header("ETag"))
        #expect(again.header("Vary") == "Accept-Language" && again.header("Cache-Control") == page.header("Cache-Control"))
        let otherLanguage = router.respond(to: Request(path: "/call/abc", ifNoneMatch: page.header("ETag"), acceptLanguage: "de"))
        #expect(otherLanguage.status == 200, "another language is another representation")
    }

    @Test("qr.svg beside every link shape is an SVG of the canonical URL, cacheable and revalidatable", arguments: [
        ("/call/abc/qr.svg", ["type": "video"]), ("/call/video:abc/qr.svg", [:]), ("/call/abc/qr.svg/", ["type": "video"]),
    ])
    func qrCode(path: String, query: [String: String]) throws {
        let router = try Self.makeRouter()
        let image = router.respond(to: Request(path: path, query: query))
        if path.hasSuffix("/") {
            #expect(image.status == 404)
            return
        }
        #expect(image.status == 200 && image.route == .callQRCode)
        #expect(image.header("Content-Type") == "image/svg+xml")
        #expect(image.header("Cache-Control") == "public, max-age=86400")
        #expect(image.header("Vary") == nil)
        #expect(image.bodyText.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(image.bodyText.contains("aria-label=\"https://links.example.com/call/abc?type=video\""))
        let again = router.respond(to: Request(path: path, query: query, ifNoneMatch: image.header("ETag")))
        #expect(again.status == 304 && again.body.isEmpty)
    }

    @Test("without a base URL or a usable Host there is no absolute URL to encode: no QR image")
    func qrCodeWithoutOrigin() throws {
        let router = try Self.makeRouter { $0.sites[0].callLinks.baseURL = nil }
        #expect(router.respond(to: Request(path: "/call/abc/qr.svg")).status == 404)
        #expect(!router.respond(to: Request(path: "/call/abc")).bodyText.contains("qr.svg"))
        let image = router.respond(to: Request(path: "/call/abc/qr.svg", host: "localhost:8443"))
        #expect(image.status == 200 && image.bodyText.contains("https://localhost:8443/call/abc"))
        // A Host the config does not name is no origin either (docs/cdn.md): a 404 no cache keeps.
        for host in ["links.example.org", "bad host\"<x>", ""] {
            let refused = router.respond(to: Request(path: "/call/abc/qr.svg", host: host))
            #expect(refused.status == 404 && refused.header("Cache-Control") == "no-store", "\(host)")
            #expect(router.respond(to: Request(path: "/call/abc", host: host)).status == 404, "\(host)")
        }
    }

    @Test("the template and locale files are never served as static files")
    func sourcesNotServed() throws {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = "public"
        let router = Router(snapshot: try Snapshot(config: config))
        #expect(router.respond(to: Request(path: "/locales/en.json")).status == 404)
        #expect(router.respond(to: Request(path: "/call.html")).status == 404)
        #expect(router.respond(to: Request(path: "/call.js")).status == 200)
    }
}
