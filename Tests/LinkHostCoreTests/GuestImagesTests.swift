import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The images a guest's mail, calendar and chat show: the call's QR code as PNG beside the SVG, and the
/// default preview picture of a site that names none.
@Suite("Guest images: qr.png and the default og:image")
struct GuestImagesTests {
    static func router(_ configure: (inout Config) -> Void = { _ in }) throws -> Router {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].callLinks.baseURL = "https://links.example.com"
        configure(&config)
        return Router(snapshot: try Snapshot(config: config))
    }

    @Test("qr.png: validated like the page, a PNG with a day's cache and an ETag; no origin, no image")
    func qrPNG() throws {
        let router = try Self.router()
        let png = router.respond(to: Request(path: "/call/abc/qr.png", query: ["type": "video"]))
        #expect(png.status == 200)
        #expect(png.header("Content-Type") == "image/png")
        #expect(png.header("Cache-Control") == "public, max-age=86400")
        #expect(png.header("ETag") == EntityTag.strong(for: png.body))
        #expect(Array(png.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(router.respond(to: Request(path: "/call/abc/qr.png", query: ["type": "video"])).body == png.body, "the same link, the same bytes")
        for bad in ["/call/a%20b/qr.png", "/call/abc//qr.png", "/call/<x>/qr.png", "/call/qr.png"] {
            #expect(router.respond(to: Request(path: bad)).status == 404, "\(bad)")
        }
        let noOrigin = try Self.router { $0.sites[0].callLinks.baseURL = nil }
        #expect(noOrigin.respond(to: Request(path: "/call/abc/qr.png", host: nil)).status == 404)
    }

    @Test("a site without previewImage gets og:image of linkhost's 1200 × 630 picture, served as PNG")
    func defaultPreview() throws {
        let router = try Self.router()
        let page = router.respond(to: Request(path: "/call/abc")).bodyText
        #expect(page.contains(#"<meta property="og:image" content="https://links.example.com/linkhost-preview.png">"#), "\(page)")
        #expect(page.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        let image = router.respond(to: Request(path: "/linkhost-preview.png"))
        #expect(image.status == 200 && image.header("Content-Type") == "image/png")
        #expect(Array(image.body[16..<24]) == [0, 0, 0x04, 0xB0, 0, 0, 0x02, 0x76], "IHDR: 1200 × 630")
        #expect(image.body.count < 40_000, "flat colours compress: \(image.body.count) bytes")
    }
}

@Suite("openInAppHost and previewImage across sites")
struct GuestSiteSettingsTests {
    @Test("openInAppHost names a host of the site (a wildcard host covers it); a site with its own callLinks keeps the top level's previewImage")
    func settings() throws {
        let sites = #"[{"hosts": ["links.example.com", "open.links.example.com"], "callLinks": {"paths": ["meet"], "openInAppHost": "Open.Links.example.com"}}, {"hosts": ["*.b.example"], "callLinks": {"paths": ["m"], "openInAppHost": "x.b.example", "previewImage": "other.png"}}]"#
        let text = try Fixtures.validConfig(setting: "sites", to: sites).replacingOccurrences(of: #""callLinks":{"paths":["call"]"#, with: #""callLinks":{"previewImage":"brand.png","paths":["call"]"#)
        let config = try Fixtures.config(text)
        #expect(config.defaultSite.callLinks.previewImage == "brand.png", "\(text)")
        let named = config.sites.filter { !$0.hosts.isEmpty }
        #expect(named.map(\.callLinks.openInAppHost) == ["open.links.example.com", "x.b.example"])
        #expect(named.map(\.callLinks.previewImage) == ["brand.png", "other.png"])
    }
}
