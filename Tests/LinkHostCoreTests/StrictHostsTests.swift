import Testing
@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON

/// `server.strictHosts` as `Router.decide` applies it, for the server and `match` alike.
@Suite("Strict hosts")
struct StrictHostsTests {
    private static func router(strict: Bool, acmeHosts: [String] = []) throws -> Router {
        var text = try Fixtures.validConfig(setting: "sites", to: #"[{"hosts": ["listed.example.com"]}]"#)
        text = try JSONWriter.string(Fixtures.replace(JSONParser.parse(text), path: ["server", "strictHosts"], with: .bool(strict)), style: .compact)
        var config = try Fixtures.config(text)
        let folder = try Fixtures.temporaryFolder(files: ["index.html": "<h1>home</h1>"])
        defer { removeItem(folder) }
        for index in config.sites.indices { config.sites[index].staticFiles.root = folder }
        // A default-site name as ACME would give it, without starting ACME.
        if !acmeHosts.isEmpty { config.server.acme = ACMESettings(); config.server.acme?.hosts = acmeHosts }
        return Router(snapshot: try Snapshot(config: config))
    }

    @Test("an unlisted host gets 404 no-store on every path but health and metrics; listed hosts are served")
    func refused() throws {
        let router = try Self.router(strict: true)
        for path in ["/", "/.well-known/apple-app-site-association", "/call/abc"] {
            for host: String? in ["unknown.example", "UNKNOWN.example:8443", nil] {
                let response = router.respond(to: Request(path: path, host: host))
                #expect(response.status == 404 && response.header("Cache-Control") == "no-store", "\(host ?? "no host") \(path)")
                #expect(response.body == router.snapshot.unknownHost.body)
            }
            #expect(router.respond(to: Request(path: path, host: "listed.example.com")).status == 200, "\(path)")
        }
        #expect(router.respond(to: Request(path: "/healthz", host: "unknown.example")).status == 200)
        #expect(router.respond(to: Request(method: "POST", path: "/", host: "unknown.example")).status == 404)
    }

    @Test("the top level still answers the names server.tls.acme.hosts gives it")
    func defaultSiteNames() throws {
        let router = try Self.router(strict: true, acmeHosts: ["links.example.com"])
        #expect(router.respond(to: Request(path: "/.well-known/apple-app-site-association", host: "Links.Example.com")).status == 200)
        #expect(router.respond(to: Request(path: "/.well-known/apple-app-site-association", host: "other.example.com")).status == 404)
    }

    @Test("off (the default): an unlisted host gets the default site")
    func lenient() throws {
        let router = try Self.router(strict: false)
        #expect(router.respond(to: Request(path: "/.well-known/apple-app-site-association", host: "unknown.example")).status == 200)
    }
}
