import Foundation
import LinkHostCore
import LinkHostServer
import Testing

/// The server's answer path driven in process with `InMemoryRequest`s (`InProcessServer`): the routes each
/// request reaches, as the server answers them.
@Suite("Answers in process")
struct InProcessAnswerTests {
    /// SitesTests' two sites, served in process.
    static func twoSites() async throws -> InProcessServer {
        try await InProcessServer.start(try SitesTests.twoSites())
    }

    @Test("the association files: AASA at both paths and assetlinks.json, JSON naming the site's apps, HEAD without a body")
    func associationFiles() async throws {
        let server = try await Self.twoSites()
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            let aasa = try await server.request("GET", path)
            #expect(aasa.status == 200 && aasa.header("Content-Type") == "application/json", "\(aasa)")
            #expect(aasaAppIDs(parseJSON(aasa.body)) == [TestConfig().appID], "\(path): \(aasa)")
            let head = try await server.request("HEAD", path)
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(aasa.body.count), "\(head)")
            #expect(head.header("ETag") == aasa.header("ETag"))
        }
        let links = try await server.request("GET", "/.well-known/assetlinks.json")
        #expect(links.status == 200 && links.header("Content-Type") == "application/json", "\(links)")
        #expect(links.text.contains("\"delegate_permission/common.handle_all_urls\"") && links.text.contains("\"package_name\""), "\(links.text)")
        // The brand site has no Android app: no assetlinks.json of the default site's on its host.
        let brandLinks = try await server.request("GET", "/.well-known/assetlinks.json", headers: [("Host", "brand.example.org")])
        #expect(!brandLinks.text.contains(TestConfig().appID) && !brandLinks.text.contains("\"package_name\""), "\(brandLinks)")
    }

    @Test("a file's ETag revalidates to a bodiless 304 with the same tag; another tag gets the 200")
    func fileRevalidation() async throws {
        let server = try await Self.twoSites()
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association")
        let etag = try #require(aasa.header("ETag"), "\(aasa)")
        let same = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("If-None-Match", etag)])
        #expect(same.status == 304 && same.header("ETag") == etag && same.body.isEmpty, "\(same)")
        let listed = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("If-None-Match", "\"other\", " + etag)])
        #expect(listed.status == 304, "a list naming the tag: \(listed)")
        let other = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("If-None-Match", "\"other\"")])
        #expect(other.status == 200 && other.body == aasa.body, "\(other)")
    }

    @Test("call pages and their QR codes: rendered, reused, cached and revalidated, each with its own ID and tag")
    func pagesAndQRCodes() async throws {
        let server = try await Self.twoSites()
        var tags: Set<String> = []
        // Same-length IDs: the second page is written into the first one's reused response (PageShells).
        for id in ["aaa111", "bbb222", "aaa111", "aaa111"] {
            let page = try await server.request("GET", "/call/\(id)?type=video")
            #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true, "\(page)")
            #expect(page.text.contains("<code dir=\"ltr\">\(id)</code>") && !page.text.contains(id == "aaa111" ? "bbb222" : "aaa111"), "\(id): \(page.text)")
            let etag = try #require(page.header("ETag"), "\(page)")
            tags.insert(etag)
            let again = try await server.request("GET", "/call/\(id)?type=video", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.header("ETag") == etag && again.body.isEmpty, "\(id) revalidated: \(again)")
            let head = try await server.request("HEAD", "/call/\(id)?type=video")
            #expect(head.status == 200 && head.header("ETag") == etag && head.body.isEmpty, "\(head)")
        }
        #expect(tags.count == 2, "one tag per call: \(tags)")
        let image = try await server.request("GET", "/call/aaa111/qr.svg?type=video")
        #expect(image.status == 200 && image.header("Content-Type")?.hasPrefix("image/svg+xml") == true && image.text.contains("<svg"), "\(image)")
        let imageTag = try #require(image.header("ETag"))
        let imageAgain = try await server.request("GET", "/call/aaa111/qr.svg?type=video", headers: [("If-None-Match", imageTag)])
        #expect(imageAgain.status == 304, "\(imageAgain)")
        for _ in 0..<2 {
            let cached = try await server.request("GET", "/call/aaa111/qr.svg?type=video")
            #expect(cached.body == image.body && cached.header("ETag") == imageTag, "the cache's copy")
        }
    }

    @Test("what no route takes: 404 Not Found, another method 405 or 404, never the request's text")
    func notFoundAndOtherMethods() async throws {
        let server = try await Self.twoSites()
        let missing = try await server.request("GET", "/no/such/<b>page</b>")
        #expect(missing.status == 404 && missing.text == "Not Found\n", "\(missing)")
        let post = try await server.request("POST", "/.well-known/apple-app-site-association")
        #expect([404, 405].contains(post.status) && !post.text.contains("applinks"), "\(post)")
        let escaped = try await server.request("GET", "/.well-known/apple-app-site-%61ssociation")
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association")
        #expect(escaped.status == 200 && escaped.body == aasa.body, "an escaped path reaches the same file: \(escaped)")
    }

    @Test("strict hosts in process: a host no site lists gets 404 no-store, with or without a validator; a listed one its site")
    func strictHostsRefusal() async throws {
        let server = try await InProcessServer.start(try TenantSitesTests.tenants(strictHosts: true))
        for headers in [[("Host", "stranger.example")], [("Host", "stranger.example"), ("If-None-Match", "\"x\"")]] {
            let refused = try await server.request("GET", "/.well-known/apple-app-site-association", headers: headers)
            #expect(refused.status == 404 && refused.header("Cache-Control") == "no-store" && !refused.text.contains("ABCDE12345"), "\(headers): \(refused)")
        }
        let brand = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "meet.brand.example")])
        #expect(aasaAppIDs(parseJSON(brand.body)) == ["\(TenantSitesTests.brandTeam).org.brand.video"], "\(brand)")
    }

    @Test("InMemoryRequest reads the query as libmicrohttpd does: the first item of a name, + as a space, a bare name as no value")
    func queryReading() async throws {
        let server = try await Self.twoSites()
        let first = try await server.request("GET", "/join?call_id=abc123&call_id=zzz999&call_type=video")
        #expect(first.status == 200 && first.text.contains("<code dir=\"ltr\">abc123</code>") && !first.text.contains("zzz999"), "\(first)")
        let bare = try await server.request("GET", "/join?call_id&call_id=abc123")
        #expect(bare.status == 404, "the first call_id has no value: \(bare)")
    }

    @Test("the HTTPS listener's transport fields are added to prepared and rendered answers alike, and only there")
    func transportFields() async throws {
        _ = try requireTool("openssl")
        let site = try SiteFixture()
        try site.writeConfig(try await site.servingHTTPS())
        let plain = try await InProcessServer.start(site)
        let https = try await InProcessServer.start(site, https: true)
        for path in ["/.well-known/apple-app-site-association", "/call/abc?type=video", "/call/abc/qr.svg?type=video", "/nothing"] {
            #expect(try await plain.request("GET", path).header("Strict-Transport-Security") == nil, "\(path)")
            #expect(try await https.request("GET", path).header("Strict-Transport-Security") == "max-age=31536000", "\(path)")
        }
    }

    @Test("the plain-HTTP listener beside HTTPS: challenge answers, redirects of listed hosts with their query, association files as they are")
    func plainHTTPListener() async throws {
        let challenges = ChallengeResponses()
        challenges.set("token1", "token1.thumbprint")
        let server = try await InProcessServer.start(try SitesTests.twoSites(), plainHTTP: PlainHTTPListener(challenges: challenges))
        let answer = try await server.request("GET", ChallengeResponses.pathPrefix + "token1", headers: [("Host", "evil.example")])
        #expect(answer.status == 200 && answer.text == "token1.thumbprint", "\(answer)")
        #expect(try await server.request("GET", ChallengeResponses.pathPrefix + "other").status == 404)
        let listed = try await server.request("GET", "/call/abc?type=video&note=a+b&flag", headers: [("Host", "Brand.Example.ORG:8080")])
        #expect(listed.status == 308 && listed.header("Location") == "https://brand.example.org/call/abc?type=video&note=a+b&flag", "\(listed)")
        let foreign = try await server.request("GET", "/call/abc?type=video", headers: [("Host", "evil.example")])
        #expect(foreign.status == 404 && foreign.header("Location") == nil, "\(foreign)")
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "evil.example")])
        #expect(aasa.status == 200 && aasa.header("Location") == nil && !aasaAppIDs(parseJSON(aasa.body)).isEmpty, "\(aasa)")
    }
}
