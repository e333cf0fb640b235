import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The not-found page: the static folder's 404.html baked in each page locale, chosen like the call page's.
@Suite("Not-found page")
struct NotFoundPageTests {
    /// A router over the valid fixture whose static folder is `files`, with the shipped locales.
    private static func makeRouter(files: [String: String], locales: String? = nil) throws -> Router {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = try Fixtures.temporaryFolder(files: files)
        defer { removeItem(config.sites[0].staticFiles.root) }
        if let locales { config.sites[0].callLinks.locales = locales }
        return Router(snapshot: try Snapshot(config: config))
    }

    private static var shipped: String { get throws { try String(contentsOfFile: "public/404.html", encoding: .utf8) } }

    private static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        HTMLEscaping.append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func strings(_ tag: String) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "public/locales/\(tag).json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["strings"] as? [String: String] ?? [:]
    }

    @Test("the shipped 404 speaks the visitor's language, like the call page, and says it varies by it",
          arguments: [("ar", "ar", "rtl"), ("de-AT,de;q=0.9", "de", "ltr"), ("ja", "ja", "ltr"), ("pt", "pt-BR", "ltr"), ("xx", "en", "ltr")])
    func localized(acceptLanguage: String, tag: String, direction: String) throws {
        let router = try Self.makeRouter(files: ["404.html": try Self.shipped])
        let response = router.respond(to: Request(path: "/no/such/page", acceptLanguage: acceptLanguage))
        let strings = try Self.strings(tag)
        #expect(response.status == 404)
        #expect(response.header("Content-Language") == tag)
        #expect(response.header("Vary") == "Accept-Language")
        #expect(response.bodyText.contains("<html lang=\"\(tag)\" dir=\"\(direction)\">"))
        let heading = try #require(strings["notFoundHeading"])
        #expect(response.bodyText.contains(Self.escaped(heading)), "\(response.bodyText)")
        #expect(!response.bodyText.contains("{{"))
        #expect(response.bodyText.contains("Example Video"), "the page names the site's app, filled in at the request")
    }

    /// The valid config with two tenants beside it, t0.example.com ("Alpha <Calls>") and t1.example.com
    /// ("Beta Video"), which take `staticRoot` as their static tree and differ only in host and app name.
    static func twoTenants(staticRoot: String) throws -> Config {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = staticRoot
        for (index, name) in ["Alpha <Calls>", "Beta Video"].enumerated() {
            var site = config.sites[0]
            site.hosts = ["t\(index).example.com"]
            site.apps[0].name = name
            site.sections.site = "sites[\(index)]"
            config.sites.append(site)
        }
        return config
    }

    @Test("sites of one static tree share one bake of the 404 whatever their app, and each page names its own app")
    func sharedBake() throws {
        let root = try Fixtures.temporaryFolder(files: ["404.html": try Self.shipped])
        defer { removeItem(root) }
        let config = try Self.twoTenants(staticRoot: root)
        let snapshot = try Snapshot(config: config)
        let router = Router(snapshot: snapshot)
        // The top level's tree is another (its /.well-known/ files are its own): the two tenants share theirs.
        let bakes = snapshot.sites.dropFirst().compactMap(\.notFoundPages.bake)
        #expect(bakes.count == 2 && bakes[0] === bakes[1], "one bake for every app")
        for (host, name) in [("t0.example.com", "Alpha <Calls>"), ("t1.example.com", "Beta Video")] {
            for language in ["de", "ar"] {
                let response = router.respond(to: Request(path: "/nothing", host: host, acceptLanguage: language))
                #expect(response.status == 404 && response.header("Content-Language") == language)
                #expect(response.bodyText.contains(Self.escaped(name)), "\(response.bodyText)")
                let other = name.hasPrefix("Alpha") ? "Beta Video" : "Alpha &lt;Calls&gt;"
                #expect(!response.bodyText.contains(other))
            }
        }
    }

    @Test("?lang= picks the 404's language too, and an invalid call link gets the same page")
    func explicitLanguage() throws {
        let router = try Self.makeRouter(files: ["404.html": try Self.shipped])
        let french = router.respond(to: Request(path: "/nothing", acceptLanguage: "de", language: "fr"))
        #expect(french.header("Content-Language") == "fr")
        let badLink = router.respond(to: Request(path: "/call/a%20b", acceptLanguage: "fr"))
        #expect(badLink.status == 404 && badLink.body == french.body)
    }

    @Test("tenants' home pages come from one bake, each naming its own app, with the ETag of its bytes and its 304")
    func sharedHomePage() throws {
        let home = try String(contentsOfFile: "public/index.html", encoding: .utf8)
        let root = try Fixtures.temporaryFolder(files: ["index.html": home])
        defer { removeItem(root) }
        let config = try Self.twoTenants(staticRoot: root)
        let router = Router(snapshot: try Snapshot(config: config))
        var bodies: [[UInt8]] = []
        for (host, name) in [("t0.example.com", "Alpha <Calls>"), ("t1.example.com", "Beta Video")] {
            let page = router.respond(to: Request(path: "/", host: host))
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.bodyText.contains(Self.escaped(name)) && !page.bodyText.contains("{{"), "\(page.bodyText)")
            let tag = try #require(page.header("ETag"))
            #expect(tag == EntityTag.strong(for: page.body))
            #expect(router.respond(to: Request(path: "/index.html", host: host)).body == page.body)
            let revalidated = router.respond(to: Request(path: "/", ifNoneMatch: tag, host: host))
            #expect(revalidated.status == 304 && revalidated.header("ETag") == tag && revalidated.body.isEmpty)
            bodies.append(page.body)
        }
        #expect(bodies[0] != bodies[1])
    }

    @Test("a 404.html without strings is one page for every language, with no Vary")
    func plainFile() throws {
        let router = try Self.makeRouter(files: ["404.html": "<p>lost</p>"])
        let german = router.respond(to: Request(path: "/x", acceptLanguage: "de"))
        #expect(german.bodyText == "<p>lost</p>" && german.header("Vary") == nil && german.header("Content-Language") == nil)
        #expect(router.respond(to: Request(path: "/x", acceptLanguage: "ar")).body == german.body)
    }

    @Test("404.html is the page's template, not a file of its own: asked for by name it is the 404")
    func notServedRaw() throws {
        let router = try Self.makeRouter(files: ["404.html": try Self.shipped, "index.html": "home"])
        let response = router.respond(to: Request(path: "/404.html"))
        #expect(response.status == 404 && !response.bodyText.contains("{{"))
        #expect(!router.snapshot.sites[0].staticPaths.contains("/404.html"))
    }

    @Test("a locale folder without the not-found strings keeps loading, the page in linkhost's own English")
    func olderLocaleFolder() throws {
        let english = try Self.strings("en").filter { !$0.key.hasPrefix("notFound") }
        let document = try JSONSerialization.data(withJSONObject: ["strings": english])
        let folder = try Fixtures.temporaryFolder(files: ["en.json": String(decoding: document, as: UTF8.self)])
        defer { removeItem(folder) }
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].callLinks.locales = folder
        config.sites[0].staticFiles.root = try Fixtures.temporaryFolder(files: ["404.html": try Self.shipped])
        defer { removeItem(config.sites[0].staticFiles.root) }
        let snapshot = try Snapshot(config: config)
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        let body = Router(snapshot: snapshot).respond(to: Request(path: "/x")).bodyText
        #expect(body.contains(Self.escaped(NotFoundPages.builtInStrings["notFoundHeading"]!)))
    }

    @Test("a 404.html that needs a call, or a string it cannot fill, is refused at load with its file",
          arguments: ["<p>{{callId}}</p>", "<a href=\"{{canonicalURL}}\">x</a>", "<p>{{t.callNote}}</p>", "<p>{{#qrCode}}x{{/qrCode}}</p>"])
    func refused(template: String) throws {
        var english = try Self.strings("en")
        english["callNote"] = "This was call {callId}."
        let document = try JSONSerialization.data(withJSONObject: ["strings": english])
        let folder = try Fixtures.temporaryFolder(files: ["en.json": String(decoding: document, as: UTF8.self)])
        defer { removeItem(folder) }
        #expect {
            _ = try Self.makeRouter(files: ["404.html": template], locales: folder)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.diagnostics.contains { $0.code == .lh114 && $0.message.contains("404.html") && $0.message.contains("not-found page") }
        }
    }
}
