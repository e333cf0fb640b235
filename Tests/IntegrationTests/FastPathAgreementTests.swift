import Foundation
import LinkHostCore
import Testing

/// The server answers unconditional GETs of files computed at load from its byte-keyed fast path; everything
/// else goes through `Router`. Both must give the same answers, or a file would depend on how it was asked for.
@Suite("Fast path and Router agree")
struct FastPathAgreementTests {
    @Test("for every resource of every site: the same status, headers and body over the socket as from Router.respond")
    func everyResource() async throws {
        let fixture = try SitesTests.twoSites()
        let server = try await LinkHostProcess.start(fixture)
        let snapshot = try Snapshot(config: try ConfigLoader.load(path: fixture.configPath))
        let router = Router(snapshot: snapshot)
        var compared = 0
        for site in snapshot.sites {
            let host = site.config.hosts.first { !$0.hasPrefix("*.") } ?? "links.example.com"
            let generated = (site.aasaBytes.isEmpty ? [] : Site.aasaPaths) + (site.assetLinksBytes.isEmpty ? [] : [Site.assetLinksPath])
            for path in generated + site.staticPaths + ["/healthz"] {
                for method in ["GET", "HEAD"] {
                    let expected = router.respond(to: Request(method: method, path: path, host: host))
                    let got = try server.request(method, path, headers: [("Host", host)])
                    let where_ = "\(method) \(path) on \(host)"
                    #expect(got.status == expected.status, "\(where_)")
                    let sent = got.headers.filter { !["date", "content-length"].contains($0.name.lowercased()) }
                    #expect(sent.map(\.name) == expected.headers.map(\.name) && sent.map(\.value) == expected.headers.map(\.value), "\(where_): \(sent) vs \(expected.headers)")
                    #expect(got.header("Content-Length") == String(expected.body.count), "\(where_)")
                    #expect(got.body == (method == "HEAD" ? [] : expected.body), "\(where_)")
                    compared += 1
                }
            }
        }
        // Both sites' association files, static trees and the health path: not an empty loop.
        #expect(compared >= 2 * 2 * 8, "compared \(compared)")
    }
}
