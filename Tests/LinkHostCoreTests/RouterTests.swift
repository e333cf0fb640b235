import Testing
@testable import LinkHostCore
import LinkHostTestSupport

@Suite("Router")
struct RouterTests {
    /// A router over the valid fixture with a small public/ folder; the folder is removed by `cleanUp`.
    private static func makeRouter(files: [String: String] = ["index.html": "<h1>home</h1>", "css/site.css": "body{}", "my file.txt": "spaced", ".secret": "no", ".well-known/security.txt": "Contact: x"],
                                   configure: (inout Config) -> Void = { _ in }) throws -> Router {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = try Fixtures.temporaryFolder(files: files)
        configure(&config)
        defer { removeItem(config.sites[0].staticFiles.root) }
        return Router(snapshot: try Snapshot(config: config))
    }

    @Test("both AASA paths answer 200 JSON with the same bytes and ETag", arguments: Site.aasaPaths)
    func aasa(path: String) throws {
        let router = try Self.makeRouter()
        let response = router.respond(to: Request(path: path))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "public, max-age=3600")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Server") == "linkhost")
        #expect(response.header("Location") == nil)
        #expect(response.body == router.snapshot.sites[0].aasaBytes)
        #expect(response.header("ETag") == EntityTag.strong(for: router.snapshot.sites[0].aasaBytes))
        #expect(response.preparedID != nil)
    }

    @Test("HEAD gets the GET response; the server drops the body")
    func head() throws {
        let router = try Self.makeRouter()
        #expect(router.respond(to: Request(method: "HEAD", path: Site.aasaPaths[0])) == router.respond(to: Request(path: Site.aasaPaths[0])))
    }

    @Test("If-None-Match with the current tag gives 304 with validators and no body", arguments: ["TAG", "W/TAG", "\"x\", TAG", "*"])
    func notModified(field: String) throws {
        let router = try Self.makeRouter()
        let tag = EntityTag.strong(for: router.snapshot.sites[0].aasaBytes)
        let response = router.respond(to: Request(path: Site.aasaPaths[1], ifNoneMatch: field.replacingOccurrences(of: "TAG", with: tag)))
        #expect(response.status == 304)
        #expect(response.header("ETag") == tag)
        #expect(response.header("Cache-Control") != nil)
        #expect(response.body.isEmpty)
    }

    @Test("a stale ETag gets the full 200")
    func staleTag() throws {
        let router = try Self.makeRouter()
        #expect(router.respond(to: Request(path: Site.aasaPaths[0], ifNoneMatch: "\"0000000000000000-1\"")).status == 200)
    }

    @Test("other methods on served paths get 405 with Allow", arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get", "BREW"])
    func methodNotAllowed(method: String) throws {
        let router = try Self.makeRouter()
        for path in Site.aasaPaths + [Site.assetLinksPath, "/css/site.css"] {
            let response = router.respond(to: Request(method: method, path: path))
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test("assetlinks is served as JSON, and is 404 without Android apps")
    func assetLinks() throws {
        let router = try Self.makeRouter()
        let response = router.respond(to: Request(path: Site.assetLinksPath))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.bodyText.contains("com.example.video"))
        let without = try Self.makeRouter { $0.sites[0].android = [] }
        #expect(without.respond(to: Request(path: Site.assetLinksPath)).status == 404)
    }

    @Test("unknown paths and near misses get 404, never a redirect", arguments: [
        "/nope", "/.well-known/apple-app-site-association/", "/apple-app-site-association.json", "//apple-app-site-association",
        "/.well-known/Apple-App-Site-Association", "/.secret", "/css/../index.html", "/css/%2e%2e/index.html", "/css%2Fsite.css",
        "/index.html%00", "/..%5Cindex.html", "/%",
    ])
    func notFound(path: String) throws {
        let router = try Self.makeRouter()
        let response = router.respond(to: Request(path: path))
        #expect(response.status == 404)
        #expect(response.header("Location") == nil)
        #expect(!response.bodyText.contains("home"))
    }

    @Test("static files: type, caching, index and percent-encoded names")
    func staticFiles() throws {
        let router = try Self.makeRouter()
        let css = router.respond(to: Request(path: "/css/site.css"))
        #expect(css.status == 200)
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control") == "public, max-age=300")
        #expect(router.respond(to: Request(path: "/css/site.css", ifNoneMatch: css.header("ETag"))).status == 304)
        #expect(router.respond(to: Request(path: "/")).bodyText == "<h1>home</h1>")
        #expect(router.respond(to: Request(path: "/my%20file.txt")).bodyText == "spaced")
        #expect(router.respond(to: Request(path: "/.well-known/security.txt")).status == 200)
    }

    @Test("absolute-form targets are served like origin form, their authority as Host", arguments: [
        "http://links.example.com/.well-known/apple-app-site-association", "HTTPS://links.example.com/.well-known/apple-app-site-association",
    ])
    func absoluteForm(target: String) throws {
        let router = try Self.makeRouter()
        #expect(router.respond(to: Request(path: target)).body == router.snapshot.sites[0].aasaBytes)
        #expect(router.respond(to: Request(path: "http://h.example")).bodyText == "<h1>home</h1>", "no path: /")
        let split = try #require(Router.absoluteForm(Array("hTTp://h.example:8080/x".utf8)[...]))
        #expect(String(decoding: split.authority, as: UTF8.self) == "h.example:8080" && String(decoding: split.path, as: UTF8.self) == "/x")
        for other in ["/x", "*", "@evil.example/x", "http:/x", "httpx://h/x"] { #expect(Router.absoluteForm(Array(other.utf8)[...]) == nil, "\(other)") }
        #expect(router.respond(to: Request(path: "http://h.example/../index.html")).status == 404)
    }

    @Test("a 404.html in public/ becomes the not-found page")
    func customNotFound() throws {
        let router = try Self.makeRouter(files: ["404.html": "<p>lost</p>"])
        let response = router.respond(to: Request(path: "/missing"))
        #expect(response.status == 404)
        #expect(response.bodyText == "<p>lost</p>")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
    }

    @Test("a static file at a generated path is ignored, with a warning")
    func generatedWins() throws {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = try Fixtures.temporaryFolder(files: ["apple-app-site-association": "{}"])
        defer { removeItem(config.sites[0].staticFiles.root) }
        let snapshot = try Snapshot(config: config)
        #expect(Router(snapshot: snapshot).respond(to: Request(path: "/apple-app-site-association")).body == snapshot.sites[0].aasaBytes)
        #expect(snapshot.warnings.contains { $0.code == .lh305 && $0.message.contains("/apple-app-site-association") })
    }

    @Test("a missing public folder is a config error naming static.root")
    func missingRoot() throws {
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].staticFiles.root = "/nonexistent/linkhost-public"
        do {
            _ = try Snapshot(config: config)
            Issue.record("a site was built without its public folder")
        } catch {
            #expect(error.diagnostics.first?.path == "static.root")
        }
    }
    @Test("the beacon path: POST with known words is a beacon to count; unknown words 400; other methods 405 with Allow: POST; nothing cacheable")
    func beacons() throws {
        let router = try Self.makeRouter()
        let decision = router.decide(Request(method: "POST", path: Beacon.path, query: ["e": "store", "p": "in_app"]))
        guard case .beacon(let beacon) = decision.answer else { Issue.record("not a beacon: \(decision.answer)"); return }
        #expect(beacon == Beacon(event: .store, platform: .inApp))
        #expect(router.respond(to: Request(method: "POST", path: Beacon.path, query: ["e": "view", "p": "ios"])).status == 204)
        for query in [["e": "view"], ["e": "buy", "p": "ios"], ["e": "view", "p": "IOS"], ["e": "view", "p": "call/abc123"], [:]] {
            let refused = router.respond(to: Request(method: "POST", path: Beacon.path, query: query))
            #expect(refused.status == 400 && refused.route == .beacon, "\(query)")
        }
        for method in ["GET", "HEAD", "PUT", "DELETE"] {
            let response = router.respond(to: Request(method: method, path: Beacon.path))
            #expect(response.status == 405 && response.header("Allow") == "POST", "\(method)")
        }
        for response in [router.respond(to: Request(method: "POST", path: Beacon.path, query: ["e": "view", "p": "ios"])), router.snapshot.beaconAnswers.limited] {
            #expect(response.header("Cache-Control") == "no-store")
        }
        // Only that exact path: a file of the same name with another case, or below it, is just not found.
        #expect(router.respond(to: Request(method: "POST", path: "/.linkhost/Beacon")).status == 404)
        #expect(router.respond(to: Request(path: "/.linkhost/beacon/x")).status == 404)
    }
}

@Suite("HTTP helpers")
struct HTTPHelperTests {
    @Test("strong ETags are quoted, stable and differ for different bytes")
    func entityTags() {
        let tag = EntityTag.strong(for: Array("abc".utf8))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(tag == EntityTag.strong(for: Array("abc".utf8)))
        #expect(tag != EntityTag.strong(for: Array("abd".utf8)))
        #expect(!EntityTag.ifNoneMatch("\"other\"", matches: tag))
        #expect(EntityTag.ifNoneMatch(" \"other\" ,\t\(tag) ", matches: tag))
    }

    @Test("strict path decoding", arguments: [
        ("/a%20b", "/a b"), ("/caf%C3%A9", "/café"), ("/a%2Fb", nil), ("/a%00", nil), ("/a%5Cb", nil), ("/a\\b", nil),
        ("/%zz", nil), ("/%4", nil), ("/%C3", nil), ("/%2e%2e/x", "/../x"),
    ] as [(String, String?)])
    func decoding(raw: String, decoded: String?) {
        #expect(PathDecoding.decode(raw) == decoded)
    }

    @Test("media types by extension", arguments: [("a.html", "text/html; charset=utf-8"), ("a.PNG", "image/png"), ("a.svg", "image/svg+xml"), ("noext", "application/octet-stream"), (".bashrc", "application/octet-stream")])
    func mediaTypes(name: String, type: String) {
        #expect(MediaType.forFile(named: name) == type)
    }
}
