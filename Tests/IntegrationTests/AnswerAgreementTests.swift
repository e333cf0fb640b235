import CallLinks
import Foundation
import LinkHostCore
import Testing

/// Every request is decided once (`Router.decide`), whoever asks; what still differs is how the answer is made
/// and sent: libmicrohttpd's request or a test's `InMemoryRequest` (each reads the request's fields its own way),
/// the server's native responses and its page renderer (written straight into the response's buffer, kept in the
/// page cache, reused shells) or the core's `Router.respond`. Those must agree, or an answer would depend on who
/// made it. The wire's framing of these answers is the socket suites' (AssociationFileTests, CallPageTests,
/// HostileRequestTests).
@Suite("The server's answers agree: over a socket, in process, and the core's")
struct AnswerAgreementTests {
    @Test("the same requests over a socket and in process: the same status, fields (but Date and Content-Length) and body")
    func socketAndInProcess() async throws {
        let fixture = try SitesTests.twoSites(baseURL: false)
        let wire = try await LinkHostProcess.start(fixture)
        let memory = try await InProcessServer.start(fixture)
        let aasa = "/.well-known/apple-app-site-association"
        let aasaTag = try #require(try await memory.request("GET", aasa, headers: [("Host", "localhost")]).header("ETag"))
        let pageTag = try #require(try await memory.request("GET", "/call/abc123?type=video", headers: [("Host", "localhost")]).header("ETag"))
        let requests: [(method: String, target: String, headers: [(String, String)])] = [
            ("GET", aasa, []), ("HEAD", aasa, []), ("GET", "/apple-app-site-association", []), ("GET", "/.well-known/assetlinks.json", []),
            ("GET", aasa, [("Host", "brand.example.org")]), ("GET", aasa, [("Host", "x.brand.example.net:8443")]),
            ("GET", "/.well-known/apple-app-site-%61ssociation", []), ("GET", "http://brand.example.org" + aasa, []),
            ("GET", aasa, [("If-None-Match", aasaTag)]), ("GET", aasa, [("If-None-Match", "\"other\"")]), ("POST", aasa, []),
            ("GET", "/healthz", []), ("GET", "/no/such/page", [("Accept-Language", "de")]), ("DELETE", "/no/such/page", []),
            ("GET", "/call/abc123?type=video", []), ("HEAD", "/call/abc123?type=video", []), ("GET", "/call/abc123?type=video&lang=de", []),
            ("GET", "/call/abc123?type=video", [("If-None-Match", pageTag)]), ("GET", "/call/abc123/qr.svg?type=video", []),
            ("GET", "/join?call_id=abc123&call_type=livestream", []), ("GET", "/join?call_id&call_id=abc123", []),
            ("GET", "/call/abc123", [("Host", "LOCALHOST:8080")]), ("GET", "/call/abc123", [("Host", "evil.example")]),
            ("GET", "http://localhost:9/call/abc123", [("Host", "evil.example")]), ("POST", "/call/abc123", []),
            ("GET", "/meet/xyz", [("Host", "brand.example.org")]),
            ("POST", "/.linkhost/beacon?e=view&p=ios", []), ("POST", "/.linkhost/beacon?e=view&p=mars", []),
            ("POST", "/.linkhost/beacon?e=view&p=ios", [("Sec-Fetch-Site", "cross-site")]), ("GET", "/.linkhost/beacon", []),
        ]
        for request in requests {
            // localhost: a name pages may be built from, unless the request names another.
            let headers = request.headers.contains { $0.0 == "Host" } ? request.headers : [("Host", "localhost")] + request.headers
            let overSocket = try await wire.request(request.method, request.target, headers: headers)
            let inProcess = try await memory.request(request.method, request.target, headers: headers)
            let where_ = "\(request.method) \(request.target) \(headers)"
            let fields = { (response: HTTPResponse) in response.headers.filter { !["date", "content-length"].contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" } }
            #expect(overSocket.status == inProcess.status, "\(where_): \(overSocket.status) over the socket, \(inProcess.status) in process")
            #expect(fields(overSocket) == fields(inProcess), "\(where_): \(fields(overSocket)) vs \(fields(inProcess))")
            #expect(overSocket.body == inProcess.body, "\(where_): the bodies differ")
        }
    }

    @Test("for every resource of every site: the same status, headers and body from the server's native responses as from Router.respond")
    func everyResource() async throws {
        let (server, router) = try await Self.twoSites()
        var compared = 0
        for site in router.snapshot.sites {
            let host = Self.host(of: site)
            let generated = (site.aasaBytes.isEmpty ? [] : Site.aasaPaths) + (site.assetLinksBytes.isEmpty ? [] : [Site.assetLinksPath])
            for path in generated + site.staticPaths + ["/healthz"] {
                for method in ["GET", "HEAD"] {
                    let expected = router.respond(to: Request(method: method, path: path, host: host))
                    let got = try await server.request(method, path, headers: [("Host", host)])
                    Self.expectSame(got, expected, method: method, "\(method) \(path) on \(host)")
                    compared += 1
                }
            }
        }
        // Both sites' association files, static trees and the health path: not an empty loop.
        #expect(compared >= 2 * 2 * 8, "compared \(compared)")
    }

    @Test("for call pages and QR codes of every shape, rendered, reused and cached by the server and rendered by the core: the same answers", arguments: [true, false])
    func callPages(baseURL: Bool) async throws {
        let (server, router) = try await Self.twoSites(baseURL: baseURL)
        var compared = 0
        for site in router.snapshot.sites {
            let host = Self.host(of: site)
            for (index, template) in site.config.callLinks.links.templates.enumerated() {
                let link = template.fill(callID: "id\(index)x", callType: "video")
                let question = link.firstIndex(of: "?") ?? link.endIndex
                let image = String(link[..<question]) + "/qr.svg" + String(link[question...])
                let targets: [String] = [link, image, link.replacing("video", with: "")]
                for target in targets {
                    let path = String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
                    let query = target.firstIndex(of: "?").map { QueryItems.firstValues(target[target.index(after: $0)...]) } ?? [:]
                    // Three times each: the first and second render (a page is kept from its second request), then the cache's copy.
                    for (method, language, attempt) in [("GET", nil, 1), ("GET", nil, 2), ("GET", nil, 3), ("HEAD", nil, 1), ("GET", "de", 1)] as [(String, String?, Int)] {
                        var headers = [("Host", host)]
                        if let language { headers.append(("Accept-Language", language)) }
                        let expected = router.respond(to: Request(method: method, path: path, query: query, host: host, acceptLanguage: language))
                        let got = try await server.request(method, target, headers: headers)
                        let where_ = "\(method) \(target) on \(host) (\(language ?? "no Accept-Language"), request \(attempt))"
                        Self.expectSame(got, expected, method: method, where_)
                        if expected.status == 200, let etag = expected.header("ETag") {
                            let again = try await server.request("GET", target, headers: headers + [("If-None-Match", etag)])
                            #expect(again.status == 304 && again.header("ETag") == etag, "\(where_), revalidated")
                        }
                        compared += 1
                    }
                }
            }
        }
        // Five shapes and the brand site's one, each as page, image and page without its type: not an empty loop.
        #expect(compared >= 6 * 3 * 5, "compared \(compared)")
    }

    /// SitesTests' two sites served in process, and a router over the same config loaded apart.
    static func twoSites(baseURL: Bool = true) async throws -> (InProcessServer, Router) {
        let fixture = try SitesTests.twoSites(baseURL: baseURL)
        let server = try await InProcessServer.start(fixture)
        // The same config hash as the server's, which its health probe names.
        let hash = try await ConfigIdentityTests.sha256(ofFile: fixture.configPath)
        return (server, Router(snapshot: try Snapshot(config: try ConfigLoader.load(path: fixture.configPath), configSHA256: hash)))
    }

    /// A host that names the site exactly.
    static func host(of site: Site) -> String { site.config.hosts.first { !$0.hasPrefix("*.") } ?? "links.example.com" }

    /// The same status, header fields (but the server's Date and Content-Length), Content-Length and body.
    static func expectSame(_ got: HTTPResponse, _ expected: Response, method: String, _ where_: String) {
        #expect(got.status == expected.status, "\(where_)")
        let sent = got.headers.filter { !["date", "content-length"].contains($0.name.lowercased()) }
        #expect(sent.map(\.name) == expected.headers.map(\.name) && sent.map(\.value) == expected.headers.map(\.value), "\(where_): \(sent) vs \(expected.headers)")
        #expect(got.header("Content-Length") == String(expected.body.count), "\(where_)")
        #expect(got.body == (method == "HEAD" ? [] : expected.body), "\(where_)")
    }
}
