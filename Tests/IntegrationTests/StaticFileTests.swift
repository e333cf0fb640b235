import Foundation
import Testing

/// Static files from `public/`, unknown paths, and attempts to read anything outside the static root: files,
/// index files, trailing slashes and an escaped name in process (`InProcessServer`); traversal over real sockets.
@Suite("Static files and unknown paths", .timeLimit(.minutes(1)))
struct StaticFileTests {
    @Test("A static file is served with its content type, ETag and caching, and revalidates to 304")
    func staticFile() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let response = try await server.request("GET", "/style.css")
        #expect(response.status == 200, "\(response)")
        #expect(response.text == SiteFixture.publicFiles["style.css"])
        #expect(response.header("Content-Type") == "text/css; charset=utf-8")
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(response.header("X-Content-Type-Options")?.lowercased() == "nosniff")
        #expect(maxAge(response.header("Cache-Control")) != nil, "\(response)")
        let etag = try #require(response.header("ETag"))
        #expect(isStrongETag(etag))

        let revalidated = try await server.request("GET", "/style.css", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304, "\(revalidated)")
        #expect(revalidated.header("ETag") == etag)
        #expect(revalidated.body.isEmpty)
    }

    @Test("`/` serves index.html and `/sub/` serves sub/index.html as HTML")
    func indexFiles() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let root = try await server.request("GET", "/")
        #expect(root.status == 200, "\(root)")
        #expect(root.text == SiteFixture.publicFiles["index.html"])
        #expect(root.header("Content-Type") == "text/html; charset=utf-8")
        #expect(try await server.request("GET", "/index.html").body == root.body)

        let sub = try await server.request("GET", "/sub/")
        #expect(sub.status == 200, "\(sub)")
        #expect(sub.text == SiteFixture.publicFiles["sub/index.html"])
        let withoutSlash = try await server.request("GET", "/sub")
        #expect(withoutSlash.status == 404 && withoutSlash.header("Location") == nil, "/sub must not redirect: \(withoutSlash)")
    }

    @Test("A percent-encoded file name (`/a%20b.txt`) reaches the file `a b.txt`")
    func percentEncodedName() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let response = try await server.request("GET", "/a%20b.txt")
        #expect(response.status == 200, "\(response)")
        #expect(response.text == SiteFixture.publicFiles["a b.txt"])
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test("An unknown path → 404 with a small body and no redirect; HEAD of it has no body")
    func unknownPath() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let connection = try await server.connect()
        for path in ["/no-such-page", "/call", "/.well-known/", "/.well-known/apple-app-site-association.json"] {
            let response = try await connection.request("GET", path)
            #expect(response.status == 404, "\(path): \(response)")
            #expect(response.header("Location") == nil)
            #expect(!response.body.isEmpty && response.body.count < 1024, "\(path): the 404 body should be small: \(response)")
            #expect(response.header("Content-Length") == String(response.body.count))
        }
        let head = try await connection.request("HEAD", "/no-such-page")
        #expect(head.status == 404)
        #expect(try await connection.request("GET", "/style.css").status == 200, "the connection must still be in sync after HEAD 404")
    }

    @Test("The AASA path with a trailing slash → 404, never a redirect", arguments: [
        "/.well-known/apple-app-site-association/", "/apple-app-site-association/", "/.well-known/assetlinks.json/",
    ])
    func trailingSlash(path: String) async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let response = try await server.request("GET", path)
        #expect(response.status == 404, "\(response)")
        #expect(response.header("Location") == nil, "\(response)")
    }

    /// Paths that try to reach the config beside `public/`, the secret file, or the hidden dotfile.
    static let traversalPaths = [
        "/../linkhost.json",
        "/../secret.txt",
        "/%2e%2e/linkhost.json",
        "/%2E%2E/secret.txt",
        "/..%2fsecret.txt",
        "/%2F..%2Fsecret.txt",
        "/%2fsecret.txt",
        "/sub/../../secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/..%5csecret.txt",
        "/.%2e/secret.txt",
        "//secret.txt",
        "/public/../secret.txt",
        "/.hidden",
        "/%2ehidden",
        "/sub/../.hidden",
        "/escape.txt",
        "/style.css%00.txt",
        "/linkhost.json",
    ]

    @Test("Traversal and hidden-file attempts → 404 and never any file content")
    func traversal() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let config = TestConfig()
        for path in Self.traversalPaths {
            // A fresh connection each: a server that rejects a request line may close the connection.
            let response = try await server.request("GET", path)
            #expect(response.status == 404, "GET \(path): \(response)")
            for secret in [SiteFixture.outsideSecret, SiteFixture.hiddenSecret, config.teamID] {
                #expect(!response.text.contains(secret), "GET \(path) leaked file content: \(response)")
            }
        }
    }
}
