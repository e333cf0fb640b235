import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 40, item 2: the HTTP listener beside HTTPS (certificate files and `server.httpPort`) sends to HTTPS every
/// host the config names — the top level's `callLinks.baseURL` host and `openInAppHost`, and the names of the
/// certificate file — and answers `404` to any other Host, before and after a reload.
@Suite("The HTTP listener redirects the hosts the config names", .serialized, .timeLimit(.minutes(3)))
struct PlainHTTPRedirectTests {
    /// The top level's call links on `base`, with the iPhone's open button on `open.acme.example`.
    static func config(_ https: TestConfig, base: String, site: SiteFixture) -> TestConfig {
        var config = https
        config.serverExtra["httpPort"] = 0
        config.extra["callLinks"] = ["paths": ["call"], "template": site.publicPath + "/call.html", "baseURL": base, "openInAppHost": "open.acme.example"]
        return config
    }

    @Test("the baseURL host, openInAppHost and the certificate's names get a 308 to HTTPS; other hosts 404; a reload's new baseURL host too")
    func namedHostsRedirect() async throws {
        let site = try SiteFixture()
        let https = try await site.servingHTTPS(extraArguments: ["-addext", "subjectAltName=DNS:cert.acme.example,DNS:*.wild.acme.example"])
        try site.writeConfig(Self.config(https, base: "https://links.acme.example", site: site))
        let server = try await LinkHostProcess.start(site)
        let plain = try await RawHTTPClient.open(port: try HardeningRoundFourServerTests.httpListenerPort(server.stderr))
        func answer(_ host: String) async throws -> (status: Int, location: String?) {
            let response = try await plain.request("GET", "/call/x?type=video", headers: [("Host", host)])
            return (response.status, response.header("Location"))
        }
        for host in ["links.acme.example", "LINKS.acme.example:80", "open.acme.example", "cert.acme.example", "a.wild.acme.example"] {
            let (status, location) = try await answer(host)
            let bare = host.lowercased().split(separator: ":")[0]
            #expect(status == 308 && location == "https://\(bare)/call/x?type=video", "\(host): \(status) \(location ?? "no Location")")
        }
        for host in ["evil.example", "b.a.wild.acme.example", "wild.acme.example", "acme.example"] {
            let (status, location) = try await answer(host)
            #expect(status == 404 && location == nil, "\(host) is named nowhere: \(status) \(location ?? "")")
        }

        try site.writeConfig(Self.config(https, base: "https://moved.acme.example", site: site))
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation 2)")
        #expect(try await answer("moved.acme.example") == (308, "https://moved.acme.example/call/x?type=video"), "after the reload: \(server.stderr)")
        #expect(try await answer("links.acme.example").status == 404, "the old baseURL host is named no more")
        #expect(try await answer("cert.acme.example").status == 308, "the certificate's names stay")
    }
}
