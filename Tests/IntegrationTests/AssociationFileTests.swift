import Foundation
import Testing

/// The generated association files: the AASA at both paths, HEAD, conditional requests and a request body over
/// real sockets; what only the request's decision settles (assetlinks' bytes, a query ignored, a platform without
/// apps, methods other than GET and HEAD) in process (`InProcessServer`).
@Suite("Association files", .timeLimit(.minutes(1)))
struct AssociationFileTests {
    static let aasaPaths = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]

    /// Checks the fields every generated JSON document must carry.
    private func expectJSONDocumentHeaders(_ response: HTTPResponse, path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 200, "\(path): \(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", "\(path): \(response)", sourceLocation: sourceLocation)
        #expect(response.header("Location") == nil, "\(path) must never redirect: \(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Length") == String(response.body.count), "\(path): Content-Length must match the body", sourceLocation: sourceLocation)
        #expect(isStrongETag(response.header("ETag")), "\(path): ETag must be present and strong: \(response)", sourceLocation: sourceLocation)
        #expect((maxAge(response.header("Cache-Control")) ?? -1) > 0, "\(path): Cache-Control needs a max-age: \(response)", sourceLocation: sourceLocation)
        #expect(response.header("X-Content-Type-Options")?.lowercased() == "nosniff", "\(path): \(response)", sourceLocation: sourceLocation)
        #expect(response.header("Server")?.isEmpty == false, "\(path): Server header missing: \(response)", sourceLocation: sourceLocation)
    }

    @Test("AASA is served at both paths as identical JSON bytes equal to `linkhost print aasa`, with the full header set")
    func aasaAtBothPaths() async throws {
        let config = TestConfig()
        let server = try await LinkHostProcess.start(SiteFixture(config))
        var bodies: [[UInt8]] = []
        var etags: [String?] = []
        for path in Self.aasaPaths {
            let response = try await server.request("GET", path)
            expectJSONDocumentHeaders(response, path: path)
            bodies.append(response.body)
            etags.append(response.header("ETag"))
        }
        #expect(bodies[0] == bodies[1], "both AASA paths must serve the very same bytes")
        #expect(etags[0] == etags[1], "both AASA paths must carry the same ETag")

        let printed = try await LinkHostCLI.run(["print", "aasa", "--config", server.site.configPath], directory: server.site.directory)
        #expect(printed.exitCode == 0, "\(printed)")
        #expect(Array(printed.stdout.utf8) == bodies[0], "the served AASA must equal `linkhost print aasa` byte for byte")
        #expect(aasaAppIDs(parseJSON(bodies[0])).contains(config.appID), "AASA must list \(config.appID): \(String(decoding: bodies[0], as: UTF8.self))")
    }

    @Test("A query string does not change the AASA path (still 200, same bytes)")
    func aasaIgnoresQuery() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        let plain = try await server.request("GET", Self.aasaPaths[0])
        let withQuery = try await server.request("GET", Self.aasaPaths[0] + "?cache-buster=1")
        #expect(withQuery.status == 200, "\(withQuery)")
        #expect(withQuery.body == plain.body)
    }

    @Test("assetlinks.json is served as JSON equal to `linkhost print assetlinks`, listing the package and fingerprint")
    func assetLinks() async throws {
        let config = TestConfig()
        let server = try await InProcessServer.start(SiteFixture(config))
        let response = try await server.request("GET", "/.well-known/assetlinks.json")
        expectJSONDocumentHeaders(response, path: "/.well-known/assetlinks.json")

        let printed = try await LinkHostCLI.run(["print", "assetlinks", "--config", server.site.configPath], directory: server.site.directory)
        #expect(printed.exitCode == 0, "\(printed)")
        #expect(Array(printed.stdout.utf8) == response.body, "served assetlinks must equal `linkhost print assetlinks` byte for byte")

        let statements = parseJSON(response.body) as? [[String: Any]] ?? []
        let target = statements.first?["target"] as? [String: Any]
        #expect(target?["namespace"] as? String == "android_app")
        #expect(target?["package_name"] as? String == config.packageName, "\(response.text)")
        #expect((target?["sha256_cert_fingerprints"] as? [String])?.contains(config.fingerprint) == true, "\(response.text)")
        #expect((statements.first?["relation"] as? [String]) == ["delegate_permission/common.handle_all_urls"], "\(response.text)")
    }

    @Test("assetlinks.json is 404 when the config has no Android app")
    func assetLinksWithoutAndroid() async throws {
        var config = TestConfig()
        config.includesAndroid = false
        let server = try await InProcessServer.start(SiteFixture(config))
        let response = try await server.request("GET", "/.well-known/assetlinks.json")
        #expect(response.status == 404, "\(response)")
        #expect(response.header("Location") == nil)
        #expect(try await server.request("GET", Self.aasaPaths[0]).status == 200, "the AASA is still served")
    }

    @Test("Both AASA paths are 404 when the config has no iOS app, while assetlinks.json is served")
    func aasaWithoutApple() async throws {
        var config = TestConfig()
        config.includesApple = false
        let server = try await InProcessServer.start(SiteFixture(config))
        for path in Self.aasaPaths {
            let response = try await server.request("GET", path)
            #expect(response.status == 404, "\(path): \(response)")
        }
        #expect(try await server.request("GET", "/.well-known/assetlinks.json").status == 200)
    }

    @Test("HEAD answers with GET's headers (Content-Length included) and no body; a GET on the same connection still parses")
    func headHasHeadersButNoBody() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        for path in Self.aasaPaths + ["/.well-known/assetlinks.json", "/no/such/file"] {
            let get = try await server.request("GET", path)
            let connection = try await server.connect()
            let head = try await connection.request("HEAD", path)
            // If HEAD had sent a body, these bytes would sit in front of the next status line.
            let after = try await connection.request("GET", path)
            #expect(head.status == get.status, "\(path): HEAD \(head)")
            for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control", "X-Content-Type-Options", "Server"] {
                #expect(head.header(name) == get.header(name), "\(path): HEAD and GET differ in \(name): HEAD \(head)\nGET \(get)")
            }
            #expect(head.header("Content-Length") == String(get.body.count), "\(path): HEAD must announce the GET body's length")
            #expect(after.status == get.status && after.body == get.body, "\(path): the GET after HEAD on one connection: \(after)")
        }
    }

    @Test("If-None-Match with the current ETag, `*`, its weak form or a list naming it → 304 with ETag and no body; another tag → 200")
    func conditionalRequests() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        for path in Self.aasaPaths + ["/.well-known/assetlinks.json"] {
            let full = try await server.request("GET", path)
            let etag = try #require(full.header("ETag"), "\(path): \(full)")
            let connection = try await server.connect()
            for matching in [etag, "*", "W/\(etag)", "\"other\", \(etag)"] {
                // Each 304 is followed by a GET on the same connection: a stray body would break its parse.
                let response = try await connection.request("GET", path, headers: [("If-None-Match", matching)])
                #expect(response.status == 304, "\(path) If-None-Match: \(matching) → \(response)")
                #expect(response.header("ETag") == etag, "\(path): a 304 must repeat the ETag: \(response)")
                #expect(response.body.isEmpty)
                let next = try await connection.request("GET", path)
                #expect(next.status == 200 && next.body == full.body, "\(path): the request after a 304: \(next)")
            }
            let other = try await connection.request("GET", path, headers: [("If-None-Match", "\"0000000000000000-0\"")])
            #expect(other.status == 200, "\(path) with a different tag must get the full document: \(other)")
            #expect(other.body == full.body)
            let head = try await connection.request("HEAD", path, headers: [("If-None-Match", etag)])
            #expect(head.status == 304, "\(path): HEAD with a matching tag: \(head)")
        }
    }

    /// RFC 9110 §8.6: a 304 MUST NOT carry a Content-Length other than the 200's; "0" tells caches that
    /// follow RFC 7234 (which did not exempt it) the stored document is now empty.
    @Test("A 304 does not claim Content-Length: 0 for a non-empty document (RFC 9110 §8.6)")
    func notModifiedContentLength() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        for path in [Self.aasaPaths[0], "/style.css"] {
            let full = try await server.request("GET", path)
            let etag = try #require(full.header("ETag"))
            let notModified = try await server.request("GET", path, headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304)
            let length = notModified.header("Content-Length")
            #expect(length == nil || length == String(full.body.count),
                    "\(path): the 304 says Content-Length: \(length ?? "-") but the document has \(full.body.count) bytes")
        }
    }

    /// In process: which methods a path answers is the request's decision; a body on the wire is
    /// `postWithBodyKeepsConnectionSane`'s.
    @Test("POST, PUT, DELETE and OPTIONS on AASA paths → 405 with Allow: GET, HEAD")
    func otherMethodsAreRefused() async throws {
        let server = try await InProcessServer.start(SiteFixture())
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            for path in Self.aasaPaths + ["/.well-known/assetlinks.json"] {
                let response = try await server.request(method, path)
                #expect(response.status == 405, "\(method) \(path): \(response)")
                #expect(response.header("Allow") == "GET, HEAD", "\(method) \(path): \(response)")
                #expect(!response.text.contains("applinks") && !response.text.contains("package_name"), "\(method) \(path): \(response)")
            }
        }
    }

    @Test("A POST with a small body gets 405 and leaves the connection usable; a body past 1024 bytes gets 413 and a clean close")
    func postWithBodyKeepsConnectionSane() async throws {
        let server = try await LinkHostProcess.start(SiteFixture())
        let connection = try await server.connect()
        let small = try await connection.request("POST", Self.aasaPaths[0], headers: [("Content-Type", "application/json")], body: Array(String(repeating: "x", count: 1024).utf8))
        #expect(small.status == 405, "\(small)")
        #expect(small.header("Allow") == "GET, HEAD")
        let next = try await connection.request("GET", Self.aasaPaths[0])
        #expect(next.status == 200, "the request after the POST: \(next)")

        let large = try await server.connect()
        try await large.send(RawHTTPClient.requestBytes("POST", Self.aasaPaths[0], headers: [("Content-Type", "application/json")], body: Array(String(repeating: "x", count: 10_000).utf8)))
        let refused = try await large.readResponse()
        #expect(refused.status == 413, "\(refused)")
        // Closed after the 413, cleanly: not a byte of the body is read as a request or echoed back.
        let rest = try #require(await large.readUntilClosed(wait: .seconds(3)), "the connection stays open after the 413")
        #expect(rest.isEmpty, "\(String(decoding: rest, as: UTF8.self))")
    }
}
